"""The TypeScript handler types hold: the example handler module passes ``tsc --strict --noEmit``
against a freshly generated package, and a module that misses a handler, or reads an argument the
specs do not declare, fails naming it (issue 16: a handler map is checked at compile time).

One tsc run checks the example and its broken variants side by side (each its own file); the
tests then read the diagnostics per file.
"""

from __future__ import annotations

import json
import re
import subprocess
import tempfile
from pathlib import Path

import pytest

import generated
import ts_bridge
from conftest import FIXTURE_SPECS, copy_specs
from generator import pipeline

EXAMPLE = ts_bridge.ROOT / "tests" / "ts" / "example" / "handlers.ts"
ODD_PARAMETERS = ts_bridge.ROOT / "tests" / "data" / "args_odd_parameters.yaml"
# variant file -> (text replaced in the example, its replacement, the error tsc must report)
VARIANTS = {
    "missing_search_files.ts": ('  search_files: echo("search_files"),\n', "", "Property 'search_files' is missing"),
    "missing_shared.ts": ("  replace_in_file: writer,\n", "", "Property 'replace_in_file' is missing"),
    "undeclared_argument.ts": ("block.params.path;", "block.params.pathh;", "Property 'pathh' does not exist"),
}


def typecheck(package: dict[str, bytes], modules: dict[str, str]) -> dict[str, str]:
    """``tsc --strict --noEmit`` of ``package`` as generated-ts/ and ``modules`` (name -> source) in
    tests/ts/example/; tsc's output lines per file (example modules by bare name)."""
    built = ts_bridge.require()
    with tempfile.TemporaryDirectory(prefix="toolgen-ts-example-") as folder:
        root = Path(folder)
        for rel, data in package.items():
            target = root / "generated-ts" / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        example = root / "tests" / "ts" / "example"
        example.mkdir(parents=True)
        for name, source in modules.items():
            (example / name).write_text(source, "utf-8")
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


def ts_name(python_name: str) -> str:
    """The TypeScript spelling of a public Python name: functions in camelCase; classes, enums and
    constants as they are; the ToolUse class is the ``toolUse`` factory (ToolUse is its type)."""
    if python_name == "ToolUse":
        return "toolUse"
    if python_name.isupper() or python_name[0].isupper():
        return python_name
    head, *rest = python_name.split("_")
    return head + "".join(part.title() for part in rest)


def root_exports_module() -> str:
    """A module that uses the TS counterpart of every name the Python package root exports."""
    lines = [
        'import * as root from "../../../generated-ts/index.js";',
        'import type { ToolUse } from "../../../generated-ts/index.js";',
        "export type Use = ToolUse;",
        "export const names = [",
    ]
    lines += [f"  root.{ts_name(name)}," for name in sorted(generated.__all__)]
    return "\n".join([*lines, "];", ""])


@pytest.fixture(scope="module")
def diagnostics() -> dict[str, str]:
    """The example, its broken variants and the root-exports module, checked in one tsc run."""
    source = EXAMPLE.read_text("utf-8")
    modules = {"handlers.ts": source, "root_exports.ts": root_exports_module()}
    for name, (old, new, _) in VARIANTS.items():
        assert old in source, f"the example no longer holds {old!r}"
        modules[name] = source.replace(old, new, 1)
    return typecheck(ts_bridge.render_package(), modules)


def test_the_example_handler_module_type_checks(diagnostics: dict[str, str]) -> None:
    others = {path: text for path, text in diagnostics.items() if path not in VARIANTS}
    assert others == {}, others
    source = EXAMPLE.read_text("utf-8")
    assert not re.search(r"\bas\s+(?!const\b)[A-Za-z{(\[]|<\w+>\s*\w", source), "the handlers need no cast"


def test_the_root_exports_what_the_python_root_exports(diagnostics: dict[str, str]) -> None:
    """A TS user imports from index.js alone, as a Python user imports from the package: the
    return path (readCalls, resultMessages, textResult, the stream accumulators) included."""
    assert "readCalls" in root_exports_module()
    assert diagnostics.get("root_exports.ts", "") == ""


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_broken_handler_module_fails_naming_the_problem(diagnostics: dict[str, str], variant: str) -> None:
    expected = VARIANTS[variant][2]
    assert expected in diagnostics.get(variant, ""), diagnostics


def odd_specs(base: Path) -> Path:
    """The fixture specs with tests/data/args_odd_parameters.yaml added to the todo tool."""
    specs = copy_specs(FIXTURE_SPECS, base)
    todo = specs / "tools" / "todo.yaml"
    todo.write_text(todo.read_text("utf-8") + ODD_PARAMETERS.read_text("utf-8"), "utf-8")
    return specs


def test_odd_parameters_give_types_tsc_accepts(tmp_path: Path) -> None:
    """Docs with quotes, backslashes, comment ends and line breaks, a '-' key, nested objects, enums."""
    package = ts_bridge.render_package(odd_specs(tmp_path))
    args = package["args.ts"].decode("utf-8")
    assert 'readonly "dash-key"?: boolean;' in args
    assert "readonly level?: 1 | 2 | 3;" in args
    assert "readonly ratio?: number | null;" in args
    assert "readonly matrix?: readonly (readonly number[])[];" in args
    assert typecheck(package, {}) == {}


def test_a_type_named_like_an_args_ts_type_is_refused(tmp_path: Path) -> None:
    """E820: tool `tool` with an object parameter `name` would define ToolName, which args.ts uses."""
    specs = copy_specs(FIXTURE_SPECS, tmp_path)
    for path in [specs / "toolgen.yaml", specs / "parameters.yaml", *sorted((specs / "variants").glob("*.yaml"))]:
        path.write_text(path.read_text("utf-8").replace("- todo\n", "- tool\n").replace("[todo]", "[tool]"), "utf-8")
    todo = specs / "tools" / "todo.yaml"
    text = todo.read_text("utf-8").replace("id: todo", "id: tool")
    text += "      - name: name\n        type: object\n        properties: {first: {type: string}}\n"
    text += "        instruction: A name.\n"
    (specs / "tools" / "tool.yaml").write_text(text, "utf-8")
    todo.unlink()
    assert not pipeline.run(specs).diagnostics.has_errors  # the Python package alone is fine
    result = pipeline.run(specs, targets={"typescript": True})
    found = [d for d in result.diagnostics.items if d.code == "E820"]
    assert len(found) == 1 and found[0].severity == "error"
    assert "'ToolName'" in found[0].message
    assert found[0].location.path.endswith("tools/tool.yaml") and found[0].location.line > 1  # at the variant
