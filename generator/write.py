"""Stage 7: write generated/ atomically, prune only what toolgen wrote, and detect drift.

The new tree is assembled in a staging folder beside the old one (``.<name>.toolgen-new``) and
then swapped in. Everything in the old tree that toolgen does not own is carried over exactly:
regular files are hard-linked (same inode, so content, mode and mtime stay as they were),
symlinks are re-created with the same target (never followed) and empty directories are kept.
The swap itself, its recovery after a crash, the lock and the --out checks live in
generator/swap.py (its docstring states the atomicity guarantee and why it is met that way);
the docs written outside it (docs/catalog.md) in generator/docfiles.py. The names the CLI and
tests use from both are re-exported here.

Files are streamed: the pipeline hands each rendered file to a ``Staging`` sink, which writes it
into the staging folder and keeps only its hash, so a run never holds the whole output in memory.
The plan is worked out from those hashes, ``diff`` reads the new bytes back from staging, and
staging is thrown away unless it is swapped in (errors, conflicts, nothing changed).
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import shutil
import stat
import tempfile
from collections.abc import Collection, Iterator
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path

from . import __version__
from .docfiles import _read_file
from .docfiles import doc_conflicts as doc_conflicts
from .docfiles import write_docs as write_docs
from .swap import CRASH_AT as CRASH_AT
from .swap import CRASH_STEPS as CRASH_STEPS
from .swap import LockTimeout as LockTimeout
from .swap import OutDirError as OutDirError
from .swap import _crash_point, _is_real_dir, _out_problem, _real, _rmtree_quietly, _staging, _swap_in
from .swap import check_out_dir as check_out_dir
from .swap import interrupted as interrupted
from .swap import locked as locked
from .swap import recover as recover

MANIFEST = "toolgen-manifest.json"

# kinds of entries found below the output folder (symlinks are never followed)
FILE, LINK, DIR, OTHER = "file", "link", "dir", "other"


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def manifest_bytes(files: dict[str, bytes]) -> bytes:
    """The manifest: the only place the generator version appears in generated/."""
    return manifest_from_hashes({path: sha256(data) for path, data in files.items()})


def manifest_from_hashes(hashes: dict[str, str]) -> bytes:
    """The manifest of files with these SHA-256 hashes (what ``manifest_bytes`` gives for their bytes)."""
    data = {"generator": "toolgen", "version": __version__, "files": {path: hashes[path] for path in sorted(hashes)}}
    return (json.dumps(data, indent=2, sort_keys=False) + "\n").encode()


def read_manifest(out: Path) -> dict[str, str]:
    try:
        data = json.loads((_real(out) / MANIFEST).read_text("utf-8"))
        files = data.get("files", {})
        return {str(k): str(v) for k, v in files.items()} if isinstance(files, dict) else {}
    except (OSError, ValueError, AttributeError):
        return {}


def _scan(out: Path) -> dict[str, str]:
    """Every entry below ``out`` (a folder) by POSIX relative path, parents before children."""
    found: dict[str, str] = {}

    def visit(directory: str, prefix: str) -> None:
        with os.scandir(directory) as listing:
            entries = sorted(listing, key=lambda e: e.name)
        for entry in entries:
            rel = prefix + entry.name
            if entry.is_symlink():
                found[rel] = LINK
            elif entry.is_dir(follow_symlinks=False):
                found[rel] = DIR
                visit(entry.path, rel + "/")
            elif entry.is_file(follow_symlinks=False):
                found[rel] = FILE
            else:
                found[rel] = OTHER

    if _is_real_dir(out):
        visit(str(out), "")
    return found


def _carried(entries: dict[str, str], files: Collection[str], removed: set[str]) -> set[str]:
    """Entries the new tree keeps as they are: everything not generated or pruned, and empty folders."""
    parents = {rel.rpartition("/")[0] for rel in entries if "/" in rel}
    carried: set[str] = set()
    for rel, kind in entries.items():
        if kind == DIR:
            if rel not in parents:
                carried.add(rel)
        elif rel not in files and rel not in removed:
            carried.add(rel)
    return carried


def _blocked(rel: str, entries: dict[str, str], carried: set[str]) -> bool:
    """Would writing generated file ``rel`` replace or write through something that is not a file of ours?"""
    kind = entries.get(rel)
    if kind in (LINK, OTHER):
        return True
    if kind == DIR and (rel in carried or any(c.startswith(rel + "/") for c in carried)):
        return True
    parts = rel.split("/")
    for depth in range(1, len(parts)):
        prefix = "/".join(parts[:depth])
        if prefix in carried and entries[prefix] != DIR:
            return True
    return False


def _write_synced(path: Path, data: bytes) -> None:
    """Create ``path`` with ``data`` on disk before the swap can name it."""
    with open(path, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


class Staging:
    """The sink the pipeline renders into: each file goes to a folder and only its hash stays in memory.

    ``folder`` is the staging folder beside --out (generate), a scratch folder (check), or None
    (only hash: validate, or a run that will report an output-folder error). The folder is made
    with the first file, so a run that fails before rendering leaves nothing behind; ``discard``
    removes it and is a no-op once the folder has been swapped in.
    """

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self.hashes: dict[str, str] = {}  # relative path -> SHA-256 of the bytes written
        self._made = False

    @classmethod
    def beside(cls, out: Path) -> Staging:
        """Stage next to ``out`` (the swap is then a rename); call with the lock held, after ``recover``."""
        return cls(_staging(_real(out)))

    @classmethod
    def scratch(cls) -> Staging:
        """Stage in a private temporary folder: ``check`` must not touch anything beside --out."""
        return cls(Path(tempfile.mkdtemp(prefix="toolgen-check-")) / "new")

    def __call__(self, rel: str, data: bytes) -> None:
        self.hashes[rel] = sha256(data)
        if self.folder is None:
            return
        if not self._made:
            self.folder.parent.mkdir(parents=True, exist_ok=True)
            self.folder.mkdir()
            self._made = True
            _crash_point("staging")
        target = self.folder / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        _write_synced(target, data)
        _crash_point("file")  # i.e. after the first file

    def add_all(self, files: dict[str, bytes]) -> None:
        for rel in sorted(files):
            self(rel, files[rel])

    def with_manifest(self) -> dict[str, str]:
        """Every file's hash, the manifest's included."""
        return {**self.hashes, MANIFEST: sha256(manifest_from_hashes(self.hashes))}

    def read(self, rel: str) -> bytes:
        """The new bytes of ``rel`` (the manifest is made from the hashes; it is written only on the swap)."""
        if rel == MANIFEST:
            return manifest_from_hashes(self.hashes)
        assert self.folder is not None, "a hash-only staging has no bytes to read"
        return (self.folder / rel).read_bytes()

    def discard(self) -> None:
        if self.folder is None:
            return
        _rmtree_quietly(self.folder)
        if self.folder.parent.name.startswith("toolgen-check-"):
            with suppress(OSError):
                self.folder.parent.rmdir()


@dataclass
class Plan:
    """What a generate would do; ``check`` reports it, ``write`` carries it out."""

    changed: dict[str, str] = field(default_factory=dict)  # new or different content: path -> new hash
    removed: list[str] = field(default_factory=list)  # stale files toolgen wrote
    kept_stale: list[str] = field(default_factory=list)  # stale but edited by hand: left alone
    hand_edited: list[str] = field(default_factory=list)  # on-disk hash differs from manifest
    conflicts: list[str] = field(default_factory=list)  # would overwrite something toolgen did not write

    @property
    def up_to_date(self) -> bool:
        return not (self.changed or self.removed)


def _file_hash(path: Path) -> str:
    """SHA-256 of a file, read in blocks (a generated file can be tens of megabytes)."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def plan(out: Path, files: dict[str, bytes]) -> Plan:
    """Compare ``files`` with the tree on disk; an interrupted swap is finished or undone first."""
    recover(out)
    return plan_hashes(out, {path: sha256(data) for path, data in files.items()})


def plan_hashes(out: Path, hashes: dict[str, str]) -> Plan:
    """Compare files with these hashes (manifest not included) with the tree on disk.

    Does not ``recover``: a streaming run did that before staging, which recover would delete.
    """
    real = _real(out)
    files = {**hashes, MANIFEST: sha256(manifest_from_hashes(hashes))}
    owned = read_manifest(real)
    entries = _scan(real)
    on_disk = {
        rel: _file_hash(real / rel) for rel, what in entries.items() if what == FILE and (rel in owned or rel in files)
    }
    result = Plan()
    for rel in entries:
        if rel in owned and on_disk.get(rel) != owned[rel]:
            result.hand_edited.append(rel)
    for rel in sorted(owned):
        if rel in files or rel not in entries:
            continue
        if rel in result.hand_edited:
            result.kept_stale.append(rel)
        else:
            result.removed.append(rel)
    carried = _carried(entries, files, set(result.removed))
    for rel in sorted(files):
        kind = entries.get(rel)
        if kind == FILE and on_disk[rel] == files[rel]:
            continue
        result.changed[rel] = files[rel]
        if _blocked(rel, entries, carried) or (kind == FILE and rel not in owned and rel != MANIFEST):
            result.conflicts.append(rel)
    return result


def write(out: Path, files: dict[str, bytes], the_plan: Plan) -> None:
    """Swap in the new tree from bytes in memory (tests and library use; the CLI streams into ``Staging``)."""
    problem = check_out_dir(out)  # also finishes or undoes an interrupted swap
    if problem:
        raise OutDirError(f"{out}: {problem}")
    if the_plan.up_to_date:
        return
    staging = Staging.beside(out)  # swap_in refuses conflicts before anything is swapped
    try:
        staging.add_all(files)
        swap_in(out, staging, the_plan)
    finally:
        staging.discard()


def swap_in(out: Path, staging: Staging, the_plan: Plan) -> None:
    """Complete the staged tree (carried entries, manifest) and swap it in. Callers hold the lock,
    refused ``the_plan.conflicts`` already and ``discard`` the staging afterwards (a no-op once swapped)."""
    real = _real(out)
    problem = _out_problem(out)
    if problem:
        raise OutDirError(f"{out}: {problem}")
    if the_plan.up_to_date:
        return
    if the_plan.conflicts:
        raise ValueError("refusing to overwrite what toolgen did not write: " + ", ".join(the_plan.conflicts))
    files = staging.with_manifest()
    entries = _scan(real)
    removed = {rel for rel in the_plan.removed if entries.get(rel) == FILE}
    carried = _carried(entries, files, removed)
    blocked = [rel for rel in sorted(files) if _blocked(rel, entries, carried)]
    if blocked:  # the tree changed since the plan was made
        raise ValueError("refusing to overwrite what toolgen did not write: " + ", ".join(blocked))
    assert staging.folder is not None
    if not staging.hashes:  # nothing rendered (cannot happen with toolgen's own emitters): still a folder
        staging.folder.mkdir(parents=True)
    _complete(staging.folder, real, entries, carried, staging.read(MANIFEST))
    _crash_point("staged")
    _swap_in(staging.folder, real)
    _crash_point("written")


def _complete(staging: Path, real: Path, entries: dict[str, str], carried: set[str], manifest: bytes) -> None:
    """Finish the new tree in ``staging`` (toolgen's files are in already): carried entries of the old
    tree, then the manifest, then the folders' permissions."""
    for rel in sorted(carried):
        src, target = real / rel, staging / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        kind = entries[rel]
        if kind == DIR:
            target.mkdir(exist_ok=True)
        elif kind == LINK:
            os.symlink(os.readlink(src), target)
            info = os.lstat(src)
            with suppress(NotImplementedError, OSError):
                os.utime(target, ns=(info.st_atime_ns, info.st_mtime_ns), follow_symlinks=False)
        else:
            try:
                os.link(src, target, follow_symlinks=False)
            except OSError:
                shutil.copy2(src, target, follow_symlinks=False)
    _crash_point("carried")
    _write_synced(staging / MANIFEST, manifest)
    # folders keep their permissions (applied last, so read-only ones could be filled first)
    for rel in sorted((rel for rel, kind in entries.items() if kind == DIR), reverse=True):
        if _is_real_dir(staging / rel):
            os.chmod(staging / rel, stat.S_IMODE(os.lstat(real / rel).st_mode))
    if _is_real_dir(real):
        os.chmod(staging, stat.S_IMODE(os.lstat(real).st_mode))


def diff(out: Path, the_plan: Plan, staging: Staging, name: str | None = None) -> Iterator[str]:
    """A unified diff of what generate would change, file by file, headed ``a/<name>/<file>``.

    ``name`` is how the output folder is named (the CLI passes it relative to the current
    directory, so that the headers resolve from there); by default its last component.
    New bytes are read back from ``staging``, so only one file's old and new text is held at a time.
    """
    real = _real(out)
    name = out.name if name is None else name
    for rel in sorted(the_plan.changed):
        old = _read_file(real / rel).decode("utf-8", "replace").splitlines(keepends=True)
        new = staging.read(rel).decode("utf-8", "replace").splitlines(keepends=True)
        yield _lines(difflib.unified_diff(old, new, fromfile=f"a/{name}/{rel}", tofile=f"b/{name}/{rel}"))
    for rel in the_plan.removed:
        old = _read_file(real / rel).decode("utf-8", "replace").splitlines(keepends=True)
        yield _lines(difflib.unified_diff(old, [], f"a/{name}/{rel}", "/dev/null"))


def _lines(chunks: Iterator[str]) -> str:
    return "".join(chunk if chunk.endswith("\n") else chunk + "\n" for chunk in chunks)
