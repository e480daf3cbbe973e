"""The MCP server's command-line options and defaults (standard library only).

Shared by the generated mcp_server.py (``python -m <package>.mcp_server``) and ``toolgen
serve``, which must build its parser without importing the MCP SDK.
"""

from __future__ import annotations

import argparse
from pathlib import Path

__all__ = [
    "DEFAULT_MAX_BODY",
    "DEFAULT_MAX_CONCURRENT",
    "DEFAULT_TIMEOUT",
    "INSTALL_HINT",
    "LOOPBACK",
    "add_arguments",
]

DEFAULT_TIMEOUT = 120.0
"""Seconds a call may run before it is answered with a timeout error."""
DEFAULT_MAX_CONCURRENT = 64
"""Calls whose handlers run at once; more wait their turn (a flood cannot exhaust the host)."""
DEFAULT_MAX_BODY = 16 * 1024 * 1024
"""Largest HTTP request body accepted (a 10 MB argument still reaches the check)."""
LOOPBACK = ("127.0.0.1", "localhost", "::1")
INSTALL_HINT = "install the MCP SDK, an optional dependency: pip install 'mcp>=2,<3'"


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The serving options."""
    add = p.add_argument
    add(
        "--family",
        help="model family whose tools are served (default: the one the context selects)",
    )
    add("--context", type=Path, help="JSON file with context fields")
    add(
        "--set",
        action="append",
        default=[],
        metavar="FIELD=JSON",
        help="a context field, its value as JSON (a bare word is a string); repeatable, wins over --context",
    )
    add(
        "--handlers",
        required=True,
        help="module (dotted name) or .py file holding the handler classes",
    )
    add(
        "--lenient",
        action="store_true",
        help="start even when handler classes are missing",
    )
    add("--transport", choices=("stdio", "http"), default="stdio")
    add(
        "--host",
        default="127.0.0.1",
        help="HTTP: address to bind (loopback unless --allow-remote)",
    )
    add("--port", type=int, default=8000, help="HTTP: port")
    add(
        "--allow-remote",
        action="store_true",
        help="HTTP: allow binding an address other than loopback",
    )
    add(
        "--allow-origin",
        action="append",
        default=[],
        help="HTTP: another allowed Origin; repeatable",
    )
    add(
        "--allow-host",
        action="append",
        default=[],
        metavar="HOST:PORT",
        help="HTTP: another allowed Host header (a name clients reach a remote bind by); "
        "repeatable",
    )
    add(
        "--token-env",
        help="HTTP: require Authorization: Bearer <the value of this environment variable>",
    )
    add(
        "--timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        help="seconds per call (0: no limit)",
    )
    add(
        "--max-concurrent",
        type=int,
        default=DEFAULT_MAX_CONCURRENT,
        help="handlers running at once",
    )
