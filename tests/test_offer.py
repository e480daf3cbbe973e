"""generated.Offer on the bundled package: what was sent is what may run, arguments are checked
against the sent schema and typed, and every refusal is one tool-error result, never a raise."""

from __future__ import annotations

import json
from typing import Any

import pytest

import generated
from generated import Offer, ToolResult, ToolUse
from generated.providers import read_calls

NATIVE = {"provider_id": "openai", "model_id": "gpt-5", "enable_native_tool_calls": True}
SERVERS = [
    {
        "uid": "wx",
        "name": "weather",
        "tools": [
            {
                "name": "get_weather",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "city": {"type": "string", "minLength": 1},
                        "units": {"type": "string", "enum": ["metric", "imperial"]},
                        "days": {"type": "integer", "minimum": 1, "maximum": 14},
                    },
                    "required": ["city"],
                    "additionalProperties": False,
                },
            }
        ],
    },
    {"uid": "off", "name": "off", "disabled": True, "tools": [{"name": "t"}]},
]
SUBAGENTS = [{"name": "reviewer", "description": "Reviews a diff."}]
SUBAGENT_CONTEXT = {**NATIVE, "subagents_enabled": True}


class Recorder:
    """A handler that records the params it ran with."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.calls: list[dict[str, Any]] = []

    def execute(self, config: Any, block: ToolUse) -> ToolResult:
        self.calls.append(dict(block.params))
        return ToolResult.ok("ran")


@pytest.fixture
def coordinator() -> generated.Coordinator:
    coordinator = generated.Coordinator()
    for tool_id in generated.Coordinator.bindings.handlers:
        coordinator.register(Recorder(tool_id))
    return coordinator


def ran(coordinator: generated.Coordinator, name: str) -> list[dict[str, Any]]:
    handler = coordinator.get_handler(name)
    return handler.calls if isinstance(handler, Recorder) else handler.inner.calls


def mcp_name(tool: str, uid: str = "wx") -> str:
    separator = generated.catalog.CATALOG.mcp["separator"]
    return f"{uid}{separator}{tool}"


def test_sending_and_dispatching_agree(coordinator: generated.Coordinator) -> None:
    offer = Offer("native-next-gen", NATIVE, format="openai-chat", mcp_servers=SERVERS)
    sent = [t["function"]["name"] for t in offer.tools()]
    assert list(offer.names()) == sent
    assert mcp_name("get_weather") in sent
    text = Offer("generic", {}, mcp_servers=SERVERS)
    assert text.tools() == [] and "## execute_command" in text.prompt_section()


def test_tool_turned_off_by_context_is_refused(coordinator: generated.Coordinator) -> None:
    offer = Offer("generic", {"supports_browser_use": False})
    assert "browser_action" not in offer.prompt_section()
    calls = offer.parse_calls("<browser_action>\n<action>launch</action>\n</browser_action>")
    assert [c.name for c in calls] == ["browser_action"]
    result = offer.execute(coordinator, None, calls[0])
    assert result is not None and result.is_error
    assert "browser_action is not available" in result.content
    assert "turned off in the current context" in result.content
    assert ran(coordinator, "browser_action") == []


def test_unknown_name_is_refused(coordinator: generated.Coordinator) -> None:
    offer = Offer("generic", {})
    result = offer.execute(coordinator, None, ToolUse("run_shell", {"command": "rm -rf /"}))
    assert result is not None and result.is_error and "no tool of that name" in result.content
    assert offer.parse_calls("<run_shell><command>rm</command></run_shell>") == []


def test_mcp_tool_of_unknown_or_disabled_server_is_refused(
    coordinator: generated.Coordinator,
) -> None:
    offer = Offer("native-next-gen", NATIVE, format="openai-chat", mcp_servers=SERVERS)
    for name, reason in [
        (mcp_name("t", "off"), "is disabled"),
        (mcp_name("t", "nope"), "there is no MCP server 'nope'"),
        (mcp_name("other"), "offers no tool 'other'"),
    ]:
        result = offer.execute(coordinator, None, ToolUse(name, {}, id="c1"))
        assert result is not None and result.is_error and reason in result.content, name
    assert ran(coordinator, "use_mcp_tool") == []


def test_unconfigured_subagent_is_refused(coordinator: generated.Coordinator) -> None:
    offer = Offer("native-next-gen", SUBAGENT_CONTEXT, format="openai-chat", subagents=SUBAGENTS)
    assert "use_subagent_reviewer" in offer.names()
    refused = offer.execute(coordinator, None, ToolUse("use_subagent_other", {"prompt": "x"}))
    assert refused is not None and refused.is_error and "no subagent" in refused.content
    done = offer.execute(coordinator, None, ToolUse("use_subagent_reviewer", {"prompt": "x"}))
    assert done == ToolResult.ok("ran")
    assert ran(coordinator, "use_subagent_reviewer") == [{"prompt": "x"}]


def test_bad_arguments_give_one_error_and_no_handler_call(
    coordinator: generated.Coordinator,
) -> None:
    offer = Offer("native-next-gen", NATIVE, format="openai-chat", mcp_servers=SERVERS)
    use = ToolUse(mcp_name("get_weather"), {"units": "kelvin", "days": 99, "x": 1}, id="c1")
    result = offer.execute(coordinator, None, use)
    assert result is not None and result.is_error
    assert result.content.splitlines()[1:5] == [
        "- city: required, but missing",
        '- units: must be one of "metric", "imperial" (got "kelvin")',
        "- days: must be at most 14 (got 99)",
        "- x: unknown parameter",
    ]
    wrong_type = offer.execute(coordinator, None, ToolUse("read_file", {"path": 3}))
    assert wrong_type is not None and "path: expected string, got integer 3" in wrong_type.content
    assert ran(coordinator, "use_mcp_tool") == [] and ran(coordinator, "read_file") == []


def test_text_path_values_are_coerced(coordinator: generated.Coordinator) -> None:
    offer = Offer("generic", {}, mcp_servers=SERVERS)
    reply = (
        "<execute_command>\n<command>ls</command>\n"
        "<requires_approval>true</requires_approval>\n</execute_command>"
    )
    (call,) = offer.parse_calls(reply)
    assert offer.execute(coordinator, None, call) == ToolResult.ok("ran")
    assert ran(coordinator, "execute_command") == [{"command": "ls", "requires_approval": True}]
    bad = ToolUse("execute_command", {"command": "ls", "requires_approval": "maybe"})
    result = offer.execute(coordinator, None, bad)
    assert result is not None and 'requires_approval: expected boolean, got text "maybe"' in (
        result.content
    )


def test_native_and_text_give_the_handler_the_same_values(
    coordinator: generated.Coordinator,
) -> None:
    weather = mcp_name("get_weather")
    native = Offer("native-next-gen", NATIVE, format="openai-chat", mcp_servers=SERVERS)
    text = Offer("generic", {}, mcp_servers=SERVERS)
    native.execute(coordinator, None, ToolUse(weather, {"city": "Oslo", "days": 3}, id="c"))
    text.execute(coordinator, None, ToolUse(weather, {"city": "Oslo", "days": "3"}))
    first, second = ran(coordinator, "use_mcp_tool")
    assert first == second == {"city": "Oslo", "days": 3}


def test_none_is_checked_against_the_schema_sent(coordinator: generated.Coordinator) -> None:
    """Without strict mode the optional task_progress is sent as a plain string: null is refused.
    (Strict mode sends it nullable, and the null is removed: tests/test_sent_schema.py.)"""
    offer = Offer("native-next-gen", NATIVE, format="openai-chat")
    use = ToolUse("read_file", {"path": "a.py", "task_progress": None}, id="c1")
    result = offer.execute(coordinator, None, use)
    assert result is not None and result.is_error
    hint = "(leave the parameter out instead of sending null)"
    assert f"- task_progress: expected string, got null {hint}" in result.content
    assert ran(coordinator, "read_file") == []


def test_malformed_json_from_read_calls_is_an_error_result(
    coordinator: generated.Coordinator,
) -> None:
    offer = Offer("native-next-gen", NATIVE, format="openai-chat")
    response = {
        "choices": [
            {
                "message": {
                    "tool_calls": [
                        {
                            "id": "c1",
                            "type": "function",
                            "function": {"name": "read_file", "arguments": '{"path": '},
                        },
                        {
                            "id": "c2",
                            "type": "function",
                            "function": {"name": "read_file", "arguments": json.dumps({"path": "b"})},
                        },
                    ]
                }
            }
        ]
    }
    first, second = read_calls(response, "openai-chat")
    bad = offer.execute(coordinator, None, first)
    assert bad is not None and bad.is_error and bad.content == first.error
    assert offer.execute(coordinator, None, second) == ToolResult.ok("ran")
    assert ran(coordinator, "read_file") == [{"path": "b"}]


def test_partial_blocks_and_junk_never_raise(coordinator: generated.Coordinator) -> None:
    offer = Offer("generic", {})
    assert offer.execute(coordinator, None, ToolUse("read_file", {"path": "a"}, partial=True)) is None
    assert offer.execute(coordinator, None, ToolUse("nope", {}, partial=True)) is None
    junk = ToolUse("read_file", {"path": object()})
    result = offer.execute(coordinator, None, junk)
    assert result is not None and result.is_error


def test_unknown_format_and_lazy_export() -> None:
    with pytest.raises(KeyError, match="unknown format"):
        Offer("generic", {}, format="nope")
    assert "Offer" in dir(generated)


def test_coordinator_execute_stays_unchecked(coordinator: generated.Coordinator) -> None:
    """The documented opt-out: calling the coordinator directly runs any name it can route."""
    use = ToolUse("browser_action", {"action": 3})
    assert coordinator.execute(None, use) == ToolResult.ok("ran")
    assert ran(coordinator, "browser_action") == [{"action": 3}]


def test_values_that_fail_the_checker_itself_are_an_error_result(
    coordinator: generated.Coordinator,
) -> None:
    offer = Offer("generic", {})
    result = offer.execute(coordinator, None, ToolUse("read_file", params=[("path", "a")]))  # type: ignore[arg-type]
    assert result is not None and result.is_error and "read_file" in result.content
    assert ran(coordinator, "read_file") == []


REFUSED_SERVERS = [
    {
        "uid": "rx",
        "name": "refused",
        "tools": [
            # a $ref to another document: the keyword is dropped, the tool offered with a note
            {"name": "remote", "inputSchema": {"type": "object", "properties": {"a": {"$ref": "https://x/s.json"}}}},
            # a branch that is no schema: no keyword's removal cures it, the tool is left out
            {
                "name": "broken",
                "inputSchema": {"type": "object", "properties": {"a": {"anyOf": [{"type": "string"}, 5]}}},
            },
            {"name": "fine", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}},
        ],
    }
]


@pytest.mark.parametrize("fmt", [None, "anthropic", "openai-chat"])
def test_a_schema_the_validator_refuses_costs_only_that_tool(
    coordinator: generated.Coordinator, fmt: str | None
) -> None:
    """At list-build time a run-time tool's schema is made checkable or the tool is left out, with
    the reason in the reports; a call to a left-out tool is refused saying why, the rest run."""
    family, context = ("generic", {}) if fmt is None else ("native-next-gen", NATIVE)
    offer = Offer(family, context, format=fmt, mcp_servers=REFUSED_SERVERS)
    remote, broken, fine = mcp_name("remote", "rx"), mcp_name("broken", "rx"), mcp_name("fine", "rx")
    assert remote in offer.names() and fine in offer.names() and broken not in offer.names()
    dropped = (
        "toolgen dropped from the input schema, as its arguments could not be checked against them: "
        '/properties/a/$ref: "https://x/s.json" is another document; pass retrieve= to let the validator '
        "read it (it never uses the network by itself)"
    )
    left = "its inputSchema cannot be checked: /properties/a/anyOf/1: must be a schema (an object or a boolean)"
    assert [(d["name"], d["reason"]) for d in offer.degraded] == [(remote, dropped)]
    assert [(s["name"], s["reason"]) for s in offer.skipped] == [(broken, left)]
    sent = offer.prompt_section() if fmt is None else json.dumps(offer.tools())
    assert dropped in sent.replace('\\"', '"') and "https://x/s.json" in sent
    assert '"$ref"' not in sent and broken not in sent
    # the degraded tool runs with what is left of its schema (a: anything)
    args = {"a": {"any": "thing"}} if fmt is not None else {"a": "text"}
    assert offer.execute(coordinator, None, ToolUse(remote, args)) == ToolResult.ok("ran")
    assert offer.execute(coordinator, None, ToolUse(fine, {"q": "x"})) == ToolResult.ok("ran")
    assert ran(coordinator, "use_mcp_tool") == [args, {"q": "x"}]
    refused = offer.execute(coordinator, None, ToolUse(broken, {"a": "x"}))
    assert refused is not None and refused.is_error
    assert refused.content.startswith(
        f"Tool {broken} is not available in this request: toolgen left the tool 'broken' of the MCP server "
        f"'rx' out of this request ({left}). Use one of the offered tools: "
    )
    assert len(ran(coordinator, "use_mcp_tool")) == 2


# ---- Offers made from kept plans ------------------------------------------------------------


def _fresh(offer: Offer) -> dict[str, Any]:
    """What an Offer hands out, as JSON text (to compare Offers made from a plan and afresh)."""
    handed = {"tools": offer.tools(), "names": offer.names(), "skipped": offer.skipped, "degraded": offer.degraded}
    return json.loads(json.dumps(handed))


def test_an_offer_for_inputs_seen_before_hands_out_what_a_fresh_one_does() -> None:
    generated.catalog.CATALOG.offers.clear()
    first = Offer("native-next-gen", NATIVE, format="openai-chat", mcp_servers=SERVERS, subagents=SUBAGENTS)
    again = Offer("native-next-gen", NATIVE, format="openai-chat", mcp_servers=SERVERS, subagents=SUBAGENTS)
    assert again._plan is first._plan and _fresh(again) == _fresh(first)
    generated.catalog.CATALOG.offers.clear()
    generated.catalog.CATALOG.runtime_tools.clear()
    assert _fresh(Offer("native-next-gen", NATIVE, format="openai-chat", mcp_servers=SERVERS, subagents=SUBAGENTS)) == (
        _fresh(first)
    )


def test_what_one_offer_hands_out_is_its_own() -> None:
    first = Offer("native-next-gen", NATIVE, format="openai-chat", mcp_servers=SERVERS)
    before = _fresh(first)
    tools = first.tools()
    tools[0]["function"]["description"] = "changed"
    tools[-1]["function"]["parameters"]["properties"].clear()
    first.skipped.append({"name": "mine"})
    first.variants.clear()
    again = Offer("native-next-gen", NATIVE, format="openai-chat", mcp_servers=SERVERS)
    assert _fresh(again) == before and again.tools() is not again.tools()
    assert again.tools()[0] is again.tools()[0]  # one list per Offer, as before: entries stay put
    extra, _ = generated.catalog.CATALOG.dynamic_variants("native-next-gen", NATIVE, mcp_servers=SERVERS)
    extra[0]["input_schema"]["properties"].clear()  # a copy: the kept variants stay as made
    assert _fresh(Offer("native-next-gen", NATIVE, format="openai-chat", mcp_servers=SERVERS)) == before


def test_a_changed_server_list_is_a_new_plan(coordinator: generated.Coordinator) -> None:
    servers = json.loads(json.dumps(SERVERS))
    before = Offer("native-next-gen", NATIVE, format="openai-chat", mcp_servers=servers)
    name = before.names()[-1]
    servers[0]["tools"][0]["inputSchema"]["properties"]["days"]["maximum"] = 3  # changed in place
    after = Offer("native-next-gen", NATIVE, format="openai-chat", mcp_servers=servers)
    assert after._plan is not before._plan
    result = after.execute(coordinator, None, ToolUse(name, {"city": "Oslo", "days": 5}))
    assert result is not None and result.is_error and "days: must be at most 3" in result.content
    servers[0]["disabled"] = True
    assert name not in Offer("native-next-gen", NATIVE, format="openai-chat", mcp_servers=servers).names()
    servers[0]["disabled"] = 1  # equal to True, but not the same data: a plan of its own
    assert Offer("native-next-gen", NATIVE, format="openai-chat", mcp_servers=servers)._plan is not after._plan


def test_inputs_that_cannot_be_fingerprinted_are_not_kept() -> None:
    from types import MappingProxyType

    from generated._runtime.cache import fingerprint

    assert fingerprint([{"a": 1}]) == fingerprint([{"a": 1}])
    assert len({fingerprint(v) for v in ([1], [1.0], [True], (1,))}) == 4
    assert fingerprint([MappingProxyType({})]) is None
    servers = [MappingProxyType(dict(SERVERS[0]))]
    first = Offer("native-next-gen", NATIVE, format="openai-chat", mcp_servers=servers)
    again = Offer("native-next-gen", NATIVE, format="openai-chat", mcp_servers=servers)
    assert again._plan is not first._plan and again.names() == first.names()


def test_prepared_servers_give_the_plan_of_the_list_and_do_not_follow_it(
    coordinator: generated.Coordinator,
) -> None:
    from types import MappingProxyType

    servers = json.loads(json.dumps(SERVERS))
    prepared = generated.McpServers(servers)
    plain = Offer("native-next-gen", NATIVE, format="openai-chat", mcp_servers=servers)
    made = Offer("native-next-gen", NATIVE, format="openai-chat", mcp_servers=prepared)
    assert made._plan is plain._plan and _fresh(made) == _fresh(plain) and len(prepared) == 2
    name = made.names()[-1]
    servers[0]["tools"][0]["inputSchema"]["properties"]["days"]["maximum"] = 3  # after preparing
    later = Offer("native-next-gen", NATIVE, format="openai-chat", mcp_servers=prepared)
    assert later._plan is plain._plan  # the prepared copy is what it was
    assert later.execute(coordinator, None, ToolUse(name, {"city": "Oslo", "days": 5})) == ToolResult.ok("ran")
    changed = Offer("native-next-gen", NATIVE, format="openai-chat", mcp_servers=generated.McpServers(servers))
    assert changed._plan is Offer("native-next-gen", NATIVE, format="openai-chat", mcp_servers=servers)._plan
    assert changed._plan is not plain._plan
    assert later.refusal(mcp_name("t", "off")) == plain.refusal(mcp_name("t", "off"))
    with pytest.raises(AttributeError):
        prepared._servers = ()  # type: ignore[misc]
    odd = generated.McpServers([MappingProxyType(dict(SERVERS[0]))])  # not fingerprinted: never kept
    first = Offer("native-next-gen", NATIVE, format="openai-chat", mcp_servers=odd)
    again = Offer("native-next-gen", NATIVE, format="openai-chat", mcp_servers=odd)
    assert again._plan is not first._plan and again.names() == first.names()
