"""``toolgen breaking`` against ``toolgen validate`` on the bundled specs, as a ratio of CPU time.

``python benchmarks/breaking.py [--rounds N]`` (run by ``make bench``) copies specs/ twice into a
temp dir and times, in turns (validate, breaking, validate, breaking, ...), each command as a
child process, by the child's own user+system CPU time (os.wait4), so that a busy machine
slows both alike. Two comparisons: the specs against an unchanged copy, and against a copy
whose selection data changed (a model set lost an id: the grid of contexts runs). The target is
breaking <= 1.5x validate. Writes benchmarks/out/breaking.json.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

import run as bench_run  # noqa: E402  (benchmarks/run.py: one way to time a child process)

TOOLGEN = [sys.executable, "-m", "generator"]
TARGET = 1.5


def cpu_seconds(args: list[str], cwd: Path) -> float:
    """The child's user+system CPU seconds (run.py's timing); it must exit 0 (validate) or 0/1
    (breaking)."""
    return float(bench_run.run(args, cwd=cwd, ok=(0, 1))["cpu_s"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        shutil.copytree(REPO / "specs", root / "specs")
        shutil.copytree(REPO / "specs", root / "same")
        shutil.copytree(REPO / "specs", root / "moved")
        project = root / "moved" / "toolgen.yaml"
        text = project.read_text("utf-8")
        changed = text.replace("- claude-sonnet-4", "- claude-sonnet-4-x", 1)
        if changed == text:  # the edit must hit something: else both rows would time the same case
            raise SystemExit("benchmarks/breaking.py: no model id to edit in specs/toolgen.yaml")
        project.write_text(changed, "utf-8")
        cases = {
            "validate": TOOLGEN + ["validate", "--specs", "specs"],
            "breaking, unchanged": TOOLGEN + ["breaking", "--specs", "specs", "--against", "same"],
            "breaking, selection changed": TOOLGEN + ["breaking", "--specs", "specs", "--against", "moved"],
        }
        times: dict[str, list[float]] = {name: [] for name in cases}
        for command in cases.values():  # warm-up: imports and the OS file cache
            cpu_seconds(command, root)
        for _ in range(args.rounds):
            for name, command in cases.items():
                times[name].append(cpu_seconds(command, root))
    medians = {name: statistics.median(values) for name, values in times.items()}
    base = medians["validate"]
    rows = [f"| case | CPU s (median of {args.rounds}) | / validate |", "| --- | ---: | ---: |"]
    results = []
    for name, value in medians.items():
        ratio = value / base
        rows.append(f"| {name} | {value:.3f} | {ratio:.2f}x |")
        results.append({"case": name, "cpu_s": value, "ratio": ratio, "samples": times[name]})
    print("\n".join(rows))
    for row in results[1:]:
        status = "met" if row["ratio"] <= TARGET else "NOT met"
        print(f"target: {row['case']} <= {TARGET}x validate: {row['ratio']:.2f}x, {status}")
    out = REPO / "benchmarks" / "out"
    out.mkdir(exist_ok=True)
    (out / "breaking.json").write_text(json.dumps({"target": TARGET, "results": results}, indent=2) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
