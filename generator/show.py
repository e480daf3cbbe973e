"""`toolgen show ...` and `toolgen parse`: answers come from importing the generated package."""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any


def add_commands(sub: Any, common: argparse.ArgumentParser) -> None:
    show = sub.add_parser("show", help="print what the generated package produces")
    kinds = show.add_subparsers(dest="what", required=True, parser_class=type(show))
    family = kinds.add_parser("family", parents=[common], help="the family selected for a context")
    family.add_argument("--context", type=Path, help="JSON file with context fields")
    tools = kinds.add_parser("tools", parents=[common], help="enabled tool ids of a family")
    tools.add_argument("--family", required=True)
    tools.add_argument("--context", type=Path)


def load_package(out: Path) -> ModuleType:
    """Import the generated package at ``out`` under a private name (relative imports make this work)."""
    init = out / "__init__.py"
    if not init.is_file():
        raise SystemExit(f"toolgen: {out}/__init__.py not found; run `toolgen generate` first")
    name = "_toolgen_generated"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, init, submodule_search_locations=[str(out)])
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _context(package: ModuleType, path: Path | None) -> Any:
    if path is None:
        return package.Context()
    try:
        return package.Context.from_json(path.read_text("utf-8"))
    except OSError as exc:
        raise SystemExit(f"toolgen: cannot read {path}: {exc.strerror}") from None
    except package.ContextError as exc:
        raise SystemExit(f"toolgen: {path}: {exc}") from None


def run(args: argparse.Namespace) -> int:
    package = load_package(args.out)
    context = _context(package, getattr(args, "context", None))
    if args.what == "family":
        print(package.select_family(context))
        return 0
    if args.what == "tools":
        try:
            print(json.dumps(list(package.enabled_tools(args.family, context)), indent=2))
        except KeyError as exc:
            print(f"toolgen: {exc.args[0]}", file=sys.stderr)
            return 2
        return 0
    return 2
