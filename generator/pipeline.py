"""Orchestration: specs/ in (through the workspace, generator/workspace.py), a mapping of relative
paths to bytes out. Nothing here writes files."""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from .diagnostics import Diagnostics
from .model import Catalog
from .specfiles import spec_diagnostics
from .workspace import Loaded, Workspace


@dataclass
class Result:
    diagnostics: Diagnostics
    catalog: Catalog | None = None
    files: dict[str, bytes] = field(default_factory=dict)  # relative to --out (empty when streamed to a sink)
    docs: dict[str, bytes] = field(default_factory=dict)  # relative to the project root
    ts_files: dict[str, bytes] = field(default_factory=dict)  # the TypeScript package, relative to its folder


def load_catalog(specs: Path, diags: Diagnostics) -> Catalog | None:
    """Load, check against the meta-schema, then check references and build the model."""
    return load_specs(specs, diags).catalog


def load_specs(specs: Path, diags: Diagnostics, prefix: str | None = None) -> Loaded:
    """The spec folder on disk, loaded (a :class:`Workspace` asked once); its findings go to ``diags``.

    Files are named as :func:`display_path` names them, or ``prefix + path in the folder``.
    """
    workspace = Workspace(specs, prefix=prefix)
    if prefix is None:
        diags.specs = diags.specs or spec_diagnostics(specs).specs
    diags.extend(workspace.front().diagnostics.items)
    return workspace.loaded()


def load_tree(files: Mapping[str, bytes], prefix: str, diags: Diagnostics) -> Loaded:
    """:func:`load_specs` for a spec folder held in memory (an older git revision, say).

    ``files`` maps paths relative to the spec folder to their bytes; diagnostics name a file
    ``prefix + path`` (``"HEAD~1:specs/" + "tools/read_file.yaml"``). Only the files a spec
    folder on disk would be read from count: toolgen.yaml, parameters.yaml and the ``*.yaml``
    directly in tools/ and variants/ (hidden names skipped).
    """
    workspace = Workspace.in_memory(files, prefix)
    diags.extend(workspace.front().diagnostics.items)
    return workspace.loaded()


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
    workspace: Workspace | None = None,
) -> Result:
    """The whole pure part of a run: every output file, or diagnostics explaining why not.

    With a ``sink`` (``write.Staging``), each generated file is handed to it as soon as it is
    rendered and ``Result.files`` stays empty: the CLI never holds the whole output in memory.
    Files may have reached the sink before a lowering error is reported, so the caller throws
    them away when the diagnostics have errors. ``typescript`` asks for the TypeScript package too:
    True keeps it in ``Result.ts_files``, a sink receives it file by file. ``workspace`` is the
    front end to render from (``--watch`` keeps one across runs); by default a fresh one.
    """
    from .lower import emit_all, emit_typescript  # imported late: lowering pulls in jinja

    _large_blocks_by_mmap()
    front = (workspace or Workspace(specs)).front()
    diags = spec_diagnostics(specs)
    diags.extend(front.diagnostics.items)
    catalog, families = front.catalog, front.families
    result = Result(diags, catalog)
    if catalog is None or families is None or diags.has_errors:
        return result
    # The model is large and long-lived: freezing it keeps the cyclic collector from rescanning it
    # again and again while rendering collects its own cycles as usual.
    gc.freeze()
    try:
        files, docs = emit_all(catalog, families, diags, sink)
        ts_files: dict[str, bytes] = {}
        if typescript:
            ts_files = emit_typescript(catalog, families, diags, None if typescript is True else typescript)
    finally:
        gc.unfreeze()
    if diags.has_errors:
        return result
    result.files, result.docs, result.ts_files = files, docs, ts_files
    return result
