"""The generated native-tool modules and providers.native_tools, checked end to end.

Every declaration the generated package can produce (for every family, format and a few contexts,
plus every spec variant's entry and run-time MCP/subagent tools) is validated with the providers'
own SDK types (tests/sdk_validators.py); the structure is compared with the modelled system's
golden output (../shared/reference, skipped when absent); the request-time behaviour (gate,
routing, requirement filtering, placeholders, conditional text, copies, cache_control, dynamic
tools) and the ``toolgen show tools`` command are tested against the API.

Converter-level rules and refusals are tested in test_schema_dialects.py, not here.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest

import generated
from conftest import GOLDEN_FIELDS, REFERENCE, ROOT, run_cli
from generated import anthropic, catalog, gemini, providers
from generated._runtime.native import DESCRIPTION_PATH, PROPERTIES_PATH, materialize
from generated._runtime.schema_dialects import check_limits
from generated.context import Context
from generated.prompt import prompt_section
from sdk_validators import (
    check_json_schema,
    validate_anthropic,
    validate_bedrock,
    validate_gemini,
    validate_openai_chat,
    validate_openai_responses,
)

MODULES = dict(providers.FORMATS)  # format -> generated module
FAMILIES = tuple(catalog.FAMILIES)
NATIVE = tuple(f for f in FAMILIES if catalog.FAMILIES[f]["use_native_tools"])
NON_NATIVE = tuple(f for f in FAMILIES if not catalog.FAMILIES[f]["use_native_tools"])
MCP_DIR = ROOT / "tests" / "data" / "mcp"
GOLDEN = REFERENCE / "cline-v4.0.10-golden-structure.json"

# ----------------------------------------------------------------------------- contexts

#: Every requirement field on (yolo on: timeout visible, ask_followup_question/new_task hidden).
ALL_ON = Context(
    provider_id="cline",
    model_id="openai/gpt-5",
    cwd="/work/project",
    supports_browser_use=True,
    browser_viewport_width=1280,
    browser_viewport_height=800,
    is_multi_root_enabled=True,
    enable_native_tool_calls=True,
    cline_web_tools_enabled=True,
    subagents_enabled=True,
    yolo_mode=True,
    focus_chain_enabled=True,
    has_mcp_hub=True,
    skills=("pdf", "docx"),
    editor_tabs=("src/a.py", "notes/analysis.ipynb"),
)
#: The modelled system's golden context (see the golden file's "$about").
GOLDEN_CTX = Context(**GOLDEN_FIELDS)
CONTEXTS = {
    "all-on": ALL_ON,
    "all-on-no-yolo": Context(**{**ALL_ON.to_dict(), "yolo_mode": False, "is_cli": True}),
    "golden": GOLDEN_CTX,
    # everything off but native calling, as a plain mapping (defaults from the placeholders)
    "minimal-mapping": {"enable_native_tool_calls": True, "provider_id": "openai", "model_id": "gpt-4.1"},
}
SUBAGENTS = [
    {"name": "Code Reviewer", "description": "Reviews a diff and reports problems."},
    {"name": "test writer"},  # no description: a default one is made
    {"name": "x" * 80, "description": "A subagent whose name must be shortened."},
]


def _json(path: Path):
    return json.loads(path.read_text("utf-8"))


MCP_SERVERS = _json(MCP_DIR / "servers.json")
MCP_CAPTURES = [_json(MCP_DIR / f"{name}.json") for name in ("fetch", "git", "time")]

# ----------------------------------------------------------------------------- validation


_seen: set[tuple[str, str]] = set()


def _validate(fmt: str, tools: list[dict]) -> None:
    """SDK-validate a request-ready list in ``fmt`` (each distinct tool once per session).

    The anthropic/openai/bedrock validators also run check_json_schema on the JSON-Schema part
    (input_schema, parameters, inputSchema.json); it is called here again for clarity (not for
    bedrock, whose validator checks every toolSpec's inputSchema.json).
    """
    if fmt == "bedrock-converse":
        key = (fmt, json.dumps(tools))
        if key not in _seen:
            _seen.add(key)
            validate_bedrock(tools)  # the whole list as a Converse toolConfig (+ check_json_schema)
        return
    for tool in tools:
        key = (fmt, json.dumps(tool, sort_keys=False))
        if key in _seen:
            continue
        _seen.add(key)
        if fmt == "anthropic":
            validate_anthropic(tool)
            check_json_schema(tool["input_schema"])
        elif fmt == "openai-chat":
            validate_openai_chat(tool)
            check_json_schema(tool["function"]["parameters"])
        elif fmt == "openai-responses":
            validate_openai_responses(tool)
            check_json_schema(tool["parameters"])
        elif fmt == "gemini":
            validate_gemini(tool)
        else:  # pragma: no cover
            raise AssertionError(fmt)


def _name(fmt: str, tool: dict) -> str:
    if fmt == "openai-chat":
        return tool["function"]["name"]
    if fmt == "bedrock-converse":
        return tool["toolSpec"]["name"]
    return tool["name"]


def _names(fmt: str, tools: list[dict]) -> list[str]:
    return [_name(fmt, t) for t in tools]


def _at(entry, path):
    for key in path:
        entry = entry[key]
    return entry


def _props(fmt: str, tool: dict) -> dict:
    return _at(tool, PROPERTIES_PATH[fmt])


def _required(fmt: str, tool: dict) -> list:
    return _at(tool, PROPERTIES_PATH[fmt][:-1])["required"]


def _description(fmt: str, tool: dict) -> str:
    return _at(tool, DESCRIPTION_PATH[fmt])


def _by_name(fmt: str, tools: list[dict]) -> dict[str, dict]:
    return {_name(fmt, t): t for t in tools}


def _materialize(fmt: str, key: str, ctx) -> dict | None:
    module = MODULES[fmt]
    entry = module.TOOLS[key]
    if entry is None:
        return None
    return materialize(
        fmt,
        entry,
        module.META[key],
        lambda requirement: catalog.holds(requirement, ctx),
        lambda pieces: catalog.resolve_text(pieces, ctx),
        lambda text: catalog.resolve_placeholders(text, ctx),
    )


# ----------------------------------------------------------------------------- every declaration is valid


def test_modules_cover_every_format_and_spec_variant():
    assert set(MODULES) == {"anthropic", "openai-chat", "openai-responses", "gemini", "bedrock-converse"}
    assert [m.DIALECT for m in MODULES.values()] == list(MODULES)
    for module in MODULES.values():
        assert list(module.TOOLS) == list(catalog.SPECS), module.DIALECT
        assert set(module.META) == set(catalog.SPECS)
    assert len(catalog.SPECS) == 58
    # only a tool without description has no entry
    none = {k for k, v in anthropic.TOOLS.items() if v is None}
    assert none == {k for k, v in catalog.SPECS.items() if not "".join(
        p if isinstance(p, str) else p[0] for p in v["description"])}
    for module in MODULES.values():
        assert {k for k, v in module.TOOLS.items() if v is None} == none


@pytest.mark.parametrize("fmt", list(MODULES))
def test_every_spec_variant_entry_is_valid(fmt):
    """All 58 entries (native families or not), placeholders resolved, in two contexts."""
    for ctx in (ALL_ON, CONTEXTS["minimal-mapping"]):
        built = [t for key in catalog.SPECS if (t := _materialize(fmt, key, ctx)) is not None]
        assert len(built) == 57
        for tool in built:
            assert "{{" not in json.dumps(tool), _name(fmt, tool)
        if fmt == "bedrock-converse":
            validate_bedrock(built)  # names repeat across families: fine for the validator
        else:
            _validate(fmt, built)


@pytest.mark.parametrize("fmt", list(MODULES))
@pytest.mark.parametrize("ctx_name", list(CONTEXTS))
def test_every_family_every_format_is_valid(fmt, ctx_name):
    ctx = CONTEXTS[ctx_name]
    module = MODULES[fmt]
    extra, _ = catalog.dynamic_variants("native-next-gen", ctx, mcp_servers=MCP_SERVERS, subagents=SUBAGENTS)
    for family in FAMILIES:
        if family in NON_NATIVE:
            with pytest.raises(providers.NativeToolsUnavailable):
                module.tools(family, ctx)
            continue
        for extras in ((), extra):
            tools = module.tools(family, ctx, extra_variants=extras)
            assert tools, (family, ctx_name)
            _validate(fmt, tools)
            # the list a request sends is also within the provider's limits
            for notice in check_limits(fmt, tools):
                assert "characters" in notice.message or "tools in one request" in notice.message
            assert tools == providers.native_tools(family, ctx, format=fmt, extra_variants=extras)
    if fmt == "anthropic":
        tools = anthropic.tools("native-next-gen", ctx, cache_control=True)
        _validate(fmt, tools)


# ----------------------------------------------------------------------------- golden parity


def _golden():
    if not GOLDEN.is_file():
        pytest.skip(f"golden reference not available at {GOLDEN}")
    return _json(GOLDEN)


def _shape(node, parent_key=None):
    """Structure with descriptions ignored: every description text (or {"$text": n}) becomes "<text>"."""
    if isinstance(node, dict):
        if set(node) == {"$text"}:
            return "<text>"
        return {
            k: "<text>" if k == "description" and parent_key != "properties" and isinstance(v, str)
            else _shape(v, k)
            for k, v in node.items()
        }
    if isinstance(node, list):
        return [_shape(v) for v in node]
    return node


def _gemini_fixed(golden_decl: dict, key: str) -> dict:
    """The golden Gemini declaration with the deliberate fixes applied (integer -> INTEGER)."""
    fixed = copy.deepcopy(golden_decl)
    params = {p["name"]: p for p in catalog.SPECS[key]["parameters"]}
    for name, prop in fixed["parameters"]["properties"].items():
        kind = params[name]["schema"].get("type")
        if kind == "integer":
            assert prop["type"] == "NUMBER"  # Cline's defect
            prop["type"] = "INTEGER"
        elif kind == "array":
            assert prop["type"] == "STRING"  # Cline's defect: no items
            prop["type"] = "ARRAY"
    return fixed


@pytest.mark.parametrize(
    "golden_key,fmt", [("anthropic", "anthropic"), ("openai", "openai-chat"), ("gemini", "gemini")]
)
def test_golden_structure_per_spec_variant(golden_key, fmt):
    data = _golden()[golden_key]
    assert set(data) == set(catalog.SPECS)
    for key, expected in data.items():
        if "$throws" in expected:
            # the original raises for a tool whose requirement fails; we simply leave it out
            assert not catalog.holds(catalog.SPECS[key]["requires"], GOLDEN_CTX), key
            name = catalog.SPECS[key]["name"]
            for family in NATIVE:
                assert name not in _names(fmt, MODULES[fmt].tools(family, GOLDEN_CTX)), (key, family)
            continue
        got = _materialize(fmt, key, GOLDEN_CTX)
        if got is None:
            # deliberate: a tool with an empty description is not offered (focus_chain)
            assert key == "generic/focus_chain" and _description(fmt, expected) == {"$text": 0}
            continue
        if fmt == "gemini":
            expected = _gemini_fixed(expected, key)
        if fmt == "openai-chat":
            assert got["function"]["strict"] is False
            assert got["function"]["parameters"]["additionalProperties"] is False
        assert json.dumps(_shape(got)) == json.dumps(_shape(expected)), key
        # descriptions equal in kind: present where the golden has one, empty only where it is
        assert (_description(fmt, got) == "") == (_description(fmt, expected) == {"$text": 0}), key


def test_golden_native_tools_cline_provider():
    data = _golden()["native_tools_cline_provider"]
    assert set(data) == set(NATIVE)
    for family, expected in data.items():
        got = providers.native_tools(family, GOLDEN_CTX, format="openai-chat")
        assert _names("openai-chat", got) == [t["function"]["name"] for t in expected], family
        assert json.dumps(_shape(got)) == json.dumps(_shape(expected)), family
        # the golden context routes to openai-chat anyway (provider cline)
        assert got == providers.native_tools(family, GOLDEN_CTX)
        assert "focus_chain" not in _names("openai-chat", got)


# ----------------------------------------------------------------------------- gate


def test_gate_family_without_native_label():
    for family in NON_NATIVE:
        for module in MODULES.values():
            with pytest.raises(providers.NativeToolsUnavailable, match="does not use native"):
                module.tools(family, ALL_ON)
        with pytest.raises(providers.NativeToolsUnavailable):
            providers.native_tools(family, ALL_ON)


@pytest.mark.parametrize("flag", [False, None])
def test_gate_native_calls_off(flag):
    ctx = Context(**{**ALL_ON.to_dict(), "enable_native_tool_calls": flag})
    for family in NATIVE:
        for fmt in MODULES:
            with pytest.raises(providers.NativeToolsUnavailable, match="enable_native_tool_calls"):
                providers.native_tools(family, ctx, format=fmt)
    with pytest.raises(providers.NativeToolsUnavailable):
        providers.native_tools("native-next-gen", {"enable_native_tool_calls": flag})
    with pytest.raises(providers.NativeToolsUnavailable):
        providers.native_tools("native-next-gen")  # default context: not decided


def test_gate_is_distinct_from_an_empty_list():
    assert issubclass(providers.NativeToolsUnavailable, Exception)
    assert generated._runtime.native.NativeToolsUnavailable is providers.NativeToolsUnavailable
    # native on with no optional feature still gives a non-empty list, never []
    for family in NATIVE:
        assert providers.native_tools(family, {"enable_native_tool_calls": True, "model_id": "m"}) != []
        # no model id: requirements on the model cannot be evaluated and do not hold (no error)
        assert providers.native_tools(family, {"enable_native_tool_calls": True}) != []
    assert "apply_patch" not in _names("openai-chat", providers.native_tools(
        "gpt-5-native", {"enable_native_tool_calls": True}))


def test_unknown_family_and_format():
    with pytest.raises(KeyError):
        providers.native_tools("no-such-family", ALL_ON)
    with pytest.raises(KeyError, match="unknown format"):
        providers.native_tools("native-next-gen", ALL_ON, format="cohere")


# ----------------------------------------------------------------------------- routing


@pytest.mark.parametrize(
    "provider,model,fmt",
    [
        ("anthropic", "claude-sonnet-4-5", "anthropic"),
        ("bedrock", "anthropic.claude-sonnet-4-5", "anthropic"),
        ("minimax", "MiniMax-M2", "anthropic"),
        ("gemini", "gemini-2.5-pro", "gemini"),
        ("vertex", "gemini-2.5-pro", "gemini"),
        ("vertex", "claude-sonnet-4-5@20250929", "anthropic"),
        ("vertex", None, "anthropic"),  # the gemini rule cannot be evaluated: the next rule applies
        ("openai", "gpt-5", "openai-chat"),
        ("openrouter", "anthropic/claude-sonnet-4.5", "openai-chat"),
        ("cline", "google/gemini-2.5-pro", "openai-chat"),
        (None, None, "openai-chat"),
    ],
)
def test_routing(provider, model, fmt):
    assert catalog.route(provider, model) == fmt
    ctx = Context(**{**ALL_ON.to_dict(), "provider_id": provider, "model_id": model})
    assert providers.format_for(ctx) == fmt
    assert providers.format_for({"provider_id": provider, "model_id": model}) == fmt
    got = providers.native_tools("native-next-gen", ctx)
    assert got == MODULES[fmt].tools("native-next-gen", ctx)


@pytest.mark.parametrize("fmt", ["openai-responses", "bedrock-converse", "gemini"])
def test_explicit_format_overrides_routing(fmt):
    ctx = Context(**{**ALL_ON.to_dict(), "provider_id": "anthropic", "model_id": "claude-sonnet-4-5"})
    got = providers.native_tools("native-next-gen", ctx, format=fmt)
    assert got == MODULES[fmt].tools("native-next-gen", ctx)
    if fmt == "openai-responses":
        assert list(got[0]) == ["type", "name", "description", "parameters", "strict"]
    if fmt == "bedrock-converse":
        assert list(got[0]) == ["toolSpec"]


# ----------------------------------------------------------------------------- requirement filtering


@pytest.mark.parametrize("fmt", list(MODULES))
def test_tool_level_requirement(fmt):
    on = Context(**{**GOLDEN_CTX.to_dict(), "supports_browser_use": True})
    off = Context(**{**GOLDEN_CTX.to_dict(), "supports_browser_use": False})
    assert "browser_action" in _names(fmt, MODULES[fmt].tools("native-next-gen", on))
    without = _names(fmt, MODULES[fmt].tools("native-next-gen", off))
    assert "browser_action" not in without
    # everything else is unchanged and in the same order
    assert without == [n for n in _names(fmt, MODULES[fmt].tools("native-next-gen", on)) if n != "browser_action"]
    # web tools need provider cline and the setting
    other = Context(**{**GOLDEN_CTX.to_dict(), "provider_id": "openrouter"})
    assert not {"web_fetch", "web_search"} & set(_names(fmt, MODULES[fmt].tools("native-next-gen", other)))


@pytest.mark.parametrize("fmt", list(MODULES))
def test_parameter_level_requirement(fmt):
    """generic/execute_command's timeout needs yolo_mode: dropped from properties and required."""
    key = "generic/execute_command"
    assert "timeout" in _props(fmt, MODULES[fmt].TOOLS[key])  # the stored entry has it
    yolo = _materialize(fmt, key, Context(yolo_mode=True))
    careful = _materialize(fmt, key, Context(yolo_mode=False))
    assert "timeout" in _props(fmt, yolo)
    assert "timeout" not in _props(fmt, careful)
    assert "timeout" not in _required(fmt, careful)
    assert list(_props(fmt, careful)) == [p for p in _props(fmt, yolo) if p != "timeout"]
    # removal from required: simulate a required gated parameter on a copy of the entry
    entry = copy.deepcopy(MODULES[fmt].TOOLS[key])
    _required(fmt, entry).append("timeout")
    meta = MODULES[fmt].META[key]
    ctx = Context(yolo_mode=False)
    dropped = materialize(fmt, entry, meta, lambda r: catalog.holds(r, ctx),
                          lambda p: catalog.resolve_text(p, ctx),
                          lambda t: catalog.resolve_placeholders(t, ctx))
    assert "timeout" not in _required(fmt, dropped) and "timeout" not in _props(fmt, dropped)
    assert "timeout" in _required(fmt, entry)  # the input is not mutated


# ----------------------------------------------------------------------------- placeholders, text, order, copies


@pytest.mark.parametrize("fmt", list(MODULES))
def test_placeholders_substituted(fmt):
    ctx = Context(**{**GOLDEN_CTX.to_dict(), "cwd": "/home/me/proj", "is_multi_root_enabled": True})
    tools = MODULES[fmt].tools("native-next-gen", ctx)
    text = json.dumps(tools)
    assert "{{" not in text
    read_file = _by_name(fmt, tools)["read_file"]
    assert "/home/me/proj" in json.dumps(read_file)
    assert "@workspace:path" in json.dumps(read_file)  # MULTI_ROOT_HINT
    # the stored entry keeps the placeholders (resolved per request)
    assert "{{CWD}}" in json.dumps(MODULES[fmt].TOOLS["native-next-gen/read_file"])


VIEWPORT = re.compile(r"The viewport is (\d+)x(\d+) pixels")


@pytest.mark.parametrize("fmt", list(MODULES))
def test_viewport_default_is_the_same_in_both_paths(fmt):
    for ctx in ({"enable_native_tool_calls": True, "supports_browser_use": True},
                Context(enable_native_tool_calls=True, supports_browser_use=True)):
        tool = _by_name(fmt, MODULES[fmt].tools("native-next-gen", ctx))["browser_action"]
        native = VIEWPORT.search(_description(fmt, tool)).groups()
        text = VIEWPORT.search(prompt_section("native-next-gen", ctx)).groups()
        assert native == text == ("900", "600")
        assert "within the 900x600 viewport" in json.dumps(tool)
    ctx = Context(enable_native_tool_calls=True, supports_browser_use=True,
                  browser_viewport_width=1024, browser_viewport_height=768)
    tool = _by_name(fmt, MODULES[fmt].tools("native-next-gen", ctx))["browser_action"]
    assert VIEWPORT.search(_description(fmt, tool)).groups() == ("1024", "768")
    assert VIEWPORT.search(prompt_section("native-next-gen", ctx)).groups() == ("1024", "768")


@pytest.mark.parametrize("fmt", list(MODULES))
def test_conditional_text_notebook_section(fmt):
    plain = Context(**{**GOLDEN_CTX.to_dict(), "editor_tabs": ("src/a.py",)})
    notebook = Context(**{**GOLDEN_CTX.to_dict(), "editor_tabs": ("src/a.py", "analysis.ipynb")})

    def diff(ctx):
        tool = _by_name(fmt, MODULES[fmt].tools("native-next-gen", ctx))["replace_in_file"]
        return _props(fmt, tool)["diff"]["description"]

    assert "Jupyter notebooks" not in diff(plain)
    with_nb = diff(notebook)
    assert "Jupyter notebooks" in with_nb
    assert with_nb.startswith(diff(plain))
    # the text path says the same
    assert "Jupyter notebooks" in prompt_section("native-next-gen", notebook)


@pytest.mark.parametrize("fmt", list(MODULES))
def test_order_follows_the_family(fmt):
    for family in NATIVE:
        names = _names(fmt, MODULES[fmt].tools(family, ALL_ON))
        ids = catalog.enabled_tools(family, ALL_ON)
        expected = [catalog.SPECS[f"{v['spec']}/{v['id']}"]["name"] for v in catalog.enabled_variants(family, ALL_ON)
                    if MODULES[fmt].TOOLS[f"{v['spec']}/{v['id']}"] is not None]
        assert names == expected, family
        assert len(ids) >= len(names)


@pytest.mark.parametrize("fmt", list(MODULES))
def test_returned_lists_are_fresh_copies(fmt):
    module = MODULES[fmt]
    first = module.tools("native-next-gen", ALL_ON)
    pristine = copy.deepcopy(first)
    _at(first[0], DESCRIPTION_PATH[fmt][:-1])["name"] = "changed"
    _props(fmt, first[1]).clear()
    first.pop()
    assert module.tools("native-next-gen", ALL_ON) == pristine
    stored = json.dumps(module.TOOLS)
    second = module.tools("native-next-gen", ALL_ON)
    _props(fmt, second[2])["injected"] = {"type": "string"}
    assert json.dumps(module.TOOLS) == stored


def test_cache_control_on_the_last_anthropic_tool():
    plain = anthropic.tools("native-next-gen", ALL_ON)
    cached = anthropic.tools("native-next-gen", ALL_ON, cache_control=True)
    assert all("cache_control" not in t for t in plain)
    assert cached[-1]["cache_control"] == {"type": "ephemeral"}
    assert list(cached[-1])[-1] == "cache_control"
    assert all("cache_control" not in t for t in cached[:-1])
    assert cached[:-1] == plain[:-1]
    extra, _ = catalog.dynamic_variants("native-next-gen", ALL_ON, mcp_servers=MCP_CAPTURES)
    with_mcp = anthropic.tools("native-next-gen", ALL_ON, extra_variants=extra, cache_control=True)
    assert with_mcp[-1]["name"] == "ctime10mcp0convert_time" and "cache_control" in with_mcp[-1]
    assert anthropic.tools("native-next-gen", ALL_ON) == plain  # not sticky


# ----------------------------------------------------------------------------- MCP and subagents


@pytest.mark.parametrize("fmt", list(MODULES))
@pytest.mark.parametrize("source", ["servers.json", "captures"])
def test_mcp_tools_every_format(fmt, source):
    servers = MCP_SERVERS if source == "servers.json" else MCP_CAPTURES
    extra, skipped = catalog.dynamic_variants("native-next-gen", GOLDEN_CTX, mcp_servers=servers)
    static = MODULES[fmt].tools("native-next-gen", GOLDEN_CTX)
    tools = MODULES[fmt].tools("native-next-gen", GOLDEN_CTX, extra_variants=extra)
    _validate(fmt, tools)
    names = _names(fmt, tools)
    assert tools[: len(static)] == static  # static tools first, MCP after, in server order
    mcp_names = [f"{s['uid']}0mcp0{t['name']}" for s in servers if not s["disabled"] for t in s["tools"]]
    assert names[len(static):] == mcp_names
    if source == "servers.json":
        assert skipped == [{"server": "disabled-notes", "uid": "xoff01", "tool": "append_note",
                            "name": "xoff010mcp0append_note", "reason": "server disabled"}]
    else:
        assert skipped == []
    # the server's schema survives: git_add's files array keeps its items in every format
    by_name = _by_name(fmt, tools)
    if "cgit010mcp0git_add" in by_name:
        files = _props(fmt, by_name["cgit010mcp0git_add"])["files"]
        assert files["type"] in ("array", "ARRAY") and "items" in files
        assert _required(fmt, by_name["cgit010mcp0git_add"]) == ["repo_path", "files"]
        assert _description(fmt, by_name["cgit010mcp0git_add"]).startswith("git: ")


def test_mcp_long_names_reported_not_silently_dropped():
    server = {"uid": "srv001", "name": "long", "disabled": False,
              "tools": [{"name": "a" * 53, "description": "ok", "inputSchema": {"type": "object", "properties": {}}},
                        {"name": "b" * 54, "description": "too long", "inputSchema": {"type": "object"}}]}
    extra, skipped = catalog.dynamic_variants("native-next-gen", GOLDEN_CTX, mcp_servers=[server])
    assert [v["name"] for v in extra] == ["srv0010mcp0" + "a" * 53]
    assert len(extra[0]["name"]) == 64
    assert skipped == [{"server": "long", "uid": "srv001", "tool": "b" * 54, "name": "srv0010mcp0" + "b" * 54,
                        "reason": "name is 65 characters, over the limit of 64"}]
    for fmt in MODULES:
        _validate(fmt, MODULES[fmt].tools("native-next-gen", GOLDEN_CTX, extra_variants=extra))


def test_mcp_nested_required_does_not_overwrite_the_parameter_flag():
    schema = {"type": "object",
              "properties": {"filter": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]},
                             "limit": {"type": "integer"}},
              "required": ["limit"]}
    server = {"uid": "s1", "name": "s", "disabled": False,
              "tools": [{"name": "find", "description": "Find.", "inputSchema": schema}]}
    extra, _ = catalog.dynamic_variants("native-next-gen", GOLDEN_CTX, mcp_servers=[server])
    assert [(p["name"], p["required"]) for p in extra[0]["parameters"]] == [("filter", False), ("limit", True)]
    for fmt in MODULES:
        tool = MODULES[fmt].tools("native-next-gen", GOLDEN_CTX, extra_variants=extra)[-1]
        assert _required(fmt, tool) == ["limit"]
        assert _props(fmt, tool)["filter"]["required"] == ["q"]
        _validate(fmt, [tool])


def test_mcp_text_is_not_treated_as_spec_text():
    server = {
        "uid": "s1",
        "name": "s",
        "disabled": False,
        "tools": [
            {
                "name": "echo",
                "description": "Echo {{CWD}} back.",
                "inputSchema": {"type": "object", "properties": {"x": {"type": "string", "description": "{{CWD}}"}}},
            }
        ],
    }
    extra, _ = catalog.dynamic_variants("native-next-gen", GOLDEN_CTX, mcp_servers=[server])
    for fmt in MODULES:
        tool = MODULES[fmt].tools("native-next-gen", GOLDEN_CTX, extra_variants=extra)[-1]
        assert _description(fmt, tool) == "s: Echo {{CWD}} back."
        assert _props(fmt, tool)["x"]["description"] == "{{CWD}}"


@pytest.mark.parametrize("fmt", list(MODULES))
def test_subagent_tools_only_when_active(fmt):
    module = MODULES[fmt]
    on = Context(**{**GOLDEN_CTX.to_dict(), "subagents_enabled": True})
    static = _names(fmt, module.tools("native-next-gen", on))
    assert "use_subagents" in static
    extra, _ = catalog.dynamic_variants("native-next-gen", on, subagents=SUBAGENTS)
    tools = module.tools("native-next-gen", on, extra_variants=extra)
    _validate(fmt, tools)
    names = _names(fmt, tools)
    assert "use_subagents" not in names  # replaced by the dynamic tools
    sub = [n for n in names if n.startswith("use_subagent_")]
    assert sub == ["use_subagent_code_reviewer", "use_subagent_test_writer", sub[2]]
    assert len(sub[2]) == 64
    assert names == [n for n in static if n != "use_subagents"] + sub
    reviewer = _by_name(fmt, tools)["use_subagent_code_reviewer"]
    assert _description(fmt, reviewer) == "Reviews a diff and reports problems."
    assert _required(fmt, reviewer) == ["prompt"]
    assert (
        _description(fmt, _by_name(fmt, tools)["use_subagent_test_writer"])
        == "Delegate a task to the test writer subagent."
    )
    # not active: off, or this is a subagent run -> no dynamic tools, and no static one either
    for ctx in (GOLDEN_CTX, Context(**{**on.to_dict(), "is_subagent_run": True})):
        none, _ = catalog.dynamic_variants("native-next-gen", ctx, subagents=SUBAGENTS)
        assert none == []
        names = _names(fmt, module.tools("native-next-gen", ctx, extra_variants=none))
        assert not [n for n in names if n.startswith("use_subagent")]


def test_subagent_tools_on_a_family_without_use_subagents_in_its_list():
    # every native family lists use_subagents; the gate is subagents_active on the family's tools
    for family in NATIVE:
        assert "use_subagents" in catalog.FAMILIES[family]["tools"]
        extra, _ = catalog.dynamic_variants(family, ALL_ON, subagents=SUBAGENTS[:1])
        assert [v["name"] for v in extra] == ["use_subagent_code_reviewer"]


# ----------------------------------------------------------------------------- CLI


def _context_file(tmp_path: Path, ctx: Context) -> Path:
    path = tmp_path / "context.json"
    path.write_text(json.dumps({k: (list(v) if isinstance(v, tuple) else v) for k, v in ctx.to_dict().items()}))
    return path


def _cli(capsys, *args):
    return run_cli(capsys, "show", "tools", "--specs", ROOT / "specs", "--out", ROOT / "generated", *args)


def test_cli_show_tools_by_provider(capsys, tmp_path):
    path = _context_file(tmp_path, ALL_ON)
    code, out, err = _cli(capsys, "--family", "native-next-gen", "--provider", "anthropic", "--context", path)
    assert code == 0, err
    tools = json.loads(out)
    assert tools == anthropic.tools("native-next-gen", ALL_ON)
    _validate("anthropic", tools)
    code, out, _ = _cli(capsys, "--family", "gemini3", "--provider", "vertex", "--model", "gemini-2.5-pro",
                        "--context", path)
    assert code == 0 and json.loads(out) == gemini.tools("gemini3", ALL_ON)


@pytest.mark.parametrize("fmt", ["openai-responses", "bedrock-converse", "openai-chat"])
def test_cli_show_tools_by_format(capsys, tmp_path, fmt):
    path = _context_file(tmp_path, GOLDEN_CTX)
    code, out, err = _cli(capsys, "--family", "xs", "--format", fmt, "--context", path)
    assert code == 0, err
    assert json.loads(out) == providers.native_tools("xs", GOLDEN_CTX, format=fmt)


def test_cli_show_tools_with_mcp_servers(capsys, tmp_path):
    path = _context_file(tmp_path, GOLDEN_CTX)
    code, out, err = _cli(capsys, "--family", "native-next-gen", "--format", "gemini", "--context", path,
                          "--mcp-servers", MCP_DIR / "servers.json")
    assert code == 0, err
    extra, _ = catalog.dynamic_variants("native-next-gen", GOLDEN_CTX, mcp_servers=MCP_SERVERS)
    assert json.loads(out) == gemini.tools("native-next-gen", GOLDEN_CTX, extra_variants=extra)
    assert "xoff010mcp0append_note" in err and "server disabled" in err


def test_cli_show_tools_non_native_family(capsys, tmp_path):
    path = _context_file(tmp_path, ALL_ON)
    code, out, err = _cli(capsys, "--family", "generic", "--provider", "anthropic", "--context", path)
    assert code == 1
    assert out == ""
    assert "no native tools" in err and "generic" in err


def test_cli_show_tools_native_off(capsys, tmp_path):
    path = _context_file(tmp_path, Context(**{**ALL_ON.to_dict(), "enable_native_tool_calls": False}))
    code, out, err = _cli(capsys, "--family", "native-next-gen", "--format", "anthropic", "--context", path)
    assert code == 1 and out == "" and "enable_native_tool_calls" in err


def test_repeated_contexts_get_fresh_lists_and_unhashable_contexts_work() -> None:
    from generated import Context, native_tools, prompt_section

    ctx = Context(enable_native_tool_calls=True, skills=("a",))
    first = native_tools("xs", ctx, format="anthropic")
    first[0]["name"] = "changed"
    first[0]["input_schema"]["properties"].clear()
    again = native_tools("xs", ctx, format="anthropic")
    assert again[0]["name"] == "execute_command" and again[0]["input_schema"]["properties"]
    listy = Context(enable_native_tool_calls=True, skills=["a"])  # not hashable: no cache, same answer
    assert native_tools("xs", listy, format="anthropic") == again
    assert prompt_section("xs", listy) == prompt_section("xs", ctx)
