"""Short labels for tool calls, such as ``[read_file for 'src/app.ts']``, from spec templates.

A tool spec may declare ``label:``, a template naming the call's parameters in braces:

* ``{path}`` is the value of parameter ``path``;
* ``{path|absolutePath}`` is the first of the alternatives the call gives a value for;
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
from typing import Any

__all__ = [
    "MAX_VALUE_CHARS",
    "MISSING",
    "LabelSyntaxError",
    "escape_label_text",
    "fill_label",
    "label_names",
    "parse_label",
]

MAX_VALUE_CHARS = 60
"""The longest value shown in a label; longer ones are cut and end in an ellipsis."""
MISSING = "\u2026"
"""Shown for a parameter the call does not give (or gives empty)."""

Piece = str | tuple[str, ...]
"""Literal text, or the alternative parameter names of one placeholder."""


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
    text: list[str] = []
    index = 0
    while index < len(template):
        ch = template[index]
        if ch in "{}" and template.startswith(ch * 2, index):
            text.append(ch)
            index += 2
        elif ch == "}":
            raise LabelSyntaxError(index, "a lone '}' (write '}}' for a literal brace)")
        elif ch == "{":
            end = template.find("}", index + 1)
            opened = template.find("{", index + 1)
            if end < 0 or 0 <= opened < end:
                raise LabelSyntaxError(
                    index, "a '{' without its '}' (write '{{' for a literal brace)"
                )
            if text:
                pieces.append("".join(text))
                text = []
            pieces.append(_names(template[index + 1 : end], index))
            index = end + 1
        else:
            text.append(ch)
            index += 1
    if text:
        pieces.append("".join(text))
    return tuple(pieces)


def label_names(template: str) -> tuple[str, ...]:
    """Every parameter name ``template`` mentions, in order, without repeats."""
    seen: dict[str, None] = {}
    for piece in parse_label(template):
        if isinstance(piece, tuple):
            seen.update(dict.fromkeys(piece))
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
        if isinstance(piece, str):
            out.append(piece)
            continue
        shown = None
        for name in piece:
            shown = _shown(values.get(name))
            if shown is not None:
                break
        out.append(MISSING if shown is None else shown)
    return "".join(out)
