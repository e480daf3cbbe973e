"""Resident memory while a streamed run renders: ``python benchmarks/memory.py N [--seed S]``.

Writes a synthetic catalog of N tools (benchmarks/synth.py) to a temp folder and runs the
pipeline in this process with a hash-only sink (``write.Staging(None)``, what ``validate``
uses), printing after each file of 1 MB or more: its size, the resident set (VmRSS) and the peak
so far (VmHWM), from /proc/self/status (Linux only). docs/performance.md shows where the peak
of a cold generate comes from with it.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import synth  # noqa: E402
from generator import pipeline, write  # noqa: E402


def resident_mb() -> tuple[int, int]:
    """(VmRSS, VmHWM) of this process in MB."""
    fields: dict[str, int] = {}
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                fields[key] = int(value.split()[0]) // 1024
    return fields["VmRSS"], fields["VmHWM"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tools", type=int)
    parser.add_argument("--seed", type=int, default=1234)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        synth.write_catalog(Path(tmp), args.tools, args.seed)
        staging = write.Staging(None)
        print(f"{'after':<28} {'file MB':>7} {'rss MB':>7} {'peak MB':>7}")

        def sink(rel: str, data: bytes) -> None:
            staging(rel, data)
            if len(data) >= 1 << 20:
                rss, peak = resident_mb()
                print(f"{rel:<28} {len(data) / 2**20:7.1f} {rss:7} {peak:7}", flush=True)

        rss, peak = resident_mb()
        print(f"{'(start)':<28} {'':>7} {rss:7} {peak:7}")
        start = time.perf_counter()
        result = pipeline.run(Path(tmp) / "specs", sink)
        seconds = time.perf_counter() - start
        rss, peak = resident_mb()
        print(f"{'(end)':<28} {'':>7} {rss:7} {peak:7}   {seconds:.1f} s, {len(staging.hashes)} files")
        return 1 if result.diagnostics.has_errors else 0


if __name__ == "__main__":
    sys.exit(main())
