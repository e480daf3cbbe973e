"""The checks the outputs make, without rendering them: what a spec cannot ask of a provider.

Each native format converts every spec variant (E500 when it cannot), each native family's
tool list is held against the format's limits (E501, W501), and sent_checks reports what a
format drops (W502, W503, E322). Rendering (native.py) reports through the same functions, so
``toolgen validate``, the language server and ``generate`` say the same things; checking this
way renders nothing and imports no template engine. The TypeScript package's own checks (E800, E801, E820)
are ts.py's ``check``, which the workspace adds when that target is on.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from ..diagnostics import Diagnostics, Location
from ..memo import Memo, remembered
from ..model import Catalog, Family, ToolVariant
from ..resolve import ResolvedFamily
from ..runtime.formats import FORMATS
from ..runtime.native import spec_entry
from ..runtime.schema_dialects import DialectError, check_limits
from . import sent_checks
from .core import variant_data

Entries = dict[str, "dict[str, Any] | None"]


def entry(dialect: str, variant: ToolVariant) -> dict[str, Any] | None:
    """The converted entry (placeholders unresolved); None for a tool with no description."""
    return spec_entry(dialect, variant_data(variant))


def entries(
    dialect: str,
    catalog: Catalog,
    diags: Diagnostics,
    memo: Memo | None = None,
    specs: Mapping[str, Mapping[str, Any]] | None = None,
) -> Entries:
    """Every variant's converted entry for ``dialect`` by variant key (None: none, or E500).

    ``specs`` are the variants as catalog data (``variant_data``) by key, when the caller has them.
    With a ``memo`` (the workspace's), the entries of a tool whose variants are unchanged are reused.
    """
    found: Entries = {}
    for tool in catalog.tools:
        compute = partial(_tool_entries, (dialect,), tool.variants, specs)
        found.update(remembered(memo, (tool.variants,), compute, diags, dialect)[dialect])
    return found


def _tool_entries(
    dialects: tuple[str, ...],
    variants: tuple[ToolVariant, ...],
    specs: Mapping[str, Mapping[str, Any]] | None,
    diags: Diagnostics,
) -> dict[str, Entries]:
    """One tool's entries in each of ``dialects``: by dialect, then by variant key."""
    data = {v.key: specs[v.key] if specs is not None else variant_data(v) for v in variants}
    return {dialect: {v.key: _entry(dialect, v, data[v.key], diags) for v in variants} for dialect in dialects}


def _entry(dialect: str, variant: ToolVariant, spec: Mapping[str, Any], diags: Diagnostics) -> dict[str, Any] | None:
    try:
        return spec_entry(dialect, spec)
    except DialectError as exc:
        diags.error(
            variant.location,
            "E500",
            f"{variant.key} cannot be expressed for {dialect}: {exc.message}"
            f" (at {'/'.join(map(str, exc.path)) or 'root'})",
            exc.hint or "change the parameter schema, or leave this format out of 'formats' in toolgen.yaml",
        )
        return None


def family_limits(
    dialect: str, families: tuple[ResolvedFamily, ...], built: Entries, diags: Diagnostics, memo: Memo | None = None
) -> None:
    """E501 and W501 for each native family's tool list on ``dialect``; with a ``memo`` (the
    workspace's), a family whose name, file and variants are unchanged is not checked again."""
    for resolved in families:
        if not resolved.family.use_native_tools:
            continue
        variants = tuple(v for v in resolved.variants if built.get(v.key) is not None)
        listed = [entry for v in variants if (entry := built[v.key]) is not None]
        family = resolved.family
        key = (family.name, family.source, *variants)
        remembered(memo, key, partial(_family_limits, dialect, family, variants, listed), diags, ("limits", dialect))


def _family_limits(
    dialect: str, family: Family, variants: tuple[ToolVariant, ...], listed: list[dict[str, Any]], diags: Diagnostics
) -> None:
    def where(path: tuple[Any, ...]) -> Location:
        # A path starting with a tool index points at that tool's spec variant.
        if path and isinstance(path[0], int) and path[0] < len(variants):
            return variants[path[0]].location
        return Location(family.source, 1, 1)

    try:
        notices = check_limits(dialect, listed)
    except DialectError as exc:
        diags.error(
            where(tuple(exc.path)),
            "E501",
            f"family {family.name!r} breaks a {dialect} limit: {exc.message}",
            exc.hint or "rename or split the tools",
        )
        return
    for notice in notices:
        # Formats sharing a limit under one vendor label warn once for all of them.
        diags.warning(
            where(tuple(notice.path)), "W501", _shared_label(notice.message), "see docs/providers.md for the limit"
        )


def _shared_label(message: str) -> str:
    """``message`` with a format's name replaced by its ``limits_label`` (one warning, not two)."""
    for rec in FORMATS.values():
        if rec.limits_label and message.startswith(rec.name + ": "):
            return rec.limits_label + message[len(rec.name) :]
    return message


def check_outputs(
    catalog: Catalog, families: tuple[ResolvedFamily, ...], diags: Diagnostics, memo: Memo | None = None
) -> None:
    """Every check the Python package makes (see the module docstring), reported to ``diags``;
    ``memo`` (the workspace's) keeps each variant's part across edits."""
    dialects = tuple(d for d in FORMATS if d in catalog.project.formats)
    built: dict[str, Entries] = {dialect: {} for dialect in dialects}
    for tool in catalog.tools:  # one memo entry per tool for every format: an edit is one tool
        compute = partial(_tool_entries, dialects, tool.variants, None)
        per_format = remembered(memo, (tool.variants,), compute, diags, dialects)
        for dialect in dialects:
            built[dialect].update(per_format[dialect])
    for dialect in dialects:
        family_limits(dialect, families, built[dialect], diags, memo)
    sent_checks.check(catalog, families, diags, memo)
