"""Text path: prompt.py (the runtime's TextPath bound to the catalog) and the review files prompts/<family>.xml."""

from __future__ import annotations

from ..model import Catalog, plain
from ..render import header, render_python, render_text, source_list
from ..resolve import ResolvedFamily
from ..runtime.native import fast_copy
from ..runtime.prompt_blocks import PromptParam, schema_note, tool_block, tools_section
from .core import spec_sources


def review_section(resolved: ResolvedFamily) -> str:
    """Every resolved tool with only unconditional text and placeholders left as written."""
    blocks = []
    for variant in resolved.variants:
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
        blocks.append(tool_block(variant.name, plain(variant.description), params))
    return tools_section(blocks)


def emit(catalog: Catalog, families: tuple[ResolvedFamily, ...]) -> dict[str, str]:
    files = {"prompt.py": render_python("prompt.py.j2", header(spec_sources(catalog)))}
    for resolved in families:
        used = sorted({resolved.family.source, *(catalog.tool(v.tool_id).source for v in resolved.variants)})
        files[f"prompts/{resolved.family.name}.xml"] = render_text(
            "prompt.xml.j2",
            sources=source_list(used),
            family=resolved.family.name,
            section=review_section(resolved),
        )
    return files
