"""Exceptions from toolgen.yaml, and the report (text, github, json; markdown and junit in renderers.py).

``breaking: exceptions:`` lists accepted breaking changes, each a rule id, optionally narrowed to
one tool, with a written reason. A finding an exception matches is shown as excepted (with the
reason) and does not count as breaking. Exceptions that match nothing are listed, so that stale
ones can be removed.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from ..diagnostics import Diagnostics, Location, github_annotation, printable
from ..load import SourceFile
from ..validate import suggest
from .findings import Finding
from .renderers import fingerprint, junit, markdown
from .rules import RULES


@dataclass(frozen=True)
class Accepted:
    """One entry of ``breaking.exceptions``."""

    rule: str
    tool: str | None
    reason: str
    location: Location

    def matches(self, finding: Finding) -> bool:
        return finding.rule == self.rule and (self.tool is None or self.tool == finding.tool)

    def describe(self) -> str:
        return self.rule + (f" (tool {self.tool!r})" if self.tool else "")


def read_exceptions(project: SourceFile, tool_ids: Iterable[str], diags: Diagnostics) -> list[Accepted]:
    """The exceptions of the new side's toolgen.yaml (already checked against the meta-schema).

    A rule id that does not exist is E340 and a tool neither side knows E341, with the closest
    name as a hint, and a second exception for the same rule and tool E131; ``tool_ids`` are the
    ids of both sides (a removed tool can be excepted).
    """
    known_tools = sorted(set(tool_ids))
    result: list[Accepted] = []
    block = (project.data or {}).get("breaking") or {}
    for i, entry in enumerate(block.get("exceptions") or ()):
        at = ("breaking", "exceptions", i)
        rule, tool = entry["rule"], entry.get("tool")
        if rule not in RULES:
            hint = suggest(rule, RULES) or "see docs/breaking.md for the rule ids"
            diags.error(project.loc(at + ("rule",)), "E340", f"unknown rule id {rule!r} in a breaking exception", hint)
            continue
        if tool is not None and tool not in known_tools:
            hint = suggest(tool, known_tools) or "name a tool id of the old or the new specs, or leave 'tool' out"
            diags.error(project.loc(at + ("tool",)), "E341", f"breaking exception names unknown tool {tool!r}", hint)
            continue
        accepted = Accepted(rule, tool, entry["reason"], project.loc(at, key=True))
        first = next((e for e in result if (e.rule, e.tool) == (rule, tool)), None)
        if first is not None:  # the second would never match anything, and be listed as unused
            message = (
                f"a second breaking exception for {accepted.describe()} (the first is on line {first.location.line})"
            )
            diags.error(accepted.location, "E131", message, "remove one of them (one reason is enough)")
            continue
        result.append(accepted)
    return result


def apply_exceptions(findings: list[Finding], exceptions: list[Accepted]) -> tuple[list[Finding], list[Accepted]]:
    """The findings with excepted ones marked, and the exceptions that matched no breaking finding."""
    used: set[int] = set()
    result = []
    for finding in findings:
        # the exception for the finding's tool wins over one for its whole rule, wherever each is listed
        matching = [i for i, e in enumerate(exceptions) if finding.breaking and e.matches(finding)]
        match = min(matching, key=lambda i: (exceptions[i].tool is None, i), default=None)
        if match is not None:
            used.add(match)
            finding = replace(finding, excepted=exceptions[match].reason)
        result.append(finding)
    return result, [e for i, e in enumerate(exceptions) if i not in used]


def counts(findings: list[Finding]) -> dict[str, int]:
    breaking = sum(f.breaking and f.excepted is None for f in findings)
    excepted = sum(f.excepted is not None for f in findings)
    return {"breaking": breaking, "excepted": excepted, "info": len(findings) - breaking - excepted}


def _status(finding: Finding) -> str:
    if finding.excepted is not None:
        return "excepted"
    return "breaking" if finding.breaking else "info"


def _scope(finding: Finding) -> str:
    parts = []
    if finding.families:
        parts.append("families: " + ", ".join(finding.families))
    if finding.formats:
        parts.append("formats: " + ", ".join(finding.formats))
    return f" [{'; '.join(parts)}]" if parts else ""


def _full_message(finding: Finding) -> str:
    text = finding.message + _scope(finding)
    if finding.excepted is not None:
        text += f" (excepted: {finding.excepted})"
    return text


def render(findings: list[Finding], unused: list[Accepted], against: str, fmt: str, diags: Diagnostics) -> str:
    """The report; a text report ends with a summary line, a JSON one holds the run's diagnostics
    and their error count (not 0 only when the run could not compare: exit 2, no findings)."""
    total = counts(findings)
    if fmt == "markdown":
        return markdown(findings, against, diags.where)
    if fmt == "junit":
        return junit(findings, against, diags.where)
    if fmt == "json":
        data = {
            "against": against,
            "errors": sum(d.severity == "error" for d in diags.sorted()),
            **total,
            "findings": [_json(f, diags.where) for f in findings],
            "diagnostics": [d.to_json(diags.where) for d in diags.sorted()],
            "unused_exceptions": [
                {"rule": e.rule, "tool": e.tool, "path": diags.where(e.location.path), "line": e.location.line}
                for e in unused
            ],
        }
        return json.dumps(data, indent=2, ensure_ascii=False)
    if fmt == "github":
        lines = [
            github_annotation(
                "error" if _status(f) == "breaking" else "notice", f.location, f.rule, _full_message(f), diags.where
            )
            for f in findings
        ]
        lines += [github_annotation("warning", e.location, "unused-exception", _unused(e), diags.where) for e in unused]
        return "\n".join(lines)
    lines = []
    for f in findings:
        lines.append(f"{f.location.place(diags.where)}: {_status(f)}[{f.rule}]: {printable(_full_message(f))}")
    for e in unused:
        lines.append(f"{e.location.place(diags.where)}: note: {printable(_unused(e))}")
    summary = ", ".join(f"{n} {name}" for name, n in total.items())
    lines.append(f"toolgen breaking: {summary} (against {printable(against)})")
    return "\n".join(lines)


def _unused(exception: Accepted) -> str:
    return f"the exception for {exception.describe()} matches no breaking change; remove it"


def _json(finding: Finding, where: Callable[[str], str]) -> dict[str, object]:
    return {
        "rule": finding.rule,
        "fingerprint": fingerprint(finding, where),
        "breaking": finding.breaking,
        "excepted": finding.excepted,
        "path": where(finding.location.path),
        "line": finding.location.line,
        "col": finding.location.col,
        "tool": finding.tool,
        "families": list(finding.families),
        "formats": list(finding.formats),
        "message": finding.message,
    }
