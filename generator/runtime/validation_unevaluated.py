"""``unevaluatedProperties`` and ``unevaluatedItems``: the annotations of neighbouring keywords.

Standard library only; ts_runtime/validation_unevaluated.ts is the same. Only a schema object
that has one of the two keywords pays: its run asks which properties (or items) the keywords
beside it, and the subschemas of its applicators that passed, evaluated (``Node.parts``, filled
in while compiling), and checks the rest.
"""

from __future__ import annotations

from typing import Any

from .validation_scope import Node, Problem, Run, Scope, matches, passes, under


def unevaluated(scope: Scope) -> Run | None:
    """unevaluatedProperties and unevaluatedItems of a schema object, None without them."""
    props = (
        scope.sub("unevaluatedProperties")
        if "unevaluatedProperties" in scope.schema
        else None
    )
    items = (
        scope.sub("unevaluatedItems") if "unevaluatedItems" in scope.schema else None
    )
    if props is None and items is None:
        return None
    node = scope.node
    prop_run = props.run if props is not None else None
    item_run = items.run if items is not None else None
    props_closed = props is not None and props.place.schema is False

    def run(value: Any, problems: list[Problem], coerce: bool) -> Any:
        if prop_run is not None and isinstance(value, dict):
            seen = evaluated_properties(node, value, True)
            for key, item in value.items() if seen is not True else ():
                if key in seen:
                    continue
                if props_closed:
                    problems.append(["unknown parameter", key])
                else:
                    start = len(problems)
                    prop_run(item, problems, False)
                    under(problems, start, key)
        if item_run is not None and isinstance(value, (list, tuple)):
            done = evaluated_items(node, value, True)
            for index, item in enumerate(value) if done is not True else ():
                if index not in done:
                    start = len(problems)
                    item_run(item, problems, False)
                    under(problems, start, index)
        return value

    node.parts["unevaluatedProperties"] = props is not None
    node.parts["unevaluatedItems"] = items is not None
    return run


def _applied(node: Node, value: Any) -> list[Node]:
    """The subschemas of ``node`` that were applied to ``value`` and passed."""
    parts = node.parts
    found: list[Node] = [n for n in parts.get("refs", ()) if passes(n.run, value)]
    pick = parts.get("dynamic")
    if pick is not None:
        chosen = pick()
        if passes(chosen.run, value):
            found.append(chosen)
    for key in ("allOf", "anyOf", "oneOf"):
        found.extend(n for n in parts.get(key, ()) if passes(n.run, value))
    condition = parts.get("if")
    if condition is not None:
        if passes(condition.run, value):
            found.append(condition)
            branch = parts.get("then")
        else:
            branch = parts.get("else")
        if branch is not None and passes(branch.run, value):
            found.append(branch)
    if isinstance(value, dict):
        for key, sub in parts.get("dependentSchemas", {}).items():
            if key in value and passes(sub.run, value):
                found.append(sub)
    return found


def evaluated_properties(node: Node, value: dict[str, Any], own: bool = False) -> Any:
    """The property names of ``value`` that ``node`` evaluated (True: all of them)."""
    parts = node.parts
    if parts.get("additional") or (parts.get("unevaluatedProperties") and not own):
        return True
    seen: set[str] = set()
    names = parts.get("properties")
    if names:
        seen.update(k for k in value if k in names)
    for search in parts.get("patterns", ()):
        # a name too long to match is reported where it is matched: not again here
        seen.update(k for k in value if matches(search, k) is not False)
    for sub in _applied(node, value):
        more = evaluated_properties(sub, value)
        if more is True:
            return True
        seen |= more
    return seen


def evaluated_items(node: Node, value: Any, own: bool = False) -> Any:
    """The indexes of ``value`` that ``node`` evaluated (True: all of them)."""
    parts = node.parts
    if parts.get("items") or (parts.get("unevaluatedItems") and not own):
        return True
    seen: set[int] = set(range(min(parts.get("prefix", 0), len(value))))
    contains = parts.get("contains")
    if contains is not None:
        seen.update(i for i, item in enumerate(value) if passes(contains.run, item))
    for sub in _applied(node, value):
        more = evaluated_items(sub, value)
        if more is True:
            return True
        seen |= more
    return seen
