"""Rendering on two cores: part of a large catalog's output made in a forked child process.

A cold generate of thousands of tools spends most of its rendering time in the native modules
(each converts every variant and lays out a literal holding all of them); the other modules take
about as long as two of them. Once the model is built, ``Child(work)`` forks: the child runs
``work`` on the same model (copy-on-write, nothing is pickled on the way in) while this process
renders its own share, then ``result()`` reads what the child pickled back through a pipe (its
files, already encoded, and its diagnostics). Callers put both in the one-process order, so the
bytes, the order of the files and of the diagnostics are those of a run without a child.

Only where it pays: fork exists (POSIX), this process may run on two CPUs or more and about one of
them is idle (the one-minute load average at most the CPUs less one: on a busy machine the child
only adds its cost, about 6-10 % more CPU, docs/performance.md), this process runs no other thread
(a fork copies only the calling thread: a lock another thread held, the import lock or a logging
handler's, would stay locked in the child for good), the catalog is large (below
``MIN_VARIANTS`` the fork costs more than it saves), and ``TOOLGEN_JOBS`` is not 1. Whichever way
is taken, the output is the same.
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
import threading
import traceback
from collections.abc import Callable
from contextlib import suppress
from typing import Generic, TypeVar

T = TypeVar("T")

#: Variants below which one process renders everything (measured: docs/performance.md).
MIN_VARIANTS = 300
#: 1: always one process (an A/B, or where fork is unwelcome); 2: a second process whenever fork exists.
JOBS_ENV = "TOOLGEN_JOBS"


def worth_it(variants: int) -> bool:
    """Whether to render with a second process for a catalog of ``variants`` spec variants."""
    if not hasattr(os, "fork") or os.environ.get(JOBS_ENV, "").strip() == "1":
        return False
    forced = os.environ.get(JOBS_ENV, "").strip() == "2"  # always (the tests' way on small specs)
    return forced or (variants >= MIN_VARIANTS and threading.active_count() == 1 and _idle_cpu())


def _idle_cpu() -> bool:
    """Two CPUs or more for this process, and about one of them idle."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):
        load = 0.0  # no load average here: the CPU count decides
    return cpus >= 2 and load <= cpus - 1


class Child(Generic[T]):
    """``work()`` run in a forked child; :meth:`result` is its return value (or its error, raised)."""

    def __init__(self, work: Callable[[], T]) -> None:
        read, write = os.pipe()
        for stream in (sys.stdout, sys.stderr):  # nothing buffered may be printed twice
            stream.flush()
        pid = os.fork()
        if pid == 0:  # the child: never returns
            os.close(read)
            _run_child(work, write)
        os.close(write)
        self._pid: int | None = pid
        self._read = read

    def result(self) -> T:
        """Wait for the child; its value, or RuntimeError with its traceback when it failed."""
        try:
            with os.fdopen(self._read, "rb", closefd=True) as pipe:
                data = pipe.read()
        finally:
            self._reap()
        if not data:
            raise RuntimeError("the rendering child process ended without a result")
        ok, value = pickle.loads(data)
        if not ok:
            raise RuntimeError(f"rendering in the child process failed:\n{value}")
        result: T = value
        return result

    def close(self) -> None:
        """Stop a child whose result is no longer wanted (this process failed first)."""
        if self._pid is None:
            return
        with suppress(OSError):
            os.kill(self._pid, signal.SIGKILL)
        with suppress(OSError):
            os.close(self._read)
        self._reap()

    def _reap(self) -> None:
        if self._pid is not None:
            with suppress(ChildProcessError):
                os.waitpid(self._pid, 0)
            self._pid = None


def _run_child(work: Callable[[], T], write: int) -> None:
    """In the child: run ``work``, pickle (True, value) or (False, traceback) to ``write``, exit at once
    (no atexit handlers, no flushing of buffers inherited from the parent)."""
    code = 0
    try:
        try:
            data = pickle.dumps((True, work()), protocol=pickle.HIGHEST_PROTOCOL)
        except BaseException:  # a bug (or Ctrl-C): the parent raises it with this traceback
            data = pickle.dumps((False, traceback.format_exc()))
            code = 1
        with os.fdopen(write, "wb", closefd=True) as pipe:
            pipe.write(data)
    except BaseException:
        code = 1
    finally:
        os._exit(code)
