"""Stage 4: resolve each family's tool list to spec variants, as the modelled system does.

For every id in the family's list: the family's own variant, else the fallback family's
(generic), else the first variant registered for the id (file order); ids without any variant
are skipped and duplicate ids are dropped. Context requirements are applied later, at run time.
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import Catalog, Family, ToolVariant


@dataclass(frozen=True)
class ResolvedFamily:
    family: Family
    variants: tuple[ToolVariant, ...]


def resolve_family(catalog: Catalog, family: Family) -> ResolvedFamily:
    chosen: list[ToolVariant] = []
    seen: set[str] = set()
    for tool_id in family.tools:
        if tool_id in seen:
            continue
        seen.add(tool_id)
        tool = catalog.tool(tool_id)
        variant = tool.variant(family.name) or tool.variant(catalog.project.fallback)
        if variant is None and tool.variants:
            variant = tool.variants[0]
        if variant is not None:
            chosen.append(variant)
    return ResolvedFamily(family, tuple(chosen))


def resolve(catalog: Catalog) -> tuple[ResolvedFamily, ...]:
    return tuple(resolve_family(catalog, family) for family in catalog.families)
