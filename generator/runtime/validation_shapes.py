"""The validator's checks of arrays and objects: items, contains, properties, dependencies.

Standard library only; ts_runtime/validation_shapes.ts builds the same checks. Like the makers of
validation_checks.py, each reads its keywords from a ``Scope`` and returns a ``Run`` or None.
Objects have a fast path for the common tool shape (properties, required, maybe closed).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .json_values import show, unique_key
from .validation_checks import all_of_runs
from .validation_scope import (
    Node,
    Problem,
    Run,
    Scope,
    matches,
    passes,
    under,
    unmatched,
)

# ---- arrays --------------------------------------------------------------------------------


def arrays(scope: Scope) -> Run | None:
    schema = scope.schema
    items = schema.get("items")
    prefix: list[Node] = []
    rest: Node | None = None
    if "prefixItems" in schema and scope.dialect == "2020-12":
        prefix = scope.subs("prefixItems") or []
    if isinstance(items, list):  # draft 7's array form (also read in 2020-12)
        prefix = scope.subs("items") or [] if items else []
        if "additionalItems" in schema:
            rest = scope.sub("additionalItems")
    elif "items" in schema:
        rest = scope.sub("items")
    scope.node.parts.update(prefix=len(prefix), items=rest is not None)
    low, high = scope.count("minItems"), scope.count("maxItems")
    unique = schema.get("uniqueItems", False)
    if not isinstance(unique, bool):
        scope.refuse("uniqueItems", "must be true or false")
    contains = _contains(scope)
    closed = rest is not None and rest.place.schema is False
    if closed:
        rest = None
    runs = tuple(n.run for n in prefix)
    rest_run = rest.run if rest is not None else None
    if not (runs or rest_run or closed or unique is True or contains) and (
        low is None and high is None
    ):
        return None
    size = len(runs)

    def run(value: Any, problems: list[Problem], coerce: bool) -> Any:
        if type(value) is not list:
            if not isinstance(value, tuple):
                return value
            value = list(value)
        count = len(value)
        if low is not None and count < low:
            problems.append([f"must have at least {low} items"])
        if high is not None and count > high:
            problems.append([f"must have at most {high} items"])
        if closed and count > size:
            problems.append([f"must have at most {size} items"])
        if unique is True and len({unique_key(v) for v in value}) < count:
            problems.append(["items must be unique"])
        out = value
        for index, item in enumerate(value):
            check = runs[index] if index < size else rest_run
            if check is None:
                if index >= size:
                    break
                continue
            start = len(problems)
            new = check(item, problems, False)
            if len(problems) > start:
                under(problems, start, index)
            if new is not item:
                if out is value:
                    out = list(value)
                out[index] = new
        if contains is not None:
            contains(value, problems)
        return out

    return run


def _contains(scope: Scope) -> Callable[[list[Any], list[Problem]], None] | None:
    schema = scope.schema
    modern = scope.dialect in ("2020-12", "2019-09")
    low = scope.count("minContains") if modern else None
    high = scope.count("maxContains") if modern else None
    if "contains" not in schema:
        return None
    node = scope.sub("contains")
    if node is None:
        return None
    scope.node.parts["contains"] = node
    least = 1 if low is None else low
    matching = f"matching {show(schema['contains'])}"
    check = node.run

    def run(value: list[Any], problems: list[Problem]) -> None:
        found = sum(1 for item in value if passes(check, item))
        if found < least:
            problems.append([f"must contain at least {least} items {matching}"])
        if high is not None and found > high:
            problems.append(
                [f"must contain at most {high} items {matching} (has {found})"]
            )

    return run


# ---- objects -------------------------------------------------------------------------------


def objects(scope: Scope) -> Run | None:
    schema = scope.schema
    props: dict[str, Run] = {}
    raw = schema.get("properties")
    if raw is not None or "properties" in schema:
        if isinstance(raw, dict):
            for key in raw:
                sub = scope.sub("properties", key)
                if sub is not None:
                    props[key] = sub.run
        else:
            scope.refuse("properties", "must map property names to schemas")
    required = (
        scope.names("required", schema["required"]) or ()
        if "required" in schema
        else ()
    )
    patterns: list[tuple[str, Callable[[str], bool], Run]] = []
    raw_patterns = schema.get("patternProperties")
    if "patternProperties" in schema and not isinstance(raw_patterns, dict):
        scope.refuse("patternProperties", "must map patterns to schemas")
    for source in raw_patterns if isinstance(raw_patterns, dict) else ():
        search = scope.pattern("patternProperties", source)
        sub = scope.sub("patternProperties", source)
        if search is not None and sub is not None:
            patterns.append((source, search, sub.run))
    extra = (
        scope.sub("additionalProperties") if "additionalProperties" in schema else None
    )
    closed = extra is not None and extra.place.schema is False
    extra_run = None if extra is None or closed else extra.run
    names = scope.sub("propertyNames") if "propertyNames" in schema else None
    low, high = scope.count("minProperties"), scope.count("maxProperties")
    needs, depends = _dependencies(scope)
    scope.node.parts.update(
        properties=frozenset(props), patterns=[p[1] for p in patterns]
    )
    scope.node.parts["additional"] = extra is not None
    general = bool(patterns or extra_run or names)
    if not (props or required or closed or general or needs or depends) and (
        low is None and high is None
    ):
        return None
    names_run = names.run if names is not None else None
    counted = low is not None or high is not None

    def more(key: str, item: Any, matched: bool, problems: list[Problem]) -> Any:
        """patternProperties, additionalProperties and propertyNames for one property."""
        for source, search, pattern_run in patterns:
            hit = matches(search, key)
            if hit is None:  # reported, and not also an unknown parameter
                problems.append([f"the name {unmatched(source)}"])
                matched = True
            elif hit:
                item = pattern_run(item, problems, False)
                matched = True
        if not matched:
            if closed:
                problems.append(["unknown parameter"])
            elif extra_run is not None:
                item = extra_run(item, problems, False)
        if names_run is not None:
            found: list[Problem] = []
            names_run(key, found, False)
            for problem in found:
                problems.append([f"the name {show(key)} is not allowed: {problem[0]}"])
        return item

    def run(value: Any, problems: list[Problem], coerce: bool) -> Any:
        if type(value) is not dict:
            if not isinstance(value, Mapping):
                return value
            value = dict(value)
        for key in required:
            if key not in value:
                problems.append(["required, but missing", key])
        if counted:
            size = len(value)
            if low is not None and size < low:
                problems.append([f"must have at least {low} properties"])
            if high is not None and size > high:
                problems.append([f"must have at most {high} properties"])
        out = value
        for key, item in value.items():
            sub = props.get(key)
            new = item
            start = len(problems)
            if sub is not None:
                new = sub(item, problems, coerce)
            if general:
                new = more(key, new, sub is not None, problems)
            elif sub is None and closed:
                problems.append(["unknown parameter"])
            if len(problems) > start:
                under(problems, start, key)
            if new is not item:
                if out is value:
                    out = dict(value)
                out[key] = new
        for key, wanted in needs.items() if needs else ():
            if key in value:
                for name in wanted:
                    if name not in value:
                        problems.append(
                            [f"required when {key} is present, but missing", name]
                        )
        for key, depend in depends.items() if depends else ():
            if key in value:
                depend(value, problems, False)
        return out

    if general or counted or needs or depends:
        return run

    def run_plain(value: Any, problems: list[Problem], coerce: bool) -> Any:
        """``run`` for the common tool shape: properties, required, maybe closed."""
        if type(value) is not dict:
            return run(value, problems, coerce)
        for key in required:
            if key not in value:
                problems.append(["required, but missing", key])
        out = value
        start = len(problems)
        for key, item in value.items():
            sub = props.get(key)
            if sub is None:
                if closed:
                    problems.append(["unknown parameter", key])
                    start += 1
                continue
            new = sub(item, problems, coerce)
            if problems and len(problems) != start:  # no len() while all is well
                under(problems, start, key)
                start = len(problems)
            if new is not item:
                if out is value:
                    out = dict(value)
                out[key] = new
        return out

    return run_plain


def _dependencies(
    scope: Scope,
) -> tuple[dict[str, tuple[str, ...]], dict[str, Run]]:
    """dependentRequired, dependentSchemas and draft 7's dependencies, by property name."""
    schema = scope.schema
    needs: dict[str, tuple[str, ...]] = {}
    depends: dict[str, Run] = {}
    parts: dict[str, Node] = {}
    for key in ("dependentRequired", "dependentSchemas", "dependencies"):
        if key not in schema:
            continue
        raw = schema[key]
        if not isinstance(raw, dict):
            scope.refuse(key, "must map property names to a list of names or a schema")
            continue
        for name, value in raw.items():
            if key != "dependentSchemas" and isinstance(value, list):
                found = scope.names(key, value)
                if found:
                    needs[name] = needs.get(name, ()) + found
            elif key != "dependentRequired":
                sub = scope.sub(key, name)
                if sub is not None:
                    parts[name] = sub
                    previous = depends.get(name)
                    depends[name] = (
                        sub.run
                        if previous is None
                        else all_of_runs(previous, sub.run)  # type: ignore[assignment]
                    )
            else:
                scope.refuse(key, "must map property names to lists of names")
    scope.node.parts["dependentSchemas"] = parts
    return needs, depends
