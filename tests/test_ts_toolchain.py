"""The TypeScript package compiles (tsc --strict) and its runtime's own tests pass (node --test)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import ts_bridge


def test_generated_package_compiles_strict() -> None:
    built = ts_bridge.require()  # compiling is part of the build; a tsc error fails it
    assert (built.out / "pkg" / "index.js").is_file()


#: What strict host projects turn on beyond --strict; vendored sources are checked with the host's flags.
STRICT_HOST_FLAGS = (
    "strict",
    "noUncheckedIndexedAccess",
    "exactOptionalPropertyTypes",
    "noPropertyAccessFromIndexSignature",
    "noImplicitOverride",
)


def test_the_check_compiles_under_the_strict_host_flags() -> None:
    """The build above extends tests/ts/tsconfig.json: keep every flag a strict host may set in it."""
    config = json.loads((ts_bridge.TOOLCHAIN / "tsconfig.json").read_text("utf-8"))
    options = config["compilerOptions"]
    assert {flag: options.get(flag) for flag in STRICT_HOST_FLAGS} == dict.fromkeys(STRICT_HOST_FLAGS, True)


def test_runtime_tests_pass_under_node_test() -> None:
    completed = ts_bridge.node_test()
    assert completed.returncode == 0, completed.stdout + completed.stderr


def test_runtime_version_matches_python() -> None:
    from generator.runtime import RUNTIME_VERSION

    source = (ts_bridge.ROOT / "generator" / "ts_runtime" / "index.ts").read_text("utf-8")
    assert f"export const RUNTIME_VERSION = {RUNTIME_VERSION};" in source


def _generated_modules(built: ts_bridge.Build) -> list[str]:
    """The stems of the generated package's own modules (everything but index.ts and _runtime/)."""
    return sorted(path.stem for path in built.package.glob("*.ts") if path.name != "index.ts")


def test_every_generated_module_checks_the_runtime_version() -> None:
    from generator.runtime import RUNTIME_VERSION

    built = ts_bridge.require()
    modules = _generated_modules(built)
    assert {"catalog", "catalog_data", "context", "dispatch", "ids", "offer", "prompt"} <= set(modules)
    for stem in modules:
        source = (built.package / f"{stem}.ts").read_text("utf-8")
        assert f'checkVersion({RUNTIME_VERSION}, "{stem}");' in source, stem


def test_a_mismatched_runtime_fails_at_load_naming_both_versions(tmp_path: Path) -> None:
    """Like the Python package: a _runtime/ of another version stops the import with a clear message."""
    from generator.runtime import RUNTIME_VERSION

    built = ts_bridge.require()
    package = tmp_path / "pkg"
    shutil.copytree(built.out / ts_bridge.PACKAGE, package, ignore=shutil.ignore_patterns("test"))
    (tmp_path / "package.json").write_text('{"type": "module", "private": true}\n')
    runtime_index = package / "_runtime" / "index.js"
    text, count = re.subn(
        r"(?m)^export const RUNTIME_VERSION = \d+;$",
        f"export const RUNTIME_VERSION = {RUNTIME_VERSION + 1};",
        runtime_index.read_text("utf-8"),
    )
    assert count == 1
    runtime_index.write_text(text, "utf-8")
    messages = {}
    for stem in [*_generated_modules(built), "index"]:
        completed = subprocess.run(
            [built.node, "--input-type=module", "-e", f'await import("./pkg/{stem}.js");'],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert completed.returncode != 0, stem
        messages[stem] = message = completed.stderr
        assert f"was generated for toolgen runtime version {RUNTIME_VERSION}, " in message, (stem, message)
        assert f"_runtime folder next to it is version {RUNTIME_VERSION + 1}" in message, (stem, message)
        assert "Regenerate the whole package" in message, (stem, message)
    # a module that imports no other generated module names itself
    assert "ids was generated for toolgen runtime version" in messages["ids"]
