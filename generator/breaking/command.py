"""``toolgen breaking --against REF``: load both sides, compare them, report, set the exit code.

Exit codes: 0 nothing at or above ``--fail-on`` (default: error level) that is not excepted,
1 something is, 2 invalid specs on either side, a bad REF, or a bad exception or level in
toolgen.yaml.
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
        "--error-format",
        "--format",
        dest="error_format",
        choices=("text", "github", "json", "markdown", "junit"),
        default="text",
        help="how findings are printed: text, GitHub annotations, JSON, a Markdown changelog or JUnit XML "
        "(errors go to stderr as text for the last two)",
    )
    parser.add_argument(
        "--today",
        type=_date,
        default=None,
        metavar="YYYY-MM-DD",
        help="the date removal dates of deprecated things are compared with (default: today's)",
    )
    parser.add_argument(
        "--fail-on",
        choices=("error", "warning", "info"),
        default="error",
        help="the lowest level that makes the run exit 1 (default: error; levels in toolgen.yaml, docs/breaking.md)",
    )


def _date(text: str) -> str:
    """An argparse type: a calendar date written YYYY-MM-DD (argparse reports anything else)."""
    import datetime
    import re

    try:
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
            return datetime.date.fromisoformat(text).isoformat()
    except ValueError:
        pass
    raise argparse.ArgumentTypeError(f"{text!r} is not a date written YYYY-MM-DD")


def run(args: argparse.Namespace) -> int:
    # Imported here: the parser is built on every toolgen run, and these pull in the YAML stack.
    from ..workspace import Workspace
    from .against import load_against
    from .compare import compare
    from .policy import Policy, apply_policy, fails, read_policy
    from .report import apply_exceptions, read_exceptions, render
    from .selection import selection_changes
    from .side import Side
    from .versions import version_findings

    if not isinstance(args.against, str):  # argparse drops the value of --against=-- and leaves a list
        args.against = "--"
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
    policy = Policy()
    if len(sides) == 2 and not diags.has_errors:
        tool_ids = [t.id for side in sides for t in side.catalog.tools]
        families = [f for side in sides for f in side.catalog.project.family_enum]
        formats = [f for side in sides for f in side.catalog.project.formats]
        project = new.sources[sides[1].catalog.project.source]
        policy = read_policy(project, diags, args.today or "")
        accepted = read_exceptions(project, tool_ids, diags, families, formats)
    invalid = len(sides) != 2 or diags.has_errors
    if args.error_format == "json":  # one report object either way; it carries the diagnostics itself
        if invalid:
            print(render([], [], args.against, "json", diags))
            return EXIT_INVALID
    else:
        shown = args.error_format if args.error_format in ("text", "github") else "text"
        emit(diags.render(shown), shown)
    if invalid:
        return EXIT_INVALID
    findings = compare(*sides) + selection_changes(*sides)
    findings.sort(key=lambda f: (f.location, f.rule, f.message))
    findings, unused = apply_exceptions(apply_policy(findings, policy), accepted)
    # the version check looks at what is left breaking, then passes the same policy and exceptions
    checked = version_findings(sides[0], sides[1], findings)
    versions, unused_too = apply_exceptions(apply_policy(checked, policy), accepted)
    findings = sorted(findings + versions, key=lambda f: (f.location, f.rule, f.message))
    unused = [e for e in unused if e in unused_too]
    print(render(findings, unused, args.against, args.error_format, diags))
    return EXIT_BREAKING if any(fails(f, args.fail_on) for f in findings) else EXIT_OK
