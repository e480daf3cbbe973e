"""The version check of ``toolgen breaking``: a family file whose tools break must say so.

Each family file has a ``version:``. When a finding at error level that no exception accepts
reaches a family, its new ``version`` must be higher than the old one; otherwise the family is
reported (FAMILY_VERSION_NOT_BUMPED, at its ``version:`` line), once, with how many findings
reach it and the version to write.
"""

from __future__ import annotations

from .findings import Collector, Finding
from .side import Side


def version_findings(old: Side, new: Side, findings: list[Finding]) -> list[Finding]:
    """FAMILY_VERSION_NOT_BUMPED for each family an unaccepted error reaches and that kept its version."""
    reached: dict[str, int] = {}
    for finding in findings:
        if finding.breaking and finding.excepted is None:
            for family in finding.families:
                reached[family] = reached.get(family, 0) + 1
    out = Collector()
    for name, count in reached.items():
        if name not in old.families or name not in new.families:
            continue  # a family added or removed is its own finding
        was, now = old.families[name][0], new.families[name][0]
        if now.version <= was.version:
            out.add(
                "FAMILY_VERSION_NOT_BUMPED",
                new.at(now.source, ("version",)),
                f"family {name!r} has {count} breaking change{'s' if count != 1 else ''} but its version is still "
                f"{now.version} (was {was.version}): write version: {was.version + 1}",
                family=name,
            )
    return out.findings()
