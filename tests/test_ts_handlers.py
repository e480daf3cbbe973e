"""The TypeScript handler types hold: the example handler module passes ``tsc --strict --noEmit``
against a freshly generated package, and a module that misses a handler, or reads an argument the
specs do not declare, fails naming it (issue 16: a handler map is checked at compile time).

One tsc run checks the example and its broken variants side by side (each its own file); the
tests then read the diagnostics per file.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from pathlib import Path

import pytest
import ts_bridge

EXAMPLE = ts_bridge.ROOT / "tests" / "ts" / "example" / "handlers.ts"
# variant file -> (text replaced in the example, its replacement, the error tsc must report)
VARIANTS = {
    "missing_search_files.ts": ('  search_files: echo("search_files"),\n', "", "Property 'search_files' is missing"),
    "missing_shared.ts": ("  replace_in_file: writer,\n", "", "Property 'replace_in_file' is missing"),
    "undeclared_argument.ts": ("block.params.path;", "block.params.pathh;", "Property 'pathh' does not exist"),
}


@pytest.fixture(scope="module")
def diagnostics() -> dict[str, str]:
    """tsc's output lines per checked file (relative to the example folder), after one run."""
    built = ts_bridge.require()
    source = EXAMPLE.read_text("utf-8")
    with tempfile.TemporaryDirectory(prefix="toolgen-ts-example-") as folder:
        root = Path(folder)
        for rel, data in ts_bridge.render_package().items():
            target = root / "generated-ts" / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        example = root / "tests" / "ts" / "example"
        example.mkdir(parents=True)
        (example / "handlers.ts").write_text(source, "utf-8")
        for name, (old, new, _) in VARIANTS.items():
            assert old in source, f"the example no longer holds {old!r}"
            (example / name).write_text(source.replace(old, new, 1), "utf-8")
        config = {
            "extends": (ts_bridge.TOOLCHAIN / "tsconfig.json").as_posix(),
            "compilerOptions": {"strict": True, "noEmit": True},
            "include": ["generated-ts/**/*.ts", "tests/ts/example/*.ts"],
        }
        (root / "tsconfig.json").write_text(json.dumps(config))
        (root / "package.json").write_text('{"type": "module", "private": true}\n')
        completed = subprocess.run(
            [built.node, str(ts_bridge.TSC), "-p", "tsconfig.json", "--pretty", "false"],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=300,
        )
    found: dict[str, str] = {}
    for line in completed.stdout.splitlines():
        path, _, rest = line.partition("(")
        found.setdefault(path.removeprefix("tests/ts/example/"), "")
        found[path.removeprefix("tests/ts/example/")] += rest + "\n"
    return found


def test_the_example_handler_module_type_checks(diagnostics: dict[str, str]) -> None:
    others = {path: text for path, text in diagnostics.items() if path not in VARIANTS}
    assert others == {}, others


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_broken_handler_module_fails_naming_the_problem(diagnostics: dict[str, str], variant: str) -> None:
    expected = VARIANTS[variant][2]
    assert expected in diagnostics.get(variant, ""), diagnostics
