"""Stage 7: write generated/ atomically, prune only what toolgen wrote, and detect drift.

The new tree is assembled beside the old one (files toolgen does not own are hard-linked in, never
modified) and swapped in with two renames, so an interrupted run leaves the previous complete tree.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from . import __version__

MANIFEST = "toolgen-manifest.json"


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def manifest_bytes(files: dict[str, bytes]) -> bytes:
    """The manifest: the only place the generator version appears in generated/."""
    data = {
        "generator": "toolgen",
        "version": __version__,
        "files": {path: sha256(files[path]) for path in sorted(files)},
    }
    return (json.dumps(data, indent=2, sort_keys=False) + "\n").encode()


def read_manifest(out: Path) -> dict[str, str]:
    try:
        data = json.loads((out / MANIFEST).read_text("utf-8"))
        files = data.get("files", {})
        return {str(k): str(v) for k, v in files.items()} if isinstance(files, dict) else {}
    except (OSError, ValueError):
        return {}


def _backup(out: Path) -> Path:
    return out.with_name(f".{out.name}.toolgen-old")


def _staging(out: Path) -> Path:
    return out.with_name(f".{out.name}.toolgen-new")


def recover(out: Path) -> None:
    """Finish or undo a swap that an earlier run was interrupted in."""
    backup, staging = _backup(out), _staging(out)
    if backup.exists() and not out.exists():
        os.rename(backup, out)
    if backup.exists():
        shutil.rmtree(backup)
    if staging.exists():
        shutil.rmtree(staging)


def _disk_files(out: Path) -> dict[str, Path]:
    found: dict[str, Path] = {}
    if not out.is_dir():
        return found
    for root, dirs, names in os.walk(out):
        dirs.sort()
        for name in sorted(names):
            path = Path(root) / name
            found[path.relative_to(out).as_posix()] = path
    return found


@dataclass
class Plan:
    """What a generate would do; ``check`` reports it, ``write`` carries it out."""

    changed: dict[str, bytes] = field(default_factory=dict)  # new or different content
    removed: list[str] = field(default_factory=list)  # stale files toolgen wrote
    kept_stale: list[str] = field(default_factory=list)  # stale but edited by hand: left alone
    hand_edited: list[str] = field(default_factory=list)  # on-disk hash differs from manifest
    conflicts: list[str] = field(default_factory=list)  # would overwrite a file toolgen did not write

    @property
    def up_to_date(self) -> bool:
        return not (self.changed or self.removed)


def plan(out: Path, files: dict[str, bytes]) -> Plan:
    files = {**files, MANIFEST: manifest_bytes(files)}
    owned = read_manifest(out)
    disk = _disk_files(out)
    result = Plan()
    for rel, path in disk.items():
        if rel in owned and sha256(path.read_bytes()) != owned[rel]:
            result.hand_edited.append(rel)
    for rel in sorted(files):
        path = disk.get(rel)
        if path is None:
            result.changed[rel] = files[rel]
            continue
        current = path.read_bytes()
        if current != files[rel]:
            result.changed[rel] = files[rel]
            if rel not in owned and rel != MANIFEST:
                result.conflicts.append(rel)
    for rel in sorted(owned):
        if rel in files or rel not in disk:
            continue
        if rel in result.hand_edited:
            result.kept_stale.append(rel)
        else:
            result.removed.append(rel)
    return result


def write(out: Path, files: dict[str, bytes], the_plan: Plan) -> None:
    """Swap in the new tree. Callers must have refused ``the_plan.conflicts`` already."""
    recover(out)
    if the_plan.up_to_date:
        return
    files = {**files, MANIFEST: manifest_bytes(files)}
    staging = _staging(out)
    staging.mkdir(parents=True)
    try:
        removed = set(the_plan.removed)
        for rel, path in _disk_files(out).items():
            if rel in files or rel in removed:
                continue
            target = staging / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            try:
                os.link(path, target)
            except OSError:
                shutil.copy2(path, target)
        for rel in sorted(files):
            target = staging / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            with open(target, "wb") as handle:
                handle.write(files[rel])
                handle.flush()
                os.fsync(handle.fileno())
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    backup = _backup(out)
    try:
        if out.exists():
            os.rename(out, backup)
        os.rename(staging, out)
    except BaseException:
        # Put the previous tree back and drop the half-swapped new one.
        if backup.exists() and not out.exists():
            os.rename(backup, out)
        shutil.rmtree(staging, ignore_errors=True)
        raise
    shutil.rmtree(backup, ignore_errors=True)


def diff(out: Path, the_plan: Plan) -> str:
    """A unified diff of what generate would change (relative paths only)."""
    chunks: list[str] = []
    for rel, new in sorted(the_plan.changed.items()):
        path = out / rel
        old = path.read_bytes() if path.exists() else b""
        chunks.extend(
            difflib.unified_diff(
                old.decode("utf-8", "replace").splitlines(keepends=True),
                new.decode("utf-8", "replace").splitlines(keepends=True),
                fromfile=f"a/{out.name}/{rel}",
                tofile=f"b/{out.name}/{rel}",
            )
        )
    for rel in the_plan.removed:
        old = (out / rel).read_bytes().decode("utf-8", "replace")
        chunks.extend(difflib.unified_diff(old.splitlines(keepends=True), [], f"a/{out.name}/{rel}", "/dev/null"))
    return "".join(chunk if chunk.endswith("\n") else chunk + "\n" for chunk in chunks)


def replace_file(path: Path, data: bytes) -> None:
    """Atomically replace one file outside generated/ (docs/catalog.md)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.toolgen-tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)
