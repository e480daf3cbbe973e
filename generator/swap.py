"""Stage 7, the output-folder exchange: swap a complete staged tree in for generated/, and the guards around it.

The bar for the swap: at every instant the output path names the complete old tree or the
complete new one, even if the run is killed. How it is met:

* Linux (renameat2 with RENAME_EXCHANGE, on filesystems that support it): one syscall
  exchanges the staging folder and the output folder. Both trees exist throughout and the
  path never names anything but a complete tree; the old tree, now under the staging name, is
  deleted afterwards (or by the next run's ``recover`` if this one is killed first).
* Elsewhere (macOS, Windows, other libcs, NFS and the like): two renames, old -> aside
  (``.<name>.toolgen-old``) and staging -> out. Each tree is still only ever complete, but
  between the renames the path is missing for an instant; a run killed there leaves the old
  tree aside and the next ``generate`` or ``check`` puts it back (``recover``).
* No previous tree: a single rename; the path is missing until the complete tree appears.

Rejected: a stable path that is a symlink to versioned folders (atomic everywhere with a
symlink swap, but downstream projects vendor generated/ into git, where a symlink commits as a
link to a folder that is not committed, and Windows checkouts need privileges for it), and
replacing files one by one with os.replace (each file is atomic, the tree is mixed for a while).
docs/writing.md states the guarantee per platform.

Also here: the lock beside the output folder that keeps concurrent runs apart (``locked``,
LockTimeout), ``check_out_dir`` (can --out be the output folder at all) and ``recover`` (finish or
undo a swap an earlier run was interrupted in). generator/write.py plans and stages the new tree
and calls ``_swap_in``; this module knows nothing of manifests or plans.

``TOOLGEN_TEST_CRASH_AT=<step>`` kills the process at a named step of ``write`` (see CRASH_STEPS);
tests/test_swap.py uses it to check every instant. Unset, it does nothing.
"""

from __future__ import annotations

import errno
import os
import shutil
import signal
import stat
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from functools import cache
from pathlib import Path

try:
    import fcntl
except ImportError:  # not POSIX: no locking
    fcntl = None  # type: ignore[assignment]

LOCK_TIMEOUT = 5.0  # seconds to wait for another run before giving up


class OutDirError(Exception):
    """--out cannot be used as the output folder (the message says why, with a hint)."""


class LockTimeout(Exception):
    """Another toolgen run kept the output folder locked for longer than the timeout."""


def _real(out: Path) -> Path:
    """The folder the swap happens in: --out with symlinks resolved (a symlinked --out is written through)."""
    return Path(os.path.realpath(out))


def _backup(out: Path) -> Path:
    return out.with_name(f".{out.name}.toolgen-old")


def _staging(out: Path) -> Path:
    return out.with_name(f".{out.name}.toolgen-new")


def _lock_path(out: Path) -> Path:
    return out.with_name(f".{out.name}.toolgen-lock")


def _is_real_dir(path: Path) -> bool:
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


def _rmtree(path: Path) -> None:
    """Remove a folder toolgen made (staging or backup), read-only subfolders included."""

    def retry(func, name, _exc_info) -> None:  # type: ignore[no-untyped-def]
        parent = os.path.dirname(name)
        os.chmod(parent, stat.S_IMODE(os.lstat(parent).st_mode) | stat.S_IRWXU)
        func(name)

    shutil.rmtree(path, onerror=retry)


def recover(out: Path) -> None:
    """Finish or undo a swap that an earlier run was interrupted in.

    The staging folder holds an unfinished new tree or, after an exchange, the old tree: both
    are garbage. The set-aside folder (backup) is the old tree: put back when --out is missing
    (killed between the fallback's two renames), garbage otherwise. A backup that is not a
    folder was moved aside by an older toolgen from an --out that was a file: it is put back
    when nothing took its place, and otherwise left alone (never deleted).
    """
    real = _real(out)
    backup, staging = _backup(real), _staging(real)
    if os.path.lexists(backup) and not os.path.lexists(real):
        os.rename(backup, real)
    if _is_real_dir(backup):
        _rmtree(backup)
    if _is_real_dir(staging):
        _rmtree(staging)
    elif os.path.lexists(staging):
        os.unlink(staging)


def _out_problem(out: Path, option: str = "--out") -> str | None:
    if out.name in ("", ".", ".."):
        return f"{option} must name a folder, not {str(out)!r}\n  hint: pass e.g. {option} generated"
    if os.path.islink(out) and not os.path.isdir(out):
        return (
            "is a symlink that does not point to a folder\n"
            f"  hint: point {option} at a folder; toolgen does not replace a symlink it did not make"
        )
    if os.path.lexists(out) and not os.path.isdir(out):
        return (
            "exists and is not a folder; toolgen writes a package folder there\n"
            f"  hint: move the file away or choose another {option}"
        )
    real = _real(out)
    if real.parent == real:
        return f"{option} must not be the filesystem root\n  hint: pass e.g. {option} generated"
    backup = _backup(real)
    if os.path.lexists(backup) and not _is_real_dir(backup):
        return (
            f"{backup.name} beside it is not a folder: an older toolgen moved a file named like {option} there\n"
            f"  hint: move {backup.name} back or away, then run again"
        )
    return None


def check_out_dir(out: Path, option: str = "--out") -> str | None:
    """Why ``out`` cannot be the output folder, or None when it can (missing, or a folder).

    Finishes an interrupted swap first, so the answer is about the real previous tree. The
    message has the form ``<what is wrong>\\n  hint: <what to do>``.
    """
    if out.name not in ("", ".", ".."):
        recover(out)
    return _out_problem(out, option)


@contextmanager
def locked(out: Path, timeout: float | None = None) -> Iterator[None]:
    """Hold the lock of ``out`` (``.<name>.toolgen-lock`` beside it) for recover, plan and write.

    Waits up to ``timeout`` seconds (default LOCK_TIMEOUT) for another run, then raises
    LockTimeout. The lock file is removed while still held, so nothing is left behind; a waiter
    that then gets the lock on the removed file notices and locks the current one instead.
    """
    real = _real(out)
    if fcntl is None or out.name in ("", ".", "..") or real.parent == real:
        yield  # check_out_dir refuses these
        return
    path = _lock_path(real)
    fd = _acquire(path, real, LOCK_TIMEOUT if timeout is None else timeout)
    try:
        yield
    finally:
        if fd is not None:
            with suppress(OSError):
                os.unlink(path)  # while still held: see the docstring
            os.close(fd)


def _acquire(path: Path, real: Path, timeout: float) -> int | None:
    """The descriptor of the locked lock file; None where no file can be made (read-only location)."""
    assert fcntl is not None
    deadline = time.monotonic() + timeout
    try:
        real.parent.mkdir(parents=True, exist_ok=True)
        while True:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o666)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                if time.monotonic() >= deadline:
                    raise LockTimeout(f"another toolgen run has held {path.name} for {timeout:g} s") from None
                time.sleep(0.05)
                continue
            except BaseException:
                os.close(fd)
                raise
            try:
                same = os.path.samestat(os.fstat(fd), os.stat(path))
            except FileNotFoundError:
                same = False
            if same:
                return fd
            os.close(fd)  # locked a file the previous holder had already removed: try again
    except OSError as exc:
        if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            return None  # nobody can write there, so there is nothing to keep apart (check on a read-only tree)
        raise


def _swap_in(staging: Path, real: Path) -> None:
    """Make the complete tree in ``staging`` the output folder and delete the old one (module docstring)."""
    backup = _backup(real)
    try:
        if not os.path.lexists(real):
            os.rename(staging, real)  # the first tree: one rename
        elif not _exchange(staging, real):  # after an exchange, staging holds the old tree
            os.rename(real, backup)
            _crash_point("aside")
            os.rename(staging, real)
    except BaseException:
        # Put the previous tree back and drop whatever staging holds now.
        if os.path.lexists(backup) and not os.path.lexists(real):
            os.rename(backup, real)
        _rmtree_quietly(staging)
        raise
    _crash_point("swapped")
    _rmtree_quietly(staging)
    _rmtree_quietly(backup)


RENAME_EXCHANGE = 2  # from <linux/fs.h>


_AT_FDCWD = -100


# old kernel, filesystem without exchange, or a sandbox (seccomp) refusing the call; a real EPERM
# fails the fallback's rename the same way, so falling back costs nothing
_UNSUPPORTED = {errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EPERM}


@cache
def _renameat2() -> Callable[..., int] | None:
    """libc's renameat2 (Linux, glibc 2.28+), or None where there is none."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        func = ctypes.CDLL(None, use_errno=True).renameat2
    except (ImportError, OSError, AttributeError):
        return None
    func.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    func.restype = ctypes.c_int
    return func


def _exchange(a: Path, b: Path) -> bool:
    """Swap two existing paths in one atomic step; False where the OS or filesystem cannot."""
    func = _renameat2()
    if func is None:
        return False
    import ctypes

    if func(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in _UNSUPPORTED:
        return False
    raise OSError(code, os.strerror(code), str(a), None, str(b))


CRASH_AT = "TOOLGEN_TEST_CRASH_AT"


#: The steps of ``write`` in order; "aside" only happens without an atomic exchange.
CRASH_STEPS = ("staging", "file", "carried", "staged", "aside", "swapped", "written")


def _crash_point(step: str) -> None:
    """Test hook: die like ``kill -9`` here when TOOLGEN_TEST_CRASH_AT names ``step``; inert otherwise."""
    if os.environ.get(CRASH_AT) == step:
        os.kill(os.getpid(), getattr(signal, "SIGKILL", signal.SIGTERM))


def interrupted(out: Path) -> bool:
    """Whether an interrupted swap left a staging or set-aside folder beside ``out`` (``recover`` ends it)."""
    real = _real(out)
    return os.path.lexists(_staging(real)) or os.path.lexists(_backup(real))


def _rmtree_quietly(path: Path) -> None:
    try:
        if _is_real_dir(path):
            _rmtree(path)
    except OSError:
        pass  # recover() of the next run removes it
