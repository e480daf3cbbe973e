"""The toolgen command line: the parser, and each command handed to the module that runs it.

Exit codes: 0 success, 1 drift (check), 2 invalid specs or usage, 123 internal error
(generator/commands.py runs generate, check and validate, and turns failures into exit codes).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from . import __version__
from .commands import EXIT_DRIFT, EXIT_INTERNAL, EXIT_INVALID, EXIT_OK, guarded, regenerate_command, run_once
from .outputs import add_options

__all__ = ["EXIT_DRIFT", "EXIT_INTERNAL", "EXIT_INVALID", "EXIT_OK", "main", "regenerate_command", "run_once"]


def _parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--specs", type=Path, help="spec folder (default: specs/)")
    common.add_argument(
        "--out", type=Path, help="output package (default: outputs.python in toolgen.yaml, else generated/)"
    )
    common.add_argument(
        "--error-format", choices=("text", "github", "json"), default="text", help="how diagnostics are printed"
    )
    add_options(common)  # the extra targets' folders (--ts-out)
    outputs = argparse.ArgumentParser(add_help=False)
    docs = outputs.add_mutually_exclusive_group()
    docs.add_argument("--docs", type=Path, help="catalog doc file (default: outputs.docs in toolgen.yaml)")
    docs.add_argument("--no-docs", action="store_true", help="write no catalog doc")
    parser = argparse.ArgumentParser(prog="toolgen", description="Generate tool-calling code from YAML tool specs.")
    parser.add_argument("--version", action="version", version=f"toolgen {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    both = [common, outputs]
    generate = sub.add_parser("generate", parents=both, help="write the package (and the catalog doc) from the specs")
    generate.add_argument("--watch", action="store_true", help="regenerate whenever a spec file changes, until Ctrl-C")
    sub.add_parser("check", parents=both, help="exit 1 with a diff when the generated files are out of date")
    sub.add_parser("validate", parents=both, help="check the specs only")
    sub.add_parser("lsp", help="run the language server for spec files on stdin/stdout (needs toolgen[lsp])")
    from . import init, serve, show
    from .breaking import command as breaking

    show.add_commands(sub, common)
    serve.add_command(sub, common)
    init.add_commands(sub, outputs)
    breaking.add_command(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    _write_file_names_as_bytes()
    return guarded(lambda: _dispatch(_parser().parse_args(argv)))


def _write_file_names_as_bytes() -> None:
    """A file name that is not UTF-8 reaches Python as lone surrogates; printed (in a diff header,
    say) to a strict stdout it would raise. Write such names back as their original bytes."""
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None and getattr(sys.stdout, "errors", None) == "strict":
        reconfigure(errors="surrogateescape")


def _dispatch(args: argparse.Namespace) -> int:
    if args.command in ("init", "schema"):
        from . import init

        return init.run(args)
    if args.command == "lsp":
        from .lsp.server import serve as serve_lsp  # pygls is the optional extra toolgen[lsp]

        return serve_lsp()
    if args.command == "breaking":
        from .breaking import command as breaking

        return breaking.run(args)
    if not hasattr(args, "specs_given"):
        args.specs_given = args.specs
        args.specs = args.specs if args.specs is not None else Path("specs")
    if getattr(args, "watch", False):
        from . import watch

        return watch.run(args)
    from . import project

    if args.command == "serve":
        from . import serve

        args.out = project.package_folder(args.specs, args.out)
        return serve.run(args)
    if args.command not in ("generate", "check", "validate"):  # show, parse
        from . import show

        args.out = project.package_folder(args.specs, args.out)
        return show.run(args)
    from . import commands

    return commands.run(args)
