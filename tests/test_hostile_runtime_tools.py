"""Hostile run-time tools (tests/data/mcp/hostile.json): each one costs itself only, never the list.

Every tool of the corpus is, in every native format, either present and accepted by the
provider SDK's own types (with a keyword the validator refuses dropped, and the drop noted in
its description and reported as degraded), or listed in the skipped report with its reason; the
CLI exits 0.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import ROOT, run_cli
from generated import catalog, prompt, providers
from generated._runtime import dynamic_tools
from generated._runtime.tool_types import ToolResult, ToolUse
from generated.catalog import MCP
from generated.context import Context
from generated.dispatch import Coordinator
from sdk_validators import check_json_schema, validate_tool

HOSTILE = ROOT / "tests" / "data" / "mcp" / "hostile.json"
SERVERS = ROOT / "tests" / "data" / "mcp" / "servers.json"
SEP = MCP["separator"]
FAMILY = "native-next-gen"
CONTEXT = {"enable_native_tool_calls": True}
FORMATS = tuple(providers.FORMATS)

OK, JSON = "ok", "json"  # present (gemini: in `parameters`) / gemini: in `parametersJsonSchema`


def every(expect: Any) -> dict[str, Any]:
    return dict.fromkeys(FORMATS, expect)


def skip(reason: str) -> tuple[str, str]:
    return ("skip", reason)


DROPPED = "toolgen dropped from the input schema, as its arguments could not be checked against them: "


def degraded(reason: str, gemini: str = OK) -> dict[str, Any]:
    """Offered with the keyword the validator refuses dropped, the drop noted in the description and
    reported (``reason`` is the validator's refusal); gemini: in the ``gemini`` slot."""
    return {**every(("degraded", OK, reason)), "gemini": ("degraded", gemini, reason)}


def description(tool: dict[str, Any]) -> str:
    return str(tool.get("description") or tool.get("function", tool.get("toolSpec", {})).get("description"))


NESTED = f"inputSchema nests deeper than {100} levels"
# original tool name -> (name offered to the model, expectation per format)
CASES: dict[str, tuple[str, dict[str, Any]]] = {
    "free_form_map": ("free_form_map", {**every(OK), "gemini": JSON}),
    "files/read": ("_x_files_2f_read", every(OK)),
    "read file": ("_x_read_20_file", every(OK)),
    "café": ("_x_caf_e9_", every(OK)),
    "tool\n": ("_x_tool_a_", every(OK)),
    "dangling_ref": ("dangling_ref", degraded('/properties/a/$ref: "#/$defs/missing" points to nothing', JSON)),
    "external_ref": (
        "external_ref",
        degraded('/properties/a/$ref: "https://example.com/schema.json" is another document', JSON),
    ),
    "property_not_object": (
        "property_not_object",
        degraded("/properties/a: must be a schema (an object or a boolean)"),
    ),
    "recursive_ref": ("recursive_ref", {**every(OK), "gemini": JSON}),
    "deep_300": ("deep_300", every(skip(NESTED))),
    "deep_3000": ("deep_3000", every(skip(NESTED))),
    "not_finite": ("not_finite", every(OK)),
    "a/b": ("_x_a_2f_b", every(OK)),
    "_x_a_2f_b": ("_x___x__a__2f__b", every(OK)),
    "no_input_schema": ("no_input_schema", every(OK)),
    "null_input_schema": ("null_input_schema", every(OK)),
    "schema_is_string": ("schema_is_string", every(skip("inputSchema is not a JSON object (got string)"))),
    "schema_is_list": ("schema_is_list", every(skip("inputSchema is not a JSON object (got array)"))),
    "type_list": ("type_list", every(OK)),
    "root_type_list": ("root_type_list", every(skip("tool parameters must be one object schema"))),
    "huge_enum": ("huge_enum", every(OK)),
    "number_description": ("number_description", every(OK)),
    "null_description": ("null_description", every(OK)),
    "ü" * 30: ("_x_" + "_fc_" * 30, every(skip("over the limit of 64 (tool name rewritten)"))),
    "x0mcp0y": ("x0mcp0y", every(OK)),
    "property_key_space": (
        "property_key_space",
        {**every(OK), "anthropic": skip("property key 'my key' is not allowed"), "gemini": JSON},
    ),
    "one_of": ("one_of", {**every(OK), "gemini": JSON}),
    "boolean_property": ("boolean_property", {**every(OK), "gemini": JSON}),
    "properties_is_list": ("properties_is_list", degraded("/properties: must map property names to schemas")),
    "unknown_type": ("unknown_type", degraded("/properties/v/type: must be a type name or a list of them", JSON)),
}
UNNAMED = 4  # empty name, no name, null name, a tool that is a string


def load_hostile() -> Any:
    return dynamic_tools.load_servers_json(HOSTILE.read_text("utf-8"))


def tool_name(fmt: str, tool: dict[str, Any]) -> str:
    return {"openai-chat": lambda t: t["function"]["name"], "bedrock-converse": lambda t: t["toolSpec"]["name"]}.get(
        fmt, lambda t: t["name"]
    )(tool)


def build(fmt: str, servers: Any = None, **extra: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Tools and the full skipped report (dynamic_variants + native_tools) through the public API."""
    variants, skipped = catalog.dynamic_variants(
        FAMILY, Context(**CONTEXT), mcp_servers=servers or load_hostile(), **extra
    )
    tools = providers.native_tools(FAMILY, Context(**CONTEXT), format=fmt, extra_variants=variants, skipped=skipped)
    return tools, skipped


def expected_outcome(fmt: str, original: str) -> Any:
    return CASES[original][1][fmt]


# ---- the corpus, through the generated package's API ----------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_hostile_tool_is_present_or_skipped_with_its_reason(fmt):
    tools, skipped = build(fmt)
    json.dumps(tools, allow_nan=False)  # never NaN/Infinity in the output
    offered = {tool_name(fmt, t): t for t in tools}
    mcp_names = [n for n in offered if SEP in n]
    assert len(mcp_names) == len(set(mcp_names))
    for tool in tools:
        validate_tool(fmt, tool)
    reasons = {(s["uid"], s["tool"]): s["reason"] for s in skipped if s["tool"] is not None}
    for original, (encoded, expect) in CASES.items():
        expect = expect[fmt]
        name = f"xhost1{SEP}{encoded}"
        if expect in (OK, JSON) or expect[0] == "degraded":
            assert name in offered, original
            assert ("xhost1", original) not in reasons
            if fmt == "gemini":
                key = "parameters" if OK in (expect, expect[1]) else "parametersJsonSchema"
                assert set(offered[name]) == {"name", "description", key}, original
            if expect[0] == "degraded":
                assert DROPPED + expect[2] in description(offered[name]), original
        else:
            assert name not in offered, original
            assert expect[1] in reasons[("xhost1", original)], original
    assert f"xgood1{SEP}still_here" in offered
    unnamed = [s for s in skipped if s["tool"] is None]
    assert [s["reason"] for s in unnamed] == ["tool has no name"] * UNNAMED
    assert [s["reason"] for s in skipped if s["tool"] == "dup"] == ["duplicate name"]
    assert offered[f"xhost1{SEP}dup"] is not None  # the first "dup" stays
    bad_uid = [s for s in skipped if s["uid"] == "bad uid"]
    assert [s["reason"] for s in bad_uid] == ["server uid has characters outside [A-Za-z0-9_-]"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_real_servers_all_convert(fmt):
    servers = json.loads(SERVERS.read_text("utf-8"))
    tools, skipped = build(fmt, servers)
    for tool in tools:
        validate_tool(fmt, tool)
    assert [s["reason"] for s in skipped] == ["server disabled"]


def test_skipped_list_is_optional_and_nothing_raises():
    variants, _ = catalog.dynamic_variants(FAMILY, Context(**CONTEXT), mcp_servers=load_hostile())
    for fmt in FORMATS:
        assert providers.native_tools(FAMILY, Context(**CONTEXT), format=fmt, extra_variants=variants)


def test_gemini_uses_parameters_json_schema_only_where_the_subset_fails():
    from google.genai import types

    tools, _ = build("gemini")
    by_name = {t["name"]: t for t in tools}
    free = by_name[f"xhost1{SEP}free_form_map"]
    assert free["parametersJsonSchema"]["properties"]["headers"] == {
        "type": "object",
        "additionalProperties": {"type": "string"},
    }
    check_json_schema(free["parametersJsonSchema"])
    declaration = types.FunctionDeclaration.model_validate(free)
    assert declaration.parameters is None and declaration.parameters_json_schema is not None
    tree = by_name[f"xhost1{SEP}recursive_ref"]["parametersJsonSchema"]
    assert "$defs" in tree
    check_json_schema(tree)
    plain = by_name[f"xgood1{SEP}still_here"]
    assert plain["parameters"]["type"] == "OBJECT"  # the subset is still used when it fits


@pytest.mark.parametrize("fmt", FORMATS)
def test_non_finite_numbers_are_dropped_with_a_note(fmt):
    tools, _ = build(fmt)
    tool = next(t for t in tools if tool_name(fmt, t) == f"xhost1{SEP}not_finite")
    json.dumps(tool, allow_nan=False)
    text = description(tool)
    assert "toolgen dropped from the input schema" in text
    for path in ("/properties/n/maximum (NaN)", "/properties/n/minimum (-Infinity)", "/properties/n/enum/1 (NaN)"):
        assert path in text


def test_descriptions_that_are_not_text_fall_back_to_the_tool_name():
    tools, _ = build("anthropic")
    by_name = {t["name"]: t for t in tools}
    assert by_name[f"xhost1{SEP}number_description"]["description"] == "hostile: number_description"
    assert by_name[f"xhost1{SEP}null_description"]["description"] == "hostile: null_description"


# ---- depth ------------------------------------------------------------------------------------------


def test_the_file_loads_although_one_schema_nests_3000_levels():
    text = HOSTILE.read_text("utf-8")
    with pytest.raises(RecursionError):
        json.loads(text)
    servers = dynamic_tools.load_servers_json(text)
    assert [t["name"] for t in servers[2]["tools"]] == ["still_here"]


def test_load_servers_json_leaves_shallow_text_alone():
    text = SERVERS.read_text("utf-8")
    assert dynamic_tools.load_servers_json(text) == json.loads(text)
    with pytest.raises(json.JSONDecodeError):
        dynamic_tools.load_servers_json("[{")


def deep(levels: int) -> dict[str, Any]:
    node: dict[str, Any] = {"type": "string"}
    for _ in range(levels):
        node = {"type": "array", "items": node}
    return node


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_deep_variant_given_directly_is_skipped_not_raised(fmt):
    """extra_variants built by hand (not by mcp_tools) get the same depth limit."""
    good, _ = catalog.dynamic_variants(FAMILY, CONTEXT, mcp_servers=json.loads(SERVERS.read_text("utf-8")))
    bad = dict(good[0], name="hand0mcp0deep", input_schema={"type": "object", "properties": {"x": deep(500)}})
    nan = dict(
        good[0],
        name="hand0mcp0nan",
        input_schema={"type": "object", "properties": {"x": {"type": "number", "maximum": math.inf}}},
    )
    skipped: list[dict[str, Any]] = []
    tools = providers.native_tools(FAMILY, CONTEXT, format=fmt, extra_variants=[bad, nan, *good], skipped=skipped)
    names = [tool_name(fmt, t) for t in tools]
    assert "hand0mcp0deep" not in names and "hand0mcp0nan" not in names
    assert tool_name(fmt, tools[-1]) == good[-1]["name"]
    reasons = {s["name"]: s["reason"] for s in skipped}
    assert "nests deeper than 100 levels" in reasons["hand0mcp0deep"]
    assert "not valid JSON" in reasons["hand0mcp0nan"]


def test_prompt_section_skips_a_run_time_tool_it_cannot_render():
    good, _ = catalog.dynamic_variants("generic", {}, mcp_servers=load_hostile())
    broken = dict(good[0], name="hand0mcp0broken", parameters=({"name": "x"},))
    skipped: list[dict[str, Any]] = []
    section = prompt.prompt_section("generic", {}, [broken, *good], skipped)
    assert "hand0mcp0broken" not in section and good[-1]["name"] in section
    assert [s["name"] for s in skipped] == ["hand0mcp0broken"]
    assert skipped[0]["reason"].startswith("prompt: ")


# ---- names: the reversible rewrite rule and dispatch --------------------------------------------------


@pytest.mark.parametrize(
    "original, encoded",
    [
        ("read_file", "read_file"),
        ("files/read", "_x_files_2f_read"),
        ("my_tool v2", "_x_my__tool_20_v2"),
        ("café", "_x_caf_e9_"),
        ("_x_a", "_x___x__a"),
        ("a.b:c", "_x_a_2e_b_3a_c"),
        ("😀", "_x__1f600_"),
    ],
)
def test_name_rewrite_rule(original, encoded):
    assert dynamic_tools.encode_mcp_tool_name(original) == encoded
    assert dynamic_tools.decode_mcp_tool_name(encoded) == original
    assert dynamic_tools.parse_mcp_name(f"srv1{SEP}{encoded}", SEP) == ("srv1", original)


@given(st.text(min_size=1, max_size=20))
def test_name_rewrite_is_reversible_and_provider_safe(original):
    encoded = dynamic_tools.encode_mcp_tool_name(original)
    assert dynamic_tools.decode_mcp_tool_name(encoded) == original
    assert all(c.isascii() and (c.isalnum() or c in "_-") for c in encoded)


@pytest.mark.parametrize("bad", ["_x__zz_", "_x__41", "_x__110000_"])
def test_malformed_rewritten_names_do_not_parse(bad):
    assert dynamic_tools.parse_mcp_name(f"srv1{SEP}{bad}", SEP) is None


def test_a_rewritten_name_dispatches_to_its_server_and_original_tool():
    class McpHandler:
        name = "use_mcp_tool"

        def __init__(self) -> None:
            self.calls: list[tuple[str, str, dict[str, Any]]] = []

        def execute(self, config: Any, block: ToolUse) -> ToolResult:
            uid, tool = dynamic_tools.parse_mcp_name(block.name, SEP)
            self.calls.append((uid, tool, dict(block.params)))
            return ToolResult.ok(f"{uid}:{tool}")

    handler = McpHandler()
    coordinator = Coordinator()
    coordinator.register(handler)
    tools, _ = build("openai-chat")
    offered = [t["function"]["name"] for t in tools if SEP in t["function"]["name"]]
    for original in ("files/read", "read file", "café", "a/b", "_x_a_2f_b", "x0mcp0y"):
        name = f"xhost1{SEP}{CASES[original][0]}"
        assert name in offered
        result = coordinator.execute(None, ToolUse(name, {"path": "p"}))
        assert result == ToolResult.ok(f"xhost1:{original}")
    assert [c[:2] for c in handler.calls] == [
        ("xhost1", o) for o in ("files/read", "read file", "café", "a/b", "_x_a_2f_b", "x0mcp0y")
    ]


# ---- the CLI ------------------------------------------------------------------------------------------


@pytest.fixture
def context_file(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.chdir(ROOT)
    path = tmp_path / "ctx.json"
    path.write_text(json.dumps(CONTEXT), "utf-8")
    return path


@pytest.mark.parametrize("fmt", FORMATS)
def test_cli_show_tools_over_the_hostile_file_exits_0(capsys, context_file, fmt):
    args = ("show", "tools", "--family", FAMILY, "--context", str(context_file), "--format", fmt)
    code, out, err = run_cli(capsys, *args, "--mcp-servers", str(HOSTILE))
    assert code == 0, err
    tools = json.loads(out)  # stdout stays valid JSON; the skip report is on stderr
    for tool in tools:
        validate_tool(fmt, tool)
    assert "internal error" not in err and "Traceback" not in err
    for _original, (encoded, expect) in CASES.items():
        line = f"skipped MCP tool {f'xhost1{SEP}{encoded}'!r} of 'hostile': "
        if expect[fmt] in (OK, JSON):
            assert line not in err
        elif expect[fmt][0] == "degraded":
            assert line not in err
            assert f"degraded MCP tool {f'xhost1{SEP}{encoded}'!r} of 'hostile': {DROPPED}" in err
            assert expect[fmt][2] in err
        else:
            assert line in err and expect[fmt][1] in err
    assert err.count("skipped MCP tool (unnamed) of 'hostile': tool has no name") == UNNAMED


@pytest.mark.parametrize("command", [("show", "prompt"), ("parse",)])
def test_cli_text_path_over_the_hostile_file_exits_0(capsys, monkeypatch, context_file, command):
    name = f"xhost1{SEP}_x_files_2f_read"
    monkeypatch.setattr(sys, "stdin", __import__("io").StringIO(f"<{name}><path>a</path></{name}>"))
    code, out, err = run_cli(capsys, *command, "--family", "generic", "--mcp-servers", str(HOSTILE))
    assert code == 0, err
    assert "internal error" not in err
    assert f"skipped MCP tool {f'xhost1{SEP}deep_3000'!r}" in err
    if command == ("parse",):
        assert json.loads(out) == [{"name": name, "params": {"path": "a"}, "partial": False}]
    else:
        assert f"## {name}" in out


def test_cli_tools_without_a_name_no_longer_fail_the_file(capsys, context_file, tmp_path):
    servers = tmp_path / "servers.json"
    servers.write_text(json.dumps([{"uid": "a", "name": "s", "tools": [{}, {"name": "ok"}]}]), "utf-8")
    args = ("show", "tools", "--family", FAMILY, "--context", str(context_file), "--format", "gemini")
    code, out, err = run_cli(capsys, *args, "--mcp-servers", str(servers))
    assert code == 0
    assert [t["name"] for t in json.loads(out)][-1] == f"a{SEP}ok"
    assert "tool has no name" in err


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_trailing_newline_does_not_sneak_past_the_name_rules(fmt):
    from generated._runtime.schema_dialects import DialectError, tool_entry

    with pytest.raises(DialectError, match="is not allowed"):
        tool_entry(fmt, "read_file\n", "Reads a file.", {"type": "object", "properties": {}})


def test_the_cut_starts_just_past_max_nesting():
    limit = dynamic_tools.MAX_NESTING
    at_limit = "[" * limit + "]" * limit
    assert dynamic_tools.load_servers_json(at_limit) == json.loads(at_limit)
    over = "[" * (limit + 1) + "]" * (limit + 1)
    cut = dynamic_tools.load_servers_json(over)
    inner = cut
    for _ in range(limit):
        inner = inner[0]
    assert isinstance(inner, dict) and len(inner) == 1  # the marker, one level past the limit
    tool = {"name": "t", "inputSchema": {"type": "object", "properties": {"x": inner}}}
    variants, skipped = dynamic_tools.mcp_tools([{"uid": "u", "name": "s", "tools": [tool]}], separator=SEP)
    assert variants == [] and skipped[0]["reason"] == NESTED


@pytest.mark.parametrize("fmt", FORMATS)
def test_hostile_subagents_are_offered_or_reported(fmt):
    agents = [{"name": "Ünïcode agent/1"}, {"name": "x" * 200, "description": None}, 5, {"name": ""}]
    ctx = {**CONTEXT, "subagents_enabled": True}
    variants, skipped = catalog.dynamic_variants(FAMILY, ctx, subagents=agents)
    assert [s["reason"] for s in skipped] == ["subagents: config is not an object"]
    tools = providers.native_tools(FAMILY, ctx, format=fmt, extra_variants=variants, skipped=skipped)
    names = [tool_name(fmt, t) for t in tools]
    assert [v["name"] for v in variants] == [n for n in names if n.startswith("use_subagent_")]
    assert len(variants) == 3 and len(skipped) == 1
    for tool in tools:
        validate_tool(fmt, tool)


@pytest.mark.parametrize(
    "option, message",
    [("--subagents", "JSON nested deeper than 100 levels"), ("--mcp-servers", "item 0 is not an object")],
)
def test_cli_files_nested_50000_levels_exit_2(capsys, context_file, tmp_path, option, message):
    deep_file = tmp_path / "deep.json"
    deep_file.write_text("[" * 50000 + "]" * 50000, "utf-8")
    code, _, err = run_cli(capsys, "show", "prompt", "--family", "generic", option, str(deep_file))
    assert code == 2
    assert message in err and "internal error" not in err


def test_an_unexpected_error_in_one_tool_names_its_type():
    good, _ = catalog.dynamic_variants(FAMILY, CONTEXT, mcp_servers=json.loads(SERVERS.read_text("utf-8")))
    odd = dict(good[0], name="hand0mcp0odd", description=None)  # description pieces must be a sequence
    skipped: list[dict[str, Any]] = []
    tools = providers.native_tools(FAMILY, CONTEXT, format="anthropic", extra_variants=[odd, *good], skipped=skipped)
    assert [t["name"] for t in tools][-len(good) :] == [v["name"] for v in good]
    assert skipped == [
        {"server": "fetch", "uid": "cfetch", "tool": "fetch", "name": "hand0mcp0odd", "reason": skipped[0]["reason"]}
    ]
    assert skipped[0]["reason"].startswith("anthropic: TypeError: ")
