"""Text path: prompt.py (the runtime's TextPath bound to the catalog) and the review files prompts/<family>.xml."""

from __future__ import annotations

from functools import partial

from ..memo import Memo, kept
from ..model import Catalog, ToolVariant, plain
from ..render import header, render_python, render_text, source_list
from ..resolve import ResolvedFamily
from ..runtime.native import fast_copy
from ..runtime.prompt_blocks import PromptParam, schema_note, tool_block, tools_section
from .core import spec_sources


def review_section(resolved: ResolvedFamily, memo: Memo | None = None) -> str:
    """Every resolved tool with only unconditional text and placeholders left as written; with a
    ``memo`` (``generate --watch``), an unchanged variant's block is the one of the last run."""
    return tools_section([kept(memo, (variant,), partial(_block, variant), "review") for variant in resolved.variants])


def _block(variant: ToolVariant) -> str:
    params = [
        PromptParam(
            p.name,
            p.required,
            plain(p.instruction),
            plain(p.description),
            p.usage or "",
            schema_note(fast_copy(p.schema)),
        )
        for p in variant.parameters
    ]
    return tool_block(variant.name, plain(variant.description), params)


def emit(catalog: Catalog, families: tuple[ResolvedFamily, ...], memo: Memo | None = None) -> dict[str, str]:
    files = {"prompt.py": render_python("prompt.py.j2", header(spec_sources(catalog)))}
    for resolved in families:
        used = sorted({resolved.family.source, *(catalog.tool(v.tool_id).source for v in resolved.variants)})
        files[f"prompts/{resolved.family.name}.xml"] = render_text(
            "prompt.xml.j2",
            sources=source_list(used),
            family=resolved.family.name,
            section=review_section(resolved, memo),
        )
    return files
