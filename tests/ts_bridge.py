"""The bridge from pytest to the TypeScript package: compile once per session, run node scripts on JSON.

``build()`` renders a fresh TypeScript package from specs/ (in memory, like the Python package in
test_fresh_package), copies the TS runtime's own tests and tests/ts_scripts/*.ts next to it, and
compiles the lot with the pinned tsc (tests/ts/node_modules) in a temporary folder:

- ``check``: ``tsc --strict --noEmit`` of the generated package alone, without Node's types, so
  the runtime cannot use Node-only APIs;
- ``emit``: everything, with Node's types (node:test, node:assert), into ``<tmp>/out``.

``run(script, inputs)`` runs the compiled ``tests/ts_scripts/<script>.ts`` once for a whole batch:
its exported ``handle(input)`` is called per input and each outcome comes back as
``{"ok": value}`` or ``{"error": {"name": ..., "message": ...}}``.

Where node, npm or the installed toolchain is missing, ``require()`` calls ``pytest.skip`` with the
reason (tests/conftest.py repeats it loudly in the terminal summary): never a pass.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOOLCHAIN = ROOT / "tests" / "ts"
TSC = TOOLCHAIN / "node_modules" / "typescript" / "bin" / "tsc"
SCRIPTS = ROOT / "tests" / "ts_scripts"
RUNTIME_TESTS = ROOT / "generator" / "ts_runtime" / "test"
PACKAGE = "pkg"  # the generated package's folder inside the build
#: Other spec sets compiled beside it (folder in the build -> spec folder), for scripts to import.
EXTRA_PACKAGES = {
    "orders": ROOT / "tests" / "data" / "orders" / "specs",
    "js_names": ROOT / "tests" / "data" / "js_names" / "specs",
}
CONFORMANCE = ROOT / "tests" / "conformance"  # the corpus runner, compiled into conformance/
SKIP_PREFIX = "TypeScript checks skipped: "

_DRIVER = """\
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const mod = await import(pathToFileURL(process.argv[2]).href);
const inputs = JSON.parse(readFileSync(0, "utf8"));
const results = [];
for (const input of inputs) {
  try {
    results.push({ ok: await mod.handle(input) });
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    results.push({ error: { name: e.name, message: e.message } });
  }
}
process.stdout.write(JSON.stringify(results));
"""


class TsUnavailable(Exception):
    """Why the TypeScript checks cannot run here (no node, no npm, toolchain not installed)."""


@dataclass(frozen=True)
class Build:
    root: Path  # the temporary folder: pkg/ (sources), out/ (compiled)
    node: str

    @property
    def package(self) -> Path:
        return self.root / PACKAGE

    @property
    def out(self) -> Path:
        return self.root / "out"

    def compiled(self, rel: str) -> Path:
        """The compiled .js of a source path relative to the build root (``pkg/index.ts``)."""
        return self.out / (rel.removesuffix(".ts") + ".js")


def unavailable_reason() -> str | None:
    """Why the TS checks cannot run, or None when node and the pinned toolchain are there."""
    if shutil.which("node") is None:
        return "node is not installed (install Node.js 20+ and npm, then `make test`)"
    if not TSC.is_file():
        if shutil.which("npm") is None:
            return "npm is not installed, so the pinned TypeScript toolchain cannot be installed"
        return "the TypeScript toolchain is not installed: run `npm ci --prefix tests/ts` (make test does)"
    return None


def require() -> Build:
    """The session's build; skips the calling test with the reason when TS cannot run here."""
    reason = unavailable_reason()
    if reason is not None:
        pytest.skip(SKIP_PREFIX + reason)
    try:
        return build()
    except TsUnavailable as exc:
        pytest.skip(SKIP_PREFIX + str(exc))


def render_package(specs: Path = ROOT / "specs") -> dict[str, bytes]:
    """The TypeScript package generated from ``specs`` (in memory)."""
    from generator import pipeline

    result = pipeline.run(specs, targets={"typescript": True})
    assert not result.diagnostics.has_errors, result.diagnostics.render("text")
    return result.targets["typescript"]


@cache
def build() -> Build:
    """Render, lay out and compile once per session (the folder is removed at exit)."""
    node = shutil.which("node")
    if node is None:
        raise TsUnavailable("node is not installed")
    root = Path(tempfile.mkdtemp(prefix="toolgen-ts-"))
    atexit.register(shutil.rmtree, root, True)
    for rel, data in render_package().items():
        _put(root / PACKAGE / rel, data)
    for folder, specs in EXTRA_PACKAGES.items():
        for rel, data in render_package(specs).items():
            _put(root / folder / rel, data)
    for folder, target in (
        (RUNTIME_TESTS, f"{PACKAGE}/_runtime/test"),
        (SCRIPTS, "scripts"),
        (CONFORMANCE, "conformance"),
    ):
        for path in sorted(folder.glob("*.ts")) if folder.is_dir() else []:
            _put(root / target / path.name, path.read_bytes())
    (root / "package.json").write_text('{"type": "module", "private": true}\n')
    (root / "driver.mjs").write_text(_DRIVER)
    types = (TOOLCHAIN / "node_modules" / "@types").as_posix()
    configs = {
        "tsconfig.check.json": {
            "extends": (TOOLCHAIN / "tsconfig.json").as_posix(),
            "include": [f"{PACKAGE}/**/*.ts", *(f"{folder}/**/*.ts" for folder in EXTRA_PACKAGES)],
            "exclude": [f"{PACKAGE}/_runtime/test/**"],
        },
        "tsconfig.emit.json": {
            "extends": (TOOLCHAIN / "tsconfig.emit.json").as_posix(),
            "compilerOptions": {"rootDir": ".", "outDir": "out", "typeRoots": [types]},
            "include": [
                f"{PACKAGE}/**/*.ts",
                *(f"{folder}/**/*.ts" for folder in EXTRA_PACKAGES),
                "scripts/**/*.ts",
                "conformance/**/*.ts",
            ],
        },
    }
    for name, config in configs.items():
        (root / name).write_text(json.dumps(config, indent=2))
    runs = [
        (name, subprocess.Popen([node, str(TSC), "-p", name], cwd=root, stdout=subprocess.PIPE, text=True))
        for name in configs
    ]
    failures = []
    for name, process in runs:
        output, _ = process.communicate()
        if process.returncode != 0:
            failures.append(f"tsc -p {name} failed:\n{output}")
    if failures:
        raise AssertionError("\n".join(failures))
    return Build(root, node)


def _put(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def run(script: str, inputs: list[Any], timeout: float = 300) -> list[dict[str, Any]]:
    """Each input's outcome from ``tests/ts_scripts/<script>.ts`` (one node process for the batch)."""
    built = require()
    target = built.compiled(f"scripts/{script}.ts")
    completed = subprocess.run(
        [built.node, str(built.root / "driver.mjs"), str(target)],
        input=json.dumps(inputs),
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "NODE_NO_WARNINGS": "1"},
    )
    if completed.returncode != 0:
        raise AssertionError(f"node {script} failed ({completed.returncode}):\n{completed.stderr}")
    results: list[dict[str, Any]] = json.loads(completed.stdout)
    assert len(results) == len(inputs)
    return results


def values(script: str, inputs: list[Any]) -> list[Any]:
    """Like ``run``, with errors as ``{"error": "<Name>: <message>"}`` values (for comparison)."""
    out = []
    for result in run(script, inputs):
        if "error" in result:
            out.append({"error": f"{result['error']['name']}: {result['error']['message']}"})
        else:
            out.append(result.get("ok"))
    return out


def node_test(pattern: str = "*.test.js") -> subprocess.CompletedProcess[str]:
    """Run the compiled runtime tests with ``node --test``."""
    built = require()
    tests = sorted((built.out / PACKAGE / "_runtime" / "test").glob(pattern))
    if not tests:
        pytest.skip("no TypeScript runtime tests found")
    return subprocess.run(
        [built.node, "--test", *map(str, tests)], capture_output=True, text=True, timeout=300, cwd=built.root
    )


def as_json(value: Any) -> Any:
    """A Python value as it would come back from JSON (tuples become lists)."""
    return json.loads(json.dumps(value))


def typecheck_host(
    package: dict[str, bytes], modules: dict[str, str], folder: str = "tests/ts/hosts"
) -> dict[str, str]:
    """``tsc --noEmit`` of ``package`` as generated-ts/ and ``modules`` (name -> source) in ``folder``,
    with tests/ts/tsconfig.json's flags, Node's types and tests/ts/node_modules (the provider SDKs)
    reachable as a host project's own; tsc's output lines per file (modules by bare name)."""
    built = require()
    with tempfile.TemporaryDirectory(prefix="toolgen-ts-host-") as tmp:
        root = Path(tmp)
        for rel, data in package.items():
            _put(root / "generated-ts" / rel, data)
        for name, source in modules.items():
            _put(root / folder / name, source.encode("utf-8"))
        (root / "node_modules").symlink_to(TOOLCHAIN / "node_modules", target_is_directory=True)
        config = {
            "extends": (TOOLCHAIN / "tsconfig.json").as_posix(),
            "compilerOptions": {"types": ["node"]},
            "include": ["generated-ts/**/*.ts", f"{folder}/*.ts"],
        }
        (root / "tsconfig.json").write_text(json.dumps(config))
        (root / "package.json").write_text('{"type": "module", "private": true}\n')
        completed = subprocess.run(
            [built.node, str(TSC), "-p", "tsconfig.json", "--pretty", "false"],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=300,
        )
    found: dict[str, str] = {}
    name = ""
    for line in completed.stdout.splitlines():
        if line[:1].isspace() and name:  # a message's continuation lines
            found[name] += line + "\n"
            continue
        path, _, rest = line.partition("(")
        name = path.removeprefix(f"{folder}/")
        found[name] = found.get(name, "") + rest + "\n"
    if completed.returncode != 0 and not found:
        raise AssertionError(f"tsc failed without diagnostics:\n{completed.stdout}{completed.stderr}")
    return found
