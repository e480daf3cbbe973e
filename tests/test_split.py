"""Rendering with a forked child (generator/lower/split.py) gives the one-process output: the same
bytes, files in the same order, the same diagnostics in the same order; a failing child is an
error of the run, never a hang or a half output."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from conftest import BUNDLED_SPECS
from generator import pipeline
from generator.lower import sent_checks, split

HERE = Path(__file__).resolve().parent


def _run(specs: Path, monkeypatch: pytest.MonkeyPatch, jobs: str) -> tuple[list[str], list[bytes], str, dict]:
    monkeypatch.setenv(split.JOBS_ENV, jobs)
    names: list[str] = []
    blobs: list[bytes] = []

    def sink(name: str, data: bytes) -> None:
        names.append(name)
        blobs.append(data)

    result = pipeline.run(specs, sink)
    return names, blobs, result.diagnostics.render("json"), result.docs


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork here: one process always")
def test_two_processes_write_what_one_writes(monkeypatch: pytest.MonkeyPatch) -> None:
    one = _run(BUNDLED_SPECS, monkeypatch, "1")
    two = _run(BUNDLED_SPECS, monkeypatch, "2")
    assert "W501" in one[2]  # the bundled specs have findings from the child's share
    assert one == two


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork here: one process always")
def test_a_failing_child_fails_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object) -> None:
        raise ValueError("broken in the child")

    monkeypatch.setattr(sent_checks, "check", broken)
    monkeypatch.setenv(split.JOBS_ENV, "2")
    with pytest.raises(RuntimeError, match="broken in the child"):
        pipeline.run(BUNDLED_SPECS, lambda name, data: None)
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)  # no child left behind


def test_when_a_second_process_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(split.JOBS_ENV, raising=False)
    assert not split.worth_it(split.MIN_VARIANTS - 1)
    monkeypatch.setattr(os, "getloadavg", lambda: (64.0, 64.0, 64.0))
    assert not split.worth_it(10 * split.MIN_VARIANTS)  # no idle CPU: the child would only add its cost
    monkeypatch.setattr(os, "getloadavg", lambda: (0.0, 0.0, 0.0))
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    assert split.worth_it(10 * split.MIN_VARIANTS) == hasattr(os, "fork")
    monkeypatch.setenv(split.JOBS_ENV, "1")
    assert not split.worth_it(10 * split.MIN_VARIANTS)
    monkeypatch.setenv(split.JOBS_ENV, "2")
    assert split.worth_it(1) == hasattr(os, "fork")


def test_no_fork_of_its_own_accord_beside_other_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """A host program with threads (a server calling the pipeline) never gets a forked render
    unless it asks with TOOLGEN_JOBS=2: a lock held by another thread would hang the child."""
    import threading

    monkeypatch.delenv(split.JOBS_ENV, raising=False)
    monkeypatch.setattr(split, "_idle_cpu", lambda: True)
    if threading.active_count() == 1:
        assert split.worth_it(split.MIN_VARIANTS) == hasattr(os, "fork")
    stop = threading.Event()
    other = threading.Thread(target=stop.wait, daemon=True)
    other.start()
    try:
        assert not split.worth_it(split.MIN_VARIANTS)
    finally:
        stop.set()
        other.join()
