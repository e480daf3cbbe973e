"""The incremental front end: one spec folder's files, parsed, checked and resolved, kept up to date.

Every command that reads specs goes through a :class:`Workspace` (``validate``, ``generate``,
``check``, ``generate --watch``, ``breaking``; ``toolgen lsp`` too). It keeps each spec file's
own stage (read, YAML loaded with the position of every node, meta-schema checked) keyed by its
name and content hash, so an edit re-parses and re-checks only the file that changed, and the
stages that read every file (the cross-file checks that build the model, the family lists, the
checks the outputs make) are redone only when some file's content changed.

The API, stable for its users (the CLI, watch, breaking, the language server):

``Workspace(specs, typescript=None)``
    A spec folder on disk (read lazily, at the first question). ``typescript`` says whether the
    TypeScript package's checks belong to :meth:`diagnostics`; None: as toolgen.yaml's
    ``outputs.typescript`` says (what ``toolgen validate`` does without ``--ts-out``).
``Workspace.in_memory(files, prefix)``
    A spec folder held as bytes (a git revision); files are named ``prefix + path``.
``ws.set_text(path, text)``
    An editor's unsaved text for one file (``str`` or ``bytes``), or ``None`` to go back to what
    is on disk (also: the file was deleted or created there). ``path`` is a file path (absolute,
    or relative to the working folder) or a file's name as diagnostics give it. Returns the names
    of the files whose diagnostics changed (those to publish again, cleared ones included).
``ws.refresh()``
    Look at the disk again (new, deleted and changed files; unchanged ones are not re-read when
    their size, mtime, ctime and inode are the same). Returns the names of the files whose content changed.
``ws.diagnostics()``
    Every finding as :class:`~generator.diagnostics.Diagnostics` (the CLI's own values: codes,
    severities, locations and hints; ``render`` prints them as the CLI does), the checks the
    outputs make (provider limits, what a format drops) included. ``ws.by_file()`` groups them by
    file name (every known spec file has an entry, empty when it is clean).
``ws.front()``
    The front end alone (files and model, no output checks): a :class:`Front` with the
    diagnostics, the catalog (None when an error prevents it) and the resolved families; what
    ``generate`` renders from (rendering makes the output checks itself).
``ws.catalog``, ``ws.families``
    Shortcuts for ``ws.front().catalog`` and ``ws.front().families``.
``ws.sources``, ``ws.source(name)``, ``ws.name_of(path)``, ``ws.path_of(name)``
    The loaded files by name (:class:`~generator.load.SourceFile`: text, data, and the line and
    column of every value and key, for mapping a cursor to a YAML path and back); the name of a
    file path, and the path of a name.
``ws.path_at(name, line, col)``
    The YAML path (``("variants", "generic", "parameters", 0, "name")``) of the value or key that
    starts last at or before a 1-based cursor position: the node the cursor is in or just after.
    ``ws.source(name).loc(path)`` goes the other way.
``ws.file_checks()``
    Each file's own stage by name (:class:`FileCheck`: content digest, source, its findings).
``ws.loaded()``
    The model and the sources as :class:`Loaded` (what ``toolgen breaking`` compares).

What one format sends for a variant (for hover): ``lower.checks.entry(dialect, variant)``.

File names are the ones diagnostics carry: ``<spec folder name>/tools/read_file.yaml``.
Nothing here prints or writes files; bad input becomes diagnostics, never an exception.
"""

from __future__ import annotations

import gc
import hashlib
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from .diagnostics import Diagnostic, Diagnostics, Location, shown
from .load import PathKey, SourceFile, load_bytes
from .memo import Memo
from .model import Catalog
from .resolve import ResolvedFamily, resolve
from .specfiles import (
    FOLDER_HINT,
    SpecFileError,
    folders_usable,
    is_hidden,
    read_spec_bytes,
    spec_diagnostics,
    spec_files,
    spec_folder_name,
)
from .validate import check_schema

if TYPE_CHECKING:
    from .lower.reuse import Reuse

# What each spec file is: its meta-schema and how deep below the spec folder it lives.
_TOP_FILES = {"toolgen.yaml": ("project", 0), "parameters.yaml": ("parameters", 0)}
_FOLDERS = {"tools": "tool", "variants": "family"}


def kind_of_spec(rel: str) -> tuple[str, int] | None:
    """(meta-schema, depth) of a path relative to the spec folder, or None when it is no spec file."""
    if rel in _TOP_FILES:
        return _TOP_FILES[rel]
    folder, _, name = rel.partition("/")
    if folder in _FOLDERS and name.endswith(".yaml") and "/" not in name and not name.startswith("."):
        return _FOLDERS[folder], 1
    return None


@dataclass(frozen=True)
class FileCheck:
    """One file's own stage: read, loaded, checked against its meta-schema; keyed by ``digest``."""

    name: str
    digest: str
    source: SourceFile
    diagnostics: tuple[Diagnostic, ...]
    valid: bool  # loaded and structurally valid: the model may be built from it

    @property
    def has_errors(self) -> bool:
        return any(d.severity == "error" for d in self.diagnostics)


def check_file(raw: bytes | SpecFileError, name: str, kind: str, depth: int) -> FileCheck:
    """Load one file's bytes (or report why it could not be read) and check it against ``kind``'s meta-schema."""
    diags = Diagnostics()
    if isinstance(raw, SpecFileError):
        diags.error(Location(name), raw.code, raw.message, raw.hint)
        digest = "unreadable:" + raw.code + raw.message
        return FileCheck(name, digest, SourceFile(name), tuple(diags.items), False)
    source = load_bytes(raw, name, diags)
    # A file whose YAML did not load has no meta-schema check (nor the modeline warning).
    valid = not diags.has_errors and check_schema(source, kind, depth, diags) and source.data is not None
    return FileCheck(name, hashlib.sha256(raw).hexdigest(), source, tuple(diags.items), valid)


@dataclass
class Loaded:
    """A loaded spec set: the model (None after errors) and every file read, by its name.

    The files keep the position of every value, for tools that report on more than the model
    records (``toolgen breaking`` locates context fields and handler bindings with them).
    """

    catalog: Catalog | None = None
    sources: dict[str, SourceFile] = field(default_factory=dict)


@dataclass(frozen=True)
class Front:
    """The front end's result: its diagnostics, and the model when no error prevents it."""

    diagnostics: Diagnostics
    catalog: Catalog | None
    families: tuple[ResolvedFamily, ...] | None


# (mtime_ns, ctime_ns, size, inode) of a file on disk: unchanged means not read again (ctime:
# a chmod changes whether it can be read at all).
_Stamp = tuple[int, int, int, int]


class Workspace:
    """See the module docstring for the API."""

    def __init__(self, specs: Path, typescript: bool | None = None, *, prefix: str | None = None) -> None:
        self.specs = Path(specs)
        self.typescript = typescript
        self._prefixed = prefix is not None  # names are prefix + path, not printed relative to the cwd
        self._prefix = spec_folder_name(self.specs) + "/" if prefix is None else prefix
        self._tree: Mapping[str, bytes] | None = None  # in-memory files (a git revision)
        self._overlays: dict[str, bytes] = {}  # unsaved editor text, by relative path
        self._stamps: dict[str, _Stamp] = {}
        self._files: dict[str, FileCheck] = {}  # by relative path, in the order the model reads them
        self._global: tuple[Diagnostic, ...] = ()  # folder-level findings (missing folders, .yml files)
        self._usable = False  # the folder can hold a model (toolgen.yaml present, folders readable)
        self._listed = False
        self._front: Front | None = None
        self._front_key: object = None
        self._full: Diagnostics | None = None
        self._model_memo = Memo()  # per-file model results an unchanged file's next build reuses
        self._checks_memo = Memo()  # per-variant output checks, likewise
        self._renders: Reuse | None = None  # what the last render computed, for the next (--watch)

    @classmethod
    def in_memory(cls, files: Mapping[str, bytes], prefix: str) -> Workspace:
        """A spec folder held in memory: ``files`` maps paths relative to it to bytes; names are
        ``prefix + path``. Only what a folder on disk would be read from counts."""
        ws = cls(Path(prefix), prefix=prefix)
        ws._tree = files
        return ws

    # -- names -----------------------------------------------------------------------------

    def _display(self, rel: str) -> str:
        return self._prefix + rel

    def name_of(self, path: str | os.PathLike[str]) -> str | None:
        """The name diagnostics give the file at ``path`` (a file path, or already a name); None
        when it is not below the spec folder."""
        text = os.fspath(path)
        if text.startswith(self._prefix) and self._tree is not None:
            return text
        if self._tree is None:
            try:
                rel = Path(os.path.abspath(text)).relative_to(os.path.abspath(self.specs))
            except ValueError:
                return text if text.startswith(self._prefix) and not os.path.isabs(text) else None
            return self._display(rel.as_posix())
        return None

    def path_of(self, name: str) -> Path:
        """The file path of a name diagnostics give (inverse of :meth:`name_of`)."""
        return self.specs.joinpath(*name[len(self._prefix) :].split("/"))

    def _rel(self, path: str | os.PathLike[str]) -> str | None:
        name = self.name_of(path)
        return name[len(self._prefix) :] if name is not None and name.startswith(self._prefix) else None

    # -- changes ---------------------------------------------------------------------------

    def set_text(self, path: str | os.PathLike[str], text: str | bytes | None) -> set[str]:
        """Hold ``text`` as the file's content (None: the disk's again); the names whose diagnostics changed."""
        rel = self._rel(path)
        if rel is None:
            return set()
        before = self.by_file()
        if text is None:
            self._overlays.pop(rel, None)
            self._stamps.pop(rel, None)
        else:
            self._overlays[rel] = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
        self._update(rel)
        after = self.by_file()
        return {name for name in before.keys() | after.keys() if before.get(name) != after.get(name)}

    def refresh(self) -> set[str]:
        """Look at the disk again; the names of the files whose content changed (added and removed included)."""
        before = {rel: check.digest for rel, check in self._files.items()}
        self._listed = False
        self._list()
        after = {rel: check.digest for rel, check in self._files.items()}
        return {self._display(rel) for rel in before.keys() | after.keys() if before.get(rel) != after.get(rel)}

    # -- questions -------------------------------------------------------------------------

    @property
    def sources(self) -> dict[str, SourceFile]:
        """Every spec file read, by name."""
        self._list()
        return {check.name: check.source for check in self._files.values()}

    def source(self, name: str) -> SourceFile | None:
        rel = self._rel(name)
        self._list()
        check = self._files.get(rel) if rel is not None else None
        return check.source if check is not None else None

    def path_at(self, name: str, line: int, col: int) -> PathKey | None:
        """The path of the value or key starting last at or before ``line``:``col`` (None: no such file)."""
        source = self.source(name)
        if source is None:
            return None
        best: PathKey = ()
        best_at = (0, 0)
        for table in (source.positions, source.key_positions):
            for path, at in table.items():
                if best_at <= at <= (line, col) and (at > best_at or len(path) > len(best)):
                    best, best_at = path, at
        return best

    def file_checks(self) -> dict[str, FileCheck]:
        """Each file's own stage, by name."""
        self._list()
        return {check.name: check for check in self._files.values()}

    def front(self) -> Front:
        """Files and model, cached until a file's content changes."""
        with no_cyclic_collection():
            self._list()
        key = (self._global, tuple((rel, check.digest) for rel, check in self._files.items()))
        if self._front is None or key != self._front_key:
            self._front = self._build_front()
            self._front_key = key
            self._full = None
        front = self._front
        return Front(_copy(front.diagnostics), front.catalog, front.families)

    @property
    def catalog(self) -> Catalog | None:
        return self.front().catalog

    @property
    def families(self) -> tuple[ResolvedFamily, ...] | None:
        return self.front().families

    def loaded(self) -> Loaded:
        front = self.front()
        return Loaded(front.catalog, self.sources)

    def renders(self) -> Reuse:
        """What rendering keeps from one run to the next in this workspace (lower/reuse.py)."""
        if self._renders is None:
            from .lower.reuse import Reuse  # rendering only: validate and the language server need none

            self._renders = Reuse()
        return self._renders

    def diagnostics(self) -> Diagnostics:
        """Every finding, the outputs' checks included; what ``toolgen validate`` prints."""
        front = self.front()  # resets self._full when the files changed
        if self._full is None:
            full = self._collector()
            full.extend(front.diagnostics.items)
            if front.catalog is not None and front.families is not None:
                from .lower.checks import check_outputs  # imports no template engine

                self._checks_memo.sweep()
                with no_cyclic_collection():
                    check_outputs(front.catalog, front.families, full, self._checks_memo)
                    if self._wants_typescript():
                        from .lower.ts import check as check_typescript  # the TypeScript package's own checks

                        check_typescript(front.catalog, front.families, full)
            self._full = full
        result = self._collector()
        result.extend(self._full.items)
        return result

    def by_file(self) -> dict[str, tuple[Diagnostic, ...]]:
        """:meth:`diagnostics` by file name, sorted; every spec file has an entry (empty when clean)."""
        found: dict[str, list[Diagnostic]] = {check.name: [] for check in self.file_checks().values()}
        for item in self.diagnostics().sorted():
            found.setdefault(item.location.path, []).append(item)
        return {name: tuple(items) for name, items in found.items()}

    # -- stages ----------------------------------------------------------------------------

    def _collector(self) -> Diagnostics:
        return Diagnostics() if self._prefixed else spec_diagnostics(self.specs)

    def _wants_typescript(self) -> bool:
        if self.typescript is not None:
            return self.typescript
        project = self._files.get("toolgen.yaml")
        outputs = project.source.data.get("outputs") if project and isinstance(project.source.data, dict) else None
        return isinstance(outputs, dict) and outputs.get("typescript") is not None

    def _build_front(self) -> Front:
        from .semantics import build_catalog

        diags = self._collector()
        diags.extend(self._global)
        for check in self._files.values():
            diags.extend(check.diagnostics)
        project = self._files.get("toolgen.yaml")
        if not self._usable or project is None or diags.has_errors or not all(c.valid for c in self._files.values()):
            return Front(diags, None, None)
        shared = self._files.get("parameters.yaml")
        tools = [c.source for rel, c in self._files.items() if rel.startswith("tools/")]
        families = [c.source for rel, c in self._files.items() if rel.startswith("variants/")]
        self._model_memo.sweep()
        with no_cyclic_collection():
            catalog = build_catalog(
                project.source, shared.source if shared else None, tools, families, diags, self._model_memo
            )
            resolved = resolve(catalog) if catalog is not None and not diags.has_errors else None
        return Front(diags, catalog if resolved is not None else None, resolved)

    def _list(self) -> None:
        """Bring the file list and each file's stage up to date (disk read only when stamps differ)."""
        if self._listed:
            return
        self._listed = True
        found: list[str] | None = self._list_tree() if self._tree is not None else self._list_disk()
        if found is None:
            self._files = {}
            return
        listed = set(found)
        found += [rel for rel in self._overlays if rel not in listed and kind_of_spec(rel) is not None]
        ordered = sorted(found, key=_model_order)
        files: dict[str, FileCheck] = {}
        for rel in ordered:
            kind, depth = kind_of_spec(rel) or ("tool", 1)
            files[rel] = self._check(rel, kind, depth)
        self._files = files
        live = set(files)
        self._stamps = {rel: stamp for rel, stamp in self._stamps.items() if rel in live}

    def _update(self, rel: str) -> None:
        """Bring one file up to date after :meth:`set_text`, without listing the folders again."""
        kind = kind_of_spec(rel)
        if kind is None:
            return  # not a spec file: nothing reads it
        if not self._listed or not self._usable or rel == "toolgen.yaml":
            self._listed = False  # the whole list (the project file decides whether there is a model)
            return
        if rel in self._overlays:
            present = True
        elif self._tree is not None:
            present = rel in self._tree
        else:
            present = os.path.lexists(self.specs / rel)
        if not present:
            self._files.pop(rel, None)
            self._stamps.pop(rel, None)
            return
        known = rel in self._files
        self._files[rel] = self._check(rel, *kind)
        if not known:
            self._files = dict(sorted(self._files.items(), key=lambda item: _model_order(item[0])))

    def _check(self, rel: str, kind: str, depth: int) -> FileCheck:
        old = self._files.get(rel)
        if rel in self._overlays:
            raw: bytes | SpecFileError = self._overlays[rel]
        elif self._tree is not None:
            raw = self._tree[rel]
        else:
            path = self.specs / rel
            stamp = _stamp(path)
            if old is not None and stamp is not None and self._stamps.get(rel) == stamp:
                return old
            try:
                raw = read_spec_bytes(path)
            except SpecFileError as exc:
                raw = exc
            if stamp is not None:
                self._stamps[rel] = stamp
            else:
                self._stamps.pop(rel, None)
        if old is not None and isinstance(raw, bytes) and old.digest == hashlib.sha256(raw).hexdigest():
            return old
        return check_file(raw, self._display(rel), kind, depth)

    def _list_disk(self) -> list[str] | None:
        """The spec files on disk (relative paths), or None when the folder cannot hold a model."""
        diags = Diagnostics()
        specs = self.specs
        self._usable = False
        if not folders_usable(specs, diags):
            self._global = tuple(diags.items)
            return None
        if not os.path.lexists(specs / "toolgen.yaml") and "toolgen.yaml" not in self._overlays:
            diags.error(
                Location(f"{spec_folder_name(specs)}/toolgen.yaml"),
                "E100",
                f"no project file at {shown(specs / 'toolgen.yaml')}",
                FOLDER_HINT,
            )
            self._global = tuple(diags.items)
            return None
        for path in sorted(p for p in specs.rglob("*.yml") if not is_hidden(p)):
            name = self._display(path.relative_to(specs).as_posix())
            diags.warning(Location(name), "W201", "'.yml' files are ignored", "rename it to .yaml")
        self._global = tuple(diags.items)
        self._usable = True
        found = ["toolgen.yaml"]
        if os.path.lexists(specs / "parameters.yaml"):
            found.append("parameters.yaml")
        for folder in _FOLDERS:
            found += [f"{folder}/{p.name}" for p in spec_files(specs / folder)]
        return found

    def _list_tree(self) -> list[str] | None:
        """The spec files of an in-memory folder, or None when it has no toolgen.yaml."""
        files = self._tree or {}
        diags = Diagnostics()
        self._usable = False
        if "toolgen.yaml" not in files:
            diags.error(
                Location(f"{self._prefix}toolgen.yaml"),
                "E100",
                f"no project file at {self._prefix}toolgen.yaml",
                "check the revision and the spec folder: toolgen.yaml, tools/ and variants/ belong together",
            )
            self._global = tuple(diags.items)
            return None
        for rel in sorted(rel for rel in files if rel.endswith(".yml") and not _hidden_part(rel)):
            diags.warning(Location(self._prefix + rel), "W201", "'.yml' files are ignored", "rename it to .yaml")
        self._global = tuple(diags.items)
        self._usable = True
        return [rel for rel in files if kind_of_spec(rel) is not None]


def _copy(diags: Diagnostics) -> Diagnostics:
    """A collector of its own for a caller (which may add to it), the items shared."""
    return Diagnostics(list(diags.items), diags.specs)


def _model_order(rel: str) -> tuple[int, str]:
    """The order the model reads files in: toolgen.yaml, parameters.yaml, tools/, variants/ (names sorted)."""
    rank = {"toolgen.yaml": 0, "parameters.yaml": 1}.get(rel)
    if rank is None:
        rank = 2 if rel.startswith("tools/") else 3
    return rank, rel


def _hidden_part(rel: str) -> bool:
    return any(part.startswith(".") for part in rel.split("/"))


def _stamp(path: Path) -> _Stamp | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_mtime_ns, info.st_ctime_ns, info.st_size, info.st_ino


@contextmanager
def no_cyclic_collection() -> Iterator[None]:
    """Building a model of thousands of tools makes many objects and no cycles: the cyclic
    collector would rescan them again and again (superlinear), so it waits until the end."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
