"""Build a request's native ``tools`` list from a provider module's precomputed entries.

Standard library only. Every generated provider module delegates to ``build_tools`` with the
package's Catalog and its own tables, so the five formats share one implementation.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from operator import attrgetter
from typing import Any

from .cache import fingerprint
from .catalog import Catalog
from .copies import copier
from .formats import FORMATS
from .native import (
    NativeToolsUnavailable,
    adapt,
    materialize,
    runtime_entry,
)
from .predicates import family_name, field_value, truthy
from .variants import skip_record

__all__ = ["build_tools"]

CACHE_LIMIT = 256


# Results are kept in the catalog's ``tool_lists`` LRU, keyed only on what the family's list
# depends on (its ``context_fields`` and the outcomes of its ``context_tests``, computed at
# generation time), so a context that differs in anything else is a hit. A ``_Plan`` per
# (format, family) holds a copier per entry; a miss copies the entries whose requirements
# hold and adapts only those META marks (gates, conditional text, placeholder paths). Every
# call returns fresh dicts and lists (callers may mutate them): copies come from marshal at
# first and from compiled functions once a value is reused (``_Copy``).


class _Plan:
    """A family's static entries for one format: (requirement, copier, meta) per variant."""

    __slots__ = (
        "catalog",
        "entries",
        "fields",
        "meta",
        "outcomes",
        "read",
        "steps",
        "tested",
        "tests",
    )

    def __init__(
        self,
        catalog: Catalog,
        family: str,
        entries: Mapping[str, Mapping[str, Any] | None],
        meta: Mapping[str, Mapping[str, Any] | None],
    ) -> None:
        # Held so that their ids, part of the plan's key, stay theirs while the plan lives.
        self.entries = entries
        self.meta = meta
        steps = []
        for variant in catalog.variants[family]:
            key = variant["spec"] + "/" + variant["id"]
            entry = entries[key]
            if entry is not None:
                steps.append((variant["requires"], _Copy(entry), meta[key]))
        self.steps: tuple[tuple[Any, Callable[[], Any], Any], ...] = tuple(steps)
        data = catalog.families[family]
        fields = data.get("context_fields")
        self.fields: tuple[str, ...] | None = None if fields is None else tuple(fields)
        self.tests = tuple(data.get("context_tests", ()))
        self.tested = tuple(sorted({test["field"] for test in self.tests}))
        # One C call reads them all from a Context (a tuple even for one field).
        self.read = attrgetter(*(fields or ()), *self.tested, "__class__")
        # Outcomes of the tests per value of the tested fields (lists repeat across calls).
        self.outcomes: dict[Any, tuple[bool, ...]] = {}
        self.catalog = catalog

    def key_values(self, ctx: Any) -> Any:
        """The values (and their types: True == 1) of the fields the family depends on, and
        the outcomes of its tests of list fields (keyed on those, not on the lists)."""
        if self.fields is None:
            return ctx
        try:
            if isinstance(ctx, Mapping):
                raise AttributeError
            got = self.read(ctx)[:-1]
        except (
            AttributeError
        ):  # a mapping, or a Context class without some of the fields
            got = tuple([field_value(ctx, f) for f in (*self.fields, *self.tested)])
        values = got[: len(self.fields)]
        if not self.tests:
            return values, tuple(map(type, values))
        tested = got[len(self.fields) :]
        outcomes = _remember(self.outcomes, tested)
        if outcomes is None:
            outcomes = tuple([self.catalog.holds(test, ctx) for test in self.tests])
            _remember(self.outcomes, tested, outcomes)
        return values, tuple(map(type, values)), outcomes


def _remember(
    memo: dict[Any, Any], key: Any, value: Any = None, limit: int = CACHE_LIMIT
) -> Any:
    """``memo[key]`` (None if absent or unhashable); with ``value``, store it first.

    For small tables that repeat (plans, test outcomes, converted run-time tools): cheaper
    than an LRU, and emptied when they pass ``limit`` entries.
    """
    try:
        if value is not None:
            if len(memo) >= limit:
                memo.clear()
            memo[key] = value
        return memo.get(key)
    except TypeError:
        return value


class _Copy:
    """Fresh copies of one value: from marshal at first, compiled (faster) on its second reuse.

    Compiling costs about as much as a hundred marshal copies, so only values that keep being
    asked for (a family's entries, a context's list) pay it.
    """

    __slots__ = ("load", "make", "uses")

    def __init__(self, value: Any) -> None:
        self.load = copier(value)
        self.make: Callable[[], Any] | None = None
        self.uses = 0

    def __call__(self) -> Any:
        if self.make is not None:
            return self.make()
        value = self.load()
        self.uses += 1
        if self.uses >= 2:
            self.make = _builder(value)
        return value


class _Cached:
    """A cached tool list: one copier per tool; on its second reuse each is swapped for its
    compiled function (compiling only the tools adapted to this context: the family's other
    entries are compiled once per process, in their plan)."""

    __slots__ = ("parts", "uses")

    def __init__(self, parts: list[Callable[[], Any]]) -> None:
        self.parts = parts
        self.uses = 0

    def __call__(self) -> list[dict[str, Any]]:
        value = [part() for part in self.parts]
        if self.uses < 2:
            self.uses += 1
            if self.uses == 2:
                self.parts = [
                    getattr(part, "make", None) or part for part in self.parts
                ]
        return value


def _builder(value: Any) -> Callable[[], Any]:
    """A function returning a fresh copy of JSON-like ``value`` (containers new, scalars shared).

    The compiled expression holds only container syntax and indexes into a tuple of the
    scalars, so no text from specs or servers ever becomes source code. Falls back to a
    plain copier for shapes the compiler cannot take (extreme nesting).
    """
    scalars: list[Any] = []

    def source(item: Any) -> str:
        kind = type(item)
        if kind is dict:
            return (
                "{"
                + ", ".join(f"{source(k)}: {source(v)}" for k, v in item.items())
                + "}"
            )
        if kind is list or kind is tuple:
            return "[" + ", ".join(source(v) for v in item) + "]"
        if item is None or item is True or item is False:
            return repr(item)
        scalars.append(item)
        return f"_s[{len(scalars) - 1}]"

    try:
        code = compile("lambda _s=_s: " + source(value), "<tool list>", "eval")
        made: Callable[[], Any] = eval(code, {"__builtins__": {}, "_s": tuple(scalars)})
        return made
    except (RecursionError, SyntaxError, MemoryError, ValueError):
        return copier(value)


def build_tools(
    catalog: Catalog,
    dialect: str,
    entries: Mapping[str, Mapping[str, Any] | None],
    meta: Mapping[str, Mapping[str, Any] | None],
    family: Any,
    context: Any = None,
    *,
    extra_variants: Sequence[Mapping[str, Any]] = (),
    cache_control: bool = False,
    skipped: list[dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """The ``tools`` list of a request for ``family`` in ``context``, in ``dialect``.

    Static tools come from ``entries`` (converted at generation time) adapted to the context;
    run-time tools (``extra_variants``: subagents, MCP) are converted now with the same converter.
    A run-time tool the dialect cannot take is left out, never failing the list; when a
    ``skipped`` list is given, it gets one ``{server, uid, tool, name, reason}`` per such tool.
    The family's ``context_fields`` and ``context_tests`` (catalog data) say what its list
    depends on: they are the cache key; a catalog without them keys on the whole context.
    Raises NativeToolsUnavailable when the family does not use native tools or the context has
    native tool calls off: the caller should then use the text-path prompt.
    """
    if cache_control and not FORMATS[dialect].cache_control:
        raise ValueError("cache_control is an Anthropic option")
    name = family_name(family)
    ctx = catalog.as_context(context)
    if not catalog.families[name]["use_native_tools"]:
        raise NativeToolsUnavailable(
            f"family {name!r} does not use native tool calling"
        )
    # A project whose context has no such switch leaves the decision to the family label.
    if not truthy(getattr(ctx, "enable_native_tool_calls", True)):
        raise NativeToolsUnavailable(
            "native tool calls are off in this context (enable_native_tool_calls)"
        )
    if any(v.get("input_schema") is None for v in extra_variants):
        # Subagent tools replace the static use_subagents: the list is made whole here.
        result = _build(
            catalog, dialect, entries, meta, name, ctx, extra_variants, skipped
        )
        return _mark_last(result, cache_control)
    if extra_variants:
        # MCP tools come after the static ones, which are what they are without them: the
        # static part comes from the cache, and only the request's own tools are converted.
        result = _static(catalog, dialect, entries, meta, name, ctx, False)
        result += _runtime_entries(catalog, dialect, ctx, extra_variants, skipped)
        return _mark_last(result, cache_control)
    return _static(catalog, dialect, entries, meta, name, ctx, cache_control)


def _static(
    catalog: Catalog,
    dialect: str,
    entries: Mapping[str, Mapping[str, Any] | None],
    meta: Mapping[str, Mapping[str, Any] | None],
    name: str,
    ctx: Any,
    cache_control: bool,
) -> list[dict[str, Any]]:
    """The family's static tools in ``ctx``, from the cache when it has them (see above)."""
    plan_key = (dialect, name, id(entries), id(meta))
    plan = _remember(catalog.plans, plan_key)
    if plan is None or plan.entries is not entries or plan.meta is not meta:
        plan = _remember(catalog.plans, plan_key, _Plan(catalog, name, entries, meta))
    key = (plan, cache_control, plan.key_values(ctx))
    cached = catalog.tool_lists.get(key)
    if cached is not None:
        return cached()
    result, copiers = _materialize_plan(catalog, dialect, plan, ctx)
    if cache_control and result:
        _mark_last(result, cache_control)
        copiers[-1] = _Copy(result[-1])
    catalog.tool_lists.put(key, _Cached(copiers))
    return result


def _mark_last(
    result: list[dict[str, Any]], cache_control: bool
) -> list[dict[str, Any]]:
    """``result`` with its last tool marked as a prompt-cache breakpoint if asked."""
    if cache_control and result:
        result[-1]["cache_control"] = {"type": "ephemeral"}
    return result


def _materialize_plan(
    catalog: Catalog, dialect: str, plan: _Plan, ctx: Any
) -> tuple[list[dict[str, Any]], list[Callable[[], Any]]]:
    """The static tools of ``plan`` in ``ctx``, and a copier for each of them.

    Entries that do not depend on the context are copies of the plan's, and keep its copier;
    only those META marks are adapted (and frozen for the cache). Requirements and
    placeholder values repeat across a family's tools, so each is worked out once per call.
    """
    checked: dict[int, bool] = {}
    filled: dict[str, str] = {}

    def requirement(predicate: Any) -> bool:
        known = checked.get(id(predicate))
        if known is None:
            known = checked[id(predicate)] = catalog.holds(predicate, ctx)
        return known

    def text(pieces: Sequence[Any]) -> str:
        return catalog.resolve_text(pieces, ctx)

    def placeholders(value: str) -> str:
        done = filled.get(value)
        if done is None:
            done = filled[value] = catalog.resolve_placeholders(value, ctx)
        return done

    result = []
    copiers = []
    for requires, copy, meta in plan.steps:
        if requires is not None and not requirement(requires):
            continue
        built = copy()
        if meta is not None:
            built = adapt(dialect, built, meta, requirement, text, placeholders)
            copy = _Copy(built)
        result.append(built)
        copiers.append(copy)
    return result, copiers


def _runtime_entries(
    catalog: Catalog,
    dialect: str,
    ctx: Any,
    variants: Sequence[Mapping[str, Any]],
    skipped: list[dict[str, Any]] | None,
) -> list[dict[str, Any]]:
    """Run-time tools converted for ``dialect``; one the dialect cannot take is left out
    (and reported in ``skipped``), never failing the list."""

    def server_text(pieces: Sequence[Any]) -> str:
        # MCP and subagent text comes from servers and users: never fill placeholders in it.
        return catalog.resolve_text(pieces, ctx, placeholders=False)

    result = []
    for variant in variants:
        key = _converted_key(dialect, variant)
        kept = _remember(_CONVERTED, key) if key is not None else None
        if kept is None:
            try:
                kept = _Converted(runtime_entry(dialect, variant, server_text), None)
            except Exception as exc:  # one bad run-time tool never costs the others
                kept = _Converted(None, exc)
            if key is not None:
                _remember(_CONVERTED, key, kept, CONVERTED_LIMIT)
        if kept.error is not None:
            if skipped is not None:
                skipped.append(skip_record(variant, dialect, kept.error))
        elif kept.copy is not None:
            result.append(kept.copy())
    return result


class _Converted:
    """A run-time tool converted for a dialect: a copier of its entry (None: not offered,
    as for a tool without a description), or why the dialect cannot take it."""

    __slots__ = ("copy", "error")

    def __init__(self, entry: dict[str, Any] | None, error: Exception | None) -> None:
        self.copy = None if entry is None else copier(entry)
        self.error = error


# Run-time tools converted per (dialect, the variant's fingerprint): an MCP server's tools are
# sent with every request, and converting one costs more than the rest of an Offer.
_CONVERTED: dict[Any, _Converted] = {}
CONVERTED_LIMIT = 4096


def _converted_key(dialect: str, variant: Mapping[str, Any]) -> Any:
    """The key of ``variant``'s conversion, or None when it may depend on the context: a text
    piece with a condition (run-time tools have none; a hand-made one might)."""
    try:
        texts = [variant["description"]]
        texts += [p["instruction"] for p in variant["parameters"]]
        if not all(isinstance(piece, str) for pieces in texts for piece in pieces):
            return None
    except Exception:  # a malformed variant: converted (and refused) afresh every time
        return None
    found = fingerprint(variant)
    return None if found is None else (dialect, found)


def _build(
    catalog: Catalog,
    dialect: str,
    entries: Mapping[str, Mapping[str, Any] | None],
    meta: Mapping[str, Mapping[str, Any] | None],
    family: str,
    ctx: Any,
    extra_variants: Sequence[Mapping[str, Any]],
    skipped: list[dict[str, Any]] | None,
) -> list[dict[str, Any]]:
    """The whole list made afresh: the static tools ``assemble`` keeps, then the run-time ones
    (which it puts after them)."""

    def requirement(predicate: Any) -> bool:
        return catalog.holds(predicate, ctx)

    def text(pieces: Sequence[Any]) -> str:
        return catalog.resolve_text(pieces, ctx)

    def placeholders(value: str) -> str:
        return catalog.resolve_placeholders(value, ctx)

    result = []
    run_time = []
    for variant in catalog.assemble(family, ctx, extra_variants):
        if variant.get("spec") is None:
            run_time.append(variant)
            continue
        key = variant["spec"] + "/" + variant["id"]
        entry = entries[key]
        if entry is not None:
            result.append(
                materialize(dialect, entry, meta[key], requirement, text, placeholders)
            )
    return result + _runtime_entries(catalog, dialect, ctx, run_time, skipped)
