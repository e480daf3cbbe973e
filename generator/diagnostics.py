"""Diagnostics as values: every stage appends to one collector, the CLI prints them once.

Every path a message names is printed relative to the current directory (``shown``), so that it
resolves from wherever toolgen runs: a spec file's Location carries its in-run name
(``specs/tools/x.yaml``, mapped by ``SpecFolder``), any other file's ``file_location(path)``;
``path_error`` formats a path-only error. Do not build paths for messages by hand.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
from collections.abc import Callable, Iterable
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


def shown(path: str | os.PathLike[str]) -> str:
    """How a file is named in every message: relative to the current directory, so that it resolves
    from wherever toolgen runs (and GitHub annotations land on the file); absolute only when no
    relative path exists (another drive on Windows). Use this instead of building names by hand.
    """
    absolute = os.path.abspath(path)
    try:
        relative = os.path.relpath(absolute)
    except ValueError:
        return absolute
    return relative.replace(os.sep, "/")


def github_annotation(kind: str, loc: Location, title: str, message: str, where: Callable[[str], str] = str) -> str:
    """A GitHub Actions workflow command (``::error file=...::message``), escaped as it requires."""
    if not loc.line:  # a command-line argument: no file to annotate, so the message names it
        message = f"{loc.path}: {message}"
    text = _command_escape(printable(message, keep="\r\n"))
    if not loc.line:
        return f"::{kind} title={title}::{text}"
    # Workflow-command properties also escape ':' and ',' (they separate the properties).
    path = _command_escape(printable(where(loc.path))).replace(":", "%3A").replace(",", "%2C")
    return f"::{kind} file={path},line={loc.line},col={loc.col},title={title}::{text}"


def _command_escape(text: str) -> str:
    """Escape what a workflow command's data cannot hold raw: '%' and line breaks."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def as_given(path: str) -> str:
    """A Location's path for a message when no spec folder maps it: a file's (absolute) relative to
    the current directory, anything else (an in-run name, an argument) as it is."""
    return shown(path) if os.path.isabs(path) else path


@dataclass(frozen=True)
class SpecFolder:
    """Maps the names spec files carry inside a run (``<folder name>/tools/x.yaml``, the same names
    generated headers use, so that output never depends on the cwd) to names for messages (:func:`shown`)."""

    name: str  # the spec folder's name as headers show it
    folder: str  # its absolute path

    def __call__(self, path: str) -> str:
        if path == self.name or path.startswith(self.name + "/"):
            return shown(os.path.join(self.folder, *path.split("/")[1:]))
        return as_given(path)


@dataclass(frozen=True, order=True)
class Location:
    """A position in a file; line and column are 1-based.

    ``path`` is a spec file's name inside the run (``specs/tools/x.yaml``, see :class:`SpecFolder`)
    or the absolute path of any other file (see :func:`file_location`); both are printed relative
    to the current directory. Line 0 marks a location that is no file: ``path`` is then a
    command-line argument as typed (see :func:`argument_location`), printed as it is.
    """

    path: str
    line: int = 1
    col: int = 1

    def place(self, where: Callable[[str], str] = str) -> str:
        """How a text message names it: ``path:line:col`` (the path through ``where``), or the
        argument as typed when it is none (line 0); control characters escaped."""
        return printable(self.path) if not self.line else f"{printable(where(self.path))}:{self.line}:{self.col}"


@dataclass(frozen=True)
class Diagnostic:
    """One finding: where, a stable code, what is wrong, and what to do about it."""

    location: Location
    code: str
    message: str
    hint: str = ""
    severity: Severity = "error"

    def format_text(self, where: Callable[[str], str] = str) -> str:
        """``path:line:col: severity[CODE]: message`` and a hint line; see :func:`printable`."""
        text = f"{self.location.place(where)}: {self.severity}[{self.code}]: {printable(self.message)}"
        if self.hint:
            text += f"\n  hint: {printable(self.hint)}"
        return text

    def format_github(self, where: Callable[[str], str] = str) -> str:
        message = self.message + (f" (hint: {self.hint})" if self.hint else "")
        return github_annotation(self.severity, self.location, self.code, message, where)

    def to_json(self, where: Callable[[str], str] = str) -> dict[str, object]:
        data = asdict(self)
        data.update(data.pop("location"))
        data["path"] = where(self.location.path) if self.location.line else self.location.path
        return data


def path_error(path: str | os.PathLike[str], code: str, message: str, hint: str) -> str:
    """The text form of an error that has a path and no line (outputs, flags): ``path: error[CODE]: ...``."""
    text = f"{printable(shown(path))}: error[{code}]: {printable(message)}"
    return text + (f"\n  hint: {printable(hint)}" if hint else "")


def one_error(diagnostic: Diagnostic, fmt: str) -> str:
    """One error outside a spec run (a flag, an output folder, an input file) in ``fmt``: a file
    has no line, so its text form is :func:`path_error`'s; in JSON a list of one, as every list."""
    if fmt == "text" and diagnostic.location.line:
        return path_error(diagnostic.location.path, diagnostic.code, diagnostic.message, diagnostic.hint)
    return Diagnostics([diagnostic]).render(fmt) if fmt != "text" else diagnostic.format_text()


def emit(text: str, fmt: str) -> None:
    """Print rendered diagnostics where ``fmt`` belongs: text (for people) on stderr, github and
    json (for tools to read) on stdout. Nothing is printed for empty text."""
    if text:
        print(text, file=sys.stderr if fmt == "text" else sys.stdout)


def file_location(path: str | os.PathLike[str]) -> Location:
    """The location of a file that is not a spec file (an output, a flag's path): no line exists."""
    return Location(os.path.abspath(path))


def argument_location(option: str, value: str | None = None) -> Location:
    """The location of a command-line argument that names no file (``--against HEAD~1``, a tool
    id): the argument as one would type it, never empty, with no line (see :class:`Location`)."""
    return Location(option if value is None else f"{option} {shlex.quote(value)}", 0, 0)


@dataclass
class Diagnostics:
    """Collects findings across stages; ordered output regardless of discovery order."""

    items: list[Diagnostic] = field(default_factory=list)
    specs: SpecFolder | None = None  # set by the pipeline: how spec file names are printed

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

    def where(self, path: str) -> str:
        """How ``path`` (a Location's) is printed: relative to the current directory."""
        return self.specs(path) if self.specs is not None else as_given(path)

    def render(self, fmt: str = "text") -> str:
        items = self.sorted()
        if fmt == "json":
            return json.dumps([d.to_json(self.where) for d in items], indent=2, ensure_ascii=False)
        if fmt == "github":
            return "\n".join(d.format_github(self.where) for d in items)
        lines = [d.format_text(self.where) for d in items]
        errors = sum(d.severity == "error" for d in items)
        warnings = len(items) - errors
        if items:
            lines.append(f"{errors} error(s), {warnings} warning(s)")
        return "\n".join(lines)
