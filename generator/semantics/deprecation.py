"""``deprecated:`` markers of tools, parameters and enum values: read, checked (E318), and
written into the text the model reads, so a model learns what to stop using before it goes.

The marker is ``true`` or ``{note, removal}`` (the meta-schema checks the shape and the
YYYY-MM-DD form); here a removal date must be a real date, and a deprecated value a member of
the parameter's enum. ``toolgen breaking`` reads the markers of the old specs: removing what was
deprecated is information from its removal date on (any time without one), a break before it.
"""

from __future__ import annotations

import datetime
import json
from typing import Any

from ..load import PathKey, SourceFile
from ..model import Deprecation, Text, TextPiece
from .common import Scope


def read_deprecation(scope: Scope, src: SourceFile, value: Any, at: PathKey) -> Deprecation | None:
    """The marker at ``at`` (None when absent or unusable; E318 for a date that does not exist)."""
    if value is None or value is False:
        return None
    if value is True:
        return Deprecation()
    if not isinstance(value, dict):
        return None  # the meta-schema reports the shape
    removal = value.get("removal")
    if isinstance(removal, str) and not _real_date(removal):
        scope.diags.error(
            src.loc(at + ("removal",)),
            "E318",
            f"removal date {removal!r} is not a date of the calendar",
            "write the date as YYYY-MM-DD, e.g. 2027-06-30",
        )
        removal = None
    note = value.get("note")
    return Deprecation(note if isinstance(note, str) else None, removal if isinstance(removal, str) else None)


def read_deprecated_values(
    scope: Scope, src: SourceFile, entries: Any, allowed: list[Any] | None, at: PathKey
) -> tuple[tuple[Any, Deprecation], ...]:
    """The deprecated enum values, each a member of ``allowed`` (the enum, or [const]) or E318."""
    found: list[tuple[Any, Deprecation]] = []
    for i, entry in enumerate(entries if isinstance(entries, list) else ()):
        if not isinstance(entry, dict) or "value" not in entry:
            continue
        value = entry["value"]
        if allowed is None or not any(type(v) is type(value) and v == value for v in allowed):
            scope.diags.error(
                src.loc(at + (i, "value")),
                "E318",
                f"deprecated value {json.dumps(value, ensure_ascii=False)} is not a value of the parameter's enum",
                "name a value the enum lists (the deprecated value stays in the enum until it is removed)",
            )
            continue
        marker = read_deprecation(scope, src, {k: v for k, v in entry.items() if k != "value"}, at + (i,))
        found.append((value, marker or Deprecation()))
    return tuple(found)


def marked(text: Text, sentence: str, separator: str = " ") -> Text:
    """``text`` with ``sentence`` appended as a piece of its own (shown in every context)."""
    if not text:
        return (TextPiece(sentence),)
    return (*text, TextPiece(separator + sentence))


def values_sentence(values: tuple[tuple[Any, Deprecation], ...]) -> str:
    """What the model reads about deprecated enum values."""
    parts = []
    for value, marker in values:
        shown = json.dumps(value, ensure_ascii=False)
        parts.append(f"{shown} ({marker.note})" if marker.note else shown)
    return f"Deprecated values: {', '.join(parts)}; avoid them."


def _real_date(text: str) -> bool:
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        return False
    return True
