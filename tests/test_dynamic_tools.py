"""Tests for generator/runtime/dynamic_tools.py (MCP and subagent tools as spec variants)."""

from __future__ import annotations

import copy
import hashlib
import json
import re
import sys
from pathlib import Path

import pytest

_REPO_ROOT = Path(__file__).resolve().parents[1]
if str(_REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(_REPO_ROOT))

from generated.catalog import MCP, SPECS, SUBAGENTS, VARIANTS, resolve_text  # noqa: E402
from generator.runtime.dynamic_tools import (  # noqa: E402
    mcp_tools,
    merge_tools,
    parse_mcp_name,
    subagent_name,
    subagent_names,
    subagent_tools,
    subagents_active,
)

DATA = _REPO_ROOT / "tests" / "data" / "mcp"
README_SEP = "__mcp__"  # the separator tests/data/mcp/README.md computes its name lengths with
SPEC_SEP = MCP["separator"]


def load(name: str):
    return json.loads((DATA / f"{name}.json").read_text("utf-8"))


@pytest.fixture(scope="module")
def servers():
    return load("servers")


def by_name(variants):
    return {v["name"]: v for v in variants}


# ---- MCP ------------------------------------------------------------------------------------------


def test_generated_copy_is_the_runtime_module():
    source = (_REPO_ROOT / "generator" / "runtime" / "dynamic_tools.py").read_text("utf-8")
    generated = (_REPO_ROOT / "generated" / "_runtime" / "dynamic_tools.py").read_text("utf-8")
    assert generated.split("\n", 1)[1] == source


def test_variant_shape_matches_static_specs(servers):
    variants, _ = mcp_tools(servers, separator=SPEC_SEP)
    static = next(iter(SPECS.values()))
    static_param = next(p for v in SPECS.values() for p in v["parameters"])
    for variant in variants:
        # title, annotations and output_schema are optional keys a spec may set (host fields)
        required = set(static) - {"title", "annotations", "output_schema"}
        assert set(variant) == required | {"input_schema", "origin"}
        assert variant["id"] == "use_mcp_tool"
        assert variant["spec"] is None
        assert variant["requires"] is None and variant["strict"] is False
        assert isinstance(variant["description"], tuple)
        for param in variant["parameters"]:
            assert set(param) == set(static_param)


@pytest.mark.parametrize("capture", ["fetch", "git", "time"])
def test_captured_servers(capture):
    server = load(capture)
    variants, skipped = mcp_tools([server], separator=SPEC_SEP)
    assert skipped == []
    assert [v["name"] for v in variants] == [f"{server['uid']}{SPEC_SEP}{t['name']}" for t in server["tools"]]
    for variant, tool in zip(variants, server["tools"], strict=True):
        assert variant["description"] == (f"{server['name']}: {tool['description']}",)
        assert variant["input_schema"] == tool["inputSchema"]
        assert variant["input_schema"] is not tool["inputSchema"]
        schema = tool["inputSchema"]
        assert [p["name"] for p in variant["parameters"]] == list(schema["properties"])
        for param in variant["parameters"]:
            prop = schema["properties"][param["name"]]
            assert param["required"] == (param["name"] in schema.get("required", []))
            assert param["schema"] == prop  # every keyword kept (title, default, anyOf, format, ...)
            assert param["instruction"] == (prop.get("description", ""),)


def test_fetch_details():
    (variant,), _ = mcp_tools([load("fetch")], separator=SPEC_SEP)
    assert variant["name"] == f"cfetch{SPEC_SEP}fetch"
    assert resolve_text(variant["description"], None).startswith("fetch: Fetches a URL from the internet")
    params = {p["name"]: p for p in variant["parameters"]}
    assert params["url"]["required"] is True
    assert params["url"]["schema"] == {
        "description": "URL to fetch",
        "format": "uri",
        "minLength": 1,
        "title": "Url",
        "type": "string",
    }
    assert [params[n]["required"] for n in ("max_length", "start_index", "raw")] == [False, False, False]
    assert params["max_length"]["schema"]["default"] == 5000
    assert variant["input_schema"]["title"] == "fetchArguments"


def test_git_required_flags_and_nullable_optionals():
    variants, _ = mcp_tools([load("git")], separator=SPEC_SEP)
    log = by_name(variants)[f"cgit01{SPEC_SEP}git_log"]
    flags = {p["name"]: p["required"] for p in log["parameters"]}
    assert flags == {"repo_path": True, "max_count": False, "start_timestamp": False, "end_timestamp": False}
    start = next(p for p in log["parameters"] if p["name"] == "start_timestamp")
    assert start["schema"]["anyOf"] == [{"type": "string"}, {"type": "null"}]
    assert "default" in start["schema"] and start["schema"]["default"] is None
    add = by_name(variants)[f"cgit01{SPEC_SEP}git_add"]
    files = next(p for p in add["parameters"] if p["name"] == "files")
    assert files["required"] is True
    assert files["schema"]["items"] == {"type": "string"} and files["schema"]["minItems"] == 1
    # no description: the instruction is empty, the description names the tool's server
    assert next(p for p in add["parameters"] if p["name"] == "repo_path")["instruction"] == ("",)


def test_nested_object_required_does_not_override_root_required():
    """Regression: Cline v4.0.10 let an object property's own ``required`` list replace its flag."""
    server = {
        "uid": "cnest1",
        "name": "nested",
        "disabled": False,
        "tools": [
            {
                "name": "create",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "options": {
                            "type": "object",
                            "description": "Options.",
                            "properties": {"mode": {"type": "string"}},
                            "required": ["mode"],
                        },
                        "target": {
                            "type": "object",
                            "properties": {"path": {"type": "string"}},
                            "required": [],
                        },
                        "flag": {"type": "boolean", "required": True},
                    },
                    "required": ["target"],
                },
            }
        ],
    }
    (variant,), _ = mcp_tools([server], separator=SPEC_SEP)
    params = {p["name"]: p for p in variant["parameters"]}
    assert params["options"]["required"] is False  # not in the root list, despite its own list
    assert params["target"]["required"] is True  # in the root list, despite its empty own list
    assert params["flag"]["required"] is False  # a stray non-list "required" keyword is not the flag
    assert params["options"]["schema"]["required"] == ["mode"]  # the nested schema itself is kept
    # no tool description: the tool name stands in; draft 3's boolean "required" is not a keyword
    # the validator can check (2020-12 wants a list), so it is dropped and the drop noted and reported
    note = (
        "toolgen dropped from the input schema, as its arguments could not be checked against them: "
        "/properties/flag/required: must be a list of property names"
    )
    assert variant["description"] == (f"nested: create\n\n({note})",)
    assert "required" not in params["flag"]["schema"]
    assert [d["reason"] for d in variant["degraded"]] == [note]
    assert all(isinstance(p["required"], bool) for p in variant["parameters"])


def test_input_schema_is_a_deep_copy(servers):
    original = copy.deepcopy(servers)
    variants, _ = mcp_tools(servers, separator=SPEC_SEP)
    for variant in variants:
        variant["input_schema"]["title"] = "changed"
        for param in variant["parameters"]:
            param["schema"]["title"] = "changed"
    assert servers == original


def test_name_length_boundary_from_servers_json(servers):
    variants, skipped = mcp_tools(servers, separator=README_SEP, max_length=64)
    ok = "xlong1__mcp__summarize_every_commit_in_the_repository_history_ok"
    over = "xlong1__mcp__summarize_every_commit_in_the_repository_history_now"
    assert len(ok) == 64 and len(over) == 65
    names = [v["name"] for v in variants]
    assert ok in names and over not in names
    long_skips = [s for s in skipped if s["uid"] == "xlong1"]
    assert long_skips == [
        {
            "server": "long-names",
            "uid": "xlong1",
            "tool": "summarize_every_commit_in_the_repository_history_now",
            "name": over,
            "reason": "name is 65 characters, over the limit of 64",
        }
    ]
    assert all(len(n) <= 64 for n in names)


def test_boundary_with_spec_separator(servers):
    # "0mcp0" is two characters shorter than "__mcp__": both long names fit in 64 ...
    _variants, skipped = mcp_tools(servers, separator=SPEC_SEP, max_length=64)
    assert [s["reason"] for s in skipped] == ["server disabled"]
    # ... and the limit moves with max_length
    _, skipped = mcp_tools(servers, separator=SPEC_SEP, max_length=62)
    assert [(s["tool"], s["reason"]) for s in skipped if s["uid"] == "xlong1"] == [
        ("summarize_every_commit_in_the_repository_history_now", "name is 63 characters, over the limit of 62")
    ]


def test_disabled_server_is_skipped_and_reported(servers):
    variants, skipped = mcp_tools(servers, separator=SPEC_SEP)
    assert not any(v["name"].startswith("xoff01") for v in variants)
    assert "append_note" not in json.dumps(variants)
    assert [s for s in skipped if s["uid"] == "xoff01"] == [
        {
            "server": "disabled-notes",
            "uid": "xoff01",
            "tool": "append_note",
            "name": f"xoff01{SPEC_SEP}append_note",
            "reason": "server disabled",
        }
    ]
    assert len(variants) == 1 + 12 + 2 + 2


def test_server_order_and_tool_order_kept(servers):
    variants, _ = mcp_tools(servers, separator=SPEC_SEP)
    expected = [
        f"{s['uid']}{SPEC_SEP}{t['name']}" for s in servers if not s["disabled"] for t in s["tools"]
    ]
    assert [v["name"] for v in variants] == expected


def test_bad_entries_are_reported_not_dropped():
    servers = [
        {"uid": "c0mcp0", "name": "sep-in-uid", "disabled": False, "tools": [{"name": "t", "inputSchema": {}}]},
        {"uid": "", "name": "no-uid", "disabled": False, "tools": [{"name": "t"}]},
        {
            "uid": "cdup01",
            "name": "dup",
            "disabled": False,
            "tools": [{"name": "t"}, {"name": "t"}, {"description": "no name"}],
        },
    ]
    variants, skipped = mcp_tools(servers, separator=SPEC_SEP)
    assert [v["name"] for v in variants] == [f"cdup01{SPEC_SEP}t"]
    assert variants[0]["input_schema"] == {"type": "object", "properties": {}}
    assert [v["parameters"] for v in variants] == [()]
    reasons = [(s["server"], s["reason"]) for s in skipped]
    assert reasons == [
        ("sep-in-uid", f"server uid contains the separator {SPEC_SEP!r}"),
        ("no-uid", "server has no uid"),
        ("dup", "duplicate name"),
        ("dup", "tool has no name"),
    ]
    with pytest.raises(ValueError, match="separator must not be empty"):
        mcp_tools(servers, separator="")


def test_parse_mcp_name_round_trip(servers):
    variants, _ = mcp_tools(servers, separator=SPEC_SEP)
    tools = {(s["uid"], t["name"]) for s in servers for t in s["tools"]}
    for variant in variants:
        parsed = parse_mcp_name(variant["name"], SPEC_SEP)
        assert parsed in tools
        assert f"{parsed[0]}{SPEC_SEP}{parsed[1]}" == variant["name"]


def test_parse_mcp_name_edge_cases():
    assert parse_mcp_name("read_file", SPEC_SEP) is None
    assert parse_mcp_name(f"{SPEC_SEP}tool", SPEC_SEP) is None
    assert parse_mcp_name(f"cabc12{SPEC_SEP}", SPEC_SEP) is None
    # tool names may contain the separator; uids may not, so the first one splits
    assert parse_mcp_name(f"cabc12{SPEC_SEP}a{SPEC_SEP}b", SPEC_SEP) == ("cabc12", f"a{SPEC_SEP}b")
    assert parse_mcp_name("cabc12__mcp__x", "__mcp__") == ("cabc12", "x")
    assert parse_mcp_name("anything", "") is None


# ---- subagents ----------------------------------------------------------------------------------------

PREFIX = SUBAGENTS["name_prefix"]
MAX = SUBAGENTS["max_length"]


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("reviewer", "use_subagent_reviewer"),
        ("Code Reviewer", "use_subagent_code_reviewer"),
        ("  --Test-Writer!!  ", "use_subagent_test_writer"),
        ("snake_case_ok", "use_subagent_snake_case_ok"),
        ("__edge__", "use_subagent_edge"),
        ("Ünïcode agent", "use_subagent_n_code_agent"),
        ("a.b/c", "use_subagent_a_b_c"),
        ("!!!", "use_subagent_subagent"),
    ],
)
def test_subagent_name_sanitizing(name, expected):
    assert subagent_name(name, prefix=PREFIX, max_length=MAX) == expected
    assert re.fullmatch(r"[a-z0-9_]+", expected)


def test_subagent_name_trimming_keeps_a_stable_hash():
    exact = "x" * (MAX - len(PREFIX))
    assert subagent_name(exact) == PREFIX + exact  # exactly at the limit: not trimmed
    long_a = "Investigate " + "the repository history " * 4 + "A"
    long_b = "Investigate " + "the repository history " * 4 + "B"
    a, b = subagent_name(long_a), subagent_name(long_b)
    assert len(a) == MAX and len(b) == MAX
    assert a != b
    assert a.endswith("_" + hashlib.sha256(long_a.encode()).hexdigest()[:8])
    assert a == subagent_name(long_a)  # stable
    assert a.startswith(PREFIX + "investigate_the_repository_history")
    one_over = "y" * (MAX - len(PREFIX) + 1)
    assert subagent_name(one_over) == PREFIX + "y" * (MAX - len(PREFIX) - 9) + "_" + hashlib.sha256(
        one_over.encode()
    ).hexdigest()[:8]
    assert len(subagent_name("z" * 300, max_length=40)) == 40
    with pytest.raises(ValueError, match="leaves no room for a name within 64 characters"):
        subagent_name("z" * 300, prefix="p" * 60, max_length=64)


def test_subagent_name_collisions_are_distinct_and_deterministic():
    configs = [{"name": "Code Reviewer"}, {"name": "code-reviewer"}, {"name": "CODE_REVIEWER"}, {"name": "tester"}]
    names = subagent_names(configs)
    assert names == [
        "use_subagent_code_reviewer",
        "use_subagent_code_reviewer_2",
        "use_subagent_code_reviewer_3",
        "use_subagent_tester",
    ]
    assert subagent_names(configs) == names
    # a literal name equal to an earlier disambiguated one still gets its own name
    assert subagent_names([{"name": "a"}, {"name": "A"}, {"name": "a_2"}]) == [
        "use_subagent_a",
        "use_subagent_a_2",
        "use_subagent_a_2_2",
    ]
    # identical long names: trimmed, hashed, then numbered, all within the limit
    long = "w" * 80
    names = subagent_names([{"name": long}] * 3)
    assert len(set(names)) == 3 and all(len(n) <= MAX for n in names)


def test_subagent_tools():
    configs = [
        {"name": "Code Reviewer", "description": "Reviews a diff for bugs."},
        {"name": "tester", "description": ""},
    ]
    variants = subagent_tools(configs, prefix=PREFIX, max_length=MAX)
    assert [v["name"] for v in variants] == ["use_subagent_code_reviewer", "use_subagent_tester"]
    reviewer, tester = variants
    assert reviewer["description"] == ("Reviews a diff for bugs.",)
    assert tester["description"] == ("Delegate a task to the tester subagent.",)
    for variant in variants:
        assert variant["id"] == "use_subagents" and variant["input_schema"] is None and variant["spec"] is None
        (prompt,) = variant["parameters"]
        assert prompt["name"] == "prompt" and prompt["required"] is True
        assert prompt["schema"] == {"type": "string"}
        static = set(next(iter(SPECS.values()))) - {"title", "annotations", "output_schema"}  # optional keys
        assert set(variant) == static | {"input_schema", "origin"}


@pytest.mark.parametrize("enabled", [False, True])
@pytest.mark.parametrize("subagent_run", [False, True])
@pytest.mark.parametrize(
    ("tools", "listed"),
    [(["read_file", "use_subagents"], True), (["read_file"], False), ([], True), (None, True)],
)
def test_subagents_active_truth_table(enabled, subagent_run, tools, listed):
    context = {"subagents_enabled": enabled, "is_subagent_run": subagent_run}
    assert subagents_active(context, tools) == (enabled and not subagent_run and listed)


def test_subagents_active_reads_context_objects():
    from generated.context import Context
    from generated.ids import ToolId

    assert subagents_active(Context(subagents_enabled=True), [ToolId.USE_SUBAGENTS])
    assert not subagents_active(Context(subagents_enabled=True), [ToolId.READ_FILE])
    assert not subagents_active(Context(), [ToolId.USE_SUBAGENTS])


# ---- merge ---------------------------------------------------------------------------------------------


def test_merge_order_static_then_subagents_then_mcp(servers):
    static = list(VARIANTS["generic"])
    assert any(v["id"] == "use_subagents" for v in static)
    subagents = subagent_tools([{"name": "reviewer", "description": "r"}])
    mcp, _ = mcp_tools(servers, separator=SPEC_SEP)
    merged = merge_tools(static, subagents, mcp)
    expected_static = [v for v in static if v["id"] != "use_subagents"]
    assert merged == expected_static + subagents + mcp
    assert merged[0] is static[0]  # passed through, not copied


def test_merge_keeps_static_use_subagents_without_subagent_tools(servers):
    static = list(VARIANTS["generic"])
    mcp, _ = mcp_tools(servers, separator=SPEC_SEP)
    assert merge_tools(static, [], mcp) == static + mcp
    assert merge_tools(iter(static), iter(()), iter(())) == static
