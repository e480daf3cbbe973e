"""Where Node is missing, the TypeScript checks are skipped with a visible reason and never reported
as passed (issue 16): a pytest run without node on PATH ends with the red NOT CHECKED line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import ROOT


def test_without_node_the_ts_checks_are_skipped_and_the_run_ends_saying_so(tmp_path: Path) -> None:
    empty = tmp_path / "bin"  # a PATH with no node and no npm
    empty.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_ADDOPTS"} | {"PATH": str(empty)}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "tests/test_ts_toolchain.py", "-k", "compiles_strict or under_node"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    lines = [line for line in run.stdout.splitlines() if line.strip()]
    assert "2 skipped" in lines[-2] and "passed" not in lines[-2], lines[-2:]
    assert "NOT CHECKED: TypeScript checks skipped: node is not installed" in lines[-1], lines[-1]
