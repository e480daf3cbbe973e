"""An MCP server for the catalog's tools, on the official ``mcp`` SDK's low-level ``Server``.

The only module of the package that imports the SDK (an optional dependency: ``mcp>=2,<3``); the
generated mcp_server.py binds it to the package and is the way in. ``tools/list`` gives the
``ToolsOffer``'s entries (mcp_tools.py); ``tools/call`` runs ``Offer.execute_async`` (refusal,
the JSON check against the listed schema, the coordinator, the typed handler, sync or async)
and answers every failure as a result with ``isError: true`` and the reason as text, never as a
JSON-RPC error and never with ``structuredContent`` (SEP-1303). A tool with an output schema
answers ``structuredContent`` only when its handler's JSON passes that schema.

Transports: stdio (the SDK points fd 1 at stderr while serving, so a handler's ``print()``
cannot corrupt the framing; logs go to stderr) and streamable HTTP, bound to 127.0.0.1 unless
``--allow-remote``, with the SDK's Host/Origin checks against DNS rebinding and an optional bearer
token read from an environment variable.
"""

from __future__ import annotations

import argparse
import asyncio
import hmac
import importlib
import importlib.util
import json
import logging
import os
import sys
from collections.abc import Awaitable, Callable, Mapping, MutableMapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.server.transport_security import TransportSecuritySettings

from .mcp_options import (
    DEFAULT_MAX_BODY,
    DEFAULT_MAX_CONCURRENT,
    DEFAULT_TIMEOUT,
    LOOPBACK,
    add_arguments,
)
from .mcp_tools import ToolsOffer, progress_scope, threadsafe
from .tool_types import ToolUse

__all__ = [
    "DEFAULT_MAX_BODY",
    "DEFAULT_MAX_CONCURRENT",
    "DEFAULT_TIMEOUT",
    "LOOPBACK",
    "Package",
    "StartupError",
    "bind",
    "build_server",
    "main",
]


_log = logging.getLogger("toolgen.mcp")


@dataclass(frozen=True)
class Package:
    """What the generated mcp_server.py binds: its catalog, text path, formats and classes."""

    name: str
    version: str
    catalog: Any
    text_path: Any
    formats: Mapping[str, Any]
    coordinator: Any
    context: Any


class StartupError(Exception):
    """The server cannot start as asked (missing handler classes, a bad context or family)."""


@dataclass(frozen=True)
class Bound:
    """A ToolsOffer and the coordinator that serves it, checked at start-up."""

    offer: ToolsOffer
    coordinator: Any
    missing: Mapping[str, tuple[str, ...]]
    """Handler classes the namespace lacks, with the listed tools they serve."""


def bind(
    package: Package,
    family: Any,
    context: Any,
    namespace: Any,
    *,
    validator: Any = None,
    lenient: bool = False,
) -> Bound:
    """The offer for ``family`` in ``context`` and a coordinator built from ``namespace``.

    Raises StartupError naming every handler class a listed tool needs and the namespace lacks,
    unless ``lenient`` (those tools are then answered with a no-handler error).
    """
    offer = ToolsOffer(
        package.catalog, package.text_path, package.formats, family, context
    )
    coordinator = package.coordinator.from_namespace(
        namespace, validator=validator, lenient=True, asynchronous=True
    )
    handlers = package.coordinator.bindings.handlers
    missing: dict[str, list[str]] = {}
    for name, variant in offer.variants.items():
        binding = handlers.get(variant.get("id", name))
        if binding is not None and not coordinator.has(name):
            missing.setdefault(str(binding["class_name"]), []).append(name)
    found = {k: tuple(v) for k, v in missing.items()}
    if found and not lenient:
        lines = "\n".join(f"  {k} (for {', '.join(v)})" for k, v in found.items())
        raise StartupError(
            f"{len(found)} handler class(es) missing from the handler namespace:\n{lines}\n"
            "add them, or pass --lenient to serve the other tools"
        )
    return Bound(offer, coordinator, found)


def _error(text: str) -> types.CallToolResult:
    blocks: list[types.ContentBlock] = [types.TextContent(type="text", text=text)]
    return types.CallToolResult(content=blocks, is_error=True)


def build_server(
    bound: Bound,
    *,
    name: str,
    version: str = "",
    config: Any = None,
    timeout: float | None = DEFAULT_TIMEOUT,
    max_concurrent: int = DEFAULT_MAX_CONCURRENT,
) -> Server[Any]:
    """The low-level SDK server answering ``tools/list`` and ``tools/call`` for ``bound``."""
    offer, coordinator = bound.offer, bound.coordinator
    listing = types.ListToolsResult(
        tools=[types.Tool.model_validate(entry) for entry in offer.listed]
    )
    schemas = {entry["name"]: entry["inputSchema"] for entry in offer.listed}
    gate = asyncio.Semaphore(max_concurrent)

    async def list_tools(
        request: Any, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return listing

    async def call_tool(
        request: Any, params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        name = params.name
        refused = offer.refusal(name) if name not in schemas else None
        if refused is not None:
            return _error(refused)
        use = ToolUse(name, params.arguments or {}, id=str(request.request_id or ""))
        loop = asyncio.get_running_loop()
        progress_scope(threadsafe(loop, request.session.report_progress))
        try:
            async with gate:
                # The deadline is kept here rather than by execute_async(timeout=...): on
                # Python 3.11 that wraps every call in one more task.
                async with asyncio.timeout(timeout):
                    result = await offer.execute_async(coordinator, config, use)
        except TimeoutError:
            _log.warning("tools/call %s: no result within %s s", name, timeout)
            return _error(
                f"Error executing tool {name}: no result within {timeout:g} s"
            )
        except Exception as exc:  # nothing a handler does may become a JSON-RPC error
            _log.exception("tools/call %s failed", name)
            return _error(f"Error executing tool {name}: {type(exc).__name__}: {exc}")
        finally:
            progress_scope(None)  # this task's context only
        content = getattr(result, "content", None)
        if not isinstance(content, str):  # None, a dict, ...: the handler's mistake
            return _error(
                f"Error executing tool {name}: its handler returned "
                f"{type(result).__name__}, not a ToolResult"
            )
        if getattr(result, "is_error", False) or getattr(result, "denied", False):
            return _error(content)
        structured, why = offer.structured(name, content)
        if why is not None:
            return _error(why)
        blocks: list[types.ContentBlock] = [
            types.TextContent(type="text", text=content)
        ]
        if structured is None:
            return types.CallToolResult(content=blocks)
        return types.CallToolResult(content=blocks, structured_content=structured)

    return Server(
        name,
        version=version,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        get_tool_input_schema=schemas.get,
    )


# ---- transports -----------------------------------------------------------------------------


def _workers(count: int) -> None:
    """Sync handlers run in the loop's default executor: give it a thread per concurrent call
    (asyncio's default has min(32, CPUs + 4), which would queue calls on a small machine).
    """
    asyncio.get_running_loop().set_default_executor(
        ThreadPoolExecutor(max_workers=count, thread_name_prefix="toolgen-mcp")
    )


async def serve_stdio(
    server: Server[Any], workers: int = DEFAULT_MAX_CONCURRENT
) -> None:
    """Serve one client over stdin/stdout until it closes stdin."""
    _workers(workers)
    async with stdio_server() as (read_stream, write_stream):
        await server.run(
            read_stream, write_stream, server.create_initialization_options()
        )


ASGIApp = Callable[
    [
        MutableMapping[str, Any],
        Callable[[], Awaitable[Any]],
        Callable[..., Awaitable[Any]],
    ],
    Awaitable[None],
]


def bearer_guard(app: ASGIApp, token: str) -> ASGIApp:
    """``app`` behind ``Authorization: Bearer <token>`` (compared in constant time)."""
    expected = f"Bearer {token}".encode()

    async def guarded(
        scope: MutableMapping[str, Any],
        receive: Callable[[], Awaitable[Any]],
        send: Callable[..., Awaitable[Any]],
    ) -> None:
        if scope.get("type") == "http":
            given = dict(scope.get("headers") or ()).get(b"authorization", b"")
            if not hmac.compare_digest(given, expected):
                body = b'{"error":"unauthorized: send Authorization: Bearer <token>"}'
                await send(
                    {
                        "type": "http.response.start",
                        "status": 401,
                        "headers": [
                            (b"content-type", b"application/json"),
                            (b"www-authenticate", b"Bearer"),
                        ],
                    }
                )
                await send({"type": "http.response.body", "body": body})
                return
        await app(scope, receive, send)

    return guarded


def http_app(
    server: Server[Any],
    *,
    host: str,
    port: int,
    origins: Sequence[str] = (),
    hosts: Sequence[str] = (),
    token: str | None = None,
    max_body: int = DEFAULT_MAX_BODY,
) -> Any:
    """The streamable HTTP ASGI app at ``/mcp``: Host and Origin checked, token when given.

    The loopback names of ``port`` are always allowed, as Host and as Origin; a remote bind is
    reached by the names in ``hosts`` (``HOST:PORT``), whose origins are then allowed too.
    """
    loopback = [f"{h}:{port}" for h in ("127.0.0.1", "localhost", "[::1]")]
    allowed_hosts = loopback + list(hosts)
    allowed = [f"http://{h}" for h in allowed_hosts] + list(origins)
    security = TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=allowed_hosts,
        allowed_origins=allowed,
    )
    app = server.streamable_http_app(
        transport_security=security, host=host, max_request_body_size=max_body
    )
    return bearer_guard(app, token) if token else app


async def serve_http(
    app: Any, host: str, port: int, workers: int = DEFAULT_MAX_CONCURRENT
) -> None:
    import uvicorn  # a dependency of the SDK's HTTP transport

    _workers(workers)

    config = uvicorn.Config(
        app, host=host, port=port, log_level="warning", lifespan="on", access_log=False
    )
    await uvicorn.Server(config).serve()


# ---- command line ---------------------------------------------------------------------------


def parser(prog: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=prog, description="Serve the catalog's tools as an MCP server."
    )
    add_arguments(p)
    return p


def load_namespace(spec: str) -> Any:
    """The handler namespace: a ``.py`` file by path, else a module by dotted name (the current
    folder importable)."""
    if spec.endswith(".py"):
        path = Path(spec)
        if not path.is_file():
            raise StartupError(f"--handlers {spec}: no such file")
        module_spec = importlib.util.spec_from_file_location(path.stem, path)
        if module_spec is None or module_spec.loader is None:
            raise StartupError(f"--handlers {spec}: cannot be imported")
        module = importlib.util.module_from_spec(module_spec)
        sys.modules[path.stem] = module
        module_spec.loader.exec_module(module)
        return module
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        return importlib.import_module(spec)
    except ImportError as exc:
        raise StartupError(f"--handlers {spec}: {exc}") from exc


def context_from(package: Package, path: Path | None, pairs: Sequence[str]) -> Any:
    data: dict[str, Any] = {}
    if path is not None:
        try:
            loaded = json.loads(path.read_text("utf-8"))
        except (OSError, ValueError) as exc:
            raise StartupError(f"--context {path}: {exc}") from exc
        if not isinstance(loaded, dict):
            raise StartupError(f"--context {path}: not a JSON object")
        data.update(loaded)
    for pair in pairs:
        field, sep, text = pair.partition("=")
        if not sep or not field:
            raise StartupError(f"--set {pair!r}: write FIELD=VALUE")
        try:
            data[field] = json.loads(text)
        except ValueError:
            data[field] = text
    try:
        return package.context.from_mapping(data)
    except Exception as exc:
        raise StartupError(f"context: {exc}") from exc


def run(package: Package, args: argparse.Namespace) -> int:
    """Start serving as ``args`` say; 2 (with the reason on stderr) when it cannot start."""
    logging.basicConfig(
        stream=sys.stderr, level=logging.WARNING, format="%(name)s: %(message)s"
    )
    try:
        context = context_from(package, args.context, args.set)
        family = args.family or package.catalog.select_family(context)
        if (
            args.transport == "http"
            and args.host not in LOOPBACK
            and not args.allow_remote
        ):
            raise StartupError(
                f"--host {args.host} is not a loopback address: pass --allow-remote to bind it"
            )
        token = None
        if args.token_env:
            token = os.environ.get(args.token_env)
            if not token:
                raise StartupError(
                    f"--token-env {args.token_env}: the variable is unset or empty"
                )
        namespace = load_namespace(args.handlers)
        try:
            bound = bind(package, family, context, namespace, lenient=args.lenient)
        except (KeyError, ValueError) as exc:
            raise StartupError(f"--family {family}: {exc}") from exc
    except StartupError as exc:
        print(f"{package.name}: cannot start the MCP server: {exc}", file=sys.stderr)
        return 2
    for cls, names in bound.missing.items():
        _log.warning(
            "no handler class %s: %s answer with an error", cls, ", ".join(names)
        )
    workers = max(1, args.max_concurrent)
    server = build_server(
        bound,
        name=package.name,
        version=package.version,
        config=getattr(namespace, "TOOLGEN_CONFIG", None),
        timeout=args.timeout or None,
        max_concurrent=workers,
    )
    try:
        if args.transport == "stdio":
            asyncio.run(serve_stdio(server, workers))
        else:
            app = http_app(
                server,
                host=args.host,
                port=args.port,
                origins=args.allow_origin,
                hosts=args.allow_host,
                token=token,
            )
            asyncio.run(serve_http(app, args.host, args.port, workers))
    except KeyboardInterrupt:
        return 0
    return 0


def main(
    package: Package, argv: Sequence[str] | None = None, prog: str = "mcp_server"
) -> int:
    return run(package, parser(prog).parse_args(argv))
