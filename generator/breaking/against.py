"""The old side of ``toolgen breaking --against REF``: a spec folder, or the specs of a git revision.

An existing folder wins; anything else must be a revision of the repository holding ``--specs``.
A revision is read with ``git rev-parse``, ``git ls-tree`` and ``git cat-file --batch`` only:
nothing is checked out, and neither the work tree nor the index is touched (optional locks are
off, so not even the index's stat cache is refreshed). Its spec folder is the one at the same
place in the repository as ``--specs`` (``git rev-parse --show-prefix``), and its files are
named ``REV:path/in/repo`` in diagnostics and findings.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from ..diagnostics import Diagnostics, Location, argument_location
from ..pipeline import Loaded, load_specs, load_tree
from ..specfiles import MAX_FILE_BYTES

_ENV = {"GIT_OPTIONAL_LOCKS": "0", "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C", "LANGUAGE": "C"}
_SPEC_FOLDERS = ("tools", "variants")


class GitError(Exception):
    """A git command failed; the message is git's own first line."""


def load_against(against: str, specs: Path, diags: Diagnostics) -> Loaded:
    """Load the old side; errors (E342-E345, or the specs' own) go to ``diags``."""
    where = argument_location("--against", against)  # REF is an argument, not a file
    if os.path.isdir(against):
        if not os.path.lexists(os.path.join(against, "toolgen.yaml")):  # e.g. a folder named like a tag
            message = "is a folder without toolgen.yaml, so not a spec folder"
            hint = f"pass the spec folder itself; for the git revision of that name, write {against}^{{commit}}"
            diags.error(where, "E342", message, hint)
            return Loaded()
        return load_specs(Path(against), diags, prefix=os.path.normpath(against) + "/")
    if against.startswith("-") or not against.strip():
        diags.error(where, "E342", "is neither a spec folder nor a git revision", _REF_HINT)
        return Loaded()
    if shutil.which("git") is None:
        diags.error(where, "E344", "git is not installed, so it cannot name a revision", _GIT_HINT)
        return Loaded()
    if not os.path.isdir(specs):
        return Loaded()  # the new side reports the missing spec folder
    try:
        prefix = _git(specs, "rev-parse", "--show-prefix").decode("utf-8", "surrogateescape").strip()
    except GitError as exc:
        message = f"is not a folder, and {specs} is not in a git repository ({exc})"
        diags.error(where, "E342", message, _REF_HINT)
        return Loaded()
    try:
        commit = _git(specs, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{against}^{{commit}}")
    except GitError:
        if _shallow(specs):  # a CI checkout of depth 1 has no older revision to name
            message = "is not a revision this shallow clone has: its history was cut off"
            diags.error(where, "E342", message, _SHALLOW_HINT)
        else:
            diags.error(where, "E342", "is neither a folder nor a revision of this repository", _REF_HINT)
        return Loaded()
    sha = commit.decode("ascii").strip()
    try:
        listing = _git(specs, "ls-tree", "-r", "-l", "-z", "--full-tree", f"{sha}:{prefix}")
    except GitError:
        folder = prefix.rstrip("/") or "the top folder"
        diags.error(where, "E343", f"the revision has no spec folder at {folder}", _FOLDER_HINT)
        return Loaded()
    files = _read_files(specs, against, prefix, listing, diags)
    return load_tree(files, f"{against}:{prefix}", diags)


_REF_HINT = "pass an existing spec folder, or a revision of the repository holding --specs (HEAD~1, main, a sha)"
_SHALLOW_HINT = (
    "fetch the history first (git fetch --unshallow, or fetch-depth: 0 in actions/checkout), "
    "or pass an older spec folder"
)
_GIT_HINT = "install git, or pass an older spec folder instead of a revision"
_FOLDER_HINT = "the spec folder is looked up at the same path as --specs; pass that revision's folder instead"


def _shallow(specs: Path) -> bool:
    try:
        return _git(specs, "rev-parse", "--is-shallow-repository").strip() == b"true"
    except GitError:
        return False


def _git(cwd: Path, *args: str, stdin: bytes | None = None) -> bytes:
    env = {**os.environ, **_ENV}
    try:
        done = subprocess.run(
            ["git", "--no-pager", *args], cwd=cwd, env=env, input=stdin, capture_output=True, check=False
        )
    except OSError as exc:
        raise GitError(exc.strerror or str(exc)) from None
    if done.returncode != 0:
        first = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GitError(first[0] if first else f"git {args[0]} failed")
    return done.stdout


def _wanted(rel: str) -> bool:
    """Whether the spec loader reads this path (or names it: '.yml' files get a warning)."""
    parts = rel.split("/")
    if any(part.startswith(".") for part in parts):
        return False
    if rel.endswith(".yml"):
        return True
    if len(parts) == 1:
        return rel in ("toolgen.yaml", "parameters.yaml")
    return len(parts) == 2 and parts[0] in _SPEC_FOLDERS and rel.endswith(".yaml")


def _read_files(specs: Path, against: str, prefix: str, listing: bytes, diags: Diagnostics) -> dict[str, bytes]:
    """The spec files of the listed tree: path relative to the spec folder -> bytes."""
    files: dict[str, bytes] = {}
    blobs: list[tuple[str, str]] = []
    for entry in listing.split(b"\0"):
        if not entry:
            continue
        meta, _, raw_path = entry.partition(b"\t")
        rel = raw_path.decode("utf-8", "surrogateescape")
        if not _wanted(rel):
            continue
        mode, kind, sha, size = meta.decode("ascii").split()
        display = Location(f"{against}:{prefix}{rel}")
        if rel.endswith(".yml"):
            files[rel] = b""  # only its name is used (W201)
        elif kind != "blob" or mode == "120000":
            what = "a symlink" if mode == "120000" else f"a {kind}"
            hint = "symlinks are not followed inside a revision; compare against a checked-out folder instead"
            diags.error(display, "E345", f"is {what} in revision {against!r}, not a spec file", hint)
        elif int(size) > MAX_FILE_BYTES:
            diags.error(display, "E100", f"file is larger than {MAX_FILE_BYTES} bytes", "split the spec")
        else:
            blobs.append((rel, sha))
    if not blobs:
        return files
    try:
        output = _git(specs, "cat-file", "--batch", stdin="".join(f"{sha}\n" for _, sha in blobs).encode())
    except GitError as exc:
        where = argument_location("--against", against)
        diags.error(where, "E344", f"git cannot read the revision: {exc}", _GIT_HINT)
        return files
    offset = 0
    for rel, _ in blobs:  # each answer: '<sha> blob <length>', a line break, the bytes, a line break
        header_end = output.find(b"\n", offset)
        header = output[offset:header_end].split() if header_end >= 0 else []
        if len(header) != 3 or not header[2].isdigit():  # '<sha> missing': a partial clone without it
            message = f"git cannot read {prefix}{rel} of revision {against!r}"
            diags.error(Location(f"{against}:{prefix}{rel}"), "E344", message, "fetch the revision, then run again")
            break
        length = int(header[2])
        files[rel] = output[header_end + 1 : header_end + 1 + length]
        offset = header_end + 1 + length + 1
    return files
