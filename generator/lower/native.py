"""Lowering for the native formats: one converted entry per spec variant, deduplicated.

One emitter per format record (runtime/formats.py), in declared order: a new format needs no
module here. The entries and what of them depends on the context are the runtime's
(``runtime.native.spec_entry``/``spec_meta``, over the variant as catalog data holds it), so
run time and build time agree, and the TypeScript runtime applies the same rules to its data.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from ..diagnostics import Diagnostics
from ..model import Catalog
from ..pyfmt import Code
from ..render import header, render_python
from ..resolve import ResolvedFamily
from ..runtime.formats import FORMATS, FormatRecord
from ..runtime.native import spec_meta
from .checks import entries as check_entries
from .checks import family_limits
from .core import variant_data


def emit(
    dialect: str,
    module: str,
    catalog: Catalog,
    families: tuple[ResolvedFamily, ...],
    sources: tuple[str, ...],
    diags: Diagnostics,
) -> dict[str, str]:
    constants: list[dict[str, Any]] = []
    names_by_value: dict[bytes, str] = {}
    tools: dict[str, Any] = {}
    metas: dict[str, Any] = {}
    specs = {v.key: variant_data(v) for t in catalog.tools for v in t.variants}
    entries = check_entries(dialect, catalog, diags, specs=specs)
    for tool in catalog.tools:
        for variant in tool.variants:
            built = entries[variant.key]
            metas[variant.key] = spec_meta(specs[variant.key], built)
            if built is None:
                tools[variant.key] = None
                continue
            # A digest, not the repr itself: at thousands of tools the reprs would rival the output in size.
            fingerprint = hashlib.sha256(repr(built).encode()).digest()
            if fingerprint not in names_by_value:
                names_by_value[fingerprint] = f"_ENTRIES[{len(constants)}]"
                constants.append(built)
            tools[variant.key] = Code(names_by_value[fingerprint])
    family_limits(dialect, families, entries, diags)  # E501, W501 (checks.py)
    return {
        f"{module}.py": render_python(
            "native_module.py.j2",
            header(sources),
            dialect=dialect,
            entries=tuple(constants),
            tools=tools,
            metas=metas,
        )
    }


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
        self, catalog: Catalog, families: tuple[ResolvedFamily, ...], sources: tuple[str, ...], diags: Diagnostics
    ) -> dict[str, str]:
        return emit(self.record.name, self.record.module, catalog, families, sources, diags)


#: One emitter per format, in declared order: a new format is a new record, not a row here.
EMITTERS = tuple(NativeEmitter(rec) for rec in FORMATS.values())
