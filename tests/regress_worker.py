"""Verdicts of the PyPI package ``regress`` (an ECMA-262 engine in Rust), in a child process.

regress backtracks without bound on some nested loops whose body can match the empty string
(``(?:\\W(.|)+)*``: it grows its stack until the allocation fails and aborts the process), so the
differential test never calls it in the pytest process: ``verdicts`` runs this file as a child
with its address space capped, one line of JSON per case, and when the child dies or stalls on a
case it records that case as ``"crashed"`` and starts a new child after it.

regress takes Python strings as UTF-8, so a case whose pattern or text holds a surrogate code
point (raw or as an escape) is left out by the caller.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

MEMORY = 2 << 30  # bytes of address space for the child
STALL = 20.0  # seconds for a whole batch


def verdicts(cases: list[tuple[str, list[str]]]) -> list[Any]:
    """Per case: ``{"verdicts": [...]}``, ``{"error": message}`` or ``"crashed"``."""
    results: list[Any] = []
    while len(results) < len(cases):
        rest = cases[len(results) :]
        feed = "".join(json.dumps(case) + "\n" for case in rest)
        try:
            completed = subprocess.run(
                [sys.executable, str(Path(__file__))], input=feed, capture_output=True, text=True, timeout=STALL
            )
            output = completed.stdout
        except subprocess.TimeoutExpired as exc:
            output = exc.stdout.decode() if isinstance(exc.stdout, bytes) else exc.stdout or ""
        done = [json.loads(line) for line in output.splitlines()]
        results += done
        if len(results) < len(cases):
            results.append("crashed")
    return results


def main() -> None:
    import regress

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    for line in sys.stdin:
        pattern, texts = json.loads(line)
        try:
            regexp = regress.Regex(pattern, "u")
        except Exception as exc:  # regress raises its own RegressError
            result: dict[str, Any] = {"error": str(exc)}
        else:
            result = {"verdicts": [regexp.find(text) is not None for text in texts]}
        sys.stdout.write(json.dumps(result) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
