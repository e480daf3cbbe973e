"""Driving `toolgen lsp` from the tests (and benchmarks/lsp_session.py) with pytest-lsp's real client.

One server process per test module serves every spec folder the module opens (each test copies
its own), so a test pays only for its own requests. ``published`` waits for the server's answer
to an edit: the burst of publishDiagnostics that follows it, ended by a short quiet period.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from generator.lsp.text import path_to_uri

SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "generator", "lsp"])
QUIET = 0.15  # seconds without a publish that end a burst
TIMEOUT = 20.0


async def start(client: LanguageClient) -> None:
    params = types.InitializeParams(capabilities=client_capabilities("visual-studio-code"))
    await client.initialize_session(params)


def mark(client: LanguageClient) -> dict[str, list[types.Diagnostic]]:
    """Each uri's latest published list (each publish stores a new list object)."""
    return dict(client.diagnostics)


async def published(
    client: LanguageClient, before: dict[str, list[types.Diagnostic]], timeout: float = TIMEOUT
) -> dict[str, list[types.Diagnostic]]:
    """The publishDiagnostics burst since ``before`` (a :func:`mark`): uri -> diagnostics."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    changed: dict[str, list[types.Diagnostic]] = {}
    last_change = None
    while True:
        for uri, items in client.diagnostics.items():
            if before.get(uri) is not items and changed.get(uri) is not items:
                changed[uri] = items
                last_change = loop.time()
        if last_change is not None and loop.time() - last_change >= QUIET:
            return changed
        if loop.time() > deadline:
            raise TimeoutError(f"no publishDiagnostics within {timeout} s")
        await asyncio.sleep(0.005)


def open_file(client: LanguageClient, path: Path, text: str | None = None) -> str:
    uri = path_to_uri(path)
    content = path.read_text("utf-8") if text is None else text
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=content))
    )
    return uri


def replace_all(client: LanguageClient, uri: str, text: str, version: int) -> None:
    """A whole-buffer change (what a client sends without incremental sync)."""
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            [types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


def insert(client: LanguageClient, uri: str, line: int, character: int, text: str, version: int) -> None:
    """An incremental change: ``text`` typed at a position."""
    at = types.Position(line, character)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            [types.TextDocumentContentChangePartial(range=types.Range(at, at), text=text)],
        )
    )


def position_of(text: str, needle: str, offset: int = 0) -> types.Position:
    """The LSP position of ``needle`` (plus ``offset`` characters) in ``text`` (ASCII lines)."""
    index = text.index(needle) + offset
    line = text.count("\n", 0, index)
    return types.Position(line, index - (text.rfind("\n", 0, index) + 1))
