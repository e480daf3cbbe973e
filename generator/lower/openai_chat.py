"""Emitter for generated/openai_chat.py: OpenAI Chat Completions."""

from __future__ import annotations

from ..diagnostics import Diagnostics
from ..model import Catalog
from ..resolve import ResolvedFamily
from . import native

DIALECT = "openai-chat"
MODULE = "openai_chat"


def emit(catalog: Catalog, families: tuple[ResolvedFamily, ...], sources: tuple[str, ...], diags: Diagnostics) -> dict[str, str]:
    return native.emit(DIALECT, MODULE, catalog, families, sources, diags)
