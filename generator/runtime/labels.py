"""Short labels for tool calls, such as ``[read_file for 'src/app.ts']``, from spec templates.

A tool spec may declare ``label:``, a template naming the call's parameters in braces:

* ``{path}`` is the value of parameter ``path``;
* ``{path|absolutePath}`` is the first of the alternatives the call gives a value for;
* ``{? in '{pattern}'}`` is an optional part: shown only when the call gives a value for every
  placeholder inside it, and left out whole otherwise (optional parts do not nest);
* ``{{`` and ``}}`` are literal braces; every other character is literal.

The generator checks templates with ``parse_label`` (syntax) and against the declared parameters;
at run time ``fill_label`` fills one from a call's params. Filling never raises: a missing or empty
value becomes ``MISSING``, a value that is not a string is shown as compact JSON, whitespace runs
become one space and a long value is cut to ``MAX_VALUE_CHARS`` ending in an ellipsis.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "MAX_VALUE_CHARS",
    "MISSING",
    "LabelSyntaxError",
    "Optional",
    "escape_label_text",
    "fill_label",
    "label_names",
    "parse_label",
]

MAX_VALUE_CHARS = 60
"""The longest value shown in a label; longer ones are cut and end in an ellipsis."""
MISSING = "\u2026"
"""Shown for a parameter the call does not give (or gives empty)."""

Simple = str | tuple[str, ...]
"""Literal text, or the alternative parameter names of one placeholder."""


@dataclass(frozen=True)
class Optional:
    """An optional part of a template: shown only when every placeholder in it has a value."""

    pieces: tuple[Simple, ...]


Piece = Simple | Optional


class LabelSyntaxError(ValueError):
    """A malformed label template; ``offset`` is the character where the problem starts."""

    def __init__(self, offset: int, message: str) -> None:
        super().__init__(message)
        self.offset = offset
        self.message = message


def _names(body: str, start: int) -> tuple[str, ...]:
    names = tuple(part.strip() for part in body.split("|"))
    for name in names:
        if not name:
            raise LabelSyntaxError(
                start, f"empty parameter name in placeholder '{{{body}}}'"
            )
        if not all(ch.isalnum() or ch in "_-" for ch in name):
            raise LabelSyntaxError(
                start, f"{name!r} in placeholder '{{{body}}}' is not a parameter name"
            )
    return names


@functools.lru_cache(maxsize=256)
def parse_label(template: str) -> tuple[Piece, ...]:
    """The pieces of ``template``; raises ``LabelSyntaxError`` for a malformed one."""
    pieces: list[Piece] = []
    part: list[Simple] | None = None  # the optional part being read, if any
    part_start = 0
    text: list[str] = []

    def flush() -> None:
        if text:
            (pieces if part is None else part).append("".join(text))
            text.clear()

    index = 0
    while index < len(template):
        ch = template[index]
        if ch in "{}" and template.startswith(ch * 2, index):
            text.append(ch)
            index += 2
        elif template.startswith("{?", index):
            if part is not None:
                raise LabelSyntaxError(index, "optional parts '{?...}' do not nest")
            flush()
            part, part_start = [], index
            index += 2
        elif ch == "}":
            if part is None:
                raise LabelSyntaxError(
                    index, "a lone '}' (write '}}' for a literal brace)"
                )
            flush()
            if not any(isinstance(piece, tuple) for piece in part):
                raise LabelSyntaxError(
                    part_start,
                    "an optional part names no parameter, so it would always show",
                )
            pieces.append(Optional(tuple(part)))
            part = None
            index += 1
        elif ch == "{":
            end = template.find("}", index + 1)
            opened = template.find("{", index + 1)
            if end < 0 or 0 <= opened < end:
                raise LabelSyntaxError(
                    index, "a '{' without its '}' (write '{{' for a literal brace)"
                )
            flush()
            (pieces if part is None else part).append(
                _names(template[index + 1 : end], index)
            )
            index = end + 1
        else:
            text.append(ch)
            index += 1
    if part is not None:
        raise LabelSyntaxError(part_start, "an optional part '{?' without its '}'")
    flush()
    return tuple(pieces)


def label_names(template: str) -> tuple[str, ...]:
    """Every parameter name ``template`` mentions, in order, without repeats."""
    seen: dict[str, None] = {}
    for piece in parse_label(template):
        for simple in piece.pieces if isinstance(piece, Optional) else (piece,):
            if isinstance(simple, tuple):
                seen.update(dict.fromkeys(simple))
    return tuple(seen)


def escape_label_text(text: str) -> str:
    """``text`` as literal label text (braces doubled), e.g. a tool name inside a template."""
    return text.replace("{", "{{").replace("}", "}}")


def _shown(value: Any) -> str | None:
    """``value`` as label text, or None when it counts as missing."""
    if value is None:
        return None
    if isinstance(value, str):
        text = value
    else:
        try:
            text = json.dumps(
                value, ensure_ascii=False, separators=(",", ":"), default=repr
            )
        except Exception:  # deep nesting, odd objects: still a label, never an error
            text = type(value).__name__
    text = " ".join(text.split())
    if not text:
        return None
    if len(text) > MAX_VALUE_CHARS:
        text = text[: MAX_VALUE_CHARS - 1].rstrip() + MISSING
    return text


def fill_label(template: str, params: Any) -> str:
    """``template`` filled from ``params`` (a mapping; anything else counts as empty)."""
    try:
        pieces = parse_label(template)
    except (LabelSyntaxError, TypeError):
        return str(template)
    values = params if isinstance(params, Mapping) else {}
    out: list[str] = []
    for piece in pieces:
        if isinstance(piece, Optional):
            shown = [_filled(simple, values) for simple in piece.pieces]
            if all(text is not None for text in shown):
                out.extend(text for text in shown if text is not None)
        else:
            out.append(_filled(piece, values) or MISSING)
    return "".join(out)


def _filled(piece: Simple, values: Mapping[Any, Any]) -> str | None:
    """Literal text as it is; a placeholder's first given value, or None when none is given."""
    if isinstance(piece, str):
        return piece
    for name in piece:
        shown = _shown(values.get(name))
        if shown is not None:
            return shown
    return None
