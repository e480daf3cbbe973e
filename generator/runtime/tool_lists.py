"""Build a request's native ``tools`` list from a provider module's precomputed entries.

Standard library only. Every generated provider module delegates to ``build_tools`` with the
package's Catalog and its own tables, so the five formats share one implementation.
"""

from __future__ import annotations

import marshal
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .catalog import Catalog
from .formats import FORMATS
from .native import NativeToolsUnavailable, materialize, runtime_entry
from .predicates import family_name, truthy
from .variants import skip_record

__all__ = ["build_tools"]


# Results per (format, family, context, options) are kept in the catalog's ``tool_lists`` cache:
# contexts repeat across requests, so most calls only rebuild a finished list. Each cached result
# is a small compiled function that builds fresh dicts and lists (callers may mutate them) around
# the shared, immutable strings and numbers.


def _builder(value: Any) -> Callable[[], Any]:
    """A function returning a fresh copy of JSON-like ``value`` (containers new, scalars shared).

    The compiled expression holds only container syntax and indexes into a tuple of the
    scalars, so no text from specs or servers ever becomes source code. Falls back to marshal
    for shapes the compiler cannot take (extreme nesting).
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
        code = compile("lambda: " + source(value), "<tool list>", "eval")
        made: Callable[[], Any] = eval(code, {"__builtins__": {}, "_s": tuple(scalars)})
        return made
    except (RecursionError, SyntaxError, MemoryError, ValueError):
        blob = marshal.dumps(value)
        return lambda: marshal.loads(blob)


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
    key = None if extra_variants else (dialect, name, ctx, cache_control, id(entries))
    if key is not None:
        cached = catalog.tool_lists.get(key)
        if cached is not None:
            return cached()
    result = _build(catalog, dialect, entries, meta, name, ctx, extra_variants, skipped)
    if cache_control and result:
        result[-1]["cache_control"] = {"type": "ephemeral"}
    if key is not None:
        catalog.tool_lists.put(key, _builder(result))
    return result


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
    def requirement(predicate: Any) -> bool:
        return catalog.holds(predicate, ctx)

    def text(pieces: Sequence[Any]) -> str:
        return catalog.resolve_text(pieces, ctx)

    def server_text(pieces: Sequence[Any]) -> str:
        # MCP and subagent text comes from servers and users: never fill placeholders in it.
        return catalog.resolve_text(pieces, ctx, placeholders=False)

    def placeholders(value: str) -> str:
        return catalog.resolve_placeholders(value, ctx)

    result = []
    for variant in catalog.assemble(family, ctx, extra_variants):
        if variant.get("spec") is None:  # a run-time tool
            try:
                built = runtime_entry(dialect, variant, server_text)
            except Exception as exc:  # one bad run-time tool never costs the others
                if skipped is not None:
                    skipped.append(skip_record(variant, dialect, exc))
                continue
        else:
            key = variant["spec"] + "/" + variant["id"]
            entry = entries[key]
            built = None
            if entry is not None:
                built = materialize(
                    dialect, entry, meta[key], requirement, text, placeholders
                )
        if built is not None:
            result.append(built)
    return result
