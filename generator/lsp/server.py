"""The language server: pygls wiring, the checks as you type, and the guards that keep it alive.

Every edit marks its spec folder stale; one task at a time re-checks stale folders (in a worker
thread, so requests are answered meanwhile) and publishes the diagnostics of every file of the
folder, clearing the files that have none any more. Each request runs against the latest check
and the buffer's current text; an exception in any of them is logged and answered with nothing,
never allowed to stop the server.
"""

from __future__ import annotations

import asyncio
import logging
import traceback
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from .. import __version__
from ..diagnostics import Diagnostic, Location
from . import actions, complete, hover, navigate, symbols
from .convert import to_lsp
from .frontend import Analysis, Frontend, find_spec_folder
from .session import Session
from .text import path_to_uri, uri_to_path

T = TypeVar("T")
log = logging.getLogger("toolgen.lsp")


class SpecServer(LanguageServer):
    """A pygls server holding, per spec folder, the latest check and the files it published."""

    def __init__(self) -> None:
        super().__init__("toolgen", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        self.analyses: dict[Path, Analysis] = {}
        self.last_good: dict[Path, Analysis] = {}  # the latest check without errors: hover keeps working
        self.published: dict[Path, dict[str, list[types.Diagnostic]]] = {}  # by folder: what each file was sent
        self.stale: set[Path] = set()
        self.disk_changed: set[Path] = set()  # folders whose files changed on disk (not through a buffer)
        self.frontends: dict[Path, Frontend] = {}
        self.checking: asyncio.Task[None] | None = None

    def overlay(self) -> dict[Path, str]:
        """Every open buffer's text by absolute path (unsaved edits included)."""
        texts: dict[Path, str] = {}
        for uri, document in list(self.workspace.text_documents.items()):
            path = uri_to_path(uri)
            if path is not None:
                texts[path] = document.source
        return texts

    def folder_of(self, path: Path) -> Path | None:
        """The spec folder of a file: the nearest above it with toolgen.yaml or, when toolgen.yaml
        has gone (deleted, renamed), the nearest folder already checked, which then says so."""
        found = find_spec_folder(path)
        if found is not None:
            return found
        known = [folder for folder in self.frontends if folder in path.parents]
        return max(known, key=lambda folder: len(folder.parts)) if known else None

    def session(self, uri: str) -> Session | None:
        """What a request needs: the folder's latest check and the buffer's current text."""
        path = uri_to_path(uri)
        folder = self.folder_of(path) if path is not None else None
        if path is None or folder is None:
            return None
        analysis = self.analyses.get(folder) or self.check_now(folder)
        document = self.workspace.get_text_document(uri)
        return Session(
            path, document.source, analysis, self.last_good.get(folder), self.overlay(), self.renames_files()
        )

    def renames_files(self) -> bool:
        """Whether the client applies file renames inside a workspace edit (tool and family renames)."""
        workspace = self.client_capabilities.workspace
        edit = workspace.workspace_edit if workspace is not None else None
        if edit is None or not edit.document_changes:
            return False
        return types.ResourceOperationKind.Rename in (edit.resource_operations or ())

    def mark_stale(self, uri: str, on_disk: bool = False) -> None:
        path = uri_to_path(uri)
        folder = self.folder_of(path) if path is not None else None
        if folder is None:
            return
        self.stale.add(folder)
        if on_disk:
            self.disk_changed.add(folder)
        if self.checking is None or self.checking.done():
            self.checking = asyncio.ensure_future(self._check_stale())

    async def _check_stale(self) -> None:
        loop = asyncio.get_running_loop()
        while self.stale:
            await asyncio.sleep(0)  # edits already queued land before the check starts
            folder = self.stale.pop()
            overlay = self.overlay()
            disk = folder in self.disk_changed
            self.disk_changed.discard(folder)
            analysis = await loop.run_in_executor(None, _guarded_analyse, self.frontend(folder), overlay, disk)
            if folder in self.stale:
                continue  # edited again meanwhile: the next round publishes
            self._keep(folder, analysis)
            _safe("publishDiagnostics", partial(self.publish, folder, analysis, overlay), None)

    def frontend(self, folder: Path) -> Frontend:
        if folder not in self.frontends:
            self.frontends[folder] = Frontend(folder)
        return self.frontends[folder]

    def check_now(self, folder: Path) -> Analysis:
        analysis = _guarded_analyse(self.frontend(folder), self.overlay(), False)
        self._keep(folder, analysis)
        return analysis

    def _keep(self, folder: Path, analysis: Analysis) -> None:
        self.analyses[folder] = analysis
        if analysis.catalog is not None:
            self.last_good[folder] = analysis

    def publish(self, folder: Path, analysis: Analysis, overlay: dict[Path, str]) -> None:
        """Send the diagnostics of each open file of the folder (an empty list when it has none:
        the client learns its buffer was checked), and of each other file whose diagnostics
        changed (an empty list when they are gone). A catalog of thousands of tools with a warning
        each costs one message per keystroke, not thousands."""
        opened = {path_to_uri(path) for path in overlay if self.folder_of(path) == folder}
        previous = self.published.get(folder, {})
        now: dict[str, list[types.Diagnostic]] = {}
        for path, items in analysis.diagnostics.items():
            text = overlay.get(path, analysis.texts.get(path, ""))
            now[path_to_uri(path)] = [to_lsp(item, path, text) for item in items]
        for uri in sorted(now.keys() | previous.keys() | opened):
            diagnostics = now.get(uri, [])
            if uri in opened or previous.get(uri, []) != diagnostics:
                self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics))
        self.published[folder] = now


def _guarded_analyse(frontend: Frontend, overlay: dict[Path, str], disk_changed: bool) -> Analysis:
    """A check that cannot raise: a bug becomes one diagnostic on toolgen.yaml, and the server lives."""
    folder = frontend.specs
    try:
        return frontend.analyse(overlay, disk_changed)
    except (Exception, RecursionError, MemoryError) as exc:  # a bug in toolgen: say so, stay up
        log.error("check of %s failed:\n%s", folder, traceback.format_exc())
        where = folder / "toolgen.yaml"
        problem = Diagnostic(
            Location(str(where)),
            "E999",
            f"internal error while checking: {type(exc).__name__}: {exc}",
            "please report this with the specs that triggered it; the server keeps running",
        )
        return Analysis(folder, {where: (problem,)}, {})


def _safe(name: str, call: Callable[[], T], default: T) -> T:
    """Run one request; an exception is logged and answered with ``default``."""
    try:
        return call()
    except Exception:  # a bug must cost one answer, never the server
        log.error("%s failed:\n%s", name, traceback.format_exc())
        return default


def build() -> SpecServer:
    server = SpecServer()

    @server.feature(types.INITIALIZED)
    def initialized(ls: SpecServer, params: types.InitializedParams) -> None:
        """Ask the client to tell us about spec files changed on disk (a checkout, a generator)."""
        watched = ls.client_capabilities.workspace
        changes = watched.did_change_watched_files if watched is not None else None
        if changes is None or not changes.dynamic_registration:
            return
        options = types.DidChangeWatchedFilesRegistrationOptions(
            watchers=[types.FileSystemWatcher(glob_pattern="**/*.{yaml,yml}")]
        )
        ls.client_register_capability(
            types.RegistrationParams(
                [types.Registration("toolgen-specs", types.WORKSPACE_DID_CHANGE_WATCHED_FILES, options)]
            )
        )

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: SpecServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.mark_stale(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: SpecServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.mark_stale(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: SpecServer, params: types.DidSaveTextDocumentParams) -> None:
        ls.mark_stale(params.text_document.uri, on_disk=True)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: SpecServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.mark_stale(params.text_document.uri)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def watched(ls: SpecServer, params: types.DidChangeWatchedFilesParams) -> None:
        for change in params.changes:
            ls.mark_stale(change.uri, on_disk=True)

    def with_session(uri: str, name: str, answer: Callable[[Session], T], default: T) -> T:
        def run() -> T:
            session = server.session(uri)
            return default if session is None else answer(session)

        return _safe(name, run, default)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def on_hover(ls: SpecServer, params: types.HoverParams) -> types.Hover | None:
        return with_session(params.text_document.uri, "hover", lambda s: hover.hover(s, params.position), None)

    @server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=[":", " ", "{", "-"]))
    def on_complete(ls: SpecServer, params: types.CompletionParams) -> types.CompletionList | None:
        return with_session(
            params.text_document.uri, "completion", lambda s: complete.complete(s, params.position), None
        )

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    def on_definition(ls: SpecServer, params: types.DefinitionParams) -> list[types.Location] | None:
        return with_session(
            params.text_document.uri, "definition", lambda s: navigate.definition(s, params.position), None
        )

    @server.feature(types.TEXT_DOCUMENT_REFERENCES)
    def on_references(ls: SpecServer, params: types.ReferenceParams) -> list[types.Location] | None:
        return with_session(
            params.text_document.uri, "references", lambda s: navigate.references(s, params.position), None
        )

    @server.feature(types.TEXT_DOCUMENT_PREPARE_RENAME)
    def on_prepare_rename(ls: SpecServer, params: types.PrepareRenameParams) -> types.Range | None:
        return with_session(
            params.text_document.uri, "prepareRename", lambda s: navigate.prepare_rename(s, params.position), None
        )

    @server.feature(types.TEXT_DOCUMENT_RENAME, types.RenameOptions(prepare_provider=True))
    def on_rename(ls: SpecServer, params: types.RenameParams) -> types.WorkspaceEdit | None:
        return with_session(
            params.text_document.uri,
            "rename",
            lambda s: navigate.rename(s, params.position, params.new_name),
            None,
        )

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix])
    )
    def on_code_action(ls: SpecServer, params: types.CodeActionParams) -> list[types.CodeAction] | None:
        return with_session(params.text_document.uri, "codeAction", lambda s: actions.code_actions(s, params), None)

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def on_symbols(ls: SpecServer, params: types.DocumentSymbolParams) -> list[types.DocumentSymbol] | None:
        return with_session(params.text_document.uri, "documentSymbol", symbols.document_symbols, None)

    @server.feature(types.TEXT_DOCUMENT_FOLDING_RANGE)
    def on_folding(ls: SpecServer, params: types.FoldingRangeParams) -> list[types.FoldingRange] | None:
        return with_session(params.text_document.uri, "foldingRange", symbols.folding_ranges, None)

    return server


def serve(argv: Any = None) -> int:
    """Run the server on stdin/stdout until the client says exit."""
    logging.basicConfig(level=logging.WARNING, format="toolgen lsp: %(message)s")
    build().start_io()
    return 0
