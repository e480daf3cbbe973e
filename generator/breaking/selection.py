"""FAMILY_SELECTION_CHANGED: run both sides' selection rules over a grid of contexts.

Selection rules are predicates over the provider id, the model id and a few context flags; no
finite set of contexts covers them all, so the grid is made of the values the rules themselves
name, taken from both sides: every provider of a provider set or a routing rule, every model id
of a model set, every substring a model predicate or ``model_raw_contains`` tests (all the
``all_contains`` strings of one predicate joined into one id, so that it can hold), every value
a ``field`` test compares with, plus "none" and an unknown value for each. The same
``predicates.select`` the generated package runs picks the family on each side. Contexts whose
family changed are grouped by (old family, new family), each group reported once with a count
and its first context as the example.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from ..runtime.predicates import SelectionData, select
from .compare import Side
from .findings import Collector, Finding

# Beyond this many combinations of field values, each field is varied alone (the others unset).
MAX_FLAG_COMBINATIONS = 64
_UNKNOWN = "zz-unknown"  # a provider or model id no rule names
_SELF_FIELDS = ("provider_id", "model_id")


def selection_changes(old: Side, new: Side) -> list[Finding]:
    out = Collector(())
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    pick_old, pick_new = _selector(old), _selector(new)
    for context in grid(old, new):
        before, after = pick_old(context), pick_new(context)
        if before != after:
            groups.setdefault((before, after), []).append(context)
    new_families = {f.name: f for f in new.catalog.families}
    old_families = {f.name: f for f in old.catalog.families}
    for (before, after), contexts in groups.items():
        family = new_families.get(before) or old_families[before]
        side = new if before in new_families else old
        where = side.at(family.source, ("selection", "rule"))
        example = ", ".join(f"{k}={v!r}" for k, v in contexts[0].items())
        message = (
            f"{len(contexts)} tested context(s) that selected family {before!r} now select {after!r} (e.g. {example})"
        )
        out.add("FAMILY_SELECTION_CHANGED", where, message, family=before)
    return out.findings()


def _selector(side: Side) -> Callable[[Mapping[str, Any]], str]:
    """The family a context selects on one side, by the same function the generated package runs."""
    project = side.catalog.project
    data = SelectionData(project.provider_sets, project.model_sets, project.model_predicates)
    rules = [(family.name, family.rule) for family in side.catalog.families]

    def pick(context: Mapping[str, Any]) -> str:
        return select(rules, context, data, project.fallback, project.precondition)

    return pick


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
