"""Driving `toolgen lsp` from the tests (and benchmarks/lsp_session.py) with pytest-lsp's real client.

One server process per test module serves every spec folder the module opens (each test copies
its own), so a test pays only for its own requests. ``published`` waits for the server's answer
to an edit: the burst of publishDiagnostics that follows it, ended by a short quiet period.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from generator.lsp.text import from_utf16, line_of, path_to_uri, uri_to_path

SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "generator", "lsp"])
QUIET = 0.15  # seconds without a publish that end a burst
TIMEOUT = 20.0


REGISTRATIONS: list[types.Registration] = []  # what servers asked their clients to register


async def start(client: LanguageClient) -> None:
    _log(client)  # record publishes from the first one on
    if types.CLIENT_REGISTER_CAPABILITY not in client.protocol.fm.features:

        @client.feature(types.CLIENT_REGISTER_CAPABILITY)
        def register(params: types.RegistrationParams) -> None:  # as an editor does: accept and keep
            REGISTRATIONS.extend(params.registrations)

    params = types.InitializeParams(capabilities=client_capabilities("visual-studio-code"))
    await client.initialize_session(params)


class Recording(dict[str, list[types.Diagnostic]]):
    """The client's diagnostics by uri, also logging every publish in arrival order."""

    def __init__(self) -> None:
        super().__init__()
        self.log: list[tuple[str, list[types.Diagnostic]]] = []

    def __setitem__(self, uri: str, items: list[types.Diagnostic]) -> None:
        super().__setitem__(uri, list(items))
        self.log.append((uri, list(items)))


def _log(client: LanguageClient) -> list[tuple[str, list[types.Diagnostic]]]:
    if not isinstance(client.diagnostics, Recording):
        client.diagnostics = Recording()
    return client.diagnostics.log


def mark(client: LanguageClient) -> int:
    """How many publishes the client has seen so far."""
    return len(_log(client))


async def published(
    client: LanguageClient, before: int, within: Path | None = None, timeout: float = TIMEOUT
) -> dict[str, list[types.Diagnostic]]:
    """The publishDiagnostics burst after ``before`` (a :func:`mark`): uri -> its latest diagnostics.

    With ``within`` (a spec folder), only that folder's files count, and the burst must have one.
    """
    prefix = path_to_uri(within) if within is not None else None

    def counts(uri: str) -> bool:
        return prefix is None or uri == prefix or uri.startswith(prefix + "/")

    log = _log(client)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    seen, last_change = before, 0.0  # 0: no publish of the folder yet
    while True:
        if len(log) > seen:
            if any(counts(uri) for uri, _ in log[seen:]):
                last_change = loop.time()
            seen = len(log)
        elif last_change and loop.time() - last_change >= QUIET:
            return {uri: items for uri, items in log[before:] if counts(uri)}
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


async def open_checked(
    client: LanguageClient, path: Path, text: str | None = None
) -> tuple[str, str, dict[str, list[types.Diagnostic]]]:
    """Open ``path`` (with ``text``, else its content) and wait for the check: (uri, text, burst)."""
    content = path.read_text("utf-8") if text is None else text
    before = mark(client)
    uri = open_file(client, path, content)
    return uri, content, await published(client, before)


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


def cli_diagnostics(capsys: pytest.CaptureFixture[str], specs: Path) -> list[tuple[str, ...]]:
    """`toolgen validate --error-format json`: (absolute path, line, col, code, severity, message, hint)."""
    from generator.cli import main

    capsys.readouterr()
    main(["validate", "--specs", str(specs), "--error-format", "json"])
    items = json.loads(capsys.readouterr().out or "[]")
    return sorted(
        (os.path.abspath(i["path"]), i["line"], i["col"], i["code"], i["severity"], i["message"], i["hint"])
        for i in items
    )


def state(client: LanguageClient, specs: Path) -> dict[str, list[types.Diagnostic]]:
    """What the client now holds for each file of the spec folder (the latest publish of each)."""
    prefix = path_to_uri(specs)
    return {uri: items for uri, items in client.diagnostics.items() if uri == prefix or uri.startswith(prefix + "/")}


def lsp_diagnostics(burst: dict[str, list[types.Diagnostic]], texts: dict[Path, str]) -> list[tuple[str, ...]]:
    """The published diagnostics in the CLI's terms: 1-based line, 1-based column in characters."""
    found = []
    for uri, items in burst.items():
        path = uri_to_path(uri)
        assert path is not None
        for item in items:
            line_text = line_of(texts.get(path, ""), item.range.start.line)
            col = from_utf16(line_text, item.range.start.character) + 1 if line_text else item.range.start.character + 1
            severity = "error" if item.severity == types.DiagnosticSeverity.Error else "warning"
            related = item.related_information or []
            hint = related[0].message.removeprefix("hint: ") if related else ""
            found.append((str(path), item.range.start.line + 1, col, str(item.code), severity, item.message, hint))
    return sorted(found)
