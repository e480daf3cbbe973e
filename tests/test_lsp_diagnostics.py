"""`toolgen lsp` reports what `toolgen validate` reports, byte for byte in message, hint and
position, on every hostile spec tree of tests/test_hostile_specs.py; and no bad input stops it.

The cases that need a monkeypatched process (unreadable files, as root) or remove the spec
folder itself (nothing left to open) are left to test_hostile_specs.py.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from conftest import FIXTURE_SPECS, copy_specs
from generator.lsp.text import path_to_uri
from generator.specfiles import MAX_FILE_BYTES
from lsp_session import (
    SERVER,
    cli_diagnostics,
    insert,
    lsp_diagnostics,
    mark,
    open_file,
    published,
    replace_all,
    start,
    state,
)
from test_hostile_specs import CASES, Case

pytestmark = pytest.mark.asyncio(loop_scope="module")

SERVED = [case for case in CASES if not case.id.endswith("-unreadable") and not case.id.startswith("specs-")]


@pytest_lsp.fixture(config=SERVER, scope="module")
async def client(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    await start(lsp_client)
    yield
    await lsp_client.shutdown_session()


def disk_texts(specs: Path) -> dict[Path, str]:
    """The text of every regular spec file small enough to read (for columns after non-ASCII)."""
    texts = {}
    for path in specs.rglob("*.yaml"):
        try:
            info = os.stat(path)
        except OSError:
            continue
        if stat.S_ISREG(info.st_mode) and info.st_size <= MAX_FILE_BYTES:
            texts[path] = path.read_bytes().decode("utf-8", "replace")
    return texts


def close(client: LanguageClient, uri: str) -> None:
    client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri)))


@pytest.mark.parametrize("case", SERVED, ids=lambda case: case.id)
async def test_hostile_spec_diagnostics_equal_the_cli(
    client: LanguageClient,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    case: Case,
) -> None:
    specs = copy_specs(FIXTURE_SPECS, tmp_path)
    case.build(specs, monkeypatch)
    before = mark(client)
    opened = next(p for p in (specs / "tools/read_file.yaml", specs / "toolgen.yaml") if p.is_file())
    uri = open_file(client, opened)
    await published(client, before, specs)
    expected = cli_diagnostics(capsys, specs)
    assert any(item[3] == case.code for item in expected)
    assert lsp_diagnostics(state(client, specs), disk_texts(specs)) == expected
    close(client, uri)


async def test_bundled_specs_diagnostics_equal_the_cli(
    client: LanguageClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    specs = copy_specs(Path(__file__).parent.parent / "specs", tmp_path)
    before = mark(client)
    uri = open_file(client, specs / "tools/read_file.yaml")
    await published(client, before, specs)
    expected = cli_diagnostics(capsys, specs)
    assert [item[3] for item in expected] == ["W501"] * 5  # the provider limits a checks-only run would miss
    assert lsp_diagnostics(state(client, specs), disk_texts(specs)) == expected
    # a keystroke that changes no diagnostics: only the open file hears back, not the files with warnings
    text = (specs / "tools/read_file.yaml").read_text("utf-8")
    before = mark(client)
    prose = text.count("\n", 0, text.index("description:")) + 1  # the first line of its text
    insert(client, uri, prose, len(text.split("\n")[prose]), " x", 2)
    assert {u: list(d) for u, d in (await published(client, before, specs)).items()} == {uri: []}
    close(client, uri)


async def _still_answers(client: LanguageClient, uri: str) -> None:
    """The server answers the next request after the bad input."""
    answer = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(types.TextDocumentIdentifier(uri))
    )
    assert answer is None or isinstance(answer, list)


def binary(path: Path) -> None:
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))


def huge(path: Path) -> None:
    with open(path, "wb") as handle:
        handle.truncate(50 * 1024 * 1024)


def loop(path: Path) -> None:
    path.unlink(missing_ok=True)
    os.symlink(path.name, path)


@pytest.mark.parametrize(
    "make, code",
    [
        (binary, "E100"),
        (huge, "E100"),
        (loop, "E106"),
        (lambda path: path.unlink(), "E301"),
        (lambda path: (path.parent.parent / "toolgen.yaml").unlink(), "E100"),
    ],
    ids=["binary-file", "50-MB-file", "symlink-loop", "deleted-under-the-buffer", "project-file-deleted"],
)
async def test_bad_file_on_disk_is_a_diagnostic(
    client: LanguageClient,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    make,
    code: str,  # type: ignore[no-untyped-def]
) -> None:
    """The file an editor had open turns bad on disk; the editor closes or reloads it."""
    specs = copy_specs(FIXTURE_SPECS, tmp_path)
    todo = specs / "tools/todo.yaml"
    uri = open_file(client, todo)
    await published(client, mark(client), specs)
    make(todo)
    before = mark(client)
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams([types.FileEvent(uri, types.FileChangeType.Changed)])
    )
    close(client, uri)
    await published(client, before, specs)
    expected = cli_diagnostics(capsys, specs)
    assert any(item[3] == code for item in expected), expected
    assert lsp_diagnostics(state(client, specs), disk_texts(specs)) == expected
    await _still_answers(client, path_to_uri(specs / "tools/ask.yaml"))


async def test_huge_and_binary_buffers_are_diagnostics(client: LanguageClient, tmp_path: Path) -> None:
    """What an editor sends for a binary or very large file open in it."""
    specs = copy_specs(FIXTURE_SPECS, tmp_path)
    todo = specs / "tools/todo.yaml"
    uri = open_file(client, todo)
    await published(client, mark(client), specs)
    for text, message in [
        ("x" * (MAX_FILE_BYTES + 1), f"file is larger than {MAX_FILE_BYTES} bytes"),
        ("\x89PNG\r\n\x1a\n\x00\x00\ufffd\ufffd", "character U+0089 is not allowed in YAML"),
    ]:
        before = mark(client)
        replace_all(client, uri, text, 2)
        burst = await published(client, before, specs)
        assert [d.message for d in burst[uri] if d.code == "E100"] == [message]
        await _still_answers(client, uri)
    close(client, uri)


async def test_half_typed_yaml_is_a_diagnostic_and_the_server_answers(client: LanguageClient, tmp_path: Path) -> None:
    specs = copy_specs(FIXTURE_SPECS, tmp_path)
    path = specs / "tools/ask.yaml"
    text = path.read_text("utf-8")
    uri = open_file(client, path)
    await published(client, mark(client))
    version = 2
    for cut in range(len(text) - 40, len(text), 7):  # typing the end of the file again, a few characters at a time
        before = mark(client)
        replace_all(client, uri, text[:cut] + "\n  bad: [unclosed\n", version)
        version += 1
        burst = await published(client, before, specs)
        assert burst[uri] and all(d.source == "toolgen" for d in burst[uri])
        await _still_answers(client, uri)
    hover = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(5, 6))
    )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    # the file does not parse: the hover shows the last model without errors, and says so
    assert hover.contents.value.startswith("_(as of the last check without errors)_\n\n**generic/ask**")
    assert path_to_uri(path) == uri
    close(client, uri)
