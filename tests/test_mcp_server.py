"""The generated MCP server end to end, driven by the mcp SDK's own client.

The fixture catalog (tests/fixtures/mcp_specs) is generated once as the package ``mcpfixture``;
its handlers are tests/mcp_handlers.py. Each transport is a real server process: stdio under
``python -m mcpfixture.mcp_server`` (both protocol eras: the 2025-11-25 handshake and the
2026-07-28 stateless one) and streamable HTTP on 127.0.0.1. Every failure kind must come back as
a result with ``isError`` and no ``structuredContent``, never as a JSON-RPC error.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from conftest import ROOT, generate_package

mcp = pytest.importorskip("mcp", reason="the MCP SDK (test extra) is not installed")
httpx2 = pytest.importorskip("httpx2")

from mcp import Client  # noqa: E402
from mcp.client.stdio import StdioServerParameters  # noqa: E402
from mcp.client.streamable_http import streamable_http_client  # noqa: E402

MCP_SPECS = ROOT / "tests" / "fixtures" / "mcp_specs"
LISTED = ["lookup", "slow", "noisy", "broken", "orphan", "bare"]
MODES = ["legacy", "2026-07-28"]
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}},
}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the generated package ``mcpfixture`` (and a marks folder)."""
    base = tmp_path_factory.mktemp("mcp")
    generate_package(MCP_SPECS, base, "mcpfixture")
    (base / "marks").mkdir()
    return base


def _env(base: Path, **extra: str) -> dict[str, str]:
    path = os.pathsep.join([str(base), str(ROOT / "tests")])
    return dict(os.environ, PYTHONPATH=path, MCP_TEST_MARKS=str(base / "marks"), **extra)


def _command(*args: str) -> list[str]:
    return ["-m", "mcpfixture.mcp_server", "--handlers", "mcp_handlers", *args]


def _stdio(base: Path, *args: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable, args=_command("--lenient", "--timeout", "1", *args), env=_env(base)
    )


def _run(coro: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coro, 60))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def _http_server(base: Path, *args: str, env: dict[str, str] | None = None) -> Iterator[str]:
    port = _free_port()
    extra = [a.format(port=port) for a in args]  # "{port}" in an argument is the chosen port
    command = [
        sys.executable,
        *_command("--lenient", "--timeout", "1", "--transport", "http", "--port", str(port), *extra),
    ]
    proc = subprocess.Popen(command, env=env or _env(base), stderr=subprocess.PIPE, stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the HTTP server did not start"
                time.sleep(0.05)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.fixture(scope="module")
def http_url(served: Path) -> Iterator[str]:
    with _http_server(served) as url:
        yield url


def _text(result: Any) -> str:
    return "\n".join(block.text for block in result.content)


async def _check_listing(client: Client) -> None:
    listed = (await client.list_tools()).tools
    assert [t.name for t in listed] == LISTED  # gated is off in the default context
    by_name = {t.name: t for t in listed}
    for tool in listed:
        jsonschema.Draft202012Validator.check_schema(tool.input_schema)
    lookup = by_name["lookup"]
    assert lookup.title == "Look up a city"
    assert lookup.annotations is not None
    assert (lookup.annotations.read_only_hint, lookup.annotations.open_world_hint) == (True, False)
    assert lookup.annotations.destructive_hint is None  # left to the MCP default
    assert lookup.output_schema is not None and lookup.output_schema["required"] == ["city", "population"]
    assert lookup.input_schema["properties"]["city"] == {
        "type": "string",
        "description": "The city's name.",
        "minLength": 2,
    }
    assert lookup.input_schema["required"] == ["city"]
    broken = by_name["broken"].annotations
    assert broken is not None and (broken.destructive_hint, broken.idempotent_hint) == (False, True)
    assert by_name["noisy"].annotations is None and by_name["noisy"].title is None


# (tool, arguments, words the error text must contain)
FAILURES = [
    ("lookup", {"city": 3}, ["Invalid arguments for tool lookup", "city: expected string"]),
    ("lookup", {"city": "P", "limit": 0}, ["city:", "limit:"]),
    ("lookup", {}, ["city"]),
    ("broken", {"text": 5}, ["Invalid arguments for tool broken", "text:"]),  # never ran: no "kaboom"
    ("broken", {}, ["RuntimeError: kaboom"]),
    ("nope", {}, ["Tool nope is not available", "no tool of that name exists"]),
    ("gated", {}, ["Tool gated is not available", "turned off in the current context"]),
    ("orphan", {}, ["No handler registered for tool: orphan"]),
    ("bare", {}, ["No handler registered for tool: bare"]),
    ("slow", {"seconds": 30}, ["no result within 1 s"]),
    ("lookup", {"city": "Nowhere"}, ["output schema rejects", "population: must be at least 0"]),
    ("lookup", {"city": "Prose"}, ["declares an output schema", "not JSON"]),
]


async def _check_calls(client: Client) -> None:
    ok = await client.call_tool("lookup", {"city": "Paris", "limit": 2})
    assert not ok.is_error
    assert ok.structured_content == {"city": "Paris", "population": 5002}
    assert json.loads(_text(ok)) == ok.structured_content
    for tool, arguments, words in FAILURES:
        result = await client.call_tool(tool, arguments)
        assert result.is_error, (tool, arguments)
        assert result.structured_content is None, (tool, arguments)
        text = _text(result)
        for word in words:
            assert word in text, (tool, arguments, text)
        assert "kaboom" not in text or arguments == {}, text
    # the hung call above timed out; the server still answers
    assert (await client.call_tool("noisy", {"text": "hello from a handler"})).content[0].text == "printed"


async def _check_progress(client: Client) -> None:
    seen: list[tuple[float, float | None, str | None]] = []

    async def progress(value: float, total: float | None, message: str | None) -> None:
        seen.append((value, total, message))

    result = await client.call_tool("slow", {"seconds": 0.2}, progress_callback=progress)
    assert _text(result) == "slept 0.2 s"
    assert seen == [(1, 2, "started"), (2, 2, "halfway")]


async def _check_cancel(client: Client, marks: Path) -> None:
    (marks / "slow-cancelled").unlink(missing_ok=True)
    call = asyncio.ensure_future(client.call_tool("slow", {"seconds": 0.9}))
    await asyncio.sleep(0.3)
    call.cancel()
    with pytest.raises(asyncio.CancelledError):
        await call
    deadline = time.monotonic() + 5
    while not (marks / "slow-cancelled").exists():
        assert time.monotonic() < deadline, "the handler's task was not cancelled"
        await asyncio.sleep(0.02)
    after = await client.call_tool("lookup", {"city": "Rome"})
    assert after.structured_content == {"city": "Rome", "population": 4000}


@pytest.mark.parametrize("mode", MODES)
def test_stdio_lists_calls_reports_progress_and_cancels(served: Path, mode: str) -> None:
    async def session() -> None:
        async with Client(_stdio(served), mode=mode) as client:
            await _check_listing(client)
            await _check_calls(client)
            await _check_progress(client)
            await _check_cancel(client, served / "marks")

    _run(session())


@pytest.mark.parametrize("mode", MODES)
def test_http_lists_calls_reports_progress_and_cancels(served: Path, http_url: str, mode: str) -> None:
    async def session() -> None:
        async with Client(http_url, mode=mode) as client:
            await _check_listing(client)
            await _check_calls(client)
            await _check_progress(client)
            await _check_cancel(client, served / "marks")

    _run(session())


def test_context_turns_tools_on(served: Path) -> None:
    async def session() -> None:
        async with Client(_stdio(served, "--set", "gated_on=true"), mode="legacy") as client:
            names = [t.name for t in (await client.list_tools()).tools]
            assert "gated" in names
            assert _text(await client.call_tool("gated", {})) == "gated ran"

    _run(session())


def test_missing_handler_classes_stop_the_start(served: Path) -> None:
    done = subprocess.run(
        [sys.executable, *_command()], env=_env(served), stdin=subprocess.DEVNULL, capture_output=True, timeout=60
    )
    assert done.returncode == 2
    assert b"OrphanHandler (for orphan)" in done.stderr
    assert done.stdout == b""


def test_stdio_survives_hostile_input(served: Path) -> None:
    """Malformed JSON, unknown methods, a 10 MB argument and 10,000-deep nesting; stdout stays JSON-RPC."""
    deep = "[" * 10_000 + "]" * 10_000

    def call(i: int, name: str, arguments: Any) -> bytes:
        message = {"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {"name": name, "arguments": arguments}}
        return json.dumps(message).encode()

    lines = [
        json.dumps(INITIALIZE).encode(),
        b'{"jsonrpc": "2.0", "method": "notifications/initialized"}',
        b"this is not json",
        b'{"jsonrpc": "2.0", "id": 2, "method": "no/such/method"}',
        b'{"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "lookup", "arguments": '
        + deep.encode()
        + b"}}",
        call(4, "lookup", {"city": "x" * 10_000_000}),
        call(5, "noisy", {"text": "stdout is not the wire"}),
        b'{"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {"name": "lookup", "arguments": {"city": '
        + deep.encode()
        + b"}}}",
        call(7, "lookup", {"city": "Oslo"}),
    ]
    proc = subprocess.Popen(
        [sys.executable, *_command("--lenient")],
        env=_env(served),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    proc.stdin.write(b"\n".join(lines) + b"\n")
    proc.stdin.flush()
    frames: list[dict[str, Any]] = []
    while not {2, 4, 5, 7} <= {f.get("id") for f in frames}:
        line = proc.stdout.readline()
        assert line, proc.stderr.read().decode()[-2000:]
        frames.append(json.loads(line))  # every line of stdout is JSON: nothing corrupted it
    proc.stdin.close()
    assert proc.wait(30) == 0
    stderr = proc.stderr.read()
    by_id = {f.get("id"): f for f in frames}
    assert by_id[2]["error"]["code"] == -32601  # unknown method: a JSON-RPC error is right here
    assert by_id[4]["result"]["structuredContent"]["population"] == 10_000_000_000  # 10 MB checked and served
    assert by_id[5]["result"]["content"][0]["text"] == "printed"
    assert by_id[7]["result"]["structuredContent"] == {"city": "Oslo", "population": 4000}
    for i in (3, 6):  # too deep for the SDK's parser: dropped (logged), or refused; never run, never fatal
        assert i not in by_id or by_id[i].get("error") or by_id[i]["result"]["isError"]
    assert b"stdout is not the wire" in stderr


def _client(url: str, headers: dict[str, str]) -> Client:
    http = httpx2.AsyncClient(headers=headers, timeout=30)
    return Client(streamable_http_client(url, http_client=http), mode="legacy")


def test_http_refuses_foreign_origins_and_wants_the_token(served: Path) -> None:
    env = _env(served, MCP_TEST_TOKEN="s3cret")
    with _http_server(served, "--token-env", "MCP_TEST_TOKEN", "--allow-host", "tools.test:{port}", env=env) as url:
        body = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
        accept = {"accept": "application/json, text/event-stream", "authorization": "Bearer s3cret"}
        evil = httpx2.post(url, json=body, headers={**accept, "origin": "http://evil.example"})
        assert evil.status_code == 403
        bare = httpx2.post(url, json=body, headers={"accept": accept["accept"]})
        assert bare.status_code == 401
        wrong = httpx2.post(url, json=body, headers={**accept, "authorization": "Bearer nope"})
        assert wrong.status_code == 401
        port = url.split(":")[2].split("/")[0]
        rebound = httpx2.post(url, json=body, headers={**accept, "host": f"evil.example:{port}"})
        assert rebound.status_code == 421  # a Host the server was not told about: DNS rebinding
        named = httpx2.post(url, json=INITIALIZE, headers={**accept, "host": f"tools.test:{port}"})
        assert named.status_code == 200, named.text

        async def session() -> None:
            origin = url.removesuffix("/mcp")  # the server's own origin is allowed
            async with _client(url, {"authorization": "Bearer s3cret", "origin": origin}) as client:
                assert [t.name for t in (await client.list_tools()).tools] == LISTED

        _run(session())


def test_http_refuses_a_remote_bind_without_the_flag(served: Path) -> None:
    done = subprocess.run(
        [sys.executable, *_command("--transport", "http", "--host", "0.0.0.0")],
        env=_env(served),
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert b"--allow-remote" in done.stderr


def test_fifty_concurrent_http_clients_get_their_own_results(http_url: str) -> None:
    async def one(i: int) -> None:
        async with Client(http_url, mode="legacy") as client:
            for j in range(3):
                city = f"city-{i}-{j}" + "x" * (i % 7)
                result = await client.call_tool("lookup", {"city": city, "limit": i + 1})
                assert result.structured_content == {"city": city, "population": len(city) * 1000 + i + 1}

    async def flood() -> None:
        await asyncio.gather(*(one(i) for i in range(50)))

    _run(flood())


def test_toolgen_serve_runs_the_package(served: Path) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=[
            "-m",
            "generator",
            "serve",
            "--out",
            str(served / "mcpfixture"),
            "--handlers",
            "mcp_handlers",
            "--lenient",
        ],
        env={**_env(served), "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")])},
        cwd=str(served),
    )

    async def session() -> None:
        async with Client(params, mode="legacy") as client:
            assert [t.name for t in (await client.list_tools()).tools] == LISTED
            seen: list[float] = []

            async def progress(value: float, total: float | None, message: str | None) -> None:
                seen.append(value)

            await client.call_tool("slow", {"seconds": 0.05}, progress_callback=progress)
            assert seen == [1, 2]  # the handlers share the package toolgen serve imported

    _run(session())


def test_bundled_catalog_lists_valid_schemas() -> None:
    """Every family of the bundled catalog lists schemas the validator and JSON Schema 2020-12 accept."""
    from generated import Context
    from generated.catalog import FAMILIES
    from generated.mcp_server import tools_offer

    for family in FAMILIES:
        offer = tools_offer(family, Context(yolo_mode=True, subagents_enabled=True, has_mcp_hub=True))
        assert offer.listed and not offer.unlisted, family
        for entry in offer.listed:
            jsonschema.Draft202012Validator.check_schema(entry["inputSchema"])
