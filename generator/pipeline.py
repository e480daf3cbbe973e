"""Orchestration: specs/ in, a mapping of relative paths to bytes out. Nothing here writes files."""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from .diagnostics import Diagnostics, Location, shown
from .load import SourceFile, load_bytes, load_file
from .model import Catalog
from .outputs import OUTPUTTERS
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
    # per extra target (outputs.OUTPUTTERS key): its files, relative to its folder
    targets: dict[str, dict[str, bytes]] = field(default_factory=dict)


def load_catalog(specs: Path, diags: Diagnostics) -> Catalog | None:
    """Load, check against the meta-schema, then check references and build the model."""
    return load_specs(specs, diags).catalog


@dataclass
class Loaded:
    """A loaded spec set: the model (None after errors) and every file read, by its display path.

    The files keep the position of every value, for tools that report on more than the model
    records (``toolgen breaking`` locates context fields and handler bindings with them).
    """

    catalog: Catalog | None = None
    sources: dict[str, SourceFile] = field(default_factory=dict)


# Reads one spec file, given by its path relative to the spec folder ('tools/read_file.yaml').
SpecReader = Callable[[str], SourceFile]


def load_specs(specs: Path, diags: Diagnostics, prefix: str | None = None) -> Loaded:
    """:func:`load_catalog` for the spec folder on disk, keeping the loaded files.

    Files are named as :func:`display_path` names them, or ``prefix + path in the folder``.
    """

    def display(path: Path) -> str:
        return display_path(specs, path) if prefix is None else prefix + path.relative_to(specs).as_posix()

    if prefix is None:
        diags.specs = diags.specs or spec_diagnostics(specs).specs
    if not _folders_usable(specs, diags):
        return Loaded()
    if not os.path.lexists(specs / "toolgen.yaml"):
        diags.error(
            Location(f"{spec_folder_name(specs)}/toolgen.yaml"),
            "E100",
            f"no project file at {shown(specs / 'toolgen.yaml')}",
            "pass --specs DIR pointing at a folder with toolgen.yaml, tools/ and variants/",
        )
        return Loaded()
    for path in sorted(p for p in specs.rglob("*.yml") if not is_hidden(p)):
        diags.warning(Location(display(path)), "W201", "'.yml' files are ignored", "rename it to .yaml")

    def read(rel: str) -> SourceFile:
        return load_file(specs / rel, display(specs / rel), diags)

    return _build(
        read,
        shared=os.path.lexists(specs / "parameters.yaml"),
        tools=[f"tools/{p.name}" for p in spec_files(specs / "tools")],
        families=[f"variants/{p.name}" for p in spec_files(specs / "variants")],
        diags=diags,
    )


def load_tree(files: Mapping[str, bytes], prefix: str, diags: Diagnostics) -> Loaded:
    """:func:`load_catalog` for a spec folder held in memory (an older git revision, say).

    ``files`` maps paths relative to the spec folder to their bytes; diagnostics name a file
    ``prefix + path`` (``"HEAD~1:specs/" + "tools/read_file.yaml"``). Only the files a spec
    folder on disk would be read from count: toolgen.yaml, parameters.yaml and the ``*.yaml``
    directly in tools/ and variants/ (hidden names skipped).
    """
    if "toolgen.yaml" not in files:
        diags.error(
            Location(f"{prefix}toolgen.yaml"),
            "E100",
            f"no project file at {prefix}toolgen.yaml",
            "check the revision and the spec folder: toolgen.yaml, tools/ and variants/ belong together",
        )
        return Loaded()

    def listed(folder: str) -> list[str]:
        names = (rel.partition("/")[2] for rel in files if rel.startswith(folder + "/"))
        return sorted(f"{folder}/{name}" for name in names if _is_spec_name(name))

    for rel in sorted(rel for rel in files if rel.endswith(".yml") and not _hidden_part(rel)):
        diags.warning(Location(prefix + rel), "W201", "'.yml' files are ignored", "rename it to .yaml")
    return _build(
        lambda rel: load_bytes(files[rel], prefix + rel, diags),
        shared="parameters.yaml" in files,
        tools=listed("tools"),
        families=listed("variants"),
        diags=diags,
    )


def _is_spec_name(name: str) -> bool:
    return name.endswith(".yaml") and "/" not in name and not name.startswith(".")


def _hidden_part(rel: str) -> bool:
    return any(part.startswith(".") for part in rel.split("/"))


def _build(read: SpecReader, *, shared: bool, tools: list[str], families: list[str], diags: Diagnostics) -> Loaded:
    """Load the named files, check each against its meta-schema, then build the model."""
    loaded = Loaded()

    def load(rel: str, kind: str, depth: int) -> SourceFile | None:
        source = read(rel)
        loaded.sources[source.path] = source
        if source.data is None and not diags.has_errors:
            check_schema(source, kind, depth, diags)
            return None
        if source.data is None:
            return None
        return source if check_schema(source, kind, depth, diags) else None

    project = load("toolgen.yaml", "project", 0)
    shared_source = load("parameters.yaml", "parameters", 0) if shared else None
    tool_sources = [load(rel, "tool", 1) for rel in tools]
    family_sources = [load(rel, "family", 1) for rel in families]
    if project is None or diags.has_errors:
        return loaded
    loaded.catalog = build_catalog(
        project,
        shared_source,
        [t for t in tool_sources if t is not None],
        [f for f in family_sources if f is not None],
        diags,
    )
    return loaded


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


#: What ``run`` does with an extra target's files: True keeps them in ``Result.targets``, a sink receives them.
TargetSink = Callable[[str, bytes], None] | bool


def run(
    specs: Path,
    sink: Callable[[str, bytes], None] | None = None,
    targets: Mapping[str, TargetSink] | None = None,
) -> Result:
    """The whole pure part of a run: every output file, or diagnostics explaining why not.

    With a ``sink`` (``write.Staging``), each generated file is handed to it as soon as it is
    rendered and ``Result.files`` stays empty: the CLI never holds the whole output in memory.
    Files may have reached the sink before a lowering error is reported, so the caller throws
    them away when the diagnostics have errors. ``targets`` asks for extra targets too, by their
    ``outputs.OUTPUTTERS`` key ("typescript"), in the table's order: True keeps a target's files in
    ``Result.targets``, a sink receives them file by file.
    """
    from .lower import emit_all, emit_target  # imported late: lowering pulls in jinja

    asked = dict(targets or {})
    unknown = sorted(set(asked) - {outputter.key for outputter in OUTPUTTERS})
    if unknown:
        raise ValueError(f"unknown targets {unknown}; known: {[outputter.key for outputter in OUTPUTTERS]}")

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
        extra: dict[str, dict[str, bytes]] = {}
        for outputter in OUTPUTTERS:
            wanted = asked.get(outputter.key, False)
            if wanted is not False:
                sent = None if wanted is True else wanted
                extra[outputter.key] = emit_target(outputter.emit, catalog, families, diags, sent)
        if diags.has_errors:
            return result
        result.files, result.docs, result.targets = files, docs, extra
        return result
    finally:
        gc.unfreeze()
        if collecting:
            gc.enable()
