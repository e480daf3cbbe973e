"""The language server's front end: one spec folder, checked as ``toolgen validate`` checks it,
with open editor buffers read in place of the files on disk.

This is a thin adapter over the pipeline (load, meta-schema, semantics, lowering with its
provider-limit checks, and the output checks of toolgen.yaml) so that the server reports exactly
what the command line reports. An incremental workspace layer can replace it behind ``analyse``.
"""

from __future__ import annotations

import argparse
import gc
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..diagnostics import Diagnostic
from ..load import SourceFile
from ..model import Catalog
from ..outputs import targets
from ..pipeline import load_specs
from ..project import Config, Overrides
from ..project import resolve as resolve_outputs
from ..resolve import ResolvedFamily, resolve
from ..specfiles import spec_diagnostics, spec_folder_name

PROJECT_FILE = "toolgen.yaml"


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

    def source(self, path: Path) -> SourceFile | None:
        return self.sources.get(path)


def find_spec_folder(path: Path) -> Path | None:
    """The spec folder a file belongs to: the nearest folder above it holding toolgen.yaml (a file
    in tools/ or variants/ belongs to the folder above those)."""
    for folder in path.parents:
        if (folder / PROJECT_FILE).exists() or os.path.lexists(folder / PROJECT_FILE):
            return folder
    return None


def absolute(specs: Path, display: str) -> Path:
    """The absolute path of a Location's path: a spec file's in-run name (``specs/tools/x.yaml``)
    or an absolute path (an output, for the checks of toolgen.yaml)."""
    if os.path.isabs(display):
        return Path(display)
    name = spec_folder_name(specs)
    parts = display.split("/")
    if parts[0] == name:
        return specs.joinpath(*parts[1:])
    return Path(os.path.abspath(display))


def analyse(specs: Path, overlay: Mapping[Path, str]) -> Analysis:
    """Check ``specs`` with ``overlay`` (absolute path -> unsaved text) read instead of the disk."""
    from ..lower import emit_all, emit_typescript  # late: lowering pulls in jinja

    specs = specs.absolute()
    encoded = {path: text.encode("utf-8", "surrogatepass") for path, text in overlay.items()}
    diags = spec_diagnostics(specs)
    collecting = gc.isenabled()
    gc.disable()  # as the pipeline does: loading builds many long-lived objects
    try:
        loaded = load_specs(specs, diags, overlay=encoded)
    finally:
        if collecting:
            gc.enable()
    project_source = next((s for s in loaded.sources.values() if s.path.endswith("/" + PROJECT_FILE)), None)
    config = _config(project_source)
    extra = targets(specs, argparse.Namespace(), config.block())
    catalog: Catalog | None = loaded.catalog
    families: tuple[ResolvedFamily, ...] = ()
    if catalog is not None and not diags.has_errors:
        families = resolve(catalog)
        emit_all(catalog, families, diags, _discard)
        if any(target.key == "typescript" for target in extra):
            emit_typescript(catalog, families, diags, _discard)
    resolve_outputs(specs, Overrides(), diags, extra, config)
    by_file: dict[Path, list[Diagnostic]] = {}
    for item in diags.sorted():
        by_file.setdefault(absolute(specs, item.location.path), []).append(item)
    sources = {absolute(specs, s.path): s for s in loaded.sources.values()}
    return Analysis(
        specs,
        {path: tuple(items) for path, items in by_file.items()},
        sources,
        catalog if not diags.has_errors else None,
        families if not diags.has_errors else (),
        {path: s.text for path, s in sources.items()},
    )


def _discard(name: str, data: bytes) -> None:
    """A sink for rendered files: the server only wants the checks lowering makes."""


def _config(source: SourceFile | None) -> Config:
    """toolgen.yaml's outputs block as project.read_config gives it, from the (maybe unsaved) text."""
    if source is None or not isinstance(source.data, dict):
        return Config(None, source)
    return Config(source.data.get("outputs"), source)
