"""The text path: the tools section of the system prompt, and reading tool calls back.

Both halves read the same resolved specs (catalog.VARIANTS), so the prompt a model sees and the
parser that reads its reply always agree on tool and parameter names.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from .catalog import VARIANTS, assemble, resolve_text, visible_parameters
from .context import Context, as_context
from .dynamic_tools import skip_record
from .prompt_blocks import PromptParam, tool_block, tools_section
from .tool_types import ToolUse
from .xml_calls import parse_tool_calls

__all__ = ["prompt_section", "variant_block", "known_tools", "parse_calls"]


# Sections per (family, context): strings are immutable, so a repeated context costs a lookup.
_SECTIONS: dict[tuple[str, Context], str] = {}


def variant_block(
    variant: Mapping[str, Any],
    context: Context | Mapping[str, Any],
    enabled_ids: Sequence[str] | None = None,
) -> str:
    """One tool's block in a context: parameters filtered, conditional text and placeholders resolved.

    Parameter descriptions come from the parameters whose context requirements hold, even when a
    dependency hides the parameter itself (as in the modelled system).
    """
    # Run-time tools (no spec family) carry server or user text: never fill placeholders in it.
    fill = variant.get("spec") is not None

    def text(pieces: Sequence[Any]) -> str:
        return resolve_text(pieces, context, placeholders=fill)

    described = [text(p["description"]) for p in visible_parameters(variant, context)]
    params = [
        PromptParam(
            p["name"],
            p["required"],
            text(p["instruction"]),
            text(p["description"]),
            text((p["usage"] or "",)),
        )
        for p in visible_parameters(variant, context, enabled_ids)
    ]
    return tool_block(variant["name"], text(variant["description"]), params, described)


def prompt_section(
    family: str,
    context: Context | Mapping[str, Any] | None = None,
    extra_variants: Sequence[Mapping[str, Any]] = (),
    skipped: list[dict[str, Any]] | None = None,
) -> str:
    """The '# Tools' section for a family: enabled tools in prompt order, then ``extra_variants``.

    ``extra_variants`` are run-time tools (subagents, MCP) built by dynamic_tools. One that
    cannot be rendered is left out and, when ``skipped`` is a list, reported there.
    """
    context = as_context(context)
    key = None if extra_variants else (str(getattr(family, "value", family)), context)
    try:
        cached = _SECTIONS.get(key) if key is not None else None
    except TypeError:  # a Context built with a list value is not hashable: no caching
        cached = key = None
    if cached is not None:
        return cached
    variants = assemble(family, context, extra_variants)
    enabled_ids = tuple(v["id"] for v in variants)
    blocks = []
    for variant in variants:
        try:
            blocks.append(variant_block(variant, context, enabled_ids))
        except Exception as exc:
            if variant.get("spec") is not None:
                raise  # spec tools are checked at generation time: this would be a bug
            if skipped is not None:
                skipped.append(skip_record(variant, "prompt", exc))
    section = tools_section(blocks)
    if key is not None:
        if len(_SECTIONS) >= 256:
            _SECTIONS.pop(next(iter(_SECTIONS)))
        _SECTIONS[key] = section
    return section


def known_tools(
    family: str, extra_variants: Sequence[Mapping[str, Any]] = ()
) -> dict[str, tuple[str, ...]]:
    """Tool names a family's model may call, with their parameter names (what the parser accepts)."""
    name = str(getattr(family, "value", family))
    tools: dict[str, tuple[str, ...]] = {}
    for variant in (*VARIANTS[name], *extra_variants):
        tools[variant["name"]] = tuple(p["name"] for p in variant["parameters"])
    return tools


def parse_calls(
    text: str, family: str, extra_variants: Sequence[Mapping[str, Any]] = ()
) -> list[ToolUse]:
    """Tool calls in a (possibly still streaming) reply, for a family's tools."""
    return parse_tool_calls(text, known_tools(family, extra_variants))
