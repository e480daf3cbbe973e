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
from .outputs import OUTPUTTERS
from .specfiles import spec_diagnostics
from .workspace import Loaded, Workspace, no_cyclic_collection


@dataclass
class Result:
    diagnostics: Diagnostics
    catalog: Catalog | None = None
    files: dict[str, bytes] = field(default_factory=dict)  # relative to --out (empty when streamed to a sink)
    docs: dict[str, bytes] = field(default_factory=dict)  # relative to the project root
    # per extra target (outputs.OUTPUTTERS key): its files, relative to its folder
    targets: dict[str, dict[str, bytes]] = field(default_factory=dict)


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


#: What ``run`` does with an extra target's files: True keeps them in ``Result.targets``, a sink receives them.
TargetSink = Callable[[str, bytes], None] | bool


def run(
    specs: Path,
    sink: Callable[[str, bytes], None] | None = None,
    targets: Mapping[str, TargetSink] | None = None,
    workspace: Workspace | None = None,
) -> Result:
    """The whole pure part of a run: every output file, or diagnostics explaining why not.

    With a ``sink`` (``write.Staging``), each generated file is handed to it as soon as it is
    rendered and ``Result.files`` stays empty: the CLI never holds the whole output in memory.
    Files may have reached the sink before a lowering error is reported, so the caller throws
    them away when the diagnostics have errors. ``targets`` asks for extra targets too, by their
    ``outputs.OUTPUTTERS`` key ("typescript"), in the table's order: True keeps a target's files in
    ``Result.targets``, a sink receives them file by file. ``workspace`` is the front end to
    render from (``--watch`` keeps one across runs); by default a fresh one.
    """
    from .lower import emit_all, emit_target  # imported late: lowering pulls in jinja

    asked = dict(targets or {})
    unknown = sorted(set(asked) - {outputter.key for outputter in OUTPUTTERS})
    if unknown:
        raise ValueError(f"unknown targets {unknown}; known: {[outputter.key for outputter in OUTPUTTERS]}")

    _large_blocks_by_mmap()
    # A workspace given is a long-lived one (``--watch``): rendering keeps its parts there too.
    reuse = workspace.renders() if workspace is not None else None
    front = (workspace or Workspace(specs)).front()
    diags = spec_diagnostics(specs)
    diags.extend(front.diagnostics.items)
    catalog, families = front.catalog, front.families
    result = Result(diags, catalog)
    if catalog is None or families is None or diags.has_errors:
        return result
    # The model is large and long-lived: freezing it keeps the cyclic collector from rescanning it.
    # Rendering makes many objects of its own (every format's entries, the literals' one-line
    # forms) and next to no cycles: at 5,000 tools the collector still ran 17 full passes over
    # them during a render, found nothing and took 4.8 s, so it waits until the render is done.
    gc.freeze()
    try:
        with no_cyclic_collection():
            files, docs = emit_all(catalog, families, diags, sink, reuse)
            extra: dict[str, dict[str, bytes]] = {}
            for outputter in OUTPUTTERS:
                wanted = asked.get(outputter.key, False)
                if wanted is not False:
                    sent = None if wanted is True else wanted
                    extra[outputter.key] = emit_target(outputter.emit, catalog, families, diags, sent)
    finally:
        gc.unfreeze()
    if diags.has_errors:
        return result
    result.files, result.docs, result.targets = files, docs, extra
    return result
