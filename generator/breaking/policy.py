"""A project's policy for ``toolgen breaking``: the level of each rule, and whom to protect.

What breaks depends on who consumes the output, so toolgen.yaml says it::

    breaking:
      protect: model          # model, host or both (the default)
      levels:                 # any rule, to error, warning, info or off
        DESCRIPTION_CHANGED: off
        TOOL_ADDED: warning

A rule's level is the one ``levels`` gives it; else ``off`` when its audience (rules.py) is one
``protect`` leaves out; else its default (a breaking kind of change is an error, any other
information). Findings at ``off`` are dropped. ``--fail-on`` sets the lowest level that fails
the run (default ``error``); exceptions accept findings at ``error`` and ``warning``.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ..diagnostics import Diagnostics
from ..load import SourceFile
from ..validate import suggest
from .findings import Finding
from .rules import RULES

LEVELS = ("off", "info", "warning", "error")
"""From least to most severe."""
PRESETS = {
    "both": frozenset({"model", "host", "both"}),
    "model": frozenset({"model", "both"}),
    "host": frozenset({"host", "both"}),
}
"""The audiences (rules.py) each ``protect`` value keeps."""


REMOVALS = frozenset({"TOOL_REMOVED", "PARAMETER_REMOVED", "ENUM_VALUE_REMOVED"})
"""The rules whose finding can be the announced removal of something deprecated."""


@dataclass(frozen=True)
class Policy:
    protect: str = "both"
    levels: Mapping[str, str] = field(default_factory=dict)
    today: str = ""
    """The date (YYYY-MM-DD) removal dates are compared with: ``--today``, else the run's own."""

    def level(self, rule: str) -> str:
        """The level findings of ``rule`` get."""
        if rule in self.levels:
            return self.levels[rule]
        if RULES[rule].audience not in PRESETS[self.protect]:
            return "off"
        return RULES[rule].level


def read_policy(project: SourceFile, diags: Diagnostics, today: str = "") -> Policy:
    """The policy of the new side's toolgen.yaml (its shape checked by the meta-schema); a rule id
    that does not exist is E340, with the closest id as a hint."""
    block: Any = (project.data or {}).get("breaking") or {}
    levels: dict[str, str] = {}
    for rule, level in (block.get("levels") or {}).items():
        if rule not in RULES:
            hint = suggest(rule, RULES) or "see docs/breaking.md for the rule ids"
            diags.error(project.loc(("breaking", "levels", rule), key=True), "E340", f"unknown rule id {rule!r}", hint)
            continue
        levels[rule] = level
    return Policy(block.get("protect") or "both", levels, today or datetime.date.today().isoformat())


def apply_policy(findings: list[Finding], policy: Policy) -> list[Finding]:
    """The findings with their levels set; those at ``off`` are left out.

    The removal of something deprecated is information from its removal date on (at any time
    when it has none), and keeps its rule's level before that date; its message says which.
    """
    result = []
    for finding in findings:
        level = policy.level(finding.rule)
        marker = finding.deprecation if finding.rule in REMOVALS else None
        note = ""
        if marker is not None and level != "off":
            if marker.removal is None or marker.removal <= policy.today:
                level = "info" if LEVELS.index(level) > LEVELS.index("info") else level
                since = f" since {marker.removal}" if marker.removal else ""
                note = f" (it was deprecated; removal allowed{since})"
            else:
                note = f" (it is deprecated, but may be removed only after {marker.removal})"
        if level != "off":
            result.append(replace(finding, level=level, note=note))
    return result


def fails(finding: Finding, fail_on: str) -> bool:
    """Does ``finding`` fail a run whose threshold is ``fail_on``? (Excepted ones never do.)"""
    return finding.excepted is None and LEVELS.index(finding.severity) >= LEVELS.index(fail_on)
