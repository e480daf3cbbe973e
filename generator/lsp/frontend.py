"""The language server's front end: one spec folder, checked as ``toolgen validate`` checks it,
with open editor buffers read in place of the files on disk.

A thin adapter over :class:`generator.workspace.Workspace` (the incremental front end the CLI
uses): buffers go in with ``set_text``, disk changes with ``refresh``, and the diagnostics are
the workspace's plus the checks of toolgen.yaml's outputs that ``validate`` adds (project.resolve).
Each answer is an immutable :class:`Analysis` that requests read while the next check runs.
"""

from __future__ import annotations

import argparse
import os
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..diagnostics import Diagnostic, Diagnostics, Location
from ..load import SourceFile
from ..model import Catalog
from ..outputs import targets
from ..project import PROJECT_FILE, Config, Overrides
from ..project import resolve as resolve_outputs
from ..resolve import ResolvedFamily
from ..specfiles import SpecFileError, require_size
from ..workspace import Workspace


@dataclass(frozen=True)
class Analysis:
    """One check of a spec folder: diagnostics by absolute file path, the loaded files by absolute
    path (with the position of every value), and the model when the specs have no errors."""

    specs: Path
    diagnostics: Mapping[Path, tuple[Diagnostic, ...]]
    sources: Mapping[Path, SourceFile]
    catalog: Catalog | None = None
    families: tuple[ResolvedFamily, ...] = ()
    texts: Mapping[Path, str] = field(default_factory=dict)


def find_spec_folder(path: Path) -> Path | None:
    """The spec folder a file belongs to: the nearest folder above it holding toolgen.yaml (a file
    in tools/ or variants/ belongs to the folder above those)."""
    for folder in path.parents:
        if os.path.lexists(folder / PROJECT_FILE):
            return folder
    return None


class Frontend:
    """One spec folder's workspace and the buffers handed to it; safe to call from any thread."""

    def __init__(self, specs: Path) -> None:
        self.specs = Path(os.path.abspath(specs))
        self._workspace = Workspace(self.specs)
        self._buffers: dict[Path, str] = {}
        self._lock = threading.Lock()

    def analyse(self, overlay: Mapping[Path, str], disk_changed: bool = False) -> Analysis:
        """Check the folder with ``overlay`` (absolute path -> unsaved text; files of other folders
        are ignored) read instead of the disk; ``disk_changed``: look at the disk again first."""
        with self._lock:
            ws = self._workspace
            mine = {path: text for path, text in overlay.items() if ws.name_of(path) is not None}
            oversized: dict[Path, Diagnostic] = {}
            for path in self._buffers.keys() - mine.keys():
                ws.set_text(path, None)
            for path, text in mine.items():
                if self._buffers.get(path) == text:
                    continue
                problem = _too_large(text)
                if problem is not None:  # not parsed: reported as a file that large on disk is
                    ws.set_text(path, None)
                    oversized[path] = Diagnostic(
                        Location(str(ws.name_of(path))), problem.code, problem.message, problem.hint
                    )
                else:
                    ws.set_text(path, text)
            self._buffers = {path: text for path, text in mine.items() if path not in oversized}
            if disk_changed:
                ws.refresh()
            return self._analysis(ws, oversized)

    def _analysis(self, ws: Workspace, oversized: Mapping[Path, Diagnostic]) -> Analysis:
        diags = ws.diagnostics()
        sources = ws.sources
        project = sources.get(str(ws.name_of(self.specs / PROJECT_FILE)))
        config = _config(project)
        early = Diagnostics()
        extra = targets(self.specs, argparse.Namespace(), config.block())
        resolve_outputs(self.specs, Overrides(), early, extra, config)
        by_file: dict[Path, list[Diagnostic]] = {}
        for item in [*diags.items, *early.items, *oversized.values()]:
            by_file.setdefault(self._path(ws, item.location.path), []).append(item)
        sorted_by_file = {path: tuple(Diagnostics(items).sorted()) for path, items in by_file.items()}
        front = ws.front()
        failed = diags.has_errors or early.has_errors or bool(oversized)
        by_path = {self._path(ws, name): source for name, source in sources.items()}
        return Analysis(
            self.specs,
            sorted_by_file,
            by_path,
            None if failed else front.catalog,
            () if failed or front.families is None else front.families,
            {path: source.text for path, source in by_path.items()},
        )

    def _path(self, ws: Workspace, name: str) -> Path:
        """The absolute path of a Location's path: a spec file's name, an output's absolute path,
        or the spec folder itself (its name alone)."""
        if os.path.isabs(name):
            return Path(name)
        if "/" not in name:
            return self.specs
        return Path(os.path.abspath(ws.path_of(name)))


def _too_large(text: str) -> SpecFileError | None:
    try:
        require_size(len(text.encode("utf-8", "surrogatepass")))
    except SpecFileError as exc:
        return exc
    return None


def _config(source: SourceFile | None) -> Config:
    """toolgen.yaml's outputs block as project.read_config gives it, from the (maybe unsaved) text."""
    if source is None or not isinstance(source.data, dict):
        return Config(None, source)
    return Config(source.data.get("outputs"), source)
