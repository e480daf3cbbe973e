"""Reading spec files from disk: regular files only, checked before they are opened, size-capped.

A FIFO named like a spec would block a plain open(); a folder, device or dangling symlink named
``*.yaml`` would raise. Standard library only, so the fast path (fastpath.fingerprint) can use
it without importing the YAML stack.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from .diagnostics import Diagnostics, Location, SpecFolder

MAX_FILE_BYTES = 4 * 1024 * 1024
FOLDER_HINT = "pass --specs DIR pointing at a folder with toolgen.yaml, tools/ and variants/"

# What a file-system entry that is not a regular file is called in messages.
_KINDS = (
    (stat.S_ISREG, "a file"),
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


class SpecFileError(Exception):
    """A spec path that cannot be read as a spec file: E106 (not a regular file) or E100 (unreadable)."""

    def __init__(self, code: str, message: str, hint: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.hint = hint


def kind_of(mode: int) -> str:
    """'a file', 'a folder', 'a named pipe (FIFO)', ...: what a file-system entry is, for messages."""
    return next((name for test, name in _KINDS if test(mode)), "an unknown kind of file")


def read_spec_bytes(path: Path, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of the regular file at ``path`` (symlinks followed); raises SpecFileError otherwise.

    The type is checked with stat before opening, and again on the open descriptor (opened
    non-blocking, so a FIFO swapped in between cannot block either). At most ``limit`` bytes
    are accepted, so a huge file is refused without reading it.
    """
    try:
        info = os.stat(path)
    except FileNotFoundError:
        if os.path.islink(path):
            raise SpecFileError(
                "E106", "is a symlink to a file that does not exist", "fix or remove the symlink"
            ) from None
        raise SpecFileError("E100", "cannot read file: it does not exist", "check the path") from None
    except OSError as exc:  # ELOOP (symlink loop), EACCES on a parent folder, ...
        raise _unreadable(exc) from None
    _require_regular(info.st_mode, info.st_size, limit)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise _unreadable(exc) from None
    try:
        info = os.fstat(fd)
        _require_regular(info.st_mode, info.st_size, limit)
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read(limit + 1)
    except OSError as exc:
        raise _unreadable(exc) from None
    finally:
        os.close(fd)
    _require_regular(info.st_mode, len(data), limit)  # it may have grown since fstat
    return data


def _require_regular(mode: int, size: int, limit: int) -> None:
    if not stat.S_ISREG(mode):
        raise SpecFileError(
            "E106",
            f"is {kind_of(mode)}, not a spec file",
            "spec files are regular files: move it away, or rename it so that it does not end in .yaml",
        )
    require_size(size, limit)


def require_size(size: int, limit: int = MAX_FILE_BYTES) -> None:
    """Raise SpecFileError (E100) for a spec of more than ``limit`` bytes (on disk or in an editor)."""
    if size > limit:
        raise SpecFileError("E100", f"file is larger than {limit} bytes", "split the spec")


def _unreadable(exc: OSError) -> SpecFileError:
    if exc.errno == errno.ELOOP:
        return SpecFileError("E106", "is a symlink loop", "point the symlink at a spec file, or remove it")
    if isinstance(exc, PermissionError):
        hint = "make the file readable for the user running toolgen (e.g. chmod a+r)"
    else:
        hint = "check the path and its permissions"
    return SpecFileError("E100", f"cannot read file: {exc.strerror or exc}", hint)


def not_a_folder(path: Path) -> str:
    """Why an existing ``path`` is not a folder, for messages: 'is a file, not a folder', 'is a symlink loop', ..."""
    try:
        return f"is {kind_of(os.stat(path).st_mode)}, not a folder"
    except FileNotFoundError:
        return "is a symlink to something that does not exist"
    except OSError as exc:
        return "is a symlink loop" if exc.errno == errno.ELOOP else f"cannot be read: {exc.strerror}"


def file_above(path: Path) -> Path | None:
    """The nearest existing parent of ``path`` when it is not a folder (nothing can be created below it)."""
    for parent in path.parents:
        if os.path.lexists(parent):
            return None if os.path.isdir(parent) else parent
    return None


def is_hidden(path: Path) -> bool:
    """Names starting with '.' are never specs: editor lock files (Emacs' '.#ask.yaml' is a dangling
    symlink), swap and backup files. No tool id or family name can start with '.', so nothing is lost."""
    return path.name.startswith(".")


def spec_files(folder: Path) -> list[Path]:
    """The spec files of tools/ or variants/: ``*.yaml`` entries of any kind (so that a folder or FIFO
    named like a spec is reported, not skipped), hidden ones left out, in name order."""
    return sorted(path for path in folder.glob("*.yaml") if not is_hidden(path))


def input_files(specs: Path) -> list[Path]:
    """Every file below ``specs`` a run may read (``*.yaml``, and ``*.yml`` to warn about), hidden
    ones left out, sorted: what the fast path fingerprints and ``generate --watch`` polls."""
    return sorted(p for p in specs.rglob("*") if p.suffix in (".yaml", ".yml") and not is_hidden(p))


def spec_folder_name(specs: Path) -> str:
    """The name the spec folder has in generated headers and Locations (never raises: realpath does not)."""
    return os.path.basename(os.path.realpath(specs)) or "specs"


def display_path(specs: Path, path: Path) -> str:
    """How a spec file is named inside a run and in headers: '<specs dir name>/<relative path>'.

    Diagnostics print it relative to the current directory (``Diagnostics.specs``)."""
    return "/".join((spec_folder_name(specs), *path.relative_to(specs).parts))


def spec_diagnostics(specs: Path) -> Diagnostics:
    """A collector that prints this spec folder's file names relative to the current directory."""
    return Diagnostics(specs=SpecFolder(spec_folder_name(specs), os.path.abspath(specs)))


def folders_usable(specs: Path, diags: Diagnostics) -> bool:
    """specs/ must be a folder; tools/ and variants/ may be missing but, when present, must be folders.

    Checked before anything resolves or globs these paths: a symlink loop would make those raise,
    and globbing a file or an unreadable folder silently finds no specs.
    """
    if not os.path.isdir(specs):
        what = "does not exist" if not os.path.lexists(specs) else not_a_folder(specs)
        diags.error(Location(spec_folder_name(specs)), "E106", f"spec folder {what}", FOLDER_HINT)
        return False
    if not _readable(specs, spec_folder_name(specs), diags):
        return False
    usable = True
    for name in ("tools", "variants"):
        folder = specs / name
        display = "/".join((spec_folder_name(specs), name))
        if os.path.lexists(folder) and not os.path.isdir(folder):
            diags.error(
                Location(display),
                "E106",
                f"{name} {not_a_folder(folder)}",
                f"{name}/ must be a folder holding one .yaml file per {name[:-1] if name == 'tools' else 'family'}",
            )
            usable = False
        elif os.path.isdir(folder):
            usable = _readable(folder, display, diags) and usable
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
