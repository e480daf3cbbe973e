"""The text path: the tools section of the system prompt, and reading tool calls back.

Both halves read the same resolved specs (a Catalog's variants), so the prompt a model sees and
the parser that reads its reply always agree on tool and parameter names. The generated
prompt.py binds one ``TextPath`` to the package's catalog.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .catalog import Catalog, Variant
from .predicates import family_name
from .prompt_blocks import PromptParam, schema_note, tool_block, tools_section
from .tool_types import ToolUse
from .variants import skip_record
from .xml_calls import parse_reply, parse_tool_calls

__all__ = ["TextPath"]


class TextPath:
    """Prompt sections and call parsing for one catalog."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog

    def variant_block(
        self,
        variant: Variant,
        context: Any,
        enabled_ids: Sequence[str] | None = None,
    ) -> str:
        """One tool's block in a context: parameters filtered, conditional text and placeholders resolved.

        Parameter descriptions come from the parameters whose context requirements hold, even when
        a dependency hides the parameter itself (as in the modelled system).
        """
        catalog = self.catalog
        # Run-time tools (no spec family) carry server or user text: never fill placeholders in it.
        fill = variant.get("spec") is not None

        def text(pieces: Sequence[Any]) -> str:
            return catalog.resolve_text(pieces, context, placeholders=fill)

        described = [
            text(p["description"]) for p in catalog.visible_parameters(variant, context)
        ]
        params = [
            PromptParam(
                p["name"],
                p["required"],
                text(p["instruction"]),
                text(p["description"]),
                text((p["usage"] or "",)),
                schema_note(p["schema"]),
            )
            for p in catalog.visible_parameters(variant, context, enabled_ids)
        ]
        return tool_block(
            variant["name"], text(variant["description"]), params, described
        )

    def prompt_section(
        self,
        family: Any,
        context: Any = None,
        extra_variants: Sequence[Variant] = (),
        skipped: list[dict[str, Any]] | None = None,
    ) -> str:
        """The '# Tools' section for a family: enabled tools in prompt order, then ``extra_variants``.

        ``extra_variants`` are run-time tools (subagents, MCP) built by dynamic_tools. One that
        cannot be rendered is left out and, when ``skipped`` is a list, reported there.
        """
        catalog = self.catalog
        context = catalog.as_context(context)
        # Sections per (family, context, the types of its values: True == 1 but reads "true"):
        # strings are immutable, so a repeat costs a lookup.
        key = (
            None
            if extra_variants
            else (
                family_name(family),
                context,
                tuple(map(type, vars(context).values())),
            )
        )
        cached = catalog.sections.get(key) if key is not None else None
        if cached is not None:
            return cached
        variants = catalog.assemble(family, context, extra_variants)
        enabled_ids = tuple(v["id"] for v in variants)
        blocks = []
        for variant in variants:
            try:
                blocks.append(self.variant_block(variant, context, enabled_ids))
            except Exception as exc:
                if variant.get("spec") is not None:
                    raise  # spec tools are checked at generation time: this is a bug
                if skipped is not None:
                    skipped.append(skip_record(variant, "prompt", exc))
        section = tools_section(blocks)
        if key is not None:
            catalog.sections.put(key, section)
        return section

    def known_tools(
        self, family: Any, extra_variants: Sequence[Variant] = ()
    ) -> dict[str, tuple[str, ...]]:
        """Tool names a family's model may call, with their parameter names (what the parser accepts)."""
        tools: dict[str, tuple[str, ...]] = {}
        for variant in (*self.catalog.variants[family_name(family)], *extra_variants):
            tools[variant["name"]] = tuple(p["name"] for p in variant["parameters"])
        return tools

    def parse_calls(
        self, text: str, family: Any, extra_variants: Sequence[Variant] = ()
    ) -> list[ToolUse]:
        """Tool calls in a (possibly still streaming) reply, for a family's tools."""
        return parse_tool_calls(text, self.known_tools(family, extra_variants))

    def parse_reply(
        self, text: str, family: Any, extra_variants: Sequence[Variant] = ()
    ) -> list[ToolUse]:
        """Every call of a finished reply, unknown tools' calls included (xml_calls.parse_reply)."""
        return parse_reply(text, self.known_tools(family, extra_variants))
