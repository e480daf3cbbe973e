"""A finding of ``toolgen breaking``, and the collector that merges findings shared by families."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..diagnostics import Location
from ..model import FORMATS, Deprecation
from .rules import RULES

#: The text path's "format": the XML tools section of the system prompt, sent by every family.
TEXT_FORMAT = "xml"
#: The order formats are listed in: the text path, then the native formats as declared.
FORMAT_ORDER = (TEXT_FORMAT, *FORMATS)


@dataclass(frozen=True)
class Finding:
    """One change: its rule, where it is (new specs; old specs for what is gone), who it affects."""

    rule: str
    location: Location
    message: str
    tool: str | None = None
    families: tuple[str, ...] = ()
    formats: tuple[str, ...] = ()
    excepted: str | None = None
    """The reason of the exception in toolgen.yaml that accepts this change, if one does."""
    parameter: str | None = None
    """The parameter the change is about (its top-level name), for exceptions scoped to one."""
    level: str = ""
    """The level the project's policy gives the finding (policy.py); "" before it is applied."""
    deprecation: Deprecation | None = None
    """For a removal: the ``deprecated:`` marker the removed thing had (policy.py reads it)."""
    note: str = ""
    """What the policy adds to the message on the run's date (the deprecation's state); kept apart
    so the fingerprint, which hashes the message, does not change when a removal date passes."""

    @property
    def text(self) -> str:
        """The message as shown: the change, then the policy's note."""
        return self.message + self.note

    @property
    def severity(self) -> str:
        """``error``, ``warning`` or ``info``: the policy's level, else the rule's default."""
        return self.level or RULES[self.rule].level

    @property
    def breaking(self) -> bool:
        return self.severity == "error"


@dataclass
class Collector:
    """Findings in discovery order; the same change seen in several families is one finding.

    Two findings are the same change when rule, tool, location and message agree; their
    families and formats are joined (in first-seen order: families are visited in selection order).
    """

    items: dict[tuple[str, str | None, Location, str], tuple[list[str], list[str]]] = field(default_factory=dict)
    parameters: dict[tuple[str, str | None, Location, str], str] = field(default_factory=dict)
    deprecations: dict[tuple[str, str | None, Location, str], Deprecation] = field(default_factory=dict)

    def add(
        self,
        rule: str,
        location: Location,
        message: str,
        *,
        tool: str | None = None,
        family: str | None = None,
        formats: tuple[str, ...] = (),
        parameter: str | None = None,
        deprecation: Deprecation | None = None,
    ) -> None:
        assert rule in RULES, rule
        families, known = self.items.setdefault((rule, tool, location, message), ([], []))
        if parameter is not None:
            self.parameters[(rule, tool, location, message)] = parameter
        if deprecation is not None:
            self.deprecations[(rule, tool, location, message)] = deprecation
        if family is not None and family not in families:
            families.append(family)
        known.extend(f for f in formats if f not in known)

    def findings(self) -> list[Finding]:
        """Every finding, ordered by location, then rule and message (the same bytes on every run)."""
        rank = {name: i for i, name in enumerate(FORMAT_ORDER)}
        result = [
            Finding(
                rule,
                location,
                message,
                tool,
                tuple(families),
                tuple(sorted(formats, key=rank.__getitem__)),
                parameter=self.parameters.get(key),
                deprecation=self.deprecations.get(key),
            )
            for key, (families, formats) in self.items.items()
            for rule, tool, location, message in (key,)
        ]
        return sorted(result, key=lambda f: (f.location, f.rule, f.message))
