"""Tests for handlers/ (web_fetch, web_search) against a real local HTTP server."""

from __future__ import annotations

import json
import socket
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

# `generated/` is the pipeline's output at the repo root, not an installed package: pytest's
# `pythonpath = ["."]` (pyproject.toml) puts the root on sys.path however pytest is started.
from generated._runtime.tool_types import ToolResult, ToolUse
from handlers import (
    WebFetchToolHandler,
    WebSearchToolHandler,
    WebToolsConfig,
    WebToolsTaskConfig,
)
from handlers.web_search import format_search_results

DISABLED = "web tools are currently disabled"


# ---- a recording HTTP server ------------------------------------------------------------


@dataclass
class Recorded:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class FakeApi:
    url: str
    requests: list[Recorded] = field(default_factory=list)
    status: int = 200
    body: bytes = b"{}"
    delay: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)
    release: threading.Event = field(default_factory=threading.Event)

    def reply(
        self,
        status: int = 200,
        payload: Any = None,
        *,
        raw: bytes | None = None,
        delay: float = 0.0,
        headers: dict[str, str] | None = None,
    ) -> None:
        self.status = status
        self.body = raw if raw is not None else json.dumps(payload).encode()
        self.delay = delay
        self.headers = dict(headers or {})


def _make_handler(api: FakeApi) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            api.requests.append(
                Recorded(
                    "POST",
                    self.path,
                    {k.lower(): v for k, v in self.headers.items()},
                    body,
                )
            )
            if api.delay:
                api.release.wait(api.delay)
            try:
                self.send_response(api.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(api.body)))
                for name, value in api.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(api.body)
            except OSError:
                pass  # the client gave up (timeout test)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


@pytest.fixture
def api():
    holder: list[FakeApi] = []
    server = ThreadingHTTPServer(
        ("127.0.0.1", 0), lambda *a: _make_handler(holder[0])(*a)
    )
    server.daemon_threads = True
    server.handle_error = lambda request, client_address: None  # type: ignore[method-assign]
    fake = FakeApi(url=f"http://127.0.0.1:{server.server_address[1]}")
    holder.append(fake)
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    )
    thread.start()
    try:
        yield fake
    finally:
        fake.release.set()
        server.shutdown()
        server.server_close()
        thread.join(2)


def make_config(api: FakeApi | None = None, **overrides: Any) -> WebToolsTaskConfig:
    values: dict[str, Any] = {
        "api_base": api.url if api else "http://127.0.0.1:9",
        "task_id": "task-123",
        "auth_token": "tok-abc",
        "auto_approve": True,
        "trust_env": False,
        "request_timeout": 5.0,
    }
    values.update(overrides)
    return WebToolsTaskConfig(**values)


def fetch(**params: str) -> ToolUse:
    return ToolUse("web_fetch", params)


def search(**params: str) -> ToolUse:
    return ToolUse("web_search", params)


FETCH_OK = fetch(url="https://example.com/docs", prompt="Summarise the page")
SEARCH_OK = search(query="python httpx timeout")
BOTH_TOOLS = [(WebFetchToolHandler, FETCH_OK), (WebSearchToolHandler, SEARCH_OK)]
BOTH_TOOLS_WITH_PREFIX = [
    (WebFetchToolHandler, FETCH_OK, "Error fetching web content: "),
    (WebSearchToolHandler, SEARCH_OK, "Error performing web search: "),
]
#: One closed gate each; any one of them refuses the call.
GATES_OFF = [
    {"provider_id": "anthropic"},
    {"web_tools_enabled": False},
    {"web_tools_feature_flag": False},
]


# ---- success paths ----------------------------------------------------------------------


def test_config_satisfies_protocol():
    assert isinstance(make_config(), WebToolsConfig)
    assert WebFetchToolHandler().name == "web_fetch"
    assert WebSearchToolHandler().name == "web_search"


def test_fetch_success_exact_request_and_result(api):
    api.reply(200, {"data": {"result": "The page says hello."}})
    config = make_config(
        api, extra_headers={"X-Client": "toolgen-tests", "Authorization": "ignored"}
    )
    result = WebFetchToolHandler().execute(config, FETCH_OK)

    assert result == ToolResult.ok("The page says hello.")
    assert len(api.requests) == 1
    req = api.requests[0]
    assert (req.method, req.path) == ("POST", "/api/v1/search/webfetch")
    assert req.json() == {
        "Url": "https://example.com/docs",
        "Prompt": "Summarise the page",
    }
    assert req.headers["authorization"] == "Bearer tok-abc"
    assert req.headers["content-type"] == "application/json"
    assert req.headers["x-task-id"] == "task-123"
    assert req.headers["x-client"] == "toolgen-tests"
    # auto-approved: announced, not asked
    assert config.said == [("tool", "Fetching URL: https://example.com/docs", False)]
    assert config.asked == []


def test_search_success_formats_numbered_results(api):
    api.reply(
        200,
        {
            "data": {
                "results": [
                    {
                        "title": "HTTPX timeouts",
                        "url": "https://www.python-httpx.org/advanced/timeouts/",
                    },
                    {"title": "Stack Overflow", "url": "https://stackoverflow.com/q/1"},
                ]
            }
        },
    )
    config = make_config(api)
    result = WebSearchToolHandler().execute(config, SEARCH_OK)

    assert result == ToolResult.ok(
        "Search completed (2 results found):\n\n"
        "1. HTTPX timeouts\n   https://www.python-httpx.org/advanced/timeouts/\n\n"
        "2. Stack Overflow\n   https://stackoverflow.com/q/1\n\n"
    )
    req = api.requests[0]
    assert req.path == "/api/v1/search/websearch"
    assert req.json() == {"query": "python httpx timeout"}
    assert req.headers["authorization"] == "Bearer tok-abc"
    assert req.headers["x-task-id"] == "task-123"


def test_search_zero_results(api):
    api.reply(200, {"data": {"results": []}})
    result = WebSearchToolHandler().execute(make_config(api), SEARCH_OK)
    assert result == ToolResult.ok("Search completed (0 results found)")


def test_search_allowed_domains(api):
    api.reply(200, {"data": {"results": []}})
    block = search(
        query="q",
        allowed_domains='["docs.python.org", "peps.python.org"]',
        blocked_domains="[]",
    )
    result = WebSearchToolHandler().execute(make_config(api), block)
    assert not result.is_error
    assert api.requests[0].json() == {
        "query": "q",
        "allowed_domains": ["docs.python.org", "peps.python.org"],
    }


def test_search_blocked_domains(api):
    api.reply(200, {"data": {"results": []}})
    block = search(query="q", blocked_domains='["pinterest.com"]')
    result = WebSearchToolHandler().execute(make_config(api), block)
    assert not result.is_error
    assert api.requests[0].json() == {
        "query": "q",
        "blocked_domains": ["pinterest.com"],
    }


def test_approval_granted_by_user(api):
    api.reply(200, {"data": {"result": "ok"}})
    config = make_config(
        api, auto_approve=False, approval_callback=lambda tool, msg: True
    )
    assert WebFetchToolHandler().execute(config, FETCH_OK) == ToolResult.ok("ok")
    assert config.asked == [("web_fetch", "Fetching URL: https://example.com/docs")]


def test_proxy_setting_is_honoured(api):
    api.reply(200, {"data": {"result": "via proxy"}})
    config = make_config(api, api_base="http://cline-api.invalid", proxy=api.url)
    assert WebFetchToolHandler().execute(config, FETCH_OK) == ToolResult.ok("via proxy")
    assert api.requests[0].path == "http://cline-api.invalid/api/v1/search/webfetch"


def test_valid_call_resets_mistake_count(api):
    api.reply(200, {"data": {"result": "ok"}})
    config = make_config(api)
    config.task_state.consecutive_mistake_count = 2
    WebFetchToolHandler().execute(config, FETCH_OK)
    assert config.task_state.consecutive_mistake_count == 0


# ---- failures become tool errors --------------------------------------------------------


def test_fetch_401(api):
    api.reply(401, {"error": "invalid token"})
    result = WebFetchToolHandler().execute(make_config(api), FETCH_OK)
    assert result.is_error and not result.denied
    assert result.content.startswith("Error fetching web content: HTTP 401")
    assert "invalid token" in result.content


def test_search_500(api):
    api.reply(500, raw=b"upstream exploded")
    result = WebSearchToolHandler().execute(make_config(api), SEARCH_OK)
    assert result.is_error
    assert result.content.startswith("Error performing web search: HTTP 500")
    assert "upstream exploded" in result.content


def test_slow_response_times_out(api):
    api.reply(200, {"data": {"result": "too late"}}, delay=5.0)
    config = make_config(api, request_timeout=0.2)
    started = time.monotonic()
    result = WebFetchToolHandler().execute(config, FETCH_OK)
    assert time.monotonic() - started < 2.0
    assert result == ToolResult.error(
        "Error fetching web content: the request timed out after 0.2 seconds"
    )


@pytest.mark.parametrize("handler, block, prefix", BOTH_TOOLS_WITH_PREFIX)
def test_malformed_json(api, handler, block, prefix):
    api.reply(200, raw=b'{"data": {"result": ')
    result = handler().execute(make_config(api), block)
    assert result.is_error
    assert result.content.startswith(
        prefix + "the server returned a response that is not valid JSON"
    )


def test_missing_result_field(api):
    api.reply(200, {"data": {}})
    result = WebFetchToolHandler().execute(make_config(api), FETCH_OK)
    assert result == ToolResult.error(
        "Error fetching web content: the server response has no 'data.result' field"
    )


def test_closed_port():
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    config = make_config(api_base=f"http://127.0.0.1:{port}")
    result = WebSearchToolHandler().execute(config, SEARCH_OK)
    assert result.is_error
    assert result.content.startswith(
        f"Error performing web search: could not connect to http://127.0.0.1:{port}"
    )


def test_unexpected_exception_becomes_tool_error(api):
    def broken_hook(tool, params):
        raise RuntimeError("hook crashed")

    config = make_config(api, pre_tool_use_hook=broken_hook)
    result = WebFetchToolHandler().execute(config, FETCH_OK)
    assert result == ToolResult.error(
        "Error fetching web content: unexpected error: hook crashed"
    )
    assert api.requests == []


# ---- gates, validation, approval, hook, auth -------------------------------------------


@pytest.mark.parametrize("gate", GATES_OFF)
@pytest.mark.parametrize("handler, block", BOTH_TOOLS)
def test_gate_off(api, gate, handler, block):
    config = make_config(api, **gate)
    config.task_state.consecutive_mistake_count = 2
    result = handler().execute(config, block)
    assert result.is_error and DISABLED in result.content
    assert config.task_state.consecutive_mistake_count == 2
    assert api.requests == [] and config.said == []


@pytest.mark.parametrize(
    "handler, block, missing",
    [
        (WebFetchToolHandler, fetch(prompt="p"), "url"),
        (WebFetchToolHandler, fetch(url="https://example.com", prompt="  "), "prompt"),
        (WebSearchToolHandler, search(allowed_domains='["a.com"]'), "query"),
    ],
)
def test_missing_params(api, handler, block, missing):
    config = make_config(api)
    config.task_state.consecutive_mistake_count = 1
    result = handler().execute(config, block)
    assert result.is_error
    assert f"'{missing}'" in result.content
    assert config.task_state.consecutive_mistake_count == 2
    assert api.requests == []


def test_search_both_domain_lists(api):
    config = make_config(api)
    block = search(query="q", allowed_domains='["a.com"]', blocked_domains='["b.com"]')
    result = WebSearchToolHandler().execute(config, block)
    assert result.is_error and "not both" in result.content
    assert config.task_state.consecutive_mistake_count == 1
    assert api.requests == []


def test_search_domains_not_an_array(api):
    config = make_config(api)
    result = WebSearchToolHandler().execute(
        config, search(query="q", allowed_domains="a.com, b.com")
    )
    assert result.is_error and "JSON array" in result.content
    assert config.task_state.consecutive_mistake_count == 1
    assert api.requests == []


def test_user_denies(api):
    config = make_config(
        api, auto_approve=False, approval_callback=lambda tool, msg: False
    )
    result = WebSearchToolHandler().execute(config, SEARCH_OK)
    assert result.denied and not result.is_error
    assert config.asked == [("web_search", "Searching: python httpx timeout")]
    assert api.requests == []


def test_hook_cancels(api):
    seen: list[tuple[str, dict]] = []

    def hook(tool, params):
        seen.append((tool, dict(params)))
        return False

    config = make_config(api, pre_tool_use_hook=hook)
    result = WebFetchToolHandler().execute(config, FETCH_OK)
    assert result.denied
    assert "hook" in result.content
    assert seen == [
        (
            "web_fetch",
            {"url": "https://example.com/docs", "prompt": "Summarise the page"},
        )
    ]
    assert api.requests == []


@pytest.mark.parametrize("token", [None, ""])
@pytest.mark.parametrize("handler, block, prefix", BOTH_TOOLS_WITH_PREFIX)
def test_missing_token(api, handler, block, prefix, token):
    # The seed throws the sign-in message inside its try, so its catch adds the prefix.
    config = make_config(api, auth_token=token)
    result = handler().execute(config, block)
    assert result.is_error and not result.denied
    assert result.content.startswith(prefix + "You must be signed in to your Cline account")
    assert "401" not in result.content
    assert api.requests == []


# ---- deliberate differences from the seed (docs/providers.md, "Web tool handlers") -----


@pytest.mark.parametrize("provider", ["Cline", "CLINE", " cline", "cline ", ""])
@pytest.mark.parametrize("handler, block", BOTH_TOOLS)
def test_provider_gate_compares_exactly(api, handler, block, provider):
    config = make_config(api, provider_id=provider)
    result = handler().execute(config, block)
    assert result.is_error and DISABLED in result.content
    assert repr(provider or "unset") in result.content
    assert api.requests == []


@pytest.mark.parametrize(
    "params",
    [
        {"allowed_domains": '["a.com"]', "blocked_domains": '["b.com"]'},
        {"allowed_domains": "a.com, b.com"},
        {"blocked_domains": "b.com"},
    ],
)
def test_domain_mistake_extends_the_streak(api, params):
    # The seed resets the counter once the query is present, so its count is 1 afterwards;
    # here a domain mistake counts like any other and the streak goes on.
    config = make_config(api)
    config.task_state.consecutive_mistake_count = 2
    result = WebSearchToolHandler().execute(config, search(query="q", **params))
    assert result.is_error
    assert config.task_state.consecutive_mistake_count == 3
    assert api.requests == [] and config.said == []


def test_domains_not_an_array_are_refused_not_dropped(api):
    # The seed's parser turns such text into an empty list and searches unfiltered.
    api.reply(200, {"data": {"results": []}})
    config = make_config(api)
    result = WebSearchToolHandler().execute(
        config, search(query="q", blocked_domains="pinterest.com")
    )
    assert result == ToolResult.error(
        "Invalid value for parameter 'blocked_domains': expected a JSON array of domain "
        "strings, e.g. [\"example.com\"], got 'pinterest.com'."
    )
    assert api.requests == []


@pytest.mark.parametrize("gate", GATES_OFF)
@pytest.mark.parametrize(
    "handler, block",
    [
        (WebFetchToolHandler, ToolUse("web_fetch", {"url": "https://ex"}, partial=True)),
        (WebSearchToolHandler, ToolUse("web_search", {"query": "q"}, partial=True)),
    ],
)
def test_no_preview_while_gated_off(gate, handler, block):
    # The seed streams the preview even for a call it will refuse.
    config = make_config(**gate)
    assert handler().handle_partial_block(config, block) is None
    assert config.said == [] and config.asked == []


@pytest.mark.parametrize("status", [201, 202, 203])
def test_non_200_success_status_is_an_error(api, status):
    # The seed (axios) takes any 2xx as success; only 200 is one here.
    api.reply(status, {"data": {"result": "looks fine"}})
    result = WebFetchToolHandler().execute(make_config(api), FETCH_OK)
    assert result.is_error
    assert result.content.startswith(f"Error fetching web content: HTTP {status} ")
    assert len(api.requests) == 1


@pytest.mark.parametrize("status", [301, 302, 307, 308])
def test_redirect_is_reported_not_followed(api, status):
    target = api.url + "/elsewhere"
    api.reply(status, {"data": {"results": []}}, headers={"Location": target})
    result = WebSearchToolHandler().execute(make_config(api), SEARCH_OK)
    assert result.is_error
    assert result.content.startswith(f"Error performing web search: HTTP {status} ")
    assert f"redirects to {target}, which is not followed; check api_base" in result.content
    assert [r.path for r in api.requests] == ["/api/v1/search/websearch"]


@pytest.mark.parametrize(
    "handler, block, missing",
    [
        (WebFetchToolHandler, fetch(url=" \t\n", prompt="p"), "url"),
        (WebFetchToolHandler, fetch(url="https://example.com", prompt="\n"), "prompt"),
        (WebSearchToolHandler, search(query="   "), "query"),
    ],
)
def test_whitespace_only_value_counts_as_missing(api, handler, block, missing):
    # The seed rejects only an absent or empty value and would send the blanks.
    config = make_config(api)
    result = handler().execute(config, block)
    assert result.is_error and f"'{missing}'" in result.content
    assert config.task_state.consecutive_mistake_count == 1
    assert api.requests == []


def test_values_are_sent_without_surrounding_whitespace(api):
    api.reply(200, {"data": {"result": "ok"}})
    block = fetch(url="  https://example.com/docs\n", prompt=" Summarise ")
    assert WebFetchToolHandler().execute(make_config(api), block) == ToolResult.ok("ok")
    assert api.requests[0].json() == {
        "Url": "https://example.com/docs",
        "Prompt": "Summarise",
    }


# ---- partial blocks ---------------------------------------------------------------------


def test_partial_search_with_cut_off_domain_array(api):
    config = make_config(api, auto_approve=False)
    block = ToolUse(
        "web_search",
        {"query": "rust async", "allowed_domains": '["a.com", "b.c'},
        partial=True,
    )
    assert WebSearchToolHandler().handle_partial_block(config, block) is None
    assert config.said == [
        ("tool", "Searching: rust async (allowed domains: a.com)", True)
    ]
    assert config.asked == [] and api.requests == []


def test_partial_fetch_preview(api):
    config = make_config(api)
    block = ToolUse("web_fetch", {"url": "https://exa"}, partial=True)
    assert WebFetchToolHandler().handle_partial_block(config, block) is None
    assert config.said == [("tool", "Fetching URL: https://exa", True)]
    assert api.requests == []


def test_partial_preview_never_raises():
    def broken_say(kind, text, partial):
        raise RuntimeError("ui gone")

    block = ToolUse("web_search", {"query": "q"}, partial=True)
    config = make_config(say_callback=broken_say)
    assert WebSearchToolHandler().handle_partial_block(config, block) is None
    assert config.said == [("tool", "Searching: q", True)]


def test_format_search_results_skips_non_objects():
    assert format_search_results(["junk", {"url": "https://x"}]) == (
        "Search completed (1 results found):\n\n1. (untitled)\n   https://x\n\n"
    )
