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

from ..diagnostics import Diagnostics, Location
from ..model import Catalog, ToolVariant
from ..pyfmt import Code
from ..render import header, render_python
from ..resolve import ResolvedFamily
from ..runtime.formats import FORMATS, FormatRecord
from ..runtime.native import spec_entry, spec_meta
from ..runtime.schema_dialects import DialectError, check_limits
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
    entries: dict[str, dict[str, Any] | None] = {}
    for tool in catalog.tools:
        for variant in tool.variants:
            spec = variant_data(variant)
            try:
                built = spec_entry(dialect, spec)
            except DialectError as exc:
                diags.error(
                    variant.location,
                    "E500",
                    f"{variant.key} cannot be expressed for {dialect}: {exc.message}"
                    f" (at {'/'.join(map(str, exc.path)) or 'root'})",
                    exc.hint or "change the parameter schema, or leave this format out of 'formats' in toolgen.yaml",
                )
                built = None
            entries[variant.key] = built
            metas[variant.key] = spec_meta(spec, built)
            if built is None:
                tools[variant.key] = None
                continue
            # A digest, not the repr itself: at thousands of tools the reprs would rival the output in size.
            fingerprint = hashlib.sha256(repr(built).encode()).digest()
            if fingerprint not in names_by_value:
                names_by_value[fingerprint] = f"_ENTRIES[{len(constants)}]"
                constants.append(built)
            tools[variant.key] = Code(names_by_value[fingerprint])
    for resolved in families:
        if not resolved.family.use_native_tools:
            continue
        variants = [v for v in resolved.variants if entries.get(v.key) is not None]
        listed = [built for v in variants if (built := entries[v.key]) is not None]

        def where(
            path: tuple[Any, ...], variants: list[ToolVariant] = variants, source: str = resolved.family.source
        ) -> Location:
            # A path starting with a tool index points at that tool's spec variant.
            if path and isinstance(path[0], int) and path[0] < len(variants):
                return variants[path[0]].location
            return Location(source, 1, 1)

        try:
            notices = check_limits(dialect, listed)
        except DialectError as exc:
            diags.error(
                where(tuple(exc.path)),
                "E501",
                f"family {resolved.family.name!r} breaks a {dialect} limit: {exc.message}",
                exc.hint or "rename or split the tools",
            )
            continue
        for notice in notices:
            # Formats sharing a limit under one vendor label warn once for all of them.
            message = _shared_label(notice.message)
            diags.warning(where(tuple(notice.path)), "W501", message, "see docs/providers.md for the limit")
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


def _shared_label(message: str) -> str:
    """``message`` with a format's name replaced by its ``limits_label`` (one warning, not two)."""
    for rec in FORMATS.values():
        if rec.limits_label and message.startswith(rec.name + ": "):
            return rec.limits_label + message[len(rec.name) :]
    return message


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
