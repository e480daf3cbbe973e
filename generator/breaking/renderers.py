"""The report for people and for other tools: a Markdown changelog, JUnit XML, and the stable
fingerprint each finding carries in every machine-read format.

The changelog groups the findings as release notes do (added, changed, deprecated, removed), each
line naming its families and formats. JUnit XML has one test case per finding: a breaking one
fails, an excepted one is skipped with its reason, information passes; CI systems that read JUnit
(GitLab, Jenkins, Azure) show them without a plugin. The fingerprint hashes what identifies a
change (rule, file, tool, message), not its line, so a CI can tell the same finding across runs
even after lines moved.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from xml.sax.saxutils import escape, quoteattr

from .findings import Finding
from .rules import RULES

Where = Callable[[str], str]

_SECTIONS = ("Added", "Changed", "Deprecated", "Removed")


def fingerprint(finding: Finding, where: Where) -> str:
    """16 hex digits that stay the same for the same change, wherever its line moves."""
    parts = (finding.rule, where(finding.location.path), finding.tool or "", finding.message)
    return hashlib.sha256("\0".join(parts).encode("utf-8", "surrogatepass")).hexdigest()[:16]


def section(rule: str) -> str:
    """The changelog section of a rule: what it says happened to the thing it names."""
    if rule.endswith(("_ADDED", "_RAISED")) or rule == "PARAMETER_MADE_OPTIONAL":
        return "Added"
    if rule.startswith("DEPRECATED") or rule.endswith("_DEPRECATED"):
        return "Deprecated"
    if rule.endswith(("_REMOVED", "_REMOVED_FROM_FAMILY")):
        return "Removed"
    return "Changed"


def markdown(findings: list[Finding], against: str, where: Where) -> str:
    """Release notes: one section per kind of change, breaking ones first and marked."""
    lines = [f"## Changes since {_md(against)}", ""]
    if not findings:
        return "\n".join([*lines, "No changes a model, a host or the wire sees."]) + "\n"
    for title in _SECTIONS:
        found = [f for f in findings if section(f.rule) == title]
        if not found:
            continue
        found.sort(key=lambda f: (not (f.breaking and f.excepted is None), f.location, f.rule, f.message))
        lines += [f"### {title}", ""]
        for f in found:
            mark = "**Breaking:** " if f.breaking and f.excepted is None else ""
            scope = []
            if f.families:
                scope.append("families " + ", ".join(_code(x) for x in f.families))
            if f.formats:
                scope.append("formats " + ", ".join(_code(x) for x in f.formats))
            tail = f" ({'; '.join(scope)})" if scope else ""
            excepted = f" Accepted: {_md(f.excepted)}." if f.excepted is not None else ""
            lines.append(f"- {mark}{_md(f.text)}{tail} {_code(f.rule)}.{excepted}")
        lines.append("")
    return "\n".join(lines)


def junit(findings: list[Finding], against: str, where: Where) -> str:
    """A JUnit XML report: breaking findings fail, excepted ones are skipped, the rest pass."""
    failures = sum(f.breaking and f.excepted is None for f in findings)
    skipped = sum(f.excepted is not None for f in findings)
    name = quoteattr(f"toolgen breaking against {against}")
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<testsuites name={name} tests="{len(findings)}" failures="{failures}" skipped="{skipped}">',
        f'  <testsuite name={name} tests="{len(findings)}" failures="{failures}" skipped="{skipped}">',
    ]
    for f in findings:
        path = where(f.location.path)
        case = quoteattr(f"{f.rule} {fingerprint(f, where)}: {f.text}")
        out.append(f"    <testcase classname={quoteattr(path)} name={case} file={quoteattr(path)} "
                   f'line="{f.location.line}">')
        detail = escape(f"{f.location.place(where)}: {f.text}\n{RULES[f.rule].summary}")
        if f.excepted is not None:
            out.append(f"      <skipped message={quoteattr('excepted: ' + f.excepted)}/>")
        elif f.breaking:
            out.append(f"      <failure type={quoteattr(f.rule)} message={quoteattr(f.text)}>{detail}</failure>")
        else:
            out.append(f"      <system-out>{detail}</system-out>")
        out.append("    </testcase>")
    out += ["  </testsuite>", "</testsuites>"]
    return "\n".join(_xml_text(line) for line in out)


def _xml_text(line: str) -> str:
    """``line`` with the characters XML 1.0 cannot hold as \\uXXXX (spec text is data: kept
    readable, never dropped)."""
    return "".join(
        ch if ch in "\t\n\r" or 0x20 <= ord(ch) <= 0xD7FF or 0xE000 <= ord(ch) <= 0xFFFD or ord(ch) > 0xFFFF
        else f"\\u{ord(ch):04x}"
        for ch in line
    )


def _md(text: str) -> str:
    """``text`` safe inside Markdown prose: characters that start markup are escaped."""
    return "".join(f"\\{ch}" if ch in "\\`*_[]<>|#" else ch for ch in text.replace("\n", " "))


def _code(text: str) -> str:
    """``text`` as a Markdown code span (a longer fence when it holds a backtick)."""
    fence = "``" if "`" in text else "`"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"
