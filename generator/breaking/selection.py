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
from collections.abc import Iterator, Mapping
from typing import Any

from ..lower.core import selection_data
from ..runtime.catalog import Catalog as RuntimeCatalog
from .findings import Collector, Finding
from .side import Side

# Beyond this many combinations of field values, each field is varied alone (the others unset).
MAX_FLAG_COMBINATIONS = 64
_UNKNOWN = "zz-unknown"  # a provider or model id no rule names
_SELF_FIELDS = ("provider_id", "model_id")


def selection_changes(old: Side, new: Side) -> list[Finding]:
    """FAMILY_SELECTION_CHANGED and ROUTING_CHANGED findings over the grid of contexts."""
    out = Collector()
    families: dict[tuple[str, str], list[dict[str, Any]]] = {}
    formats: dict[tuple[str, str], list[dict[str, Any]]] = {}
    before_side, after_side = _runtime(old), _runtime(new)
    routed: set[tuple[Any, Any]] = set()
    for context in grid(old, new):
        before, after = before_side.select_family(context), after_side.select_family(context)
        if before != after:
            families.setdefault((before, after), []).append(context)
        pair = (context["provider_id"], context["model_id"])
        if pair not in routed:  # routing reads the provider and the model only
            routed.add(pair)
            before, after = before_side.route(*pair), after_side.route(*pair)
            if before != after:
                formats.setdefault((before, after), []).append({"provider_id": pair[0], "model_id": pair[1]})
    new_families = {f.name: f for f in new.catalog.families}
    old_families = {f.name: f for f in old.catalog.families}
    for (before, after), contexts in families.items():
        family = new_families.get(before) or old_families[before]
        side = new if before in new_families else old
        where = side.at(family.source, ("selection", "rule"))
        message = (
            f"{_tested(contexts)} that selected family {before!r} now select {after!r} (e.g. {_show(contexts[0])})"
        )
        out.add("FAMILY_SELECTION_CHANGED", where, message, family=before)
    where = new.at(new.catalog.project.source, ("routing",))
    for (before, after), contexts in formats.items():
        message = f"{_tested(contexts)} that sent format {before!r} now send {after!r} (e.g. {_show(contexts[0])})"
        out.add("ROUTING_CHANGED", where, message, formats=(before, after))
    return out.findings()


def _tested(contexts: list[dict[str, Any]]) -> str:
    return f"{len(contexts)} tested context(s)"


def _show(context: Mapping[str, Any]) -> str:
    """A context in messages, its values as JSON: provider_id="ollama", model_id=null."""
    return ", ".join(f"{key}={json.dumps(value, ensure_ascii=False)}" for key, value in context.items())


def _runtime(side: Side) -> RuntimeCatalog:
    """The generated package's catalog over this side's selection and routing data (the rest left empty)."""
    empty: dict[str, Any] = {}
    return RuntimeCatalog(
        **selection_data(side.catalog),
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
