"""Lowering for the native formats: one converted entry per spec variant, deduplicated.

One emitter per format record (runtime/formats.py), in declared order: a new format needs no
module here. The conversion itself is the runtime converter (generator/runtime/schema_dialects.py),
so run time and build time agree.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from ..diagnostics import Diagnostics
from ..model import Catalog, ToolVariant, plain
from ..outchecks import entries as check_entries
from ..outchecks import family_limits, has_condition
from ..pyfmt import Code
from ..render import header, render_python
from ..resolve import ResolvedFamily
from ..runtime.formats import FORMATS, FormatRecord
from ..runtime.native import placeholder_paths
from .core import text_data


def _meta(variant: ToolVariant, built: dict[str, Any] | None) -> dict[str, Any] | None:
    """What of this variant's entry depends on the context (None: nothing).

    ``paths`` lists where the converted entry ``built`` holds placeholders, so that run time
    fills only those values.
    """
    gates = tuple((p.name, p.requires) for p in variant.parameters if p.requires is not None)
    texts: list[tuple[Any, ...]] = []
    if has_condition(variant.description):
        texts.append((None, plain(variant.description), text_data(variant.description)))
    for p in variant.parameters:
        if has_condition(p.instruction):
            texts.append((p.name, plain(p.instruction), text_data(p.instruction)))
    all_text = [variant.description, *(p.instruction for p in variant.parameters)]
    has_placeholder = any("{{" in piece.text for t in all_text for piece in t)
    if not gates and not texts and not has_placeholder:
        return None
    paths = placeholder_paths(built) if has_placeholder and built is not None else ()
    return {"gates": gates, "texts": tuple(texts), "placeholders": has_placeholder, "paths": paths}


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
    entries = check_entries(dialect, catalog, diags)
    for tool in catalog.tools:
        for variant in tool.variants:
            built = entries[variant.key]
            metas[variant.key] = _meta(variant, built)
            if built is None:
                tools[variant.key] = None
                continue
            # A digest, not the repr itself: at thousands of tools the reprs would rival the output in size.
            fingerprint = hashlib.sha256(repr(built).encode()).digest()
            if fingerprint not in names_by_value:
                names_by_value[fingerprint] = f"_ENTRIES[{len(constants)}]"
                constants.append(built)
            tools[variant.key] = Code(names_by_value[fingerprint])
    family_limits(dialect, families, entries, diags)
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
