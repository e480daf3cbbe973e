"""Call labels: the ``label:`` template of every bundled tool, filling them, and spec errors."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import BUNDLED_SPECS, edit, import_package, run_cli

_REPO_ROOT = str(Path(__file__).resolve().parents[1])
if _REPO_ROOT not in sys.path:
    sys.path.insert(0, _REPO_ROOT)

from generated import dispatch  # noqa: E402
from generated._runtime.labels import (  # noqa: E402
    MAX_VALUE_CHARS,
    MISSING,
    LabelSyntaxError,
    Optional,
    fill_label,
    label_names,
    parse_label,
)
from generated._runtime.tool_types import ToolUse  # noqa: E402
from generated.catalog import MCP, SUBAGENTS  # noqa: E402

SEP = MCP["separator"]
PREFIX = SUBAGENTS["name_prefix"]


def test_every_bundled_tool_has_a_label_naming_it() -> None:
    spec_ids = sorted(path.stem for path in (BUNDLED_SPECS / "tools").glob("*.yaml"))
    assert len(spec_ids) == 27
    assert sorted(dispatch.LABELS) == spec_ids
    for tool_id, template in dispatch.LABELS.items():
        assert template.startswith(f"[{tool_id}") and template.endswith("]"), template
        assert dispatch.label(ToolUse(tool_id, {})).startswith(f"[{tool_id}")


@pytest.mark.parametrize(
    ("name", "params", "expected"),
    [
        ("read_file", {"path": "src/app.ts"}, "[read_file for 'src/app.ts']"),
        ("web_fetch", {"url": "https://example.com/a"}, "[web_fetch for 'https://example.com/a']"),
        ("replace_in_file", {"absolutePath": "/w/a.py"}, "[replace_in_file for '/w/a.py']"),
        ("replace_in_file", {"path": "a.py", "absolutePath": "/w/a.py"}, "[replace_in_file for 'a.py']"),
        ("search_files", {"regex": "TODO", "path": "src"}, "[search_files for 'TODO']"),
        ("search_files", {"regex": "TODO", "file_pattern": "*.py"}, "[search_files for 'TODO' in '*.py']"),
        ("search_files", {"regex": "TODO", "file_pattern": " "}, "[search_files for 'TODO']"),
        ("attempt_completion", {"result": "done"}, "[attempt_completion]"),
        ("new_task", {"context": "next steps"}, "[new_task for creating a new task]"),
        ("execute_command", {"command": "npm  test\n--watch"}, "[execute_command for 'npm test --watch']"),
        ("read_file", {}, f"[read_file for '{MISSING}']"),
        ("read_file", {"path": "   "}, f"[read_file for '{MISSING}']"),
        ("read_file", {"path": None}, f"[read_file for '{MISSING}']"),
        ("read_file", {"path": ["a", 1]}, """[read_file for '["a",1]']"""),
        ("use_mcp_tool", {"server_name": "github", "tool_name": "search"}, "[use_mcp_tool for 'github']"),
        (f"weather{SEP}get_forecast", {"city": "Oslo"}, "[use_mcp_tool for 'weather']"),
        (f"{PREFIX}reviewer", {"prompt": "check the diff"}, f"[{PREFIX}reviewer for 'check the diff']"),
        ("condense", {}, "[condense]"),
        ("no_such_tool", {"x": 1}, "[no_such_tool]"),
    ],
)
def test_labels_for_sample_calls(name: str, params: dict[str, Any], expected: str) -> None:
    use = ToolUse(name, params)
    assert dispatch.label(use) == expected
    assert dispatch.Coordinator().label(use) == expected


def test_long_values_are_cut_with_an_ellipsis() -> None:
    shown = dispatch.label(ToolUse("read_file", {"path": "x" * 500}))
    assert shown == "[read_file for '" + "x" * (MAX_VALUE_CHARS - 1) + MISSING + "']"


@pytest.mark.parametrize(
    "params",
    [None, "not a mapping", {"path": object()}, {"path": float("nan")}],
)
def test_odd_params_never_raise(params: Any) -> None:
    assert dispatch.label(ToolUse("read_file", params)).startswith("[read_file for '")


def test_deeply_nested_value_never_raises() -> None:
    deep: list[Any] = []
    for _ in range(5000):
        deep = [deep]
    assert dispatch.label(ToolUse("read_file", {"path": deep})).startswith("[read_file for '")


def test_template_syntax() -> None:
    assert parse_label("[a {{b}} {c|d}]") == ("[a {b} ", ("c", "d"), "]")
    assert fill_label("{{{p}}}", {"p": "v"}) == "{v}"
    optional = "[s '{r}'{? in '{f|g}'}{{?}}]"
    assert parse_label(optional) == ("[s '", ("r",), "'", Optional((" in '", ("f", "g"), "'")), "{?}]")
    assert label_names(optional) == ("r", "f", "g")
    assert fill_label(optional, {"r": "x"}) == "[s 'x'{?}]"
    assert fill_label(optional, {"r": "x", "g": 2}) == "[s 'x' in '2'{?}]"
    assert fill_label(optional, {"g": 2}) == f"[s '{MISSING}' in '2'{{?}}]"
    bad_cases = [("[x {p]", 3), ("[x p}]", 4), ("{}", 0), ("{a|}", 0), ("{a b}", 0), ("{a{b}", 0)]
    bad_cases += [("{? no names}", 0), ("a {?{b}", 2), ("{?{a}{?{b}}}", 5), ("{?{a}}}", 0)]
    for bad, offset in bad_cases:
        with pytest.raises(LabelSyntaxError) as err:
            parse_label(bad)
        assert err.value.offset == offset, bad


LABEL_LINE = "id: read_file\n"


def _with_label(specs: Path, label: str) -> None:
    edit(specs / "tools" / "read_file.yaml", LABEL_LINE, f"{LABEL_LINE}label: {label}\n")


def test_unknown_parameter_in_a_label_is_located(capsys, specs: Path) -> None:
    _with_label(specs, "\"[read_file for '{pathh}' {start_line|nope}]\"")
    rc, out, err = run_cli(capsys, "validate", "--specs", specs)
    assert rc == 2, err
    lines = err.splitlines()
    head = "specs/tools/read_file.yaml:3:8: error[E330]: label \"[read_file for '{pathh}' {start_line|nope}]\""
    assert f"{head} names {{pathh}}, which no variant of tool 'read_file' declares" in lines, err
    assert f"{head} names {{nope}}, which no variant of tool 'read_file' declares" in lines, err
    assert "did you mean 'path'?" in err
    assert "Traceback" not in err + out


def test_malformed_label_is_located(capsys, specs: Path) -> None:
    _with_label(specs, "\"[read_file for {path]\"")
    rc, out, err = run_cli(capsys, "validate", "--specs", specs)
    assert rc == 2, err
    assert (
        "specs/tools/read_file.yaml:3:8: error[E331]: label '[read_file for {path]': "
        "a '{' without its '}' (write '{{' for a literal brace) (at character 16)"
    ) in err.splitlines(), err
    assert "Traceback" not in err + out


def test_a_label_that_is_not_text_fails_the_meta_schema(capsys, specs: Path) -> None:
    _with_label(specs, "[1, 2]")
    rc, _, err = run_cli(capsys, "validate", "--specs", specs)
    assert rc == 2, err
    assert "specs/tools/read_file.yaml:3:" in err
    assert "Traceback" not in err


def test_a_valid_label_reaches_the_bindings(capsys, specs: Path, tmp_path: Path) -> None:
    _with_label(specs, "\"[read_file for '{path}']\"")
    out = tmp_path / "out"
    rc, _, err = run_cli(capsys, "generate", "--specs", specs, "--out", out)
    assert rc == 0, err
    assert "\"read_file\": \"[read_file for '{path}']\"" in (out / "bindings.py").read_text("utf-8")


def test_label_text_is_data(capsys, specs: Path, tmp_path: Path) -> None:
    """Quotes, backslashes, a triple quote and a line break in a label reach the package unchanged."""
    _with_label(specs, r'"[read_file \"\"\" \n ' + "'{path}'" + r'\\ \u2028 {{x}}]"')
    out = tmp_path / "out"
    rc, _, err = run_cli(capsys, "generate", "--specs", specs, "--out", out)
    assert rc == 0, err
    package = import_package(out)
    bindings = importlib.import_module(f"{package.__name__}.bindings")
    expected = "[read_file \"\"\" \n '{path}'\\ \u2028 {{x}}]"
    assert bindings.LABELS["read_file"] == expected
    labelled = importlib.import_module(f"{package.__name__}.dispatch").label(ToolUse("read_file", {"path": "p"}))
    assert labelled == "[read_file \"\"\" \n 'p'\\ \u2028 {x}]"


def test_label_is_not_checked_against_a_variant_that_failed(capsys, specs: Path) -> None:
    """A variant with errors may have lost parameters, so its label's names are not checked then."""
    _with_label(specs, "\"[read_file for '{pathh}']\"")
    edit(specs / "tools" / "read_file.yaml", "Reads a file below {{CWD}}.", "Reads a file below {{NOPE}}.")
    rc, _, err = run_cli(capsys, "validate", "--specs", specs)
    assert rc == 2
    assert "[E306]" in err and "[E330]" not in err, err
