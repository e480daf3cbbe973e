"""handlers/ bound through the generated dispatch table (issue 7), end to end.

tests/test_web_handlers.py calls the handlers directly; here every call goes through
generated.dispatch.Coordinator built from the handlers package, and in the last tests from a
model reply read with generated.prompt.parse_calls (text path -> dispatch -> handler -> a real
local HTTP server). The recording server and the config helper are reused from that module.
"""

from __future__ import annotations

import json

import pytest

import handlers
import test_web_handlers
from generated import prompt
from generated._runtime.tool_types import ToolResult, ToolUse
from generated._runtime.xml_calls import StreamingParser
from generated.dispatch import HANDLERS, Coordinator, MissingHandlersError
from test_web_handlers import make_config

# the recording HTTP server fixture of the direct handler tests, used here under the same name
api = test_web_handlers.api


@pytest.fixture
def coordinator() -> Coordinator:
    return Coordinator.from_namespace(handlers, lenient=True)


def test_web_tools_route_to_the_bound_classes(coordinator):
    assert HANDLERS["web_fetch"]["class_name"] == "WebFetchToolHandler"
    assert HANDLERS["web_search"]["class_name"] == "WebSearchToolHandler"
    assert coordinator.names() == ("web_fetch", "web_search")
    fetch = coordinator.get_handler("web_fetch")
    search = coordinator.get_handler("web_search")
    assert type(fetch) is handlers.WebFetchToolHandler
    assert type(search) is handlers.WebSearchToolHandler
    assert coordinator.get_handler("web_fetch") is fetch  # one instance per tool


def test_web_fetch_through_the_coordinator(coordinator, api):
    api.reply(200, {"data": {"result": "The page lists three releases."}})
    config = make_config(api, task_id="task-77", extra_headers={"X-Client": "dispatch-test"})
    block = ToolUse("web_fetch", {"url": "https://example.com/releases", "prompt": "List the releases"})

    result = coordinator.execute(config, block)

    assert result == ToolResult.ok("The page lists three releases.")
    (req,) = api.requests
    assert (req.method, req.path) == ("POST", "/api/v1/search/webfetch")
    assert req.body == b'{"Url": "https://example.com/releases", "Prompt": "List the releases"}'
    assert req.headers["authorization"] == "Bearer tok-abc"
    assert req.headers["content-type"] == "application/json"
    assert req.headers["x-task-id"] == "task-77"
    assert req.headers["x-client"] == "dispatch-test"
    assert config.said == [("tool", "Fetching URL: https://example.com/releases", False)]


def test_web_search_through_the_coordinator(coordinator, api):
    api.reply(200, {"data": {"results": [{"title": "PEP 8", "url": "https://peps.python.org/pep-0008/"}]}})
    config = make_config(api)
    block = ToolUse("web_search", {"query": "python style guide", "allowed_domains": '["peps.python.org"]'})

    result = coordinator.execute(config, block)

    assert result == ToolResult.ok(
        "Search completed (1 results found):\n\n1. PEP 8\n   https://peps.python.org/pep-0008/\n\n"
    )
    (req,) = api.requests
    assert (req.method, req.path) == ("POST", "/api/v1/search/websearch")
    assert req.body == b'{"query": "python style guide", "allowed_domains": ["peps.python.org"]}'
    assert req.headers["authorization"] == "Bearer tok-abc"
    assert req.headers["x-task-id"] == "task-123"


def test_partial_block_previews_without_a_result(coordinator, api):
    config = make_config(api)
    block = ToolUse("web_search", {"query": "rust async", "allowed_domains": '["a.com", "b.'}, partial=True)
    assert coordinator.execute(config, block) is None
    assert config.said == [("tool", "Searching: rust async (allowed domains: a.com)", True)]
    assert api.requests == []


@pytest.mark.parametrize("name", ["read_file", "no_such_tool"])
def test_unknown_tool_name(coordinator, name):
    result = coordinator.execute(make_config(), ToolUse(name, {"path": "x"}))
    assert result == ToolResult.error(f"No handler registered for tool: {name}")


def test_strict_construction_reports_every_missing_class():
    with pytest.raises(MissingHandlersError) as info:
        Coordinator.from_namespace(handlers)
    expected: dict[str, list[str]] = {}
    for tool_id, binding in HANDLERS.items():
        if binding is not None and binding["class_name"] not in ("WebFetchToolHandler", "WebSearchToolHandler"):
            expected.setdefault(binding["class_name"], []).append(tool_id)
    assert info.value.missing == {name: tuple(ids) for name, ids in expected.items()}
    message = str(info.value)
    assert message.startswith(f"{len(expected)} handler class(es) missing")
    for name in expected:
        assert name in message
    assert "WebFetchToolHandler" not in message and "WebSearchToolHandler" not in message


REPLY = (
    "I'll read the changelog first.\n"
    "<web_fetch>\n<url>https://example.com/CHANGELOG.md</url>\n"
    "<prompt>Which version added <b>streaming</b>?</prompt>\n</web_fetch>\n"
    "Then I'll look for more."
)


def test_text_path_to_handler(coordinator, api):
    assert "web_fetch" in prompt.known_tools("next-gen")
    api.reply(200, {"data": {"result": "Version 2.1 added streaming."}})
    config = make_config(api)

    (block,) = prompt.parse_calls(REPLY, "next-gen")
    assert block == ToolUse(
        "web_fetch",
        {"url": "https://example.com/CHANGELOG.md", "prompt": "Which version added <b>streaming</b>?"},
        partial=False,
    )
    assert coordinator.execute(config, block) == ToolResult.ok("Version 2.1 added streaming.")
    (req,) = api.requests
    assert json.loads(req.body) == {
        "Url": "https://example.com/CHANGELOG.md",
        "Prompt": "Which version added <b>streaming</b>?",
    }


def test_streamed_reply_previews_then_runs_once(coordinator, api):
    api.reply(200, {"data": {"result": "done"}})
    config = make_config(api)
    parser = StreamingParser(prompt.known_tools("next-gen"))
    results = []
    for i in range(0, len(REPLY), 7):
        for block in parser.feed(REPLY[i : i + 7]):
            if block.partial:
                assert coordinator.execute(config, block) is None
            elif not results:
                results.append(coordinator.execute(config, block))
    assert results == [ToolResult.ok("done")]
    assert len(api.requests) == 1
    previews = [text for kind, text, partial in config.said if partial]
    url = "https://example.com/CHANGELOG.md"
    shown = [text.removeprefix("Fetching URL: ") for text in previews]
    assert shown and all(url.startswith(u) for u in shown)  # the URL so far, never a tag fragment
    assert shown == sorted(shown, key=len)
    assert config.said[-1] == ("tool", "Fetching URL: https://example.com/CHANGELOG.md", False)
