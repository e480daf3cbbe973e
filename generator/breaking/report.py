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
    """One entry of ``breaking.exceptions``: a rule, optionally narrowed by tool, parameter,
    family and format (each that is given must hold), and the reason."""

    rule: str
    tool: str | None
    reason: str
    location: Location
    parameter: str | None = None
    family: str | None = None
    format: str | None = None

    def matches(self, finding: Finding) -> bool:
        return (
            finding.rule == self.rule
            and self.tool in (None, finding.tool)
            and self.parameter in (None, finding.parameter)
            and (self.family is None or self.family in finding.families)
            and (self.format is None or self.format in finding.formats)
        )

    @property
    def scope(self) -> tuple[str | None, ...]:
        return (self.tool, self.parameter, self.family, self.format)

    def narrowness(self) -> int:
        """How many scopes the exception names: the narrowest matching one applies."""
        return sum(part is not None for part in self.scope)

    def describe(self) -> str:
        keys = ("tool", "parameter", "family", "format")
        named = [f"{k} {v!r}" for k, v in zip(keys, self.scope, strict=True) if v is not None]
        return self.rule + (f" ({', '.join(named)})" if named else "")


def read_exceptions(
    project: SourceFile,
    tool_ids: Iterable[str],
    diags: Diagnostics,
    families: Iterable[str] = (),
    formats: Iterable[str] = (),
) -> list[Accepted]:
    """The exceptions of the new side's toolgen.yaml (already checked against the meta-schema).

    A rule id that does not exist is E340, and a tool, family or format neither side knows E341,
    with the closest name as a hint; a second exception for the same rule and scope is E131.
    ``tool_ids``, ``families`` and ``formats`` are those of both sides (a removed one can be
    excepted).
    """
    known = {"tool": sorted(set(tool_ids)), "family": sorted(set(families)), "format": sorted({"xml", *formats})}
    result: list[Accepted] = []
    block = (project.data or {}).get("breaking") or {}
    for i, entry in enumerate(block.get("exceptions") or ()):
        at = ("breaking", "exceptions", i)
        rule = entry["rule"]
        if rule not in RULES:
            hint = suggest(rule, RULES) or "see docs/breaking.md for the rule ids"
            diags.error(project.loc(at + ("rule",)), "E340", f"unknown rule id {rule!r} in a breaking exception", hint)
            continue
        bad = False
        for key, names in known.items():
            value = entry.get(key)
            if value is not None and (names or key == "format") and value not in names:
                hint = suggest(value, names) or f"name a {key} of the old or the new specs, or leave {key!r} out"
                message = f"breaking exception names unknown {key} {value!r}"
                diags.error(project.loc(at + (key,)), "E341", message, hint)
                bad = True
        if bad:
            continue
        accepted = Accepted(
            rule,
            entry.get("tool"),
            entry["reason"],
            project.loc(at, key=True),
            entry.get("parameter"),
            entry.get("family"),
            entry.get("format"),
        )
        first = next((e for e in result if (e.rule, e.scope) == (rule, accepted.scope)), None)
        if first is not None:  # the second would never match anything, and be listed as unused
            message = (
                f"a second breaking exception for {accepted.describe()} (the first is on line {first.location.line})"
            )
            diags.error(accepted.location, "E131", message, "remove one of them (one reason is enough)")
            continue
        result.append(accepted)
    return result


def apply_exceptions(findings: list[Finding], exceptions: list[Accepted]) -> tuple[list[Finding], list[Accepted]]:
    """The findings with excepted ones marked, and the exceptions that matched no finding.

    Exceptions accept findings at error and warning level. The narrowest matching exception
    applies (then the first listed). One scoped to a family or a format accepts the finding for
    that family or format only: a finding that reaches others too is split, the rest still
    reported.
    """
    used: set[int] = set()
    result = []
    for finding in findings:
        if finding.severity not in ("error", "warning"):
            result.append(finding)
            continue
        matching = [i for i, e in enumerate(exceptions) if e.matches(finding)]
        match = min(matching, key=lambda i: (-exceptions[i].narrowness(), i), default=None)
        if match is None:
            result.append(finding)
            continue
        used.add(match)
        accepted = exceptions[match]
        rest_families = tuple(f for f in finding.families if accepted.family not in (None, f))
        rest_formats = tuple(f for f in finding.formats if accepted.format not in (None, f))
        if rest_families or rest_formats:  # part of the finding is not what was accepted
            rest = replace(finding, families=rest_families or finding.families, formats=rest_formats or finding.formats)
            result.append(rest)
            finding = replace(
                finding,
                families=(accepted.family,) if accepted.family is not None else finding.families,
                formats=(accepted.format,) if accepted.format is not None else finding.formats,
            )
        result.append(replace(finding, excepted=accepted.reason))
    return result, [e for i, e in enumerate(exceptions) if i not in used]


def counts(findings: list[Finding]) -> dict[str, int]:
    breaking = sum(f.severity == "error" and f.excepted is None for f in findings)
    warnings = sum(f.severity == "warning" and f.excepted is None for f in findings)
    excepted = sum(f.excepted is not None for f in findings)
    info = len(findings) - breaking - warnings - excepted
    return {"breaking": breaking, "warnings": warnings, "excepted": excepted, "info": info}


def _status(finding: Finding) -> str:
    if finding.excepted is not None:
        return "excepted"
    return {"error": "breaking", "warning": "warning"}.get(finding.severity, "info")


def _scope(finding: Finding) -> str:
    parts = []
    if finding.families:
        parts.append("families: " + ", ".join(finding.families))
    if finding.formats:
        parts.append("formats: " + ", ".join(finding.formats))
    return f" [{'; '.join(parts)}]" if parts else ""


def _full_message(finding: Finding) -> str:
    text = finding.text + _scope(finding)
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
                {
                    "rule": e.rule,
                    "tool": e.tool,
                    "parameter": e.parameter,
                    "family": e.family,
                    "format": e.format,
                    "path": diags.where(e.location.path),
                    "line": e.location.line,
                }
                for e in unused
            ],
        }
        return json.dumps(data, indent=2, ensure_ascii=False)
    if fmt == "github":
        lines = [
            github_annotation(
                _ANNOTATION[_status(f)], f.location, f.rule, _full_message(f), diags.where
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


_ANNOTATION = {"breaking": "error", "warning": "warning", "info": "notice", "excepted": "notice"}


def _unused(exception: Accepted) -> str:
    return f"the exception for {exception.describe()} matches no breaking change or warning; remove it"


def _json(finding: Finding, where: Callable[[str], str]) -> dict[str, object]:
    return {
        "rule": finding.rule,
        "fingerprint": fingerprint(finding, where),
        "breaking": finding.breaking,
        "level": finding.severity,
        "excepted": finding.excepted,
        "path": where(finding.location.path),
        "line": finding.location.line,
        "col": finding.location.col,
        "tool": finding.tool,
        "parameter": finding.parameter,
        "families": list(finding.families),
        "formats": list(finding.formats),
        "message": finding.text,
    }
