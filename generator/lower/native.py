"""Lowering for the native formats: one converted entry per spec variant, deduplicated.

One emitter per format record (runtime/formats.py), in declared order: a new format needs no
module here. The entries and what of them depends on the context are the runtime's
(``runtime.native.spec_entry``/``spec_meta``, over the variant as catalog data holds it), so
run time and build time agree, and the TypeScript runtime applies the same rules to its data.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from ..diagnostics import Diagnostics
from ..memo import kept
from ..model import Catalog, ToolVariant
from ..pyfmt import Code
from ..render import header, render_python
from ..resolve import ResolvedFamily
from ..runtime.formats import FORMATS, FormatRecord
from ..runtime.native import spec_meta
from .checks import entries as check_entries
from .checks import family_limits
from .core import catalog_specs
from .reuse import Reuse


def emit(
    dialect: str,
    module: str,
    catalog: Catalog,
    families: tuple[ResolvedFamily, ...],
    sources: tuple[str, ...],
    diags: Diagnostics,
    specs: Mapping[str, Mapping[str, Any]] | None = None,
    reuse: Reuse | None = None,
) -> dict[str, str]:
    """``<module>.py``: ``specs`` are ``core.catalog_specs``'s (computed here when not given);
    ``reuse`` is what ``generate --watch`` keeps between runs (reuse.py)."""
    memo = reuse.memo if reuse is not None else None
    constants: list[dict[str, Any]] = []
    names_by_value: dict[bytes, str] = {}
    tools: dict[str, Any] = {}
    metas: dict[str, Any] = {}
    if specs is None:
        specs = catalog_specs(catalog, memo)
    entries = check_entries(dialect, catalog, diags, memo, specs)
    for tool in catalog.tools:
        built = tuple(entries[v.key] for v in tool.variants)
        rows = kept(memo, (tool.variants, *built), partial(_rows, tool.variants, built, specs), ("native", dialect))
        for variant, entry, (meta, fingerprint) in zip(tool.variants, built, rows, strict=True):
            metas[variant.key] = meta
            if entry is None or fingerprint is None:
                tools[variant.key] = None
                continue
            if fingerprint not in names_by_value:
                names_by_value[fingerprint] = f"_ENTRIES[{len(constants)}]"
                constants.append(entry)
            tools[variant.key] = Code(names_by_value[fingerprint])
    family_limits(dialect, families, entries, diags, memo)  # E501, W501 (checks.py)
    return {
        f"{module}.py": render_python(
            "native_module.py.j2",
            header(sources),
            reuse.layouts if reuse is not None else None,
            dialect=dialect,
            entries=tuple(constants),
            tools=tools,
            metas=metas,
        )
    }


def _rows(
    variants: tuple[ToolVariant, ...],
    built: tuple[dict[str, Any] | None, ...],
    specs: Mapping[str, Mapping[str, Any]],
) -> tuple[tuple[Any, bytes | None], ...]:
    """Per variant of one tool: its META value and its entry's fingerprint (None: no entry)."""
    return tuple(
        # A digest, not the repr itself: at thousands of tools the reprs would rival the output in size.
        (spec_meta(specs[v.key], entry), None if entry is None else hashlib.sha256(repr(entry).encode()).digest())
        for v, entry in zip(variants, built, strict=True)
    )


@dataclass(frozen=True)
class NativeEmitter:
    """Writes ``generated/<module>.py`` for one format record."""

    record: FormatRecord

    @property
    def dialect(self) -> str:
        return self.record.name

    @property
    def module(self) -> str:
        return self.record.module

    def emit(
        self,
        catalog: Catalog,
        families: tuple[ResolvedFamily, ...],
        sources: tuple[str, ...],
        diags: Diagnostics,
        specs: Mapping[str, Mapping[str, Any]] | None = None,
        reuse: Reuse | None = None,
    ) -> dict[str, str]:
        return emit(self.record.name, self.record.module, catalog, families, sources, diags, specs, reuse)


#: One emitter per format, in declared order: a new format is a new record, not a row here.
EMITTERS = tuple(NativeEmitter(rec) for rec in FORMATS.values())
