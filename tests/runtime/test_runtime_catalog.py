"""generator/runtime/catalog.py on a hand-made catalog: selection, requirements, text, routing."""

from __future__ import annotations

import pytest
from small_catalog import Ctx, make_catalog

from generator.runtime.context import ContextError

CATALOG = make_catalog()


@pytest.mark.parametrize(
    ("context", "family"),
    [
        ({"provider_id": "acme", "model_id": "big-1"}, "smart"),
        ({"provider_id": " ACME ", "model_id": "BIG-1"}, "smart"),  # ids are normalized
        ({"provider_id": "acme", "model_id": "small"}, "plain"),
        ({"provider_id": "acme"}, "plain"),  # a model test without a model does not hold
        ({}, "plain"),
        (None, "plain"),
    ],
)
def test_select_family(context, family) -> None:
    assert CATALOG.select_family(context) == family


def test_requirements_filter_tools_and_parameters() -> None:
    assert CATALOG.enabled_tools("plain", {}) == ("read", "use_subagents")
    assert CATALOG.enabled_tools("plain", Ctx(browser=True)) == ("read", "browse", "use_subagents")
    read = CATALOG.specs["plain/read"]
    assert [p["name"] for p in CATALOG.visible_parameters(read, {})] == ["path", "session"]
    names = [p["name"] for p in CATALOG.visible_parameters(read, {"browser": True}, ("read",))]
    assert names == ["path", "shot"]  # session depends on browse, which is not enabled


def test_unknown_family_names_the_known_ones() -> None:
    with pytest.raises(KeyError, match="unknown family 'nope'; known: plain, smart"):
        CATALOG.enabled_tools("nope", {})


def test_enum_members_are_family_names() -> None:
    from enum import StrEnum

    class Family(StrEnum):
        PLAIN = "plain"

    assert CATALOG.enabled_tools(Family.PLAIN, {}) == CATALOG.enabled_tools("plain", {})


def test_a_bad_context_mapping_is_reported_in_full() -> None:
    with pytest.raises(ContextError) as err:
        CATALOG.select_family({"cwd": 1, "retries": 2**60, "nope": True})
    assert err.value.problems == [
        "cwd: expected string, got integer",
        "retries: integer out of range (at most 9007199254740991 either side of 0)",
        "unknown key 'nope'",
    ]


def test_resolve_text_conditions_and_placeholders() -> None:
    description = CATALOG.specs["plain/read"]["description"]
    assert CATALOG.resolve_text(description, None) == "Read a file in {{CWD}}."
    assert CATALOG.resolve_text(description, {"browser": True}) == "Read a file in /work. Screenshots too."
    assert CATALOG.resolve_text(description, {}, placeholders=False) == "Read a file in {{CWD}}."
    # a mapped value reads as the map says; an unknown placeholder stays as written
    assert CATALOG.resolve_placeholders("{{RETRIES}} {{NOPE}}", {}) == "three {{NOPE}}"
    assert CATALOG.resolve_placeholders("{{RETRIES}}", {"retries": 5}) == "0"


def test_route_follows_rules_in_order() -> None:
    assert CATALOG.route("acme", "Claude-3") == "anthropic"
    assert CATALOG.route(" Acme", "other") == "gemini"
    assert CATALOG.route("acme") == "gemini"  # a failing model test tries the next rule
    assert CATALOG.route("other", "Claude") == "openai_chat"
    assert CATALOG.route(None) == "openai_chat"


def test_dynamic_tools_come_after_static_and_replace_use_subagents() -> None:
    find = {"name": "find", "description": "Find.", "inputSchema": {"type": "object"}}
    servers = [{"uid": "d1", "name": "docs", "tools": [find]}]
    agents = [{"name": "scout", "description": "Looks around."}, "not an object"]
    context = {"subagents_enabled": True}
    extra, skipped = CATALOG.dynamic_variants("plain", context, mcp_servers=servers, subagents=agents)
    assert [s["reason"] for s in skipped] == ["subagents: config is not an object"]
    names = [v["name"] for v in CATALOG.assemble("plain", context, extra)]
    assert names[0] == "read" and "use_subagents" not in names
    assert names[1].startswith("use_subagent_") and "__mcp__" in names[2]
    # subagents are off without the context switch
    assert CATALOG.dynamic_variants("plain", {}, subagents=agents[:1]) == ([], [])
