"""Diagnostics as values: every stage appends to one collector, the CLI prints them once."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Literal

Severity = Literal["error", "warning"]


def printable(text: str, keep: str = "") -> str:
    """``text`` with every non-printable character written as a Python escape (\\n, \\x1b, \\u202e).

    File names and spec text can hold newlines, terminal escapes or bidirectional controls; printed
    raw they would forge extra diagnostic lines or hide text. Backslashes are left as they are;
    characters in ``keep`` too (the GitHub format encodes line breaks its own way).
    """
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch in keep else repr(ch)[1:-1] for ch in text)


def github_annotation(kind: str, loc: Location, title: str, message: str) -> str:
    """A GitHub Actions workflow command (``::error file=...::message``), escaped as it requires."""
    text = printable(message, keep="\r\n").replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    # Workflow-command properties also escape ':' and ',' (they separate the properties).
    path = printable(loc.path).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    path = path.replace(":", "%3A").replace(",", "%2C")
    return f"::{kind} file={path},line={loc.line},col={loc.col},title={title}::{text}"


@dataclass(frozen=True, order=True)
class Location:
    """A position in a spec file; line and column are 1-based, path is relative to the specs root's parent."""

    path: str
    line: int = 1
    col: int = 1


@dataclass(frozen=True)
class Diagnostic:
    """One finding: where, a stable code, what is wrong, and what to do about it."""

    location: Location
    code: str
    message: str
    hint: str = ""
    severity: Severity = "error"

    def format_text(self) -> str:
        """``path:line:col: severity[CODE]: message`` and a hint line; see :func:`printable`."""
        loc = self.location
        text = f"{printable(loc.path)}:{loc.line}:{loc.col}: {self.severity}[{self.code}]: {printable(self.message)}"
        if self.hint:
            text += f"\n  hint: {printable(self.hint)}"
        return text

    def format_github(self) -> str:
        message = self.message + (f" (hint: {self.hint})" if self.hint else "")
        return github_annotation(self.severity, self.location, self.code, message)

    def to_json(self) -> dict[str, object]:
        data = asdict(self)
        data.update(data.pop("location"))
        return data


@dataclass
class Diagnostics:
    """Collects findings across stages; ordered output regardless of discovery order."""

    items: list[Diagnostic] = field(default_factory=list)

    def error(self, location: Location, code: str, message: str, hint: str = "") -> None:
        self.items.append(Diagnostic(location, code, message, hint, "error"))

    def warning(self, location: Location, code: str, message: str, hint: str = "") -> None:
        self.items.append(Diagnostic(location, code, message, hint, "warning"))

    def extend(self, items: Iterable[Diagnostic]) -> None:
        self.items.extend(items)

    @property
    def has_errors(self) -> bool:
        return any(d.severity == "error" for d in self.items)

    def sorted(self) -> list[Diagnostic]:
        unique = {(d.location, d.code, d.message): d for d in self.items}
        return sorted(unique.values(), key=lambda d: (d.location, d.code, d.message))

    @classmethod
    def from_json(cls, items: list[dict[str, object]]) -> Diagnostics:
        """Diagnostics back from ``to_json`` dicts (the fast path replays a cached run's warnings)."""
        result = cls()
        for item in items:
            location = Location(str(item["path"]), int(str(item["line"])), int(str(item["col"])))
            result.items.append(
                Diagnostic(location, str(item["code"]), str(item["message"]), str(item["hint"]), item["severity"])  # type: ignore[arg-type]
            )
        return result

    def render(self, fmt: str = "text") -> str:
        items = self.sorted()
        if fmt == "json":
            return json.dumps([d.to_json() for d in items], indent=2, ensure_ascii=False)
        if fmt == "github":
            return "\n".join(d.format_github() for d in items)
        lines = [d.format_text() for d in items]
        errors = sum(d.severity == "error" for d in items)
        warnings = len(items) - errors
        if items:
            lines.append(f"{errors} error(s), {warnings} warning(s)")
        return "\n".join(lines)
