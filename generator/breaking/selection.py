"""FAMILY_SELECTION_CHANGED and ROUTING_CHANGED: run both sides' rules over a grid of contexts.

Selection rules are predicates over the provider id, the model id and a few context flags; no
finite set of contexts covers them all, so the grid is made of the values the rules themselves
name, taken from both sides: every provider of a provider set or a routing rule, every model id
of a model set, every substring a model predicate or ``model_raw_contains`` tests (all the
``all_contains`` strings of one predicate joined into one id, so that it can hold), every value
a ``field`` test compares with, plus "none" and an unknown value for each. The generated
package's own ``Catalog`` (generator/runtime/catalog.py), over each side's catalog data, picks
the family and routes the provider. Contexts whose family (or format) changed are grouped by
(old, new), each group reported once with a count and its first context as the example.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from ..diagnostics import Location
from ..lower.core import selection_data
from ..runtime.catalog import Catalog as RuntimeCatalog
from ..runtime.predicates import MatcherError, SelectionData, normalize
from .findings import Collector, Finding
from .side import Side

# Beyond this many combinations of field values, each field is varied alone (the others unset).
MAX_FLAG_COMBINATIONS = 64
_UNKNOWN = "zz-unknown"  # a provider or model id no rule names
_SELF_FIELDS = ("provider_id", "model_id")


def selection_changes(old: Side, new: Side) -> list[Finding]:
    """FAMILY_SELECTION_CHANGED and ROUTING_CHANGED findings over the grid of contexts."""
    out = Collector()
    before_data, after_data = selection_data(old.catalog), selection_data(new.catalog)
    if _same_json(before_data, after_data):
        return []  # the same rules, orders, sets and routes pick the same everywhere: no grid to run
    unchanged = _unchanged_ids(before_data, after_data)
    families: dict[tuple[str, str], list[dict[str, Any]]] = {}
    formats: dict[tuple[str, str], list[dict[str, Any]]] = {}
    before_side, after_side = _runtime(before_data), _runtime(after_data)
    routed: set[tuple[Any, Any]] = set()
    for context in grid(old, new):
        if unchanged(context):
            continue  # every test this context meets answers as before: so do selection and routing
        before, after = before_side.select_family(context), after_side.select_family(context)
        if before != after:
            families.setdefault((before, after), []).append(context)
        pair = (context["provider_id"], context["model_id"])
        if pair not in routed:  # routing reads the provider and the model only
            routed.add(pair)
            before, after = before_side.route(*pair), after_side.route(*pair)
            if before != after:
                formats.setdefault((before, after), []).append({"provider_id": pair[0], "model_id": pair[1]})
    for (before, after), contexts in families.items():
        message = (
            f"{_tested(contexts)} that selected family {before!r} now select {after!r} (e.g. {_show(contexts[0])})"
        )
        out.add("FAMILY_SELECTION_CHANGED", _selection_edit(old, new, before, after), message, family=before)
    where = _routing_edit(old, new)
    for (before, after), contexts in formats.items():
        message = f"{_tested(contexts)} that sent format {before!r} now send {after!r} (e.g. {_show(contexts[0])})"
        out.add("ROUTING_CHANGED", where, message, formats=(before, after))
    return out.findings()


def _unchanged_ids(before: Mapping[str, Any], after: Mapping[str, Any]) -> Callable[[Mapping[str, Any]], bool]:
    """Which contexts cannot have changed, when only named sets or model predicates did.

    Rules, orders, the precondition, the fallback and the routes being equal, a context's answer
    can change only through a set or a model predicate it meets: a model id whose membership of
    every model set and answer to every model predicate is the same on both sides (and likewise a
    provider id and the provider sets) gets the same family and format. Anything else changed:
    every context is run.
    """
    keys = ("rules", "precondition", "fallback", "routing")
    if any(not _same_json(before[key], after[key]) for key in keys):
        return lambda context: False
    old_sets, new_sets = before["selection"], after["selection"]
    old_data = SelectionData(old_sets["provider_sets"], old_sets["model_sets"], old_sets["model_predicates"])
    new_data = SelectionData(new_sets["provider_sets"], new_sets["model_sets"], new_sets["model_predicates"])

    def model_answers(data: SelectionData, model: str) -> tuple[Any, ...]:
        mid = normalize(model)
        names = sorted({*old_data.model_sets, *new_data.model_sets})
        answers: list[Any] = [data.model_sets[n].__contains__(mid) if n in data.model_sets else None for n in names]
        for name in sorted({*old_data.model_predicates, *new_data.model_predicates}):
            try:
                answers.append(data.model_matches(name, mid) if name in data.model_predicates else None)
            except (MatcherError, KeyError, re.error):
                answers.append("error")
        return tuple(answers)

    def provider_answers(data: SelectionData, provider: str) -> tuple[Any, ...]:
        names = sorted({*old_data.provider_sets, *new_data.provider_sets})
        pid = normalize(provider)
        return tuple(pid in data.provider_sets[n] if n in data.provider_sets else None for n in names)

    known: dict[tuple[str, Any], bool] = {}

    def same(kind: str, value: Any) -> bool:
        if not isinstance(value, str):
            return True  # no id: the set and predicate tests raise alike on both sides
        key = (kind, value)
        if key not in known:
            answers = model_answers if kind == "model" else provider_answers
            known[key] = answers(old_data, value) == answers(new_data, value)
        return known[key]

    return lambda context: same("model", context.get("model_id")) and same("provider", context.get("provider_id"))


def _selection_edit(old: Side, new: Side, before: str, after: str) -> Location:
    """Where the edit that moved contexts from family ``before`` to ``after`` is: the rule (or
    order) of one of the two families when it changed, else the first changed key of toolgen.yaml's
    selection block, else the rule of ``before``."""
    old_families = {f.name: f for f in old.catalog.families}
    new_families = {f.name: f for f in new.catalog.families}
    for name in (after, before):
        was, now = old_families.get(name), new_families.get(name)
        if was is not None and now is not None:
            for key, a, b in (("rule", was.rule, now.rule), ("order", was.order, now.order)):
                if not _same_json(a, b):
                    return new.at(now.source, ("selection", key))
    changed = _project_edit(old, new, _SELECTION_KEYS)
    if changed is not None:
        return changed
    family = new_families.get(before) or old_families[before]
    return (new if before in new_families else old).at(family.source, ("selection", "rule"))


def _routing_edit(old: Side, new: Side) -> Location:
    """Where the routing edit is: the default, the first rule that differs, else a provider set."""
    before, after = old.catalog.project, new.catalog.project
    if before.routing_default != after.routing_default:
        return new.at(after.source, ("routing", "default"))
    for i, (was, now) in enumerate(itertools.zip_longest(before.routing_rules, after.routing_rules)):
        if was != now:
            return new.at(after.source, ("routing", "rules", min(i, max(len(after.routing_rules) - 1, 0))))
    changed = _project_edit(old, new, ("provider_sets", "model_sets", "model_predicates"))
    return changed if changed is not None else new.at(after.source, ("routing",))


_SELECTION_KEYS = ("precondition", "fallback", "provider_sets", "model_sets", "model_predicates")


def _project_edit(old: Side, new: Side, keys: tuple[str, ...]) -> Location | None:
    """The first of ``keys`` of toolgen.yaml's selection block (or one of its named entries)
    whose value changed, in the new file; None when none did."""
    before, after = old.catalog.project, new.catalog.project
    for key in keys:
        a, b = getattr(before, key), getattr(after, key)
        if isinstance(a, Mapping) and isinstance(b, Mapping):
            for name in [*b, *(n for n in a if n not in b)]:
                if not _same_json(a.get(name), b.get(name)):
                    return new.at(after.source, ("selection", key, name))
        elif not _same_json(a, b):
            return new.at(after.source, ("selection", key))
    return None


def _same_json(a: Any, b: Any) -> bool:
    return json.dumps(a, sort_keys=True, default=repr) == json.dumps(b, sort_keys=True, default=repr)


def _tested(contexts: list[dict[str, Any]]) -> str:
    return f"{len(contexts)} tested context(s)"


def _show(context: Mapping[str, Any]) -> str:
    """A context in messages, its values as JSON: provider_id="ollama", model_id=null."""
    return ", ".join(f"{key}={json.dumps(value, ensure_ascii=False)}" for key, value in context.items())


def _runtime(data: Mapping[str, Any]) -> RuntimeCatalog:
    """The generated package's catalog over one side's selection and routing data (``selection_data``;
    the rest left empty)."""
    empty: dict[str, Any] = {}
    return RuntimeCatalog(
        **data,
        families=empty,
        specs=empty,
        family_specs=empty,
        placeholders=empty,
        mcp=empty,
        subagents=empty,
        as_context=lambda context: context,
    )


def grid(old: Side, new: Side) -> Iterator[dict[str, Any]]:
    """The contexts to test, in a fixed order (see the module docstring)."""
    providers: dict[Any, None] = {None: None, _UNKNOWN: None}
    models: dict[Any, None] = {None: None, _UNKNOWN: None}
    fields: dict[str, list[Any]] = {}
    for side in (old, new):
        project = side.catalog.project
        for members in project.provider_sets.values():
            providers.update(dict.fromkeys(members))
        for rule in project.routing_rules:
            providers.update(dict.fromkeys(rule.providers))
        for members in project.model_sets.values():
            models.update(dict.fromkeys(members))
        for predicate in project.model_predicates.values():
            models.update(dict.fromkeys(_model_strings(predicate)))
        predicates = [f.rule for f in side.catalog.families] + [project.precondition]
        for node in _walk(predicates):
            if "model_raw_contains" in node:
                models[node["model_raw_contains"]] = None
            if "field" in node and node["field"] not in _SELF_FIELDS:
                values = fields.setdefault(node["field"], [None])
                values += [v for v in _field_values(node) if not any(_same(v, known) for known in values)]
    names = sorted(fields)
    choices = [fields[name] for name in names]
    combos: list[tuple[Any, ...]]
    total = 1
    for values in choices:
        total *= len(values)
    if total <= MAX_FLAG_COMBINATIONS:
        combos = list(itertools.product(*choices))
    else:
        combos = [tuple(None for _ in names)]
        for i, values in enumerate(choices):
            combos += [tuple(v if j == i else None for j in range(len(names))) for v in values[1:]]
    for provider, model, combo in itertools.product(providers, models, combos):
        context = {"provider_id": provider, "model_id": model}
        context.update((name, value) for name, value in zip(names, combo, strict=True) if value is not None)
        yield context


def _same(a: Any, b: Any) -> bool:
    """Equal and of one type (True is not 1 here: the rules tell them apart)."""
    return type(a) is type(b) and a == b


def _walk(predicates: list[Any]) -> Iterator[Mapping[str, Any]]:
    """Every mapping inside the predicates (not recursive: rules may nest deep)."""
    pending = list(predicates)
    while pending:
        node = pending.pop()
        if isinstance(node, Mapping):
            yield node
            pending.extend(node.values())
        elif isinstance(node, (list, tuple)):
            pending.extend(node)


def _model_strings(predicate: Mapping[str, Any]) -> Iterator[str]:
    for node in _walk([predicate]):
        yield from node.get("any_contains", ())
        yield from node.get("equals_any", ())
        if node.get("all_contains"):
            yield "-".join(node["all_contains"])


def _field_values(test: Mapping[str, Any]) -> Iterator[Any]:
    if "truthy" in test:
        yield True
        yield False
    if "equals" in test:
        yield test["equals"]
    yield from test.get("in", ())
    if "contains" in test:
        yield test["contains"]
    if "ends_with" in test:
        yield "x" + test["ends_with"]
