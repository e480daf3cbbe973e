"""The checks the outputs make, without rendering them: what a spec cannot ask of a provider.

Each native format converts every spec variant (E500 when it cannot), each native family's
tool list is held against the format's limits (E501, W501), and sent_checks reports what a
format drops (W502, W503, E322). Rendering (lower/native.py) reports through the same functions,
so ``toolgen validate``, the language server and ``generate`` say the same things; validating
this way imports no template engine. The TypeScript package's own checks (E800, E801, E820)
are lower/ts.py's ``check``, which the workspace adds when that target is on.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from . import sent_checks
from .diagnostics import Diagnostics, Location
from .memo import Memo, remembered
from .model import Catalog, Family, ToolVariant, plain
from .resolve import ResolvedFamily
from .runtime.formats import FORMATS
from .runtime.native import fast_copy, parameters_schema
from .runtime.schema_dialects import DialectError, check_limits, tool_entry

Entries = dict[str, "dict[str, Any] | None"]


def has_condition(text: Any) -> bool:
    return any(piece.when is not None for piece in text)


def entry(dialect: str, variant: ToolVariant) -> dict[str, Any] | None:
    """The converted entry (placeholders unresolved); None for a tool with no description."""
    description = plain(variant.description)
    if not description and not has_condition(variant.description):
        return None
    schema = parameters_schema(
        [
            {"name": p.name, "required": p.required, "instruction": plain(p.instruction), "schema": fast_copy(p.schema)}
            for p in variant.parameters
        ]
    )
    # Formats without a strict mode take the same tool without it.
    strict = variant.strict and FORMATS[dialect].strict is not None
    return tool_entry(dialect, variant.name, description, schema, strict=strict)


def entries(dialect: str, catalog: Catalog, diags: Diagnostics, memo: Memo | None = None) -> Entries:
    """Every variant's converted entry for ``dialect`` by variant key (None: none, or E500).

    With a ``memo`` (the workspace's), the entries of a tool whose variants are unchanged are reused.
    """
    found: Entries = {}
    for tool in catalog.tools:
        found.update(remembered(memo, (tool.variants,), partial(_tool_entries, dialect, tool.variants), diags, dialect))
    return found


def _all_entries(
    dialects: tuple[str, ...], variants: tuple[ToolVariant, ...], diags: Diagnostics
) -> dict[str, Entries]:
    return {dialect: _tool_entries(dialect, variants, diags) for dialect in dialects}


def _tool_entries(dialect: str, variants: tuple[ToolVariant, ...], diags: Diagnostics) -> Entries:
    return {variant.key: _entry(dialect, variant, diags) for variant in variants}


def _entry(dialect: str, variant: ToolVariant, diags: Diagnostics) -> dict[str, Any] | None:
    try:
        return entry(dialect, variant)
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
        per_format = remembered(memo, (tool.variants,), partial(_all_entries, dialects, tool.variants), diags, dialects)
        for dialect in dialects:
            built[dialect].update(per_format[dialect])
    for dialect in dialects:
        family_limits(dialect, families, built[dialect], diags, memo)
    sent_checks.check(catalog, families, diags, memo)
