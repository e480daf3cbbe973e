"""The whole loop through the real provider SDKs, against a loopback server (issue 13, "Proof").

Each SDK client talks to a stdlib HTTP server on 127.0.0.1 that records every request body and
answers with canned replies in that provider's wire format. One loop:

1. build the request with the generated package (``native_tools`` or ``prompt_section``);
2. read the calls from the SDK's response object (``read_calls`` or ``parse_calls``);
3. and 4. refuse what was not offered, validate and dispatch through the ``Offer`` (:func:`run_call`);
5. build the answer (``result_messages``, or text on the text path);
6. send it with the SDK, and check what the server received: every result paired with its call,
   in call order.

It runs for the bundled catalog and for the small user spec set in tests/data/e2e/specs.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, HTTPServer
from types import ModuleType
from typing import Any

import pytest

from conftest import FRESH_BUNDLED_OUT, ROOT, copy_specs, import_package, submodule
from generator.runtime.schema_common import MAX_NESTING
from replies_data import FORMATS, reply

E2E_SPECS = ROOT / "tests" / "data" / "e2e" / "specs"
TIMEOUT = 5.0  # seconds; bounds every client call and server read, never asserted on

# ---- the loopback server ------------------------------------------------------------------


@dataclass
class Recorded:
    """One request the server received."""

    path: str
    body: dict[str, Any]


@dataclass
class Loopback:
    """A one-thread HTTP server on 127.0.0.1: records requests, answers from ``replies`` in order."""

    server: HTTPServer
    requests: list[Recorded] = field(default_factory=list)
    replies: list[dict[str, Any]] = field(default_factory=list)

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"


def _handler_for(state: Loopback) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        timeout = TIMEOUT

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            state.requests.append(Recorded(self.path, json.loads(self.rfile.read(length) or b"{}")))
            if state.replies:
                status, payload = 200, json.dumps(state.replies.pop(0)).encode()
            else:
                status, payload = 500, b'{"error": {"message": "no canned reply left"}}'
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
            pass

    return Handler


@pytest.fixture
def loopback() -> Iterator[Loopback]:
    state = Loopback(HTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler))
    state.server.RequestHandlerClass = _handler_for(state)
    thread = threading.Thread(target=state.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        state.server.shutdown()
        state.server.server_close()
        thread.join(TIMEOUT)


# ---- the SDK clients, one driver per format ------------------------------------------------


@pytest.fixture(autouse=True)
def _no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Loopback only: no proxy from the environment may take the SDKs' requests elsewhere."""
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.lower(), raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")


@dataclass(frozen=True)
class Driver:
    """How one SDK sends a request and how a conversation continues in its format."""

    send: Callable[[str, list[Any], str, list[Any]], Any]
    """(server url, tools, system text, history) -> the SDK's response object."""
    first: Callable[[str], list[Any]]
    """The history of a new conversation with this user text."""
    assistant: Callable[[Any], list[Any]]
    """The response's assistant turn, as history entries."""
    text: Callable[[Any], str]
    """The text of the response."""
    user_text: Callable[[list[str]], list[Any]]
    """A user turn of these text blocks."""


def _anthropic(url: str, tools: list[Any], system: str, history: list[Any]) -> Any:
    import anthropic

    client = anthropic.Anthropic(api_key="test", base_url=url, max_retries=0, timeout=TIMEOUT)
    extra = {"tools": tools} if tools else {}
    return client.messages.create(model="claude-e2e", max_tokens=256, system=system, messages=history, **extra)


def _openai(url: str) -> Any:
    import openai

    return openai.OpenAI(api_key="test", base_url=f"{url}/v1", max_retries=0, timeout=TIMEOUT)


def _openai_chat(url: str, tools: list[Any], system: str, history: list[Any]) -> Any:
    extra = {"tools": tools} if tools else {}
    messages = [{"role": "system", "content": system}, *history]
    return _openai(url).chat.completions.create(model="gpt-4.1", messages=messages, **extra)


def _openai_responses(url: str, tools: list[Any], system: str, history: list[Any]) -> Any:
    extra = {"tools": tools} if tools else {}
    return _openai(url).responses.create(model="gpt-4.1", instructions=system, input=history, **extra)


def _gemini(url: str, tools: list[Any], system: str, history: list[Any]) -> Any:
    from google import genai
    from google.genai import types

    options = types.HttpOptions(base_url=f"{url}/", timeout=int(TIMEOUT * 1000))
    client = genai.Client(api_key="test", http_options=options)
    config: dict[str, Any] = {"system_instruction": system}
    if tools:
        config["tools"] = [{"function_declarations": tools}]
    return client.models.generate_content(model="gemini-2.5-pro", contents=history, config=config)


def _bedrock(url: str, tools: list[Any], system: str, history: list[Any]) -> Any:
    import botocore.session
    from botocore.config import Config

    client = botocore.session.get_session().create_client(
        "bedrock-runtime",
        region_name="us-east-1",
        endpoint_url=url,
        aws_access_key_id="test",
        aws_secret_access_key="test",
        config=Config(retries={"max_attempts": 1}, connect_timeout=TIMEOUT, read_timeout=TIMEOUT, proxies={}),
    )
    extra = {"toolConfig": {"tools": tools}} if tools else {}
    return client.converse(modelId="anthropic.claude-sonnet-4-5", system=[{"text": system}], messages=history, **extra)


def _blocks(kind: str) -> Callable[[list[str]], list[Any]]:
    return lambda texts: [{"role": "user", "content": [{"type": kind, "text": t} for t in texts]}]


DRIVERS: dict[str, Driver] = {
    "anthropic": Driver(
        _anthropic,
        lambda text: [{"role": "user", "content": text}],
        lambda msg: [{"role": "assistant", "content": msg.content}],
        lambda msg: "".join(b.text for b in msg.content if b.type == "text"),
        _blocks("text"),
    ),
    "openai-chat": Driver(
        _openai_chat,
        lambda text: [{"role": "user", "content": text}],
        lambda completion: [completion.choices[0].message],
        lambda completion: completion.choices[0].message.content or "",
        _blocks("text"),
    ),
    "openai-responses": Driver(
        _openai_responses,
        lambda text: [{"role": "user", "content": text}],
        lambda resp: list(resp.output),
        lambda resp: resp.output_text,
        _blocks("input_text"),
    ),
    "gemini": Driver(
        _gemini,
        lambda text: [{"role": "user", "parts": [{"text": text}]}],
        lambda reply: [reply.candidates[0].content],
        lambda reply: reply.text or "",
        lambda texts: [{"role": "user", "parts": [{"text": t} for t in texts]}],
    ),
    "bedrock-converse": Driver(
        _bedrock,
        lambda text: [{"role": "user", "content": [{"text": text}]}],
        lambda out: [out["output"]["message"]],
        lambda out: "".join(b.get("text", "") for b in out["output"]["message"]["content"]),
        lambda texts: [{"role": "user", "content": [{"text": t} for t in texts]}],
    ),
}

# ---- what the server received: the results of the second request, per format --------------


def received_results(fmt: str, body: dict[str, Any]) -> list[tuple[str, str, bool | None]]:
    """(call id, content, is_error) of every tool result in a request body, in order; is_error
    is None where the format has no error flag (OpenAI: the content is the error text)."""
    if fmt == "anthropic":
        last = body["messages"][-1]
        return [(b["tool_use_id"], b["content"], b["is_error"]) for b in last["content"]]
    if fmt == "openai-chat":
        tool = [m for m in body["messages"] if m["role"] == "tool"]
        return [(m["tool_call_id"], m["content"], None) for m in tool]
    if fmt == "openai-responses":
        outs = [i for i in body["input"] if i.get("type") == "function_call_output"]
        return [(i["call_id"], i["output"], None) for i in outs]
    if fmt == "gemini":
        parts = [p["functionResponse"] for p in body["contents"][-1]["parts"]]
        return [(p["id"], *_gemini_outcome(p["response"])) for p in parts]
    parts = [b["toolResult"] for b in body["messages"][-1]["content"]]
    return [(b["toolUseId"], b["content"][0]["text"], b["status"] == "error") for b in parts]


def _gemini_outcome(response: dict[str, Any]) -> tuple[str, bool]:
    return (response["error"], True) if "error" in response else (response["output"], False)


def received_calls(fmt: str, body: dict[str, Any]) -> list[str]:
    """The call ids of the assistant turn the SDK sent back in the second request, in order."""
    if fmt == "anthropic":
        return [b["id"] for b in body["messages"][-2]["content"] if b["type"] == "tool_use"]
    if fmt == "openai-chat":
        assistant = [m for m in body["messages"] if m["role"] == "assistant"][-1]
        return [c["id"] for c in assistant["tool_calls"]]
    if fmt == "openai-responses":
        return [i["call_id"] for i in body["input"] if i.get("type") == "function_call"]
    if fmt == "gemini":
        return [p["functionCall"]["id"] for p in body["contents"][-2]["parts"] if "functionCall" in p]
    return [b["toolUse"]["toolUseId"] for b in body["messages"][-2]["content"] if "toolUse" in b]


# ---- handlers, the offered request, and the dispatch plug-in point -------------------------


def fake_handlers(package: ModuleType, calls: list[tuple[str, dict[str, Any]]]) -> dict[str, type]:
    """A handler class for every binding of ``package``; each records its calls in ``calls``."""

    class Recording:
        def __init__(self, validator: Any = None) -> None:
            self.validator = validator

        def execute(self, config: Any, block: Any) -> Any:
            calls.append((block.name, dict(block.params)))
            return package.ToolResult.ok(f"{block.name} ran with {json.dumps(block.params, sort_keys=True)}")

    names = {b["class_name"] for b in submodule(package, "bindings").HANDLERS.values() if b is not None}
    return {name: type(name, (Recording,), {}) for name in sorted(names)}


@dataclass
class Loop:
    """What one request offered (``Offer`` of family, context and format; None: the text path)
    and the coordinator answering it."""

    package: ModuleType
    family: str
    context: Any
    fmt: str | None
    handler_calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    coordinator: Any = None
    offer: Any = None

    def __post_init__(self) -> None:
        namespace = fake_handlers(self.package, self.handler_calls)
        self.coordinator = self.package.Coordinator.from_namespace(namespace)
        self.offer = self.package.Offer(self.family, self.context, format=self.fmt)


def run_call(loop: Loop, use: Any) -> Any:
    """Steps 3 and 4: refuse what was not offered, validate and type the arguments against the
    schema that was sent, then dispatch; the one place every test below answers a call."""
    result = loop.offer.execute(loop.coordinator, None, use)
    assert result is not None, "a complete call always gets a result"
    return result


def expected_text(name: str, params: dict[str, Any]) -> str:
    return f"{name} ran with {json.dumps(params, sort_keys=True)}"


# ---- the spec sets ------------------------------------------------------------------------


@dataclass(frozen=True)
class SpecSet:
    """A generated package, a native and a text context for it, and canned calls of its tools."""

    package: ModuleType
    native: Any
    text: Any
    calls: list[tuple[str, str, dict[str, Any]]]
    xml: str


BUNDLED_CALLS = [
    ("toolu_1", "read_file", {"path": "src/app.ts"}),
    ("toolu_2", "search_files", {"path": ".", "regex": 'a"b\\c', "file_pattern": "*.py"}),
    ("toolu_3", "list_files", {"path": "src", "recursive": True}),
]
USER_CALLS = [
    ("call_w1", "get_weather", {"city": "Lyon", "units": "metric", "days": 3}),
    ("call_w2", "get_weather", {"city": "Oslo"}),
    ("call_s", "search_docs", {"query": "rate limits <&> quotas", "limit": 5}),
]


def _spec_set(package: ModuleType, models: tuple[str, str], calls: list[Any], xml: str) -> SpecSet:
    """Native context: Anthropic with native tools on; text context: an OpenAI model without."""
    native = package.Context(provider_id="anthropic", model_id=models[0], enable_native_tool_calls=True)
    return SpecSet(package, native, package.Context(provider_id="openai", model_id=models[1]), calls, xml)


@pytest.fixture(scope="module")
def bundled() -> SpecSet:
    xml = (
        "I will look first.\n<read_file>\n<path>src/app.ts</path>\n</read_file>\n"
        "<list_files>\n<path>src</path>\n</list_files>"
    )
    return _spec_set(import_package(FRESH_BUNDLED_OUT), ("claude-sonnet-4-5", "gpt-4.1"), BUNDLED_CALLS, xml)


@pytest.fixture(scope="module")
def user_specs(tmp_path_factory: pytest.TempPathFactory) -> SpecSet:
    from generator import pipeline, write

    base = tmp_path_factory.mktemp("e2e-user")
    result = pipeline.run(copy_specs(E2E_SPECS, base))
    assert not result.diagnostics.has_errors, result.diagnostics.render()
    out = base / "generated"
    write.write(out, result.files, write.plan(out, result.files))
    xml = (
        "<get_weather>\n<city>Lyon</city>\n<days>3</days>\n</get_weather>\n"
        "<search_docs>\n<query>rate limits</query>\n</search_docs>"
    )
    return _spec_set(import_package(out), ("m", "m"), USER_CALLS, xml)


@pytest.fixture(params=["bundled", "user_specs"])
def spec_set(request: pytest.FixtureRequest) -> SpecSet:
    chosen: SpecSet = request.getfixturevalue(request.param)
    return chosen


# ---- the tests ----------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
def test_native_loop(fmt: str, spec_set: SpecSet, loopback: Loopback) -> None:
    pkg, driver = spec_set.package, DRIVERS[fmt]
    family = pkg.select_family(spec_set.native)
    loop = Loop(pkg, family, spec_set.native, fmt)
    tools = pkg.native_tools(family, spec_set.native, format=fmt)  # 1
    assert loop.offer.tools() == tools
    loopback.replies += [reply(fmt, spec_set.calls), reply(fmt, [], text="Done.")]
    history = driver.first("Go.")

    response = driver.send(loopback.url, tools, "system", history)
    uses = pkg.read_calls(response, fmt)  # 2
    answers = [(use, run_call(loop, use)) for use in uses]  # 3, 4
    history += [*driver.assistant(response), *pkg.result_messages(answers, fmt)]  # 5
    final = driver.send(loopback.url, tools, "system", history)  # 6

    assert driver.text(final) == "Done."
    assert loop.handler_calls == [(name, args) for _, name, args in spec_set.calls]
    first, second = (r.body for r in loopback.requests)
    assert len(loopback.requests) == 2
    assert sent_tools(fmt, first) == tools, "the SDK sent the generated tools unchanged"
    ids = [call_id for call_id, _, _ in spec_set.calls]
    assert received_calls(fmt, second) == ids
    flag = None if fmt.startswith("openai") else False
    assert received_results(fmt, second) == [(i, expected_text(n, a), flag) for i, n, a in spec_set.calls]


def sent_tools(fmt: str, body: dict[str, Any]) -> list[Any]:
    """The tools list of a request body, where the format puts it."""
    if fmt == "gemini":
        return list(body["tools"][0]["functionDeclarations"])
    return list(body["toolConfig"]["tools"] if fmt == "bedrock-converse" else body["tools"])


TEXT_FIRST_CALLS = [("read_file", {"path": "src/app.ts"}), ("get_weather", {"city": "Lyon", "days": 3})]


def strings(node: Any) -> list[str]:
    """Every string value in a JSON body, in document order."""
    if isinstance(node, str):
        return [node]
    values = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
    return [s for value in values for s in strings(value)]


def text_result(use: Any, result: Any) -> str:
    """The package's text-path result (label, header line, output)."""
    from generated import text_result as build

    return str(build(use, result))


@pytest.mark.parametrize("fmt", FORMATS)
def test_text_loop(fmt: str, spec_set: SpecSet, loopback: Loopback) -> None:
    pkg, driver = spec_set.package, DRIVERS[fmt]
    family = pkg.select_family(spec_set.text)
    loop = Loop(pkg, family, spec_set.text, None)
    system = pkg.prompt_section(family, spec_set.text)  # 1
    assert loop.offer.prompt_section() == system
    loopback.replies += [reply(fmt, [], text=spec_set.xml), reply(fmt, [], text="Done.")]
    history = driver.first("Go.")

    response = driver.send(loopback.url, [], system, history)
    uses = loop.offer.parse_calls(driver.text(response))  # 2
    texts = [text_result(use, run_call(loop, use)) for use in uses]  # 3, 4, 5
    history += [*driver.assistant(response), *driver.user_text(texts)]
    driver.send(loopback.url, [], system, history)  # 6

    assert system and system in strings(loopback.requests[0].body)
    assert [name for name, _ in loop.handler_calls] == [u.name for u in uses] and len(uses) == 2
    assert loop.handler_calls[0] in TEXT_FIRST_CALLS, "the handler gets typed values (days 3, not '3')"
    sent = strings(loopback.requests[1].body)
    assert [s for s in sent if s in texts] == texts, "every result, in call order"
    assert all(t.startswith(f"[{u.name}] returned:\n{u.name} ran with") for u, t in zip(uses, texts, strict=True))


def test_gemini_without_call_ids(user_specs: SpecSet, loopback: Loopback) -> None:
    """Older Gemini replies carry no call ids: the results go back without ids, paired by name
    and order (the second get_weather answers the second call)."""
    pkg, fmt, driver = user_specs.package, "gemini", DRIVERS["gemini"]
    loop = Loop(pkg, pkg.select_family(user_specs.native), user_specs.native, fmt)
    calls = [(None, name, args) for _, name, args in user_specs.calls]
    loopback.replies += [reply(fmt, calls), reply(fmt, [], text="Done.")]
    history = driver.first("Go.")
    response = driver.send(loopback.url, [], "system", history)
    answers = [(use, run_call(loop, use)) for use in pkg.read_calls(response, fmt)]
    driver.send(loopback.url, [], "system", [*history, *driver.assistant(response), *pkg.result_messages(answers, fmt)])

    parts = [p["functionResponse"] for p in loopback.requests[1].body["contents"][-1]["parts"]]
    assert [(p["name"], p["response"]["output"]) for p in parts] == [(n, expected_text(n, a)) for _, n, a in calls]
    assert all("id" not in p for p in parts)


# ---- bad replies --------------------------------------------------------------------------

HUGE = "x" * 10_000_000


def _bad_arguments(fmt: str) -> Any:
    """Arguments that cannot be read: broken JSON text where the wire carries text (OpenAI);
    elsewhere the SDKs take only objects, so an object nested past the one nesting limit."""
    if fmt.startswith("openai"):
        return '{"path": "a'
    deep: Any = "x"
    for _ in range(MAX_NESTING + 5):
        deep = {"k": deep}
    return {"path": deep}


def bad_calls(fmt: str, first: str) -> list[tuple[str, str, Any]]:
    return [
        ("bad_json", first, _bad_arguments(fmt)),
        ("unknown", "no_such_tool", {}),
        ("dup", first, {"path": "a"}),
        ("dup", first, {"path": "b"}),
        ("huge", first, {"path": HUGE}),
        ("off", "web_fetch", {"url": "https://example.com"}),  # a tool this context turns off
        ("types", first, {"path": 5}),
    ]


@pytest.mark.parametrize("fmt", FORMATS)
def test_bad_replies(fmt: str, bundled: SpecSet, loopback: Loopback) -> None:
    pkg, driver = bundled.package, DRIVERS[fmt]
    loop = Loop(pkg, pkg.select_family(bundled.native), bundled.native, fmt)
    calls = bad_calls(fmt, "read_file")
    loopback.replies += [reply(fmt, calls), reply(fmt, [], text="ok")]
    history = driver.first("Go.")

    response = driver.send(loopback.url, [], "system", history)
    uses = pkg.read_calls(response, fmt)
    answers = [(use, run_call(loop, use)) for use in uses]
    history += [*driver.assistant(response), *pkg.result_messages(answers, fmt)]
    driver.send(loopback.url, [], "system", history)

    assert [u.id for u in uses] == [c[0] for c in calls]
    assert loop.handler_calls == [("read_file", {"path": "a"})], "only the first of the duplicates runs"
    assert [r.is_error for _, r in answers] == [True, True, False, True, True, True, True]
    flags = [r.is_error if not fmt.startswith("openai") else None for _, r in answers]
    sent = [(u.id, r.content, flag) for (u, r), flag in zip(answers, flags, strict=True)]
    assert received_results(fmt, loopback.requests[1].body) == sent, "each error paired with its call"
    assert "no_such_tool" in answers[1][1].content and "web_fetch" in answers[5][1].content
    assert "path" in answers[6][1].content, "the problem is named by parameter"
    assert all(len(r.content) < 2_000 for _, r in answers), "an error never echoes the huge argument"


# ---- refused calls: not offered, or wrong arguments ---------------------------------------


@pytest.mark.parametrize(
    ("spec_set_name", "call"),
    [
        ("bundled", ("d1", "web_fetch", {"url": "https://example.com"})),  # not enabled in this context
        ("user_specs", ("w1", "get_weather", {"city": "Lyon", "units": "kelvin", "days": 99})),
        ("user_specs", ("w2", "get_weather", {"units": "metric"})),  # no city
    ],
)
def test_refused_calls(
    spec_set_name: str, call: tuple[str, str, dict[str, Any]], request: pytest.FixtureRequest, loopback: Loopback
) -> None:
    """A disabled tool and wrong arguments get an error result paired with the call, and no handler runs."""
    spec_set: SpecSet = request.getfixturevalue(spec_set_name)
    pkg, fmt = spec_set.package, "anthropic"
    loop = Loop(pkg, pkg.select_family(spec_set.native), spec_set.native, fmt)
    loopback.replies += [reply(fmt, [call])]
    (use,) = pkg.read_calls(DRIVERS[fmt].send(loopback.url, [], "system", DRIVERS[fmt].first("Go.")), fmt)
    result = run_call(loop, use)
    assert loop.handler_calls == [] and result.is_error and use.id == call[0]


# ---- the README's loops, run as written ------------------------------------------------------

README = ROOT / "README.md"
FENCE = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def readme_block(first_line: str) -> str:
    """The README's python block that starts with ``first_line`` (a prefix of its first line)."""
    found = [b for b in FENCE.findall(README.read_text("utf-8")) if b.startswith(first_line)]
    assert len(found) == 1, f"README.md has {len(found)} python blocks starting {first_line!r}"
    return found[0]


SETUP = "from generated import Context, Coordinator, Offer, select_family\n"
README_BLOCKS = {
    "anthropic": "# Anthropic:",
    "openai-chat": "# OpenAI Chat:",
    "openai-responses": "# OpenAI Responses:",
    "gemini": "# Gemini (google-genai):",
    "bedrock-converse": "# Bedrock Converse",
}


def first_turn(fmt: str) -> dict[str, Any]:
    """The README names for the SDK's conversation, each holding the first user turn."""
    history = DRIVERS[fmt].first("Go.")
    name = {"openai-responses": "items", "gemini": "contents"}.get(fmt, "messages")
    return {name: history}


def sdk_client(fmt: str, url: str) -> dict[str, Any]:
    """The README's client name bound to the format's SDK client, talking to ``url``."""
    if fmt == "anthropic":
        import anthropic

        return {"client": anthropic.Anthropic(api_key="test", base_url=url, max_retries=0, timeout=TIMEOUT)}
    if fmt.startswith("openai"):
        return {"client": _openai(url)}
    if fmt == "gemini":
        from google import genai
        from google.genai import types

        options = types.HttpOptions(base_url=f"{url}/", timeout=int(TIMEOUT * 1000))
        return {"client": genai.Client(api_key="test", http_options=options)}
    import botocore.session
    from botocore.config import Config

    bedrock = botocore.session.get_session().create_client(
        "bedrock-runtime",
        region_name="us-east-1",
        endpoint_url=url,
        aws_access_key_id="test",
        aws_secret_access_key="test",
        config=Config(retries={"max_attempts": 1}, connect_timeout=TIMEOUT, read_timeout=TIMEOUT, proxies={}),
    )
    return {"bedrock": bedrock}


def stopped_at_limit(fmt: str, response: dict[str, Any]) -> dict[str, Any]:
    """``response`` as the provider sends it when the output limit cut it off."""
    if fmt == "anthropic":
        response["stop_reason"] = "max_tokens"
    elif fmt == "openai-chat":
        response["choices"][0]["finish_reason"] = "length"
    elif fmt == "openai-responses":
        response.update(status="incomplete", incomplete_details={"reason": "max_output_tokens"})
        response["output"][-1]["status"] = "incomplete"
    elif fmt == "gemini":
        response["candidates"][0]["finishReason"] = "MAX_TOKENS"
    else:
        response["stopReason"] = "max_tokens"
    return response


def run_readme(block: str, names: dict[str, Any], *, asynchronous: bool = False) -> dict[str, Any]:
    """The README's setup block, then ``block``, in a namespace holding ``names`` (the clients,
    the handlers, the conversation); an async block runs as the body of a coroutine."""
    namespace = {"MODEL": "model-e2e", "base_prompt": "You are a test.", **names}
    exec(compile(readme_block(SETUP), "README.md (setup)", "exec"), namespace)
    if asynchronous:
        assigned = sorted(set(re.findall(r"^\s*(\w+) \+?=", block, re.M)) | {"results"})
        body = "".join(f"    {line}\n" for line in block.splitlines())
        block = f"async def readme_block():\n    global {', '.join(assigned)}\n{body}"
        exec(compile(block, "README.md", "exec"), namespace)
        asyncio.run(namespace["readme_block"]())
    else:
        exec(compile(block, "README.md", "exec"), namespace)
    return namespace


ROUND_ONE = [  # parallel calls, the second id reused
    ("c1", "read_file", {"path": "a.py"}),
    ("c2", "list_files", {"path": "src", "recursive": True}),
    ("c2", "search_files", {"path": ".", "regex": "x"}),
]


def round_two(fmt: str) -> list[tuple[str, str, Any]]:
    """A complete call, then one the output limit cut (its arguments cut too where they are text)."""
    cut = '{"path": "b' if fmt.startswith("openai") else {"path": "b"}
    return [("c4", "read_file", {"path": "c.py"}), ("c5", "write_to_file", cut)]


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_readme_loop_runs_as_written(fmt: str, loopback: Loopback) -> None:
    import generated

    ran: list[tuple[str, dict[str, Any]]] = []
    loopback.replies += [
        reply(fmt, ROUND_ONE),
        stopped_at_limit(fmt, reply(fmt, round_two(fmt))),
        reply(fmt, [], text="Done."),
    ]
    names = {**sdk_client(fmt, loopback.url), **first_turn(fmt), "my_handlers": fake_handlers(generated, ran)}
    done = run_readme(readme_block(README_BLOCKS[fmt]), names)

    assert done["results"] is None and len(loopback.requests) == 3, "the loop ends at the reply without calls"
    assert ran == [
        ("read_file", {"path": "a.py"}),
        ("list_files", {"path": "src", "recursive": True}),
        ("read_file", {"path": "c.py"}),
    ], "the reused id and the cut-off call never run"
    second, third = (r.body for r in loopback.requests[1:])
    flag = None if fmt.startswith("openai") else False
    first_results = received_results(fmt, second)
    assert [(i, c, e) for i, c, e in first_results[:2]] == [
        ("c1", expected_text("read_file", {"path": "a.py"}), flag),
        ("c2", expected_text("list_files", {"path": "src", "recursive": True}), flag),
    ]
    assert first_results[2][0] == "c2" and "already has the id 'c2'" in first_results[2][1]
    later = received_results(fmt, third)[-2:]  # the OpenAI formats resend the whole history
    assert later[0] == ("c4", expected_text("read_file", {"path": "c.py"}), flag)
    assert later[1][0] == "c5" and later[1][1].startswith("The call to tool write_to_file was not run: the reply")
    assert "cut off by the output limit" in later[1][1] and later[1][2] in (None, True)


def test_the_readme_text_loop_runs_as_written(loopback: Loopback) -> None:
    import generated

    ran: list[tuple[str, dict[str, Any]]] = []
    loopback.replies += [
        reply("openai-chat", [], text="Looking.\n<read_file>\n<path>src/app.ts</path>\n</read_file>\n"
              "<search_web>\n<query>rate limits</query>\n</search_web>"),
        stopped_at_limit("openai-chat", reply("openai-chat", [], text="<list_files>\n<path>src</path>\n<recur")),
        reply("openai-chat", [], text="Done."),
    ]
    names = {**sdk_client("openai-chat", loopback.url), **first_turn("openai-chat")}
    names["my_handlers"] = fake_handlers(generated, ran)
    done = run_readme(readme_block("# The text path"), names)

    assert done["turn"] is None and done["text"] == "Done." and len(loopback.requests) == 3
    assert ran == [("read_file", {"path": "src/app.ts"})]
    system = loopback.requests[0].body["messages"][0]
    assert system["role"] == "system" and done["offer"].prompt_section() in system["content"]
    second = loopback.requests[1].body["messages"][-1]
    third = loopback.requests[2].body["messages"][-1]
    first, unknown = second["content"].split("\n\n")
    assert first == "[read_file for 'src/app.ts'] returned:\n" + expected_text("read_file", {"path": "src/app.ts"})
    assert unknown.startswith("[search_web] failed:\nTool search_web is not available in this request: no tool")
    assert "Use one of the offered tools: " in unknown and "read_file" in unknown
    assert third["content"].startswith("[list_files for '…'] failed:\nThe call to tool list_files was not run")
    assert "no closing tag </list_files>" in third["content"]


def async_handlers(package: ModuleType, ran: list[tuple[str, dict[str, Any]]]) -> dict[str, type]:
    """``fake_handlers`` with ``async def execute``: each call yields to the loop before it answers."""

    class AsyncRecording:
        def __init__(self, validator: Any = None) -> None:
            self.validator = validator

        async def execute(self, config: Any, block: Any) -> Any:
            await asyncio.sleep(0)
            ran.append((block.name, dict(block.params)))
            return package.ToolResult.ok(f"{block.name} ran with {json.dumps(block.params, sort_keys=True)}")

    return {name: type(name, (AsyncRecording,), {}) for name in fake_handlers(package, [])}


def test_the_readme_async_loop_runs_as_written(loopback: Loopback) -> None:
    import anthropic

    import generated

    ran: list[tuple[str, dict[str, Any]]] = []
    loopback.replies += [reply("anthropic", ROUND_ONE), reply("anthropic", [], text="Done.")]
    names = {
        "client": anthropic.AsyncAnthropic(api_key="test", base_url=loopback.url, max_retries=0, timeout=TIMEOUT),
        **first_turn("anthropic"),
        "my_handlers": fake_handlers(generated, []),
        "my_async_handlers": async_handlers(generated, ran),
    }
    done = run_readme(readme_block("# Async handlers"), names, asynchronous=True)

    assert done["results"] is None and len(loopback.requests) == 2
    assert sorted(ran) == sorted(
        [("read_file", {"path": "a.py"}), ("list_files", {"path": "src", "recursive": True})]
    ), "both calls ran (concurrently); the reused id did not"
    results = received_results("anthropic", loopback.requests[1].body)
    assert [r[0] for r in results] == ["c1", "c2", "c2"], "in call order"
    assert results[0][1] == expected_text("read_file", {"path": "a.py"}) and results[2][2] is True
    with pytest.raises(generated.AsyncHandlerError, match="asynchronous=True"):
        generated.Coordinator.from_namespace(names["my_async_handlers"])
