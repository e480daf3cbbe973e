"""Offer checks a call against exactly the parameters schema its request sent, in every format.

On the bundled package with MCP tools (run-time tools go through the same converter as spec
tools): the sent schema is read back from the tool entry (sent_schema.sent_parameters), unknown
parameters are refused where the sent object is closed (OpenAI) and reach the handler where it
is open (Anthropic, Bedrock, Gemini, text path), Gemini's UPPERCASE subset is checked in the
validator's gemini dialect, and the parametersJsonSchema fallback is checked as sent.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import generated
import test_offer
from generated import Offer, ToolResult, ToolUse
from generated._runtime import sent_schema
from replies_data import FORMATS
from test_offer import NATIVE, ran

OPEN_TOOL = {
    "name": "lookup",
    "inputSchema": {
        "type": "object",
        "properties": {
            "id": {"type": "integer", "minimum": 1},
            "tag": {"type": ["string", "null"], "enum": ["a", "b", None]},
        },
        "required": ["id"],
    },
}
MAP_TOOL = {  # Gemini's subset cannot express a map: it goes out as parametersJsonSchema
    "name": "labels",
    "inputSchema": {
        "type": "object",
        "properties": {"m": {"type": "object", "additionalProperties": {"type": "integer"}}},
    },
}
SERVERS = [{"uid": "kb", "name": "kb", "tools": [OPEN_TOOL, MAP_TOOL]}]
coordinator = test_offer.coordinator  # the fixture: a Recorder per handler
CLOSED = {"openai-chat", "openai-responses"}


def name(tool: str) -> str:
    return f"kb{generated.catalog.CATALOG.mcp['separator']}{tool}"


def offer(fmt: str | None) -> Offer:
    family = "generic" if fmt is None else "native-next-gen"
    return Offer(family, None if fmt is None else NATIVE, format=fmt, mcp_servers=SERVERS)


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_checked_schema_is_the_one_in_the_sent_entry(fmt: str) -> None:
    sent = offer(fmt)
    entry = next(e for e in sent.tools() if name("lookup") in str(e))
    schema, dialect = sent_schema.sent_parameters(fmt, entry)
    assert dialect == ("gemini" if fmt == "gemini" else "json")
    assert schema["properties"]["id"]["type"] == ("INTEGER" if fmt == "gemini" else "integer")
    assert (schema.get("additionalProperties") is False) == (fmt in CLOSED)


@pytest.mark.parametrize("fmt", [*FORMATS, None])
def test_unknown_parameters_are_refused_only_where_the_sent_object_is_closed(
    fmt: str | None, coordinator: generated.Coordinator
) -> None:
    args = {"id": 3, "x": 1} if fmt is not None else {"id": "3", "x": "1"}
    result = offer(fmt).execute(coordinator, None, ToolUse(name("lookup"), args, id="c"))
    if fmt in CLOSED:
        assert result is not None and result.is_error and "- x: unknown parameter" in result.content
        assert ran(coordinator, "use_mcp_tool") == []
    else:
        assert result == ToolResult.ok("ran")
        assert ran(coordinator, "use_mcp_tool") == [{"id": 3, "x": 1 if fmt is not None else "1"}]


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_refuses_what_its_sent_schema_refuses(fmt: str) -> None:
    sent = offer(fmt)
    for args, problem in [
        ({"id": "3"}, "id: expected integer"),
        ({"id": 0}, "id: must be at least 1"),
        ({}, "id: required, but missing"),
        ({"id": 1, "tag": "c"}, "tag: must be one of"),
    ]:
        _, problems = sent.check(ToolUse(name("lookup"), args, id="c"))
        assert any(p.startswith(problem) for p in problems), (fmt, args, problems)
    assert sent.check(ToolUse(name("lookup"), {"id": 2, "tag": "a"}, id="c")) == ({"id": 2, "tag": "a"}, [])


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_null_for_an_optional_parameter_is_removed_after_the_check(fmt: str) -> None:
    """``tag`` is nullable in the MCP schema itself: null passes the sent schema, and is removed."""
    typed, problems = offer(fmt).check(ToolUse(name("lookup"), {"id": 2, "tag": None}, id="c"))
    assert (typed, problems) == ({"id": 2}, [])


def test_gemini_json_schema_fallback_is_checked_as_sent() -> None:
    sent = offer("gemini")
    entry = next(e for e in sent.tools() if e["name"] == name("labels"))
    assert "parametersJsonSchema" in entry and "parameters" not in entry
    schema, dialect = sent_schema.sent_parameters("gemini", entry)
    assert dialect == "json" and schema["properties"]["m"]["additionalProperties"] == {"type": "integer"}
    _, problems = sent.check(ToolUse(name("labels"), {"m": {"a": "x"}}, id="c"))
    assert problems == ['m.a: expected integer, got string "x"']


def test_the_same_sent_schema_is_compiled_once_per_process() -> None:
    first, second = offer("anthropic"), offer("anthropic")
    use = ToolUse(name("lookup"), {"id": 1}, id="c")
    assert first._checker(first.variants[use.name]) is second._checker(second.variants[use.name])
    other = offer("gemini")
    assert other._checker(other.variants[use.name]) is not first._checker(first.variants[use.name])


def test_gemini_parameters_are_checked_in_the_validators_gemini_dialect() -> None:
    """One reading of Gemini's subset: the validator's dialect (nullable lets null through the
    whole node, type list, enum or anyOf; objects are open, as the subset cannot close them)."""
    gemini: dict[str, Any] = {
        "type": "OBJECT",
        "properties": {
            "s": {"type": "STRING", "nullable": True, "enum": ["a"], "format": "enum"},
            "u": {"anyOf": [{"type": "INTEGER"}, {"type": "BOOLEAN"}], "nullable": True},
            "l": {"type": "ARRAY", "items": {"type": "NUMBER", "minimum": 0}},
        },
        "required": ["s"],
    }
    check = sent_schema.sent_checker(gemini, sent_schema.GEMINI, frozenset({"s"}))
    assert check({"s": None, "u": None, "l": [0, 2.5], "extra": 1}, False) == (
        {"s": None, "l": [0, 2.5], "extra": 1},
        [],
    )
    _, problems = check({"s": "b", "u": "x", "l": [-1]}, False)
    assert problems == [
        's: must be "a" (got "b")',
        'u: expected integer or boolean, got string "x"',
        "l[0]: must be at least 0 (got -1)",
    ]


BAD_PATTERNS = {
    "name": "grep",
    "inputSchema": {
        "type": "object",
        "properties": {"q": {"type": "string", "pattern": "("}, "pattern": {"type": "string", "pattern": "^a"}},
        "patternProperties": {"[": {"type": "integer"}, "^n_": {"type": "integer"}},
    },
}


@pytest.mark.parametrize("fmt", [*FORMATS, None])
def test_a_pattern_the_check_cannot_run_is_dropped_and_reported_not_the_tool(fmt: str | None) -> None:
    servers = [{"uid": "kb", "name": "kb", "tools": [BAD_PATTERNS, OPEN_TOOL]}]
    family = "generic" if fmt is None else "native-next-gen"
    sent = Offer(family, None if fmt is None else NATIVE, format=fmt, mcp_servers=servers)
    assert name("grep") in sent.names() and name("lookup") in sent.names()
    assert sent.skipped == []
    note = (
        "toolgen dropped from the input schema, as its arguments could not be checked against them: "
        "/patternProperties/[: not an ECMA-262 pattern toolgen can check, "
        "/properties/q/pattern: not an ECMA-262 pattern toolgen can check"
    )
    assert sent.degraded == [{"server": "kb", "uid": "kb", "tool": "grep", "name": name("grep"), "reason": note}]
    if fmt is None:
        assert note in sent.prompt_section()
    else:
        entry = json.dumps(next(e for e in sent.tools() if name("grep") in json.dumps(e)))
        assert '"("' not in entry and '"[' not in entry and "^a" in entry  # "pattern", the property, keeps its own
        assert note in entry
    # what is left is checked: the property named "pattern" keeps its pattern, "^n_" its integer type
    given = {"q": "(", "pattern": "b", "n_x": "1"}
    _, problems = sent.check(ToolUse(name("grep"), given, id="c"))
    assert "pattern: must match the pattern ^a" in problems
    assert any(p.startswith("n_x: expected integer") for p in problems)


def test_toolgen_show_prints_the_degraded_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from conftest import FRESH_BUNDLED_OUT, run_cli

    servers = tmp_path / "servers.json"
    servers.write_text(json.dumps([{"uid": "kb", "name": "kb", "tools": [BAD_PATTERNS]}]))
    context = tmp_path / "ctx.json"
    context.write_text(json.dumps(NATIVE))
    code, out, err = run_cli(
        capsys,
        "show",
        "tools",
        "--family",
        "native-next-gen",
        "--format",
        "anthropic",
        "--context",
        context,
        "--mcp-servers",
        servers,
        "--out",
        FRESH_BUNDLED_OUT,
    )
    assert code == 0, err
    assert f"toolgen: degraded MCP tool '{name('grep')}' of 'kb': toolgen dropped from the input schema" in err
    assert name("grep") in out


def test_a_spec_tool_check_is_shared_by_offers_of_contexts_already_seen() -> None:
    first = Offer("native-next-gen", NATIVE, format="openai-chat")
    again = Offer("native-next-gen", {**NATIVE, "cwd": "/elsewhere"}, format="openai-chat")
    other = Offer("native-next-gen", NATIVE, format="anthropic")
    check = first._checker(first.variants["read_file"])
    assert again._checker(again.variants["read_file"]) is check
    assert other._checker(other.variants["read_file"]) is not check  # another format sends another schema


@pytest.mark.parametrize("fmt", [*FORMATS, None])
def test_a_null_the_sent_schema_refuses_says_to_leave_the_parameter_out(fmt: str | None) -> None:
    """read_file's task_progress is optional and a plain string (no strict mode here): a null is
    refused with what to do; a required parameter sent as null is not hinted."""
    family = "generic" if fmt is None else "native-next-gen"
    sent = Offer(family, None if fmt is None else NATIVE, format=fmt)
    typed, problems = sent.check(ToolUse("read_file", {"path": "a", "task_progress": None}, id="c"))
    if fmt is None:  # the text path removes it before the check
        assert (typed, problems) == ({"path": "a"}, [])
    else:
        assert problems == [
            "task_progress: expected string, got null (leave the parameter out instead of sending null)"
        ]
    _, problems = sent.check(ToolUse("read_file", {"path": None}, id="c"))
    assert problems and not any(p.endswith(sent_schema.NULL_HINT) for p in problems)
