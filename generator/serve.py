"""`toolgen serve`: the generated package's MCP server, started from the toolgen command line.

The package at --out is imported under its own folder name (its parent put first on the import
path), so handler modules that import it (``from mypkg import report_progress``) share its
runtime; a folder whose name is not an identifier is imported under a private name instead.
The MCP SDK is needed only here and in the package's mcp_server.py, never by the rest of toolgen.
"""

from __future__ import annotations

import argparse
import sys
from importlib import import_module
from pathlib import Path
from types import ModuleType
from typing import Any

from .runtime.mcp_options import INSTALL_HINT, add_arguments


def add_command(sub: Any, common: argparse.ArgumentParser) -> None:
    serve = sub.add_parser(
        "serve",
        parents=[common],
        help="serve the generated package's tools as an MCP server (stdio or streamable HTTP)",
    )
    add_arguments(serve)


def _package(out: Path) -> ModuleType:
    name = out.resolve().name
    if name.isidentifier() and (out / "__init__.py").is_file():
        parent = str(out.resolve().parent)
        if parent not in sys.path:
            sys.path.insert(0, parent)
        loaded = sys.modules.get(name)
        if loaded is None or Path(getattr(loaded, "__file__", "") or "").parent.resolve() == out.resolve():
            return import_module(name)
    from .show import load_package  # a private name: the folder's own is taken or not a name

    return load_package(out)


def run(args: argparse.Namespace) -> int:
    """Serve until the client goes away; 2 when the package or the SDK is missing."""
    from .show import Refused

    try:
        package = _package(args.out)
    except Refused as exc:
        print(f"toolgen: error: {exc.diagnostic.message}: {args.out}\n  hint: {exc.diagnostic.hint}", file=sys.stderr)
        return 2
    try:
        server = import_module(package.__name__ + ".mcp_server")
    except ModuleNotFoundError as exc:
        if (exc.name or "").partition(".")[0] not in ("mcp", "mcp_types"):
            raise
        print(f"toolgen: error: the MCP server needs the 'mcp' package\n  hint: {INSTALL_HINT}", file=sys.stderr)
        return 2
    code: int = server._serve.run(server.PACKAGE, args)
    return code
