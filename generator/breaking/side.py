"""One version of the specs as ``breaking`` compares it: the model, its files and its families."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

from ..diagnostics import Location
from ..load import PathKey, SourceFile
from ..model import Catalog, Family, Tool, ToolVariant
from ..resolve import resolve
from .findings import TEXT_FORMAT


@dataclass(frozen=True)
class Side:
    """One version of the specs: its model, its files (for locations) and its families' tool lists."""

    catalog: Catalog
    sources: Mapping[str, SourceFile]

    def at(self, source: str, path: PathKey = ()) -> Location:
        """The location of ``path`` (a mapping key where there is one) in the file ``source``."""
        src = self.sources.get(source)
        return src.loc(path, key=True) if src is not None else Location(source)

    @cached_property
    def families(self) -> dict[str, tuple[Family, tuple[ToolVariant, ...]]]:
        """Each prompt family with its resolved variants, in selection order."""
        return {r.family.name: (r.family, r.variants) for r in resolve(self.catalog)}

    def formats(self, family: Family) -> tuple[str, ...]:
        """What the family sends its tools in: the text prompt, and the native formats when it uses them."""
        return (TEXT_FORMAT, *self.catalog.project.formats) if family.use_native_tools else (TEXT_FORMAT,)

    def shared_at(self, name: str) -> Location | None:
        """Where parameters.yaml defines the shared parameter ``name`` (None without the file)."""
        folder = self.catalog.project.source.rpartition("/")[0]
        source = self.sources.get(f"{folder}/parameters.yaml" if folder else "parameters.yaml")
        return source.loc(("parameters", name), key=True) if source is not None else None

    @cached_property
    def users(self) -> dict[str, tuple[str, ...]]:
        """Each shared parameter's users: the wire names of the tools using it, in declared order."""
        found: dict[str, dict[str, None]] = {}
        for _, variants in self.families.values():
            for variant in variants:
                for param in variant.parameters:
                    if param.shared is not None:
                        found.setdefault(param.shared, {})[variant.name] = None
        return {name: tuple(names) for name, names in found.items()}

    @cached_property
    def tools(self) -> dict[str, Tool]:
        return {tool.id: tool for tool in self.catalog.tools}
