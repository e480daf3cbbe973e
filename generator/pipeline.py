"""Orchestration: specs/ in, a mapping of relative paths to bytes out. Nothing here writes files."""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from .diagnostics import Diagnostics, Location, shown
from .load import SourceFile, load_file
from .model import Catalog
from .resolve import resolve
from .semantics import build_catalog
from .specfiles import display_path, is_hidden, not_a_folder, spec_diagnostics, spec_files, spec_folder_name
from .validate import check_schema


@dataclass
class Result:
    diagnostics: Diagnostics
    catalog: Catalog | None = None
    files: dict[str, bytes] = field(default_factory=dict)  # relative to --out (empty when streamed to a sink)
    docs: dict[str, bytes] = field(default_factory=dict)  # relative to the project root
    ts_files: dict[str, bytes] = field(default_factory=dict)  # the TypeScript package, relative to its folder


def load_catalog(specs: Path, diags: Diagnostics) -> Catalog | None:
    """Load, check against the meta-schema, then check references and build the model."""
    diags.specs = diags.specs or spec_diagnostics(specs).specs
    if not _folders_usable(specs, diags):
        return None
    if not os.path.lexists(specs / "toolgen.yaml"):
        diags.error(
            Location(f"{spec_folder_name(specs)}/toolgen.yaml"),
            "E100",
            f"no project file at {shown(specs / 'toolgen.yaml')}",
            "pass --specs DIR pointing at a folder with toolgen.yaml, tools/ and variants/",
        )
        return None

    def load(path: Path, kind: str, depth: int) -> SourceFile | None:
        source = load_file(path, display_path(specs, path), diags)
        if source.data is None and not diags.has_errors:
            check_schema(source, kind, depth, diags)
            return None
        if source.data is None:
            return None
        return source if check_schema(source, kind, depth, diags) else None

    project = load(specs / "toolgen.yaml", "project", 0)
    shared_path = specs / "parameters.yaml"
    shared = load(shared_path, "parameters", 0) if os.path.lexists(shared_path) else None
    tools = [load(p, "tool", 1) for p in spec_files(specs / "tools")]
    families = [load(p, "family", 1) for p in spec_files(specs / "variants")]
    for path in sorted(p for p in specs.rglob("*.yml") if not is_hidden(p)):
        diags.warning(Location(display_path(specs, path)), "W201", "'.yml' files are ignored", "rename it to .yaml")
    if project is None or diags.has_errors:
        return None
    return build_catalog(
        project,
        shared,
        [t for t in tools if t is not None],
        [f for f in families if f is not None],
        diags,
    )


def _folders_usable(specs: Path, diags: Diagnostics) -> bool:
    """specs/ must be a folder; tools/ and variants/ may be missing but, when present, must be folders.

    Checked before anything resolves or globs these paths: a symlink loop would make those raise,
    and globbing a file or an unreadable folder silently finds no specs.
    """
    if not os.path.isdir(specs):
        what = "does not exist" if not os.path.lexists(specs) else not_a_folder(specs)
        diags.error(
            Location(spec_folder_name(specs)),
            "E106",
            f"spec folder {what}",
            "pass --specs DIR pointing at a folder with toolgen.yaml, tools/ and variants/",
        )
        return False
    if not _readable(specs, spec_folder_name(specs), diags):
        return False
    usable = True
    for name in ("tools", "variants"):
        folder = specs / name
        if os.path.lexists(folder) and not os.path.isdir(folder):
            diags.error(
                Location(display_path(specs, folder)),
                "E106",
                f"{name} {not_a_folder(folder)}",
                f"{name}/ must be a folder holding one .yaml file per {name[:-1] if name == 'tools' else 'family'}",
            )
            usable = False
        elif os.path.isdir(folder):
            usable = _readable(folder, display_path(specs, folder), diags) and usable
    return usable


def _readable(folder: Path, display: str, diags: Diagnostics) -> bool:
    try:
        os.scandir(folder).close()
        return True
    except OSError as exc:
        diags.error(
            Location(display), "E100", f"cannot read folder: {exc.strerror}", "make it readable (e.g. chmod a+rx)"
        )
        return False


M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter (malloc.h)


@cache
def _large_blocks_by_mmap() -> None:
    """Serve blocks of 1 MB and more by mmap (glibc), so that freeing one gives its pages back.

    glibc raises its mmap threshold to the largest block freed so far (up to 32 MB). Once the first
    rendered module of tens of MB is freed, the next ones come from the heap, which then stays
    fragmented and resident: about 30 MB more at the peak of 5,000 tools (docs/performance.md).
    Best effort: nothing happens where there is no glibc mallopt.
    """
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        mallopt = ctypes.CDLL(None).mallopt
    except (ImportError, OSError, AttributeError):
        return
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt(M_MMAP_THRESHOLD, 1 << 20)


def run(
    specs: Path,
    sink: Callable[[str, bytes], None] | None = None,
    typescript: Callable[[str, bytes], None] | bool = False,
) -> Result:
    """The whole pure part of a run: every output file, or diagnostics explaining why not.

    With a ``sink`` (``write.Staging``), each generated file is handed to it as soon as it is
    rendered and ``Result.files`` stays empty: the CLI never holds the whole output in memory.
    Files may have reached the sink before a lowering error is reported, so the caller throws
    them away when the diagnostics have errors. ``typescript`` asks for the TypeScript package too:
    True keeps it in ``Result.ts_files``, a sink receives it file by file.
    """
    from .lower import emit_all, emit_typescript  # imported late: lowering pulls in jinja

    _large_blocks_by_mmap()

    # Loading builds a large, long-lived model: the cyclic garbage collector would rescan it again
    # and again (superlinear at thousands of tools). So collection is off while loading, and the
    # model is then frozen out of the collector's view; rendering collects its own cycles as usual.
    collecting = gc.isenabled()
    gc.disable()
    try:
        diags = spec_diagnostics(specs)
        catalog = load_catalog(specs, diags)
        result = Result(diags, catalog)
        if catalog is None or diags.has_errors:
            return result
        families = resolve(catalog)
        gc.freeze()
        if collecting:
            gc.enable()
        files, docs = emit_all(catalog, families, diags, sink)
        ts_files: dict[str, bytes] = {}
        if typescript:
            ts_files = emit_typescript(catalog, families, diags, None if typescript is True else typescript)
        if diags.has_errors:
            return result
        result.files, result.docs, result.ts_files = files, docs, ts_files
        return result
    finally:
        gc.unfreeze()
        if collecting:
            gc.enable()
