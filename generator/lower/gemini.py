"""Emitter for generated/gemini.py: Gemini function declarations."""

from __future__ import annotations

from ..diagnostics import Diagnostics
from ..model import Catalog
from ..resolve import ResolvedFamily
from . import native

DIALECT = "gemini"
MODULE = "gemini"


def emit(catalog: Catalog, families: tuple[ResolvedFamily, ...], sources: tuple[str, ...], diags: Diagnostics) -> dict[str, str]:
    return native.emit(DIALECT, MODULE, catalog, families, sources, diags)
