"""What the TypeScript package costs its user: import time in Node and browser bundle size (``make bench``
runs it; or ``python benchmarks/ts_bundle.py``). Not a test.

The package is rendered afresh from specs/ (as tests/ts_bridge.py does) into a temporary folder, then:

* import: compiled with the pinned tsc (ES2022 modules), each entry module imported in a fresh
  ``node`` process, timed around the ``import()`` alone (node's own start is not counted); the
  median of the runs. ``index`` is the whole package; ``<module>`` a one-format entry module
  (generated-ts/anthropic.ts, ...). ``index, one file`` imports the whole package bundled by
  esbuild into one module: the same code without node's cost per module file. ``<entry>,
  installed`` imports what ``npm pack`` ships (the package's own build: esbuild entries sharing
  chunks), which is what the import target is about;
* bundle: the pinned esbuild (tests/ts/package.json) bundles each entry for the browser, minified
  ESM; the size, the gzip size, and the share of the spec set's own data (catalog_data.ts, of which
  a one-format entry reaches the native families' part), which grows with the specs.
  ``<module>+dispatch`` adds dispatch.ts (the handler side, with argument validation) to a
  one-format entry.

Targets (issue 22): the whole package imports in at most 30 ms; a one-format bundle is at most
80 KiB minified. They are reported, not enforced. Prints a table and writes
benchmarks/out/ts_bundle.json. Needs node and ``make ts-deps``; without them it says so.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path[:0] = [str(REPO), str(REPO / "tests")]

import ts_bridge  # noqa: E402
from generator.runtime.formats import FORMATS  # noqa: E402

TOOLCHAIN = REPO / "tests" / "ts" / "node_modules"
TSC = TOOLCHAIN / "typescript" / "bin" / "tsc"
ESBUILD = TOOLCHAIN / ".bin" / "esbuild"
IMPORT_TARGET_MS = 30.0
ONE_FORMAT_TARGET_KIB = 80.0
DATA_FILES = ("catalog_data.ts",)

_TIMER = """\
const start = performance.now();
await import(process.argv[2]);
process.stdout.write(String(performance.now() - start));
"""

_TSCONFIG = {
    "compilerOptions": {
        "target": "ES2022",
        "module": "ES2022",
        "moduleResolution": "bundler",
        "strict": True,
        "skipLibCheck": True,
        "types": [],
        "rootDir": "pkg",
        "outDir": "out",
    },
    "include": ["pkg/**/*.ts"],
}


def write_package(root: Path) -> list[str]:
    """The package under root/pkg, compiled into root/out; returns the entry modules (no suffix)."""
    for rel, data in ts_bridge.render_package().items():
        path = root / "pkg" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    (root / "tsconfig.json").write_text(json.dumps(_TSCONFIG), "utf-8")
    completed = subprocess.run(["node", str(TSC), "-p", "tsconfig.json"], cwd=root, capture_output=True, text=True)
    if completed.returncode != 0:
        raise SystemExit(f"tsc failed:\n{completed.stdout}{completed.stderr}")
    (root / "out" / "package.json").write_text('{"type": "module"}\n', "utf-8")
    (root / "timer.mjs").write_text(_TIMER, "utf-8")
    formats = [rec.module for rec in FORMATS.values() if (root / "pkg" / f"{rec.module}.ts").exists()]
    return ["index", *formats]


def import_ms(root: Path, target: str, runs: int) -> dict[str, float]:
    """Milliseconds of ``import()`` of the module file ``target``, each run a fresh node: the median,
    and the fastest run (what the machine gives without other load)."""
    command = ["node", str(root / "timer.mjs"), target]
    subprocess.run(command, check=True, capture_output=True)  # warms the disk cache
    times = []
    for _ in range(runs):
        completed = subprocess.run(command, check=True, capture_output=True, text=True)
        times.append(float(completed.stdout))
    return {"median": statistics.median(times), "min": min(times)}


def one_file(root: Path) -> str:
    """The whole package bundled into one ES module for node (not minified): its path."""
    out = root / "bundles" / "index.node.mjs"
    command = [str(ESBUILD), str(root / "pkg" / "index.ts"), "--bundle", "--format=esm", "--platform=neutral"]
    subprocess.run([*command, f"--outfile={out}", "--log-level=warning"], check=True, cwd=root)
    return str(out)


def installed(root: Path) -> Path:
    """The JavaScript ``npm pack`` ships, built as the package's own build script builds it (its
    esbuild step, with the pinned esbuild): the folder holding the entries and their chunks."""
    script = json.loads((root / "pkg" / "package.json").read_text("utf-8"))["scripts"]["build"]
    command = script.split("&&", 1)[1].split()
    if command[0] != "esbuild":
        raise SystemExit(f"the package's build script no longer ends with an esbuild step: {script}")
    subprocess.run([str(ESBUILD), *command[1:]], check=True, cwd=root / "pkg")
    return root / "pkg" / "dist"


def bundle(root: Path, name: str, modules: list[str]) -> dict[str, Any]:
    """Minified browser bundle of ``modules`` (re-exported by one entry file): sizes in KiB."""
    entry = root / "pkg" / f"_bundle_{name.replace('+', '_')}.ts"
    entry.write_text("".join(f'export * from "./{m}.js";\n' for m in modules), "utf-8")
    out, meta = root / "bundles" / f"{name}.js", root / "bundles" / f"{name}.meta.json"
    command = [str(ESBUILD), str(entry), "--bundle", "--minify", "--format=esm", "--platform=browser"]
    command += [f"--outfile={out}", f"--metafile={meta}", "--log-level=warning"]
    subprocess.run(command, check=True, cwd=root)
    data = out.read_bytes()
    inputs = next(iter(json.loads(meta.read_text("utf-8"))["outputs"].values()))["inputs"]
    spec_data = sum(v["bytesInOutput"] for k, v in inputs.items() if k.rsplit("/", 1)[-1] in DATA_FILES)
    return {
        "kib": len(data) / 1024,
        "gzip_kib": len(gzip.compress(data, 9)) / 1024,
        "spec_data_kib": spec_data / 1024,
        "code_kib": (len(data) - spec_data) / 1024,
        "modules": len(inputs),
    }


def _ms(row: dict[str, float]) -> str:
    return f"{row['median']:.1f} ({row['min']:.1f})"


def _sizes(row: dict[str, Any]) -> str:
    return f"{row['kib']:7.1f} {row['gzip_kib']:6.1f} {row['spec_data_kib']:9.1f} {row['code_kib']:7.1f}"


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--runs", type=int, default=15, help="node processes per import timing")
    args = options.parse_args()
    reason = ts_bridge.unavailable_reason()
    if reason is None and not ESBUILD.exists():
        reason = "esbuild is not installed (make ts-deps)"
    if reason is not None or shutil.which("node") is None:
        print(f"TS import and bundle figures skipped: {reason}")
        return 0
    results: dict[str, Any] = {"import_ms": {}, "bundle": {}, "targets": {}}
    with tempfile.TemporaryDirectory(prefix="toolgen-bench-bundle-") as tmp:
        root = Path(tmp)
        entries = write_package(root)
        print(f"{'entry':<26} {'import ms (min)':>16} {'KiB':>7} {'gzip':>6} {'spec data':>9} {'code':>7}")
        for entry in entries:
            ms = results["import_ms"][entry] = import_ms(root, str(root / "out" / f"{entry}.js"), args.runs)
            row = results["bundle"][entry] = bundle(root, entry, [entry])
            print(f"{entry:<26} {_ms(ms):>16} {_sizes(row)}")
        ms = results["import_ms"]["index, one file"] = import_ms(root, one_file(root), args.runs)
        print(f"{'index, one file':<26} {_ms(ms):>16}")
        dist = installed(root)
        for entry in entries:  # what a project that installs the npm package imports
            ms = results["import_ms"][f"{entry}, installed"] = import_ms(root, str(dist / f"{entry}.js"), args.runs)
            print(f"{entry + ', installed':<26} {_ms(ms):>16}")
        for entry in entries[1:]:
            name = f"{entry}+dispatch"
            row = results["bundle"][name] = bundle(root, name, [entry, "dispatch"])
            print(f"{name:<26} {'':>16} {_sizes(row)}")
    one_format = [results["bundle"][e]["kib"] for e in entries[1:]]
    results["targets"] = {
        "import_index_installed_ms": {
            "target": IMPORT_TARGET_MS,
            "value": results["import_ms"]["index, installed"]["median"],
        },
        "import_index_sources_ms": {"target": IMPORT_TARGET_MS, "value": results["import_ms"]["index"]["median"]},
        "one_format_bundle_kib": {"target": ONE_FORMAT_TARGET_KIB, "value": max(one_format, default=None)},
    }
    for name, row in results["targets"].items():
        value = row["value"]
        verdict = "n/a" if value is None else ("met" if value <= row["target"] else "MISSED")
        shown = "n/a" if value is None else f"{value:.1f}"
        print(f"target {name}: {shown} (at most {row['target']}) {verdict}")
    results["load_average"] = os.getloadavg()
    print(f"load average {' '.join(f'{x:.2f}' for x in results['load_average'])} (import times grow with it)")
    out = HERE / "out"
    out.mkdir(exist_ok=True)
    (out / "ts_bundle.json").write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
