"""Emitter for generated/openai_responses.py: OpenAI Responses API."""

from __future__ import annotations

from ..diagnostics import Diagnostics
from ..model import Catalog
from ..resolve import ResolvedFamily
from . import native

DIALECT = "openai-responses"
MODULE = "openai_responses"


def emit(catalog: Catalog, families: tuple[ResolvedFamily, ...], sources: tuple[str, ...], diags: Diagnostics) -> dict[str, str]:
    return native.emit(DIALECT, MODULE, catalog, families, sources, diags)
