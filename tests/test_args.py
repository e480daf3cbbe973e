"""generated/args.py: TypedDicts that match the specs' parameters, byte-exact docstrings, and a
documented handler that mypy --strict accepts against them."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
import typing
from pathlib import Path
from typing import Any, Literal, NotRequired, get_args, get_origin

import black
import pytest
import yaml

from conftest import FIXTURE_SPECS, FRESH_BUNDLED_OUT, ROOT, copy_specs, import_package, submodule
from generator import pipeline, write
from generator.lower.args import _Builder, camel, docstring
from generator.typelayout import text

ODD_PARAMETERS = ROOT / "tests" / "data" / "args_odd_parameters.yaml"


def _class_fields(module_source: str, name: str) -> dict[str, str]:
    """key -> value of the docstring after it, for a class-syntax TypedDict in the source."""
    tree = ast.parse(module_source)
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name)
    docs: dict[str, str] = {}
    for prev, node in zip(cls.body, cls.body[1:], strict=False):
        if isinstance(prev, ast.AnnAssign) and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            assert isinstance(prev.target, ast.Name)
            docs[prev.target.id] = node.value.value
    return docs


# ---- the bundled catalog ---------------------------------------------------------------------


def test_every_variant_has_a_typeddict_with_its_exact_keys() -> None:
    from generated import args
    from generated.catalog import SPECS

    assert set(args.ARGS) == set(SPECS)
    for key, spec in SPECS.items():
        cls = args.ARGS[key]
        params = spec["parameters"]
        assert list(cls.__annotations__) == [p["name"] for p in params], key
        always = {p["name"] for p in params if p["required"] and p["requires"] is None and not p["dependencies"]}
        assert cls.__required_keys__ == always, key
        assert cls.__optional_keys__ == {p["name"] for p in params} - always, key
        assert args.args_type(spec["id"], spec["spec"]) is cls


def test_names_follow_the_documented_rule() -> None:
    from generated import args
    from generated.catalog import SPECS

    assert args.ARGS_BY_TOOL["read_file"] is args.ReadFileArgs
    assert args.args_type("read_file") is args.ReadFileArgs
    for tool_id, cls in args.ARGS_BY_TOOL.items():
        assert cls.__name__ == camel(tool_id) + "Args"
        assert set(args.ARGS_BY_TOOL) <= {spec["id"] for spec in SPECS.values()}
    # Equal parameter sets share one class; different ones never do.
    shapes: dict[type, set[Any]] = {}
    for key, cls in args.ARGS.items():
        params = SPECS[key]["parameters"]
        shapes.setdefault(cls, set()).add(repr([(p["name"], p["required"], dict(p["schema"])) for p in params]))
    assert all(len(found) == 1 for found in shapes.values())


def test_instructions_are_the_field_docstrings() -> None:
    from generated.catalog import SPECS

    source = (FRESH_BUNDLED_OUT / "args.py").read_text("utf-8")
    params = {p["name"]: p for p in SPECS["generic/read_file"]["parameters"]}
    docs = _class_fields(source, "ReadFileArgs")
    assert docs == {name: "".join(p["instruction"]) for name, p in params.items()}


# ---- types, enums and hostile text, from a fixture spec ------------------------------------------


@pytest.fixture(scope="module")
def odd_output(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture catalog with every JSON type and odd descriptions added to the todo tool."""
    base = tmp_path_factory.mktemp("args-odd")
    specs = copy_specs(FIXTURE_SPECS, base)
    todo = specs / "tools" / "todo.yaml"
    todo.write_text(todo.read_text("utf-8") + ODD_PARAMETERS.read_text("utf-8"), "utf-8")
    result = pipeline.run(specs)
    assert not result.diagnostics.has_errors, result.diagnostics.render()
    out = base / "odd"
    write.write(out, result.files, write.plan(out, result.files))
    return out


def test_json_types_map_to_python_types(odd_output: Path) -> None:
    args = submodule(import_package(odd_output), "args")
    hints = typing.get_type_hints(args.TodoArgs, include_extras=True)
    plain = {k: get_args(v)[0] if get_origin(v) is NotRequired else v for k, v in hints.items()}
    assert plain == {
        "items": str,
        "count": int,
        "ratio": float | None,
        "flag": bool,
        "tags": list[str],
        "matrix": list[list[int]],
        "options": args.TodoOptions,
        "level": Literal[1, 2, 3],
        "choice": Literal["a", "b'c", 'd"e'] | None,
        "scale": float,
        "long_choice": Literal[
            "a-rather-long-enumeration-value-one", "a-rather-long-enumeration-value-two", "and-three"
        ],
    }
    assert args.TodoArgs.__required_keys__ == {"items"}
    assert args.TodoOptions.__required_keys__ == {"depth"}
    assert args.TodoOptions.__optional_keys__ == {"mode", "dash-key"}  # functional syntax for '-'


def test_unchecked_shapes_fall_back_to_any() -> None:
    """Arrays without items and objects without properties (specs for formats that allow them)."""
    builder = _Builder()

    def annotation(schema: dict[str, Any], key: str) -> str:
        return text(builder.annotation(schema, "XArgs", key))

    assert annotation({"type": "array"}, "a") == "list[Any]"
    assert annotation({"type": "object"}, "o") == "dict[str, Any]"
    assert annotation({"type": "string", "enum": [None]}, "n") == "None"
    assert annotation({"type": "integer", "enum": [1, None]}, "n") == "Literal[1] | None"
    # Literal takes no lists: an array enum keeps the array type.
    assert annotation({"type": "array", "enum": [[1]], "items": {"type": "integer"}}, "a") == "list[int]"


def test_odd_descriptions_are_byte_exact_docstrings(odd_output: Path) -> None:
    source = (odd_output / "args.py").read_text("utf-8")
    odd = {p["name"]: p for p in yaml.safe_load("params:\n" + ODD_PARAMETERS.read_text("utf-8"))["params"]}
    docs = _class_fields(source, "TodoArgs")
    assert "    long_choice: NotRequired[\n" in source  # split as black splits a long line
    for name in ("ratio", "flag", "tags", "matrix", "long_choice"):
        assert docs[name] == odd[name]["instruction"], name
    assert 'TodoOptions = TypedDict(\n    "TodoOptions",' in source  # a '-' key: functional syntax
    # black leaves the file alone, so the docstrings survive formatting unchanged.
    assert black.format_str(source, mode=black.Mode(line_length=88)) == source


@pytest.mark.parametrize(
    "text",
    ['"""', '"', " x ", "a\\", "\\\\", "{{ x }}", "{% if %}", "line\nbreak\r\x00\u2028", "é 🎉", "'''"],
)
def test_docstring_literal_round_trips_through_black(text: str) -> None:
    source = f"class A:\n    {docstring(text)}\n"
    assert black.format_str(source, mode=black.Mode()) == source
    node = ast.parse(source).body[0]
    assert isinstance(node, ast.ClassDef)
    assert ast.get_docstring(node, clean=False) == text


# ---- the documented example, type-checked -------------------------------------------------------


def _doc_example() -> str:
    text = (ROOT / "docs" / "handlers.md").read_text("utf-8")
    section = text.split("## Example handler", 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert match, "docs/handlers.md lost its example handler"
    return match.group(1)


def test_doc_example_passes_mypy_strict(tmp_path: Path, odd_output: Path) -> None:
    """One mypy run: the doc example must pass; misuses must not, and the typed calls and the
    odd package's types are what the specs say."""
    example = _doc_example()
    assert not re.search(r"\bcast\b|\bAny\b", example), "typed handlers need no cast and no Any"
    shutil.copytree(FRESH_BUNDLED_OUT, tmp_path / "generated")
    shutil.copytree(odd_output, tmp_path / "odd")
    (tmp_path / "example_handler.py").write_text(example, "utf-8")
    (tmp_path / "misuse.py").write_text(
        "from generated.args import ReadFileArgs\n\n\n"
        "def show(args: ReadFileArgs) -> None:\n"
        '    print(args["pathh"])\n',
        "utf-8",
    )
    (tmp_path / "typed_calls.py").write_text(
        "from typing import assert_type\n"
        "from generated import ToolResult, ToolUse\n"
        "from generated.args import HandlesReadFile, ReadFileCall, WriteToFileCall\n\n\n"
        "def check(block: ReadFileCall, write: WriteToFileCall, plain: ToolUse) -> None:\n"
        '    assert_type(block.params["path"], str)\n'
        '    assert_type(block.params.get("start_line", 1), int)\n'
        '    assert_type(write.params["content"], str)\n'
        "    anything: ToolUse = block  # a typed call is a ToolUse\n"
        "    print(anything, plain.params)\n\n\n"
        "class Wrong(HandlesReadFile):\n"
        "    def execute(self, config: object, block: WriteToFileCall) -> ToolResult:\n"
        "        return ToolResult.ok(block.name)\n",
        "utf-8",
    )
    (tmp_path / "odd_types.py").write_text(
        "from typing import assert_type, Literal\n"
        "from odd.args import TodoArgs\n\n\n"
        "def check(a: TodoArgs) -> None:\n"
        '    assert_type(a["items"], str)\n'
        '    assert_type(a["matrix"], list[list[int]])\n'
        '    assert_type(a["choice"], Literal["a", "b\'c", \'d"e\'] | None)\n'
        '    assert_type(a["options"]["depth"], int)\n'
        '    assert_type(a["options"]["dash-key"], bool)\n',
        "utf-8",
    )
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--no-incremental",
            "--cache-dir",
            str(tmp_path / ".cache"),
            "example_handler.py",
            "misuse.py",
            "typed_calls.py",
            "odd_types.py",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    errors = [line for line in proc.stdout.splitlines() if ": error:" in line]
    errors.sort()
    assert len(errors) == 2, proc.stdout + proc.stderr
    assert errors[0].startswith("misuse.py:5:") and '"pathh"' in errors[0], proc.stdout
    assert errors[1].startswith("typed_calls.py:15:") and "incompatible with supertype" in errors[1], proc.stdout
