"""`toolgen generate --watch`: regenerate whenever a spec file changes, until Ctrl-C.

Standard library polling, so it works the same on every platform and file system (network
shares and containers included, where change notifications are unreliable): every
``INTERVAL`` seconds the spec tree is reduced to (mtime, size, inode) per spec file and
compared with the last one. A change waits until the tree holds still for one more interval
(an editor saving several files, or writing one in steps, causes one run) and then runs the
ordinary one-shot ``generate`` (commands.py) from a workspace kept across runs, so only changed
spec files are read and checked again; its fast path makes a run that changes nothing cheap and
whose staged swap means a failed run leaves the output as it was.

Each run prints one status line, ``[12:00:01] generated 3 files in 0.21 s``, followed by its
errors; warnings are repeated only when they change. The time of day goes to the terminal
only, never into a generated file. Ctrl-C between runs stops at once; during a run it stops
after the run (a second Ctrl-C interrupts the run, and the swap keeps the output whole).
Clock, sleep and a stop condition are injectable so tests drive the loop without waiting.
"""

from __future__ import annotations

import argparse
import io
import json
import re
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout, suppress
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from types import FrameType

from .commands import run_once
from .diagnostics import printable
from .specfiles import input_files
from .workspace import Workspace

INTERVAL = 0.3
"""Seconds between two looks at the spec tree."""
SETTLE_LIMIT = 3.0
"""Seconds a tree that keeps changing is waited for before it is generated anyway."""

EXIT_INTERRUPTED = 130

Snapshot = dict[str, tuple[int, int, int]]
Once = Callable[[argparse.Namespace], int]

# What the one-shot generate prints last; the status line says it instead.
_SUMMARY = re.compile(r"^toolgen: (?:(\d+) file\(s\) updated|up to date)\n", re.MULTILINE)
# One diagnostic in the text format (``path:1:2: error[E101]: ...``) or as a GitHub annotation.
_FINDING = re.compile(r"^(?:\S.*?: (error|warning)\[\w+\]: |::(error|warning) )", re.MULTILINE)


@dataclass(frozen=True)
class Clock:
    """Where the loop gets time from; tests pass their own."""

    monotonic: Callable[[], float] = time.monotonic
    sleep: Callable[[float], None] = time.sleep
    now: Callable[[], datetime] = datetime.now
    """The time of day shown in status lines."""


SYSTEM_CLOCK = Clock()
"""The real clock, looked up at each run (a test may replace it to drive the CLI's own loop)."""


def snapshot(specs: Path) -> Snapshot:
    """(mtime, size, inode) of every spec file below ``specs``, by relative path; {} when it is gone.

    The files a run reads (specfiles.input_files, as fastpath.fingerprint takes them); the inode
    catches editors that save by renaming a new file over the old one.
    """
    found: Snapshot = {}
    try:
        paths = input_files(specs)
    except OSError:  # the folder vanished while it was listed
        return found
    for path in paths:
        try:
            info = path.stat()
            found[path.relative_to(specs).as_posix()] = (info.st_mtime_ns, info.st_size, info.st_ino)
        except OSError:  # a dangling link, or deleted since the listing: the run reports it
            found[path.relative_to(specs).as_posix()] = (-1, -1, -1)
    return found


def run(
    args: argparse.Namespace,
    *,
    once: Once | None = None,
    clock: Clock | None = None,
    stop: Callable[[], bool] = lambda: False,
    interval: float = INTERVAL,
) -> int:
    """Generate now and after every change of ``args.specs`` until Ctrl-C or ``stop()``; exit 0.

    ``once`` runs one generate (default: the CLI's own, with its error handling, reading the
    specs through one workspace kept across runs: a run re-reads and re-checks only changed files).
    """
    if once is None:
        once = _generate_with(Workspace(args.specs))
    clock = clock or SYSTEM_CLOCK
    single = argparse.Namespace(**{**vars(args), "watch": False})
    report = _Reporter(clock)
    print(f"toolgen: watching {printable(str(single.specs))} for changes (Ctrl-C to stop)", file=sys.stderr)
    code = 0
    try:
        seen = snapshot(single.specs)
        code = report.run(once, single)
        while not report.interrupted and code != EXIT_INTERRUPTED and not stop():
            clock.sleep(interval)
            current = snapshot(single.specs)
            if current != seen:
                seen = _settled(single.specs, current, clock, interval)
                code = report.run(once, single)
    except KeyboardInterrupt:
        pass
    if code == EXIT_INTERRUPTED:  # a second Ctrl-C cut a run short; the run said so
        return code
    print("toolgen: stopped watching", file=sys.stderr)
    return 0


def _generate_with(workspace: Workspace) -> Once:
    """One generate as the CLI runs it, from ``workspace`` brought up to date with the disk first."""

    def once(args: argparse.Namespace) -> int:
        workspace.refresh()
        return run_once(args, workspace)

    return once


def _settled(specs: Path, current: Snapshot, clock: Clock, interval: float) -> Snapshot:
    """The tree once it held still for one interval (or after SETTLE_LIMIT seconds of changes)."""
    deadline = clock.monotonic() + SETTLE_LIMIT
    while clock.monotonic() < deadline:
        clock.sleep(interval)
        later = snapshot(specs)
        if later == current:
            break
        current = later
    return current


class _Reporter:
    """Runs one generate with its output held back, then prints the status line and that output."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.interrupted = False  # Ctrl-C arrived during the last run (which was finished first)
        self.shown = ""  # the warnings printed last, so that unchanged ones are not repeated

    def run(self, once: Once, args: argparse.Namespace) -> int:
        """One run's exit code, after its status line and output were printed."""
        stdout, stderr = io.StringIO(), io.StringIO()
        start = self.clock.monotonic()
        with _interrupt_after() as interrupted, redirect_stdout(stdout), redirect_stderr(stderr):
            code = once(args)
        seconds = self.clock.monotonic() - start
        self.interrupted = interrupted()
        output, printed = stdout.getvalue(), stderr.getvalue()
        rest = _SUMMARY.sub("", printed)
        errors, warnings = _count(output, rest)
        stamp = self.clock.now().strftime("%H:%M:%S")
        print(f"[{stamp}] {_status(code, printed, errors, warnings, seconds)}", file=sys.stderr)
        clean = code == 0 and not errors
        if not clean or output + rest != self.shown:
            sys.stdout.write(output)
            sys.stderr.write(rest)
            self.shown = output + rest if clean else ""
        sys.stdout.flush()
        return code


def _status(code: int, printed: str, errors: int, warnings: int, seconds: float) -> str:
    """``generated 3 files in 0.21 s``, ``up to date in 0.01 s (5 warnings)``, ``2 errors in ...``."""
    took = f"in {seconds:.2f} s"
    if code == 0:
        match = _SUMMARY.search(printed)
        done = f"generated {_plural(int(match.group(1)), 'file')}" if match and match.group(1) else "up to date"
        return f"{done} {took}" + (f" ({_plural(warnings, 'warning')})" if warnings else "")
    if code == EXIT_INTERRUPTED:
        return f"interrupted {took}"
    problem = _plural(errors, "error") if errors else f"failed (exit {code})"
    return f"{problem} {took}; the output was left as it was"


def _count(stdout: str, stderr: str) -> tuple[int, int]:
    """Errors and warnings in a run's output, in whichever --error-format it printed them."""
    kinds = [a or b for a, b in _FINDING.findall(stdout + stderr)]
    if stdout.startswith("["):  # --error-format json
        with suppress(ValueError):
            kinds += [item.get("severity") for item in json.loads(stdout) if isinstance(item, dict)]
    return kinds.count("error"), kinds.count("warning")


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


@contextmanager
def _interrupt_after() -> Iterator[Callable[[], bool]]:
    """Hold a Ctrl-C back until the block ends (the run completes whole); a second one interrupts.

    Yields a function saying whether one arrived. Signal handlers belong to the main thread;
    elsewhere Ctrl-C keeps its ordinary effect.
    """
    arrived: list[bool] = []
    if threading.current_thread() is not threading.main_thread():
        yield lambda: False
        return

    def handler(signum: int, frame: FrameType | None) -> None:
        if arrived:
            raise KeyboardInterrupt
        arrived.append(True)

    previous = signal.signal(signal.SIGINT, handler)
    try:
        yield lambda: bool(arrived)
    finally:
        signal.signal(signal.SIGINT, previous)
