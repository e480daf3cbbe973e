"""Build a request's native ``tools`` list from a provider module's precomputed entries.

Standard library only; shipped in the generated package, where it reads the catalog (so, unlike
native.py, the generator itself never imports it). Every provider module delegates to
``build_tools`` with its own tables, so the five formats share one implementation.
"""

from __future__ import annotations

import marshal
from typing import Any, Mapping, Sequence

from .catalog import FAMILIES, assemble, holds, resolve_placeholders, resolve_text
from .context import Context, as_context
from .native import NativeToolsUnavailable, materialize, runtime_entry
from .predicates import truthy

__all__ = ["build_tools"]


# Results per (format, family, context, options): contexts repeat across requests, so most calls
# only unmarshal a finished list. marshal gives fresh objects each time (callers may mutate them).
_RESULTS: dict[tuple[Any, ...], bytes] = {}
_RESULTS_LIMIT = 256


def build_tools(
    dialect: str,
    entries: Mapping[str, Mapping[str, Any] | None],
    meta: Mapping[str, Mapping[str, Any] | None],
    family: str,
    context: Context | Mapping[str, Any] | None = None,
    *,
    extra_variants: Sequence[Mapping[str, Any]] = (),
    cache_control: bool = False,
) -> list[dict[str, Any]]:
    """The ``tools`` list of a request for ``family`` in ``context``, in ``dialect``.

    Static tools come from ``entries`` (converted at generation time) adapted to the context;
    run-time tools (``extra_variants``: subagents, MCP) are converted now with the same converter.
    Raises NativeToolsUnavailable when the family does not use native tools or the context has
    native tool calls off: the caller should then use the text-path prompt.
    """
    if cache_control and dialect != "anthropic":
        raise ValueError("cache_control is an Anthropic option")
    name = str(getattr(family, "value", family))
    ctx = as_context(context)
    if not FAMILIES[name]["use_native_tools"]:
        raise NativeToolsUnavailable(
            f"family {name!r} does not use native tool calling"
        )
    if not truthy(ctx.enable_native_tool_calls):
        raise NativeToolsUnavailable(
            "native tool calls are off in this context (enable_native_tool_calls)"
        )
    key = None if extra_variants else (dialect, name, ctx, cache_control, id(entries))
    if key is not None:
        try:
            blob = _RESULTS.get(key)
        except (
            TypeError
        ):  # a Context built with a list value is not hashable: no caching
            blob = key = None
        if blob is not None:
            return marshal.loads(blob)
    result = _build(dialect, entries, meta, name, ctx, extra_variants)
    if cache_control and result:
        result[-1]["cache_control"] = {"type": "ephemeral"}
    if key is not None:
        if len(_RESULTS) >= _RESULTS_LIMIT:
            _RESULTS.pop(next(iter(_RESULTS)))
        _RESULTS[key] = marshal.dumps(result)
    return result


def _build(
    dialect: str,
    entries: Mapping[str, Mapping[str, Any] | None],
    meta: Mapping[str, Mapping[str, Any] | None],
    family: str,
    ctx: Context,
    extra_variants: Sequence[Mapping[str, Any]],
) -> list[dict[str, Any]]:
    def requirement(predicate: Any) -> bool:
        return holds(predicate, ctx)

    def text(pieces: Sequence[Any]) -> str:
        return resolve_text(pieces, ctx)

    def server_text(pieces: Sequence[Any]) -> str:
        # MCP and subagent text comes from servers and users: never fill placeholders in it.
        return resolve_text(pieces, ctx, placeholders=False)

    def placeholders(value: str) -> str:
        return resolve_placeholders(value, ctx)

    result = []
    for variant in assemble(family, ctx, extra_variants):
        if variant.get("spec") is None:  # a run-time tool
            built = runtime_entry(dialect, variant, server_text)
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
