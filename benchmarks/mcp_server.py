"""The generated MCP server against FastMCP: ``.venv/bin/python benchmarks/mcp_server.py`` (``make bench``).

Both serve the same tool: tests/fixtures/mcp_specs' ``lookup`` (a string of at least 2 characters,
an optional integer >= 1, a structured result checked against its output schema) with the handler
of tests/mcp_handlers.py, and benchmarks/mcp_peer/peer.py's equivalent function on the SDK's FastMCP
(``MCPServer`` in mcp 2.x). Measured, each with the SDK's own client:

* per-call round trip, p50 and p99 over 1,000 sequential calls (after 50 warm-up calls; the two
  servers' calls alternate, so both see the same machine load), over
  stdio (a real subprocess) and in-process (the client attached to the server object: no
  transport, so the figure is the server's own overhead plus the SDK's dispatch);
* the server side alone: our ``tools/call`` handler against FastMCP's ``call_tool``, called
  directly (2,000 calls each, alternating): the per-call overhead of each server proper;
* 50 concurrent clients over streamable HTTP on 127.0.0.1, 20 calls each with distinct
  arguments: every result is checked against its own arguments (lost and misrouted results
  counted), with the wall time;
* start-up: spawn to a finished initialize handshake over stdio (median of 5), next to the time
  to import the SDK and then, in the same process, the generated mcp_server module on top of it
  (toolgen's share);
* tools/list for the bundled catalog (specs/, the family with the most tools): the round trip
  over stdio (median of 20) and building the listing in-process (median of 20).

Prints a table and writes benchmarks/out/mcp_server.json; targets are reported, not enforced.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

from mcp import Client  # noqa: E402
from mcp.client.stdio import StdioServerParameters  # noqa: E402

PY = sys.executable
CALLS = 1000
WARM = 50
CLIENTS = 50
PER_CLIENT = 20


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _make_fixture(base: Path) -> None:
    """Generate the fixture catalog as the package ``mcpfixture`` below ``base``."""
    from conftest import generate_package

    generate_package(REPO / "tests" / "fixtures" / "mcp_specs", base, "mcpfixture")


class Setup:
    def __init__(self, base: Path) -> None:
        self.base = base
        path = os.pathsep.join([str(base), str(REPO), str(REPO / "tests"), str(HERE / "mcp_peer")])
        self.env = dict(os.environ, PYTHONPATH=path)

    def toolgen(self, *args: str) -> list[str]:
        return [PY, "-m", "mcpfixture.mcp_server", "--handlers", "mcp_handlers", "--lenient", *args]

    def bundled(self, *args: str) -> list[str]:
        return [PY, "-m", "generated.mcp_server", "--handlers", "empty_handlers", "--lenient", *args]

    def peer(self, *args: str) -> list[str]:
        return [PY, str(HERE / "mcp_peer" / "peer.py"), *args]

    def stdio(self, command: list[str]) -> StdioServerParameters:
        return StdioServerParameters(command=command[0], args=command[1:], env=self.env)


async def _call(client: Client, i: int) -> float:
    start = time.perf_counter()
    result = await client.call_tool("lookup", {"city": f"city{i}", "limit": 1 + i % 5})
    elapsed = time.perf_counter() - start
    assert result.structured_content == {"city": f"city{i}", "population": len(f"city{i}") * 1000 + 1 + i % 5}
    return elapsed


async def _interleaved(ours: Client, peer: Client) -> tuple[list[float], list[float]]:
    """1,000 calls to each server, alternating, so that both see the same machine load."""
    for i in range(WARM):
        await _call(ours, i)
        await _call(peer, i)
    a: list[float] = []
    b: list[float] = []
    for i in range(CALLS):
        first, second = (ours, peer) if i % 2 else (peer, ours)
        t_first = await _call(first, i)
        t_second = await _call(second, i)
        a.append(t_second if i % 2 == 0 else t_first)
        b.append(t_first if i % 2 == 0 else t_second)
    return a, b


async def per_call_stdio(setup: Setup) -> tuple[list[float], list[float]]:
    async with (
        Client(setup.stdio(setup.toolgen()), mode="legacy") as ours,
        Client(setup.stdio(setup.peer("stdio")), mode="legacy") as peer,
    ):
        return await _interleaved(ours, peer)


async def per_call_inprocess(ours_server: Any, peer_server: Any) -> tuple[list[float], list[float]]:
    async with Client(ours_server, mode="legacy") as ours, Client(peer_server, mode="legacy") as peer:
        return await _interleaved(ours, peer)


class _Session:
    async def report_progress(self, *args: Any) -> None:
        return None


async def server_side(ours_server: Any, peer_app: Any) -> tuple[list[float], list[float]]:
    """The servers' own work per call, no client and no SDK dispatch: our ``tools/call`` handler
    against FastMCP's ``call_tool``, alternating, 2,000 calls each after a warm-up."""
    from types import SimpleNamespace

    import mcp_types

    handler = ours_server.get_request_handler("tools/call").handler
    request = SimpleNamespace(request_id=1, session=_Session())

    async def ours(i: int) -> Any:
        params = mcp_types.CallToolRequestParams(name="lookup", arguments={"city": f"city{i}", "limit": 2})
        return await handler(request, params)

    async def peer(i: int) -> Any:
        return await peer_app.call_tool("lookup", {"city": f"city{i}", "limit": 2})

    a: list[float] = []
    b: list[float] = []
    for i in range(2 * CALLS + WARM):
        for run, into in ((ours, a), (peer, b)) if i % 2 else ((peer, b), (ours, a)):
            start = time.perf_counter()
            await run(i)
            if i >= WARM:
                into.append(time.perf_counter() - start)
    return a, b


def _toolgen_inprocess() -> Any:
    from mcpfixture import Context
    from mcpfixture.mcp_server import build_server

    import mcp_handlers

    return build_server("main", Context(), mcp_handlers, lenient=True)


def _peer_inprocess() -> Any:
    sys.path.insert(0, str(HERE / "mcp_peer"))
    import peer

    return peer.app


async def http_flood(url: str) -> dict[str, Any]:
    lost = misrouted = 0

    async def one(i: int) -> None:
        nonlocal lost, misrouted
        async with Client(url, mode="legacy") as client:
            for j in range(PER_CLIENT):
                city = f"c{i}-{j}" + "x" * (i % 9)
                try:
                    result = await client.call_tool("lookup", {"city": city, "limit": i + 1})
                except Exception:
                    lost += 1
                    continue
                if result.structured_content != {"city": city, "population": len(city) * 1000 + i + 1}:
                    misrouted += 1

    start = time.perf_counter()
    await asyncio.gather(*(one(i) for i in range(CLIENTS)))
    wall = time.perf_counter() - start
    return {"calls": CLIENTS * PER_CLIENT, "lost": lost, "misrouted": misrouted, "wall_s": round(wall, 3)}


def _serve_http(setup: Setup, command: list[str]) -> tuple[subprocess.Popen[bytes], str]:
    proc = subprocess.Popen(command, env=setup.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    port = int(command[-1])
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc, f"http://127.0.0.1:{port}/mcp"
        except OSError:
            if time.monotonic() > deadline or proc.poll() is not None:
                proc.kill()
                raise RuntimeError(f"the server did not start: {command}") from None
            time.sleep(0.05)


async def startup(setup: Setup, command: list[str]) -> float:
    times = []
    for _ in range(5):
        start = time.perf_counter()
        async with Client(setup.stdio(command), mode="legacy"):
            times.append(time.perf_counter() - start)
    return statistics.median(times)


_IMPORTS = """
import time
start = time.perf_counter()
import mcp_types, mcp.server.lowlevel, mcp.server.stdio, mcp.server.transport_security
sdk = time.perf_counter()
import generated.mcp_server
print(sdk - start, time.perf_counter() - sdk)
"""


def import_split(setup: Setup) -> tuple[float, float]:
    """Median seconds to import the SDK, then the generated server on top of it (toolgen's share)."""
    sdk, ours = [], []
    for _ in range(5):
        out = subprocess.run([PY, "-c", _IMPORTS], env=setup.env, check=True, capture_output=True, text=True)
        first, second = (float(x) for x in out.stdout.split())
        sdk.append(first)
        ours.append(second)
    return statistics.median(sdk), statistics.median(ours)


async def list_round_trip(setup: Setup, family: str) -> tuple[float, int]:
    async with Client(setup.stdio(setup.bundled("--family", family)), mode="legacy") as client:
        times = []
        count = 0
        for _ in range(20):
            start = time.perf_counter()
            listed = await client.list_tools()
            times.append(time.perf_counter() - start)
            count = len(listed.tools)
        return statistics.median(times), count


def list_build(family: str) -> float:
    from generated import Context
    from generated.mcp_server import tools_offer

    times = []
    for _ in range(20):
        start = time.perf_counter()
        tools_offer(family, Context())
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _largest_family() -> str:
    from generated import Context
    from generated.catalog import FAMILIES
    from generated.mcp_server import tools_offer

    return max(FAMILIES, key=lambda f: len(tools_offer(f, Context()).listed))


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 3)


def main() -> int:
    results: dict[str, Any] = {"python": sys.version.split()[0]}
    from importlib.metadata import version

    results["mcp"] = version("mcp")
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        _make_fixture(base)
        sys.path.insert(0, str(base))
        setup = Setup(base)
        servers: dict[str, Callable[..., list[str]]] = {"toolgen": setup.toolgen, "fastmcp": setup.peer}
        results["load_average_start"] = os.getloadavg()[0]

        for where, times in (
            ("stdio", asyncio.run(per_call_stdio(setup))),
            ("inprocess", asyncio.run(per_call_inprocess(_toolgen_inprocess(), _peer_inprocess()))),
            ("server", asyncio.run(server_side(_toolgen_inprocess(), _peer_inprocess()))),
        ):
            for name, series in zip(("toolgen", "fastmcp"), times, strict=True):
                results[f"{name}_{where}_p50_ms"] = _ms(_pct(series, 0.5))
                results[f"{name}_{where}_p99_ms"] = _ms(_pct(series, 0.99))

        for name, command in servers.items():
            port = str(_free_port())
            args = ("--transport", "http", "--port", port) if name == "toolgen" else ("http", port)
            proc, url = _serve_http(setup, command(*args))
            try:
                results[f"{name}_http_50_clients"] = asyncio.run(http_flood(url))
            finally:
                proc.terminate()
                proc.wait(10)

        family = _largest_family()
        results["startup_toolgen_bundled_s"] = round(asyncio.run(startup(setup, setup.bundled("--family", family))), 3)
        results["startup_fastmcp_s"] = round(asyncio.run(startup(setup, setup.peer("stdio"))), 3)
        sdk_s, ours_s = import_split(setup)
        results["import_sdk_s"] = round(sdk_s, 3)
        results["import_toolgen_share_s"] = round(ours_s, 3)
        round_trip, count = asyncio.run(list_round_trip(setup, family))
        results["tools_list_family"] = family
        results["tools_list_tools"] = count
        results["tools_list_stdio_ms"] = _ms(round_trip)
        results["tools_list_build_ms"] = _ms(list_build(family))

    results["load_average_end"] = os.getloadavg()[0]
    out = HERE / "out"
    out.mkdir(exist_ok=True)
    (out / "mcp_server.json").write_text(json.dumps(results, indent=2) + "\n")
    _report(results)
    return 0


def _report(r: dict[str, Any]) -> None:
    load = f"load average {r['load_average_start']:.1f} -> {r['load_average_end']:.1f}"
    print(f"MCP server benchmark (mcp {r['mcp']}, Python {r['python']}, {os.cpu_count()} CPUs, {load})")
    print(f"{'':38} {'toolgen':>12} {'FastMCP':>12}")
    for label, key in (
        ("per call, stdio, p50 (ms)", "stdio_p50_ms"),
        ("per call, stdio, p99 (ms)", "stdio_p99_ms"),
        ("per call, in-process, p50 (ms)", "inprocess_p50_ms"),
        ("per call, in-process, p99 (ms)", "inprocess_p99_ms"),
        ("server side only, p50 (ms)", "server_p50_ms"),
        ("server side only, p99 (ms)", "server_p99_ms"),
    ):
        print(f"{label:38} {r['toolgen_' + key]:>12} {r['fastmcp_' + key]:>12}")
    for name in ("toolgen", "fastmcp"):
        h = r[f"{name}_http_50_clients"]
        print(f"HTTP, 50 clients x 20 calls ({name}): {h['wall_s']} s, lost {h['lost']}, misrouted {h['misrouted']}")
    toolgen_s, fastmcp_s = r["startup_toolgen_bundled_s"], r["startup_fastmcp_s"]
    print(f"start-up to initialized: toolgen (bundled) {toolgen_s} s, FastMCP {fastmcp_s} s")
    sdk_s, ours_s = r["import_sdk_s"], r["import_toolgen_share_s"]
    print(f"import: the SDK {sdk_s} s, then generated.mcp_server on top of it {ours_s} s")
    print(
        f"tools/list, bundled catalog ({r['tools_list_family']}, {r['tools_list_tools']} tools): "
        f"round trip {r['tools_list_stdio_ms']} ms (target <= 10), building the listing {r['tools_list_build_ms']} ms"
    )
    faster = r["toolgen_server_p50_ms"] < r["fastmcp_server_p50_ms"]
    print(f"target: per-call overhead below FastMCP's (server side, p50): {'met' if faster else 'MISSED'}")


if __name__ == "__main__":
    sys.exit(main())
