"""`toolgen show schema`: one tool's parameters as plain JSON Schema, or as a native format sends them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from conftest import FIXTURE_SPECS, FRESH_BUNDLED_OUT, copy_specs, edit, run_cli
from generated import Context, enabled_tools, native_tools, select_family
from generated.providers import FORMATS
from generator.diagnostics import shown

NATIVE = {"provider_id": "anthropic", "model_id": "claude-sonnet-4-5", "enable_native_tool_calls": True}


def _schema(capsys: pytest.CaptureFixture[str], *args: str, out: Path = FRESH_BUNDLED_OUT) -> Any:
    code, stdout, stderr = run_cli(capsys, "show", "schema", "--out", out, *args)
    assert code == 0, stderr
    return json.loads(stdout)


def _context_file(tmp_path: Path, values: dict[str, Any]) -> Path:
    path = tmp_path / "ctx.json"
    path.write_text(json.dumps(values), "utf-8")
    return path


def test_plain_schema_is_draft_2020_12_and_checks_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    schema = _schema(capsys, "--tool", "read_file", "--family", "generic")
    assert list(schema)[:4] == ["$schema", "title", "description", "type"]
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["title"] == "read_file"
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    assert validator.is_valid({"path": "src/app.py", "start_line": 3})
    assert not validator.is_valid({"start_line": 3})  # path is required
    assert not validator.is_valid({"path": "a", "start_line": "three"})


def test_default_family_is_the_one_the_context_selects(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    family = select_family(Context(**NATIVE))
    assert family != select_family(Context())  # the test needs two different families
    by_context = _schema(capsys, "--tool", "read_file", "--context", _context_file(tmp_path, NATIVE))
    assert by_context == _schema(capsys, "--tool", "read_file", "--family", family, "--context", tmp_path / "ctx.json")
    # without --context: the default Context, which selects the fallback family
    assert _schema(capsys, "--tool", "read_file") == _schema(
        capsys, "--tool", "read_file", "--family", select_family(Context())
    )


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_format_schema_is_what_native_tools_sends(capsys: pytest.CaptureFixture[str], tmp_path: Path, fmt: str) -> None:
    context = Context(**NATIVE)
    family = select_family(context)
    sent = native_tools(family, context, format=fmt)
    ctx_file = _context_file(tmp_path, NATIVE)
    tools = enabled_tools(family, context)
    assert len(sent) == len(tools) > 3
    for tool, entry in zip(tools, sent, strict=True):
        shown = _schema(capsys, "--tool", tool, "--format", fmt, "--context", ctx_file)
        assert shown in _parameter_parts(entry), (fmt, tool)


def _parameter_parts(entry: dict[str, Any]) -> list[Any]:
    """Every object of a tool entry that can be its parameter schema (formats nest it differently)."""
    found = []
    pending: list[Any] = [entry]
    while pending:
        node = pending.pop()
        if isinstance(node, dict):
            if "properties" in node:
                found.append(node)
            pending.extend(node.values())
    return found


def test_plain_and_format_schemas_name_the_same_parameters(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    context = Context(**NATIVE)
    ctx_file = _context_file(tmp_path, NATIVE)
    for tool in enabled_tools(select_family(context), context):
        plain = _schema(capsys, "--tool", tool, "--context", ctx_file)
        sent = _schema(capsys, "--tool", tool, "--context", ctx_file, "--format", "anthropic")
        assert list(plain["properties"]) == list(sent["properties"]), tool
        assert plain["required"] == sent["required"], tool


def test_text_path_families_can_be_shown_in_a_format(capsys: pytest.CaptureFixture[str]) -> None:
    """The native gate does not apply: the schema a format would take for a text-path tool."""
    schema = _schema(capsys, "--tool", "read_file", "--family", "generic", "--format", "gemini")
    assert schema["type"] == "OBJECT"
    assert schema["properties"]["path"]["type"] == "STRING"


def test_nullable_parameters_become_json_schema_type_lists(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    specs = copy_specs(FIXTURE_SPECS, tmp_path)
    edit(specs / "tools" / "read_file.yaml", "        minimum: 1\n", "        minimum: 1\n        nullable: true\n")
    out = tmp_path / "generated"
    code, _, stderr = run_cli(capsys, "generate", "--specs", specs, "--out", out)
    assert code == 0, stderr
    schema = _schema(capsys, "--tool", "read_file", "--family", "generic", out=out)
    assert schema["properties"]["start_line"]["type"] == ["integer", "null"]
    assert "nullable" not in json.dumps(schema)
    jsonschema.Draft202012Validator.check_schema(schema)
    assert jsonschema.Draft202012Validator(schema).is_valid({"path": "a", "start_line": None})


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ["--tool", "read_fil"],
            "--tool read_fil: error[E138]: unknown tool 'read_fil' in family 'generic'\n"
            "  hint: did you mean 'read_file'? known: ",
        ),
        (
            ["--tool", "read_file", "--family", "gemni"],
            "--family gemni: error[E138]: unknown family 'gemni'\n  hint: did you mean 'gemini3'?",
        ),
        (
            ["--tool", "read_file", "--format", "gemin"],
            "--format gemin: error[E138]: unknown format 'gemin'\n  hint: did you mean 'gemini'?",
        ),
        (["--tool", "zzz"], "unknown tool 'zzz' in family 'generic'\n  hint: known: execute_command, read_file"),
        (
            ["--tool", "use_subagents"],
            "--tool use_subagents: error[E139]: tool 'use_subagents' is turned off in family 'generic' by the context",
        ),
    ],
)
def test_bad_names_exit_2_with_a_suggestion(capsys: pytest.CaptureFixture[str], args: list[str], expected: str) -> None:
    code, stdout, stderr = run_cli(capsys, "show", "schema", "--out", FRESH_BUNDLED_OUT, *args)
    assert code == 2
    assert stdout == ""
    assert expected in stderr
    assert "Traceback" not in stderr


def test_a_tool_without_description_has_no_format_schema(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    ctx = _context_file(tmp_path, {"focus_chain_enabled": True})
    assert _schema(capsys, "--tool", "focus_chain", "--context", ctx)["properties"] == {}
    args = ("--tool", "focus_chain", "--context", ctx, "--format", "openai-chat")
    code, _, stderr = run_cli(capsys, "show", "schema", "--out", FRESH_BUNDLED_OUT, *args)
    assert code == 2
    assert "--tool focus_chain: error[E139]: this variant of 'focus_chain' has no description" in stderr


def test_show_tools_suggests_the_closest_format_too(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, stderr = run_cli(
        capsys, "show", "tools", "--out", FRESH_BUNDLED_OUT, "--family", "generic", "--format", "anthropc"
    )
    assert code == 2
    assert "--format anthropc: error[E138]: unknown format 'anthropc'\n  hint: did you mean 'anthropic'?" in stderr


def test_show_errors_follow_error_format(capsys: pytest.CaptureFixture[str]) -> None:
    """show/parse errors ignored --error-format and had no code or hint: now one diagnostic each."""
    args = ("show", "schema", "--out", FRESH_BUNDLED_OUT, "--tool", "read_fil")
    code, stdout, stderr = run_cli(capsys, *args, "--error-format", "json")
    assert (code, stderr) == (2, "")
    (diag,) = json.loads(stdout)
    assert (diag["code"], diag["path"], diag["line"], diag["col"]) == ("E138", "--tool read_fil", 0, 0)
    assert diag["message"] == "unknown tool 'read_fil' in family 'generic'"
    assert diag["hint"].startswith("did you mean 'read_file'? known: ")
    code, stdout, stderr = run_cli(capsys, *args, "--error-format", "github")
    assert (code, stderr) == (2, "")
    assert stdout.startswith("::error title=E138::--tool read_fil: unknown tool 'read_fil' in family 'generic' (hint: ")


def test_bad_input_files_are_located_on_the_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "ctx.json"
    bad.write_text("{not json", "utf-8")
    base = ("show", "prompt", "--out", FRESH_BUNDLED_OUT, "--family", "generic", "--context", bad)
    code, stdout, stderr = run_cli(capsys, *base)
    assert (code, stdout) == (2, "")
    assert stderr.startswith(f"{shown(bad)}: error[E137]: ")
    assert "\n  hint: " in stderr
    code, stdout, _ = run_cli(capsys, *base, "--error-format", "github")
    assert code == 2
    assert stdout.startswith(f"::error file={shown(bad)},line=1,col=1,title=E137::")
    code, stdout, stderr = run_cli(capsys, "show", "family", "--out", tmp_path / "nowhere", "--error-format", "json")
    assert (code, stderr) == (2, "")
    (diag,) = json.loads(stdout)
    assert (diag["code"], diag["path"]) == ("E135", shown(tmp_path / "nowhere" / "__init__.py"))
