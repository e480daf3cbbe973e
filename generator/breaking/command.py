"""``toolgen breaking --against REF``: load both sides, compare them, report, set the exit code.

Exit codes: 0 nothing breaking (or every breaking change excepted), 1 something breaking,
2 invalid specs on either side, a bad REF or a bad exception in toolgen.yaml.
"""

from __future__ import annotations

import argparse
import gc
from pathlib import Path
from typing import Any

from ..diagnostics import emit

EXIT_OK, EXIT_BREAKING, EXIT_INVALID = 0, 1, 2


def add_command(sub: Any) -> None:
    """The ``breaking`` subcommand of the toolgen parser."""
    parser = sub.add_parser(
        "breaking",
        help="report changes of the specs since REF (a git revision or a spec folder); exit 1 if one breaks",
    )
    parser.add_argument(
        "--against", required=True, metavar="REF", help="a git revision (HEAD~1, main) or a spec folder"
    )
    parser.add_argument("--specs", type=Path, default=Path("specs"), help="spec folder (default: specs/)")
    parser.add_argument(
        "--error-format", choices=("text", "github", "json"), default="text", help="how findings and errors are printed"
    )


def run(args: argparse.Namespace) -> int:
    # Imported here: the parser is built on every toolgen run, and these pull in the YAML stack.
    from ..workspace import Workspace
    from .against import load_against
    from .compare import Side, compare
    from .report import apply_exceptions, counts, read_exceptions, render
    from .selection import selection_changes

    # As in pipeline.run: the cyclic collector would rescan the growing models again and again.
    collecting = gc.isenabled()
    gc.disable()
    try:
        workspace = Workspace(args.specs)
        diags = workspace.front().diagnostics  # a copy: the workspace keeps its own
        new = workspace.loaded()
        old = load_against(args.against, args.specs, diags)
    finally:
        if collecting:
            gc.enable()
    sides: list[Side] = []
    for loaded in (old, new):
        if loaded.catalog is not None:
            sides.append(Side(loaded.catalog, loaded.sources))
    accepted = []
    if len(sides) == 2 and not diags.has_errors:
        tool_ids = [t.id for side in sides for t in side.catalog.tools]
        accepted = read_exceptions(new.sources[sides[1].catalog.project.source], tool_ids, diags)
    invalid = len(sides) != 2 or diags.has_errors
    if args.error_format == "json":  # one report object either way; it carries the diagnostics itself
        if invalid:
            print(render([], [], args.against, "json", diags))
            return EXIT_INVALID
    else:
        emit(diags.render(args.error_format), args.error_format)
    if invalid:
        return EXIT_INVALID
    findings = compare(*sides) + selection_changes(*sides)
    findings.sort(key=lambda f: (f.location, f.rule, f.message))
    findings, unused = apply_exceptions(findings, accepted)
    print(render(findings, unused, args.against, args.error_format, diags))
    return EXIT_BREAKING if counts(findings)["breaking"] else EXIT_OK
