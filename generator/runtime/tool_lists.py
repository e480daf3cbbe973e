"""Build a request's native ``tools`` list from a provider module's precomputed entries.

Standard library only; shipped in the generated package, where it reads the catalog (so, unlike
native.py, the generator itself never imports it). Every provider module delegates to
``build_tools`` with its own tables, so the five formats share one implementation.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from .catalog import FAMILIES, assemble, holds, resolve_placeholders, resolve_text
from .context import Context
from .native import NativeToolsUnavailable, materialize, runtime_entry
from .predicates import truthy

__all__ = ["build_tools"]


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
    ctx = context if context is not None else Context()
    if not FAMILIES[name]["use_native_tools"]:
        raise NativeToolsUnavailable(
            f"family {name!r} does not use native tool calling"
        )
    flag = (
        ctx.get("enable_native_tool_calls")
        if isinstance(ctx, Mapping)
        else ctx.enable_native_tool_calls
    )
    if not truthy(flag):
        raise NativeToolsUnavailable(
            "native tool calls are off in this context (enable_native_tool_calls)"
        )

    def requirement(predicate: Any) -> bool:
        return holds(predicate, ctx)

    def text(pieces: Sequence[Any]) -> str:
        return resolve_text(pieces, ctx)

    def server_text(pieces: Sequence[Any]) -> str:
        return resolve_text(
            pieces, ctx, placeholders=False
        )  # MCP and subagent text is not ours

    def placeholders(value: str) -> str:
        return resolve_placeholders(value, ctx)

    result = []
    for variant in assemble(name, ctx, extra_variants):
        if variant.get("spec") is None:  # a run-time tool
            built = runtime_entry(dialect, variant, server_text)
        else:
            key = variant["spec"] + "/" + variant["id"]
            entry = entries[key]
            built = (
                None
                if entry is None
                else materialize(
                    dialect, entry, meta[key], requirement, text, placeholders
                )
            )
        if built is not None:
            result.append(built)
    if cache_control and result:
        result[-1]["cache_control"] = {"type": "ephemeral"}
    return result
