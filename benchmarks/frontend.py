"""The front end's speed (issue 23): ``.venv/bin/python benchmarks/frontend.py [--quick]``.

Measures, against the targets below, on copies in a temp folder (each run its own empty
TOOLGEN_CACHE_DIR, bytecode cached under the temp folder, warmed once):

* ``toolgen validate`` on the bundled specs, cold (a new process), beside ``python -c pass``;
* diagnostics after a one-line edit through the Workspace API (``set_text``, then
  ``by_file``: what a language server publishes), p50 and p95 over a series of edits, on the
  bundled specs and on a synthetic 1,000-tool catalog (benchmarks/synth.py);
* ``generate --watch``'s run after one tool file of the 1,000-tool catalog is saved: the
  workspace refreshed and the generate that rewrites the output (the watch loop's own run,
  without its polling interval);
* a cold ``toolgen generate`` of 1,000 and 5,000 tools.

Each figure is wall time; subprocess rows also give the CPU seconds (user + system) of the
child, which a busy shared machine does not inflate. Prints a table and writes
benchmarks/out/frontend.json; exits 0 whether targets are met or not (reported, not enforced).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(HERE))

import run as bench_run  # noqa: E402
import synth  # noqa: E402

PYTHON = sys.executable
_SCRIPT = Path(PYTHON).parent / "toolgen"
TOOLGEN = [str(_SCRIPT)] if _SCRIPT.is_file() else [PYTHON, "-m", "generator"]
ENV = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX")}

# name: (label, limit in seconds)
TARGETS = {
    "validate_bundled_cold_s": ("validate, bundled specs, cold", 0.3),
    "edit_bundled_p50_s": ("one-line edit -> diagnostics, bundled (p50)", 0.05),
    "edit_1000_p50_s": ("one-line edit -> diagnostics, 1,000 tools (p50)", 0.15),
    "watch_1000_s": ("watch: one tool saved -> output, 1,000 tools", 1.0),
    "generate_1000_cold_s": ("cold generate, 1,000 tools", 3.0),
    "generate_5000_cold_s": ("cold generate, 5,000 tools", 15.0),
}


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def child(cmd: list[str], env: dict[str, str], ok: tuple[int, ...] = (0,)) -> dict[str, float]:
    """Run ``cmd``: wall seconds and the child's CPU seconds (user + system), as run.py times them."""
    result = bench_run.run(cmd, env=env, ok=ok)
    return {"wall_s": result["wall_s"], "cpu_s": result["cpu_s"]}


def best(runs: list[dict[str, float]]) -> dict[str, float]:
    """Median wall and CPU of several runs."""
    return {key: statistics.median(r[key] for r in runs) for key in ("wall_s", "cpu_s")}


def one_line_edits(specs: Path, rel: str, count: int) -> dict[str, float]:
    """p50/p95 seconds from ``set_text`` of a one-line edit to the diagnostics by file."""
    from generator.workspace import Workspace

    workspace = Workspace(specs)
    start = time.perf_counter()
    workspace.by_file()
    first = time.perf_counter() - start
    path = specs / rel
    text = path.read_text("utf-8")
    lines = text.split("\n")
    target = next(i for i, line in enumerate(lines) if "description:" in line)
    times = []
    for n in range(count):
        edited = list(lines)
        edited[target] = lines[target].replace("description:", f"description: edit {n}", 1)
        start = time.perf_counter()
        workspace.set_text(path, "\n".join(edited))
        workspace.by_file()
        times.append(time.perf_counter() - start)
    times.sort()
    return {
        "first_s": first,
        "p50_s": statistics.median(times),
        "p95_s": times[min(len(times) - 1, round(0.95 * (len(times) - 1)))],
        "edits": count,
    }


def watch_run(root: Path, rel: str, repeats: int) -> dict[str, float]:
    """The watch loop's run after ``rel`` is saved: refresh the workspace, generate (in process)."""
    from generator import cli, watch
    from generator.workspace import Workspace

    specs, out = root / "specs", root / "generated"
    args = cli._parser().parse_args(["generate", "--specs", str(specs), "--out", str(out), "--no-docs"])
    args.specs_given, args.watch = args.specs, False
    once = watch._generate_with(Workspace(specs))
    sink = io.StringIO()
    with redirect_stdout(sink), redirect_stderr(sink):
        start = time.perf_counter()
        assert once(args) == 0, sink.getvalue()
        first = time.perf_counter() - start
    path = specs / rel
    original = path.read_text("utf-8")
    times = []
    for n in range(repeats):
        path.write_text(original.replace("description:", f"description: saved {n}", 1), "utf-8")
        with redirect_stdout(sink), redirect_stderr(sink):
            start = time.perf_counter()
            code = once(args)
            times.append(time.perf_counter() - start)
        assert code == 0, sink.getvalue()
    return {"first_s": first, "median_s": statistics.median(times), "runs": repeats}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats, no 5,000-tool catalog")
    parser.add_argument("--json", type=Path, default=HERE / "out" / "frontend.json")
    parser.add_argument("--seed", type=int, default=1234)
    args = parser.parse_args(argv)
    reps = 3 if args.quick else 7
    work = Path(tempfile.mkdtemp(prefix="toolgen-frontend-"))
    env = {**ENV, "PYTHONPYCACHEPREFIX": str(work / "pycache"), "TOOLGEN_CACHE_DIR": ""}
    os.environ["TOOLGEN_CACHE_DIR"] = ""  # the in-process runs: no fast path either
    results: dict[str, Any] = {"cpus": os.cpu_count(), "python": sys.version.split()[0]}
    try:
        bundled = work / "bundled" / "specs"
        shutil.copytree(REPO / "specs", bundled)
        validate = [*TOOLGEN, "validate", "--specs", str(bundled)]
        child(validate, env)  # warm the bytecode cache
        log("[bundled] python -c pass, validate")
        results["python_pass"] = best([child([PYTHON, "-c", "pass"], env) for _ in range(reps)])
        results["validate_bundled"] = best([child(validate, env) for _ in range(reps)])
        log("[bundled] one-line edits through the workspace")
        results["edit_bundled"] = one_line_edits(bundled, "tools/read_file.yaml", 10 * reps)
        sizes = [1000] if args.quick else [1000, 5000]
        for size in sizes:
            root = work / f"synthetic-{size}"
            synth.write_catalog(root, size, args.seed)
            first_tool = sorted((root / "specs" / "tools").glob("*.yaml"))[size // 2].name
            log(f"[{size}] cold generate")
            generate = [*TOOLGEN, "generate", "--specs", str(root / "specs"), "--out", str(root / "generated")]
            runs = []
            for _ in range(1 if size > 1000 or args.quick else 2):
                shutil.rmtree(root / "generated", ignore_errors=True)
                runs.append(child([*generate, "--no-docs"], env))
            results[f"generate_{size}"] = best(runs)
            if size == 1000:
                log(f"[{size}] one-line edits through the workspace")
                results["edit_1000"] = one_line_edits(root / "specs", f"tools/{first_tool}", 4 * reps)
                log(f"[{size}] watch: a saved tool file -> output rewritten")
                results["watch_1000"] = watch_run(root, f"tools/{first_tool}", max(2, reps // 2))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    values = {
        "validate_bundled_cold_s": results["validate_bundled"]["wall_s"],
        "edit_bundled_p50_s": results["edit_bundled"]["p50_s"],
        "edit_1000_p50_s": results["edit_1000"]["p50_s"],
        "watch_1000_s": results["watch_1000"]["median_s"],
        "generate_1000_cold_s": results["generate_1000"]["wall_s"],
        "generate_5000_cold_s": results.get("generate_5000", {}).get("wall_s"),
    }
    results["targets"] = {
        name: {"label": label, "limit_s": limit, "value_s": value, "met": None if value is None else value <= limit}
        for name, (label, limit) in TARGETS.items()
        for value in [values[name]]
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(results, indent=2) + "\n", "utf-8")
    report(results)
    return 0


def report(results: dict[str, Any]) -> None:
    base = results["python_pass"]["wall_s"]
    print(f"front end ({results['cpus']} CPUs, Python {results['python']}); python -c pass: {base * 1000:.0f} ms")
    for row in ("validate_bundled", "generate_1000", "generate_5000"):
        if row in results:
            r = results[row]
            ratio = r["wall_s"] / base
            print(f"  {row:<24} wall {r['wall_s']:7.3f} s  cpu {r['cpu_s']:7.3f} s  ({ratio:.0f}x python -c pass)")
    for row in ("edit_bundled", "edit_1000"):
        r = results[row]
        p50, p95 = r["p50_s"] * 1000, r["p95_s"] * 1000
        print(f"  {row:<24} p50 {p50:6.1f} ms  p95 {p95:6.1f} ms  (first {r['first_s']:.2f} s)")
    w = results["watch_1000"]
    print(f"  {'watch_1000':<24} median {w['median_s']:6.3f} s  (first run {w['first_s']:.2f} s)")
    print("targets:")
    for t in results["targets"].values():
        value = "n/a" if t["value_s"] is None else f"{t['value_s']:.3f} s"
        status = "not measured" if t["met"] is None else ("MET" if t["met"] else "MISSED")
        print(f"  {t['label']:<50}{value:>10}  <= {t['limit_s']} s  {status}")


if __name__ == "__main__":
    sys.exit(main())
