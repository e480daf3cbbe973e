"""Python literals emitted directly in black's style; toolgen never runs black.

Generated modules are mostly data. Templates emit a small code skeleton, already black-stable,
and the data is spliced in by this module, which reproduces black's stable style for literals:
a collection that fits on its line stays on one line; otherwise it explodes one element per
line with a trailing comma (a lone element is hugged without one), nested collections split at
their own brackets, and atoms that cannot fit are left long. Strings follow black's quote
preference. Widths are measured by textwidth, black's way. The test suite (black pinned in the
test extra) checks that black leaves every generated file unchanged.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Callable, Iterator
from functools import lru_cache
from itertools import repeat
from types import MappingProxyType
from typing import Any, TextIO

from .textwidth import str_width

LINE_LENGTH = 88
INDENT = "    "

_SIMPLE_ESCAPES = {"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape_body(text: str, quote: str) -> str:
    out = []
    for ch in text:
        if ch in _SIMPLE_ESCAPES:
            out.append(_SIMPLE_ESCAPES[ch])
        elif ch == quote:
            out.append("\\" + ch)
        elif not ch.isprintable():
            code = ord(ch)
            if code < 0x100:
                out.append(f"\\x{code:02x}")
            elif code < 0x10000:
                out.append(f"\\u{code:04x}")
            else:
                out.append(f"\\U{code:08x}")
        else:
            out.append(ch)
    return "".join(out)


_PLAIN = re.compile(r"[\x20\x21\x23-\x5b\x5d-\x7e]*")


@lru_cache(maxsize=4096)  # keys and short values repeat; long prose would only pin memory
def string(text: str) -> str:
    """A single-line string literal black would keep: double quotes unless single ones escape less."""
    if _PLAIN.fullmatch(text):
        return f'"{text}"'  # printable ASCII without quotes or backslashes: nothing to escape
    double = _escape_body(text, '"')
    single = _escape_body(text, "'")
    if single.count("\\") < double.count("\\"):
        return f"'{single}'"
    return f'"{double}"'


class Code(str):
    """Python source emitted as is (e.g. the name of another constant); never spec text."""


def atom(value: Any) -> str | None:
    """The literal of a scalar, or None for collections."""
    kind = type(value)
    if kind is str:  # the common cases first: this runs for every value of every literal
        return string(value)
    if kind is dict or kind is tuple or kind is list:
        return None
    if isinstance(value, Code):
        return str(value)
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return repr(value)
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            raise ValueError("non-finite floats have no literal")
        return repr(value)
    if isinstance(value, str):
        return string(value)
    return None


_BRACKETS: dict[type, tuple[str, str]] = {dict: ("{", "}"), tuple: ("(", ")"), list: ("[", "]")}


def _kind(value: Any) -> tuple[str, str]:
    if isinstance(value, (dict, MappingProxyType)):
        return "{", "}"
    if isinstance(value, tuple):
        return "(", ")"
    if isinstance(value, list):
        return "[", "]"
    if isinstance(value, (set, frozenset)):
        raise TypeError("sets have no stable order; emit a sorted tuple instead")
    raise TypeError(f"cannot emit {type(value).__name__} as a literal")


def _items(value: Any) -> list[tuple[str, Any]]:
    """(prefix, element) pairs: 'key: ' for mapping entries, '' for sequence elements."""
    if isinstance(value, (dict, MappingProxyType)):
        return [(_key(key), item) for key, item in value.items()]
    return [("", item) for item in value]


@lru_cache(maxsize=4096, typed=True)  # typed: the keys 1 and True are written differently
def _key(key: Any) -> str:
    """A mapping key's prefix: its literal and ': '."""
    return (string(key) if isinstance(key, str) else str(atom(key))) + ": "


def flat(value: Any) -> str:
    """The one-line form of a value."""
    text = atom(value)
    if text is not None:
        return text
    opening, closing = _kind(value)
    parts = [prefix + flat(item) for prefix, item in _items(value)]
    if opening == "(" and len(parts) == 1:
        return f"({parts[0]},)"
    return opening + ", ".join(parts) + closing


class _Flat:
    """The one-line forms of one literal's values, each container's computed once.

    Laying out a value tries the one-line form of every container on the way down; a value's
    one-line form is needed only when it fits a line, so each container records its form and
    width when they are at most LINE_LENGTH, else None. Widths add up (textwidth), so a
    container's form comes from its elements' in one pass. Containers are keyed by identity:
    they belong to the value being written, which outlives this record.
    """

    def __init__(self) -> None:
        self.seen: dict[int, tuple[str, int] | None] = {}

    def within(self, value: Any, budget: int) -> str | None:
        """The one-line form of ``value`` if it is at most ``budget`` columns wide, else None."""
        found = self.form(value)
        return found[0] if found is not None and found[1] <= budget else None

    def form(self, value: Any) -> tuple[str, int] | None:
        kind = type(value)
        if kind is str:
            found = _string_form(value)
            return found if found[1] <= LINE_LENGTH else None
        if kind is dict or kind is tuple or kind is list:
            key = id(value)
            seen = self.seen
            return seen[key] if key in seen else self._remember(key, value)
        text = atom(value)
        if text is not None:
            width = str_width(text)
            return (text, width) if width <= LINE_LENGTH else None
        key = id(value)
        return self.seen[key] if key in self.seen else self._remember(key, value)

    def _remember(self, key: int, value: Any) -> tuple[str, int] | None:
        found = self._container(value)
        self.seen[key] = found
        return found

    def _container(self, value: Any) -> tuple[str, int] | None:
        opening, closing = _BRACKETS.get(type(value)) or _kind(value)
        used = 2
        parts: list[str] = []
        form = self.form
        # Lazily: a collection of thousands of elements is found too wide after its first few.
        if opening == "{":
            for key, item in value.items():
                prefix, width = _key_form(key)
                inner = _string_form(item) if type(item) is str else form(item)
                if inner is None:
                    return None
                used += width + inner[1] + (2 if parts else 0)
                if used > LINE_LENGTH:
                    return None
                parts.append(prefix + inner[0])
        else:
            for item in value:
                inner = _string_form(item) if type(item) is str else form(item)
                if inner is None:
                    return None
                used += inner[1] + (2 if parts else 0)
                if used > LINE_LENGTH:
                    return None
                parts.append(inner[0])
        if opening == "(" and len(parts) == 1:
            return (f"({parts[0]},)", used + 1) if used + 1 <= LINE_LENGTH else None
        return opening + ", ".join(parts) + closing, used


@lru_cache(maxsize=8192)
def _string_form(text: str) -> tuple[str, int]:
    """A string's literal and its width (which may be more than a line: callers compare)."""
    literal = string(text)
    return literal, str_width(literal)


@lru_cache(maxsize=4096, typed=True)
def _key_form(key: Any) -> tuple[str, int]:
    """A mapping key's prefix (``_key``) and its width."""
    prefix = _key(key)
    return prefix, str_width(prefix)


def _flat_within(value: Any, budget: int) -> str | None:
    """The one-line form if it is at most ``budget`` columns wide, else None."""
    return _Flat().within(value, budget)


class _Writer:
    """Lines joined by newlines, written straight into a text buffer.

    A generated data module can be tens of megabytes in one literal: building a list of its lines
    and joining them held about three times the text at once (docs/performance.md).
    """

    def __init__(self, out: TextIO) -> None:
        self.out, self.first = out, True

    def line(self, text: str) -> None:
        if self.first:
            self.first = False
            self.out.write(text)
        else:
            self.out.write("\n" + text)


class Layouts:
    """The laid-out lines of a literal's elements, remembered by each element's identity across renders.

    ``generate --watch`` renders, after each edit, modules holding every tool; the elements of an
    unchanged tool are the very objects of the last run (the workspace remembers them), so their
    text is taken from here and only the edited tool's elements are laid out again. An element's
    lines depend only on it, its key, the comma after it and its depth. The entry holds the
    element, so its identity cannot pass to another object while remembered. Like memo.Memo,
    ``sweep()`` starts a pass and drops what the previous pass did not use.
    """

    def __init__(self) -> None:
        self._before: dict[tuple[int, str, str, int], tuple[Any, str]] = {}
        self._now: dict[tuple[int, str, str, int], tuple[Any, str]] = {}

    def sweep(self) -> None:
        if self._now:
            self._before, self._now = self._now, {}

    def text(self, item: Any, prefix: str, suffix: str, depth: int, flat: _Flat) -> str:
        """The lines of ``prefix + item + suffix`` at ``depth``, joined by newlines (``item`` is a
        collection)."""
        ident = (id(item), prefix, suffix, depth)
        hit = self._now.get(ident) or self._before.get(ident)
        if hit is None or hit[0] is not item:
            lines: list[str] = []
            _lines(lines.append, item, INDENT * depth + prefix, suffix, depth, flat)
            hit = (item, "\n".join(lines))
        self._now[ident] = hit
        return hit[1]


def _write_lines(
    writer: _Writer,
    value: Any,
    prefix: str,
    suffix: str,
    depth: int,
    flat: _Flat | None = None,
    layouts: Layouts | None = None,
) -> None:
    """Write the lines for ``prefix + value + suffix`` at indentation ``depth``, split as black would;
    ``layouts`` remembers the lines of this value's own elements (not deeper ones)."""
    flat = flat or _Flat()
    head = INDENT * depth + prefix
    text = atom(value)
    if text is not None:
        writer.line(head + text + suffix)  # an atom cannot be split: black leaves it long
        return
    one = flat.within(value, LINE_LENGTH - str_width(head) - str_width(suffix))
    if one is not None:
        writer.line(head + one + suffix)
        return
    opening, closing = _kind(value)
    if not len(value):
        writer.line(head + opening + closing + suffix)
        return
    writer.line(head + opening)
    # A lone element is hugged without a trailing comma, except in a tuple, which needs it.
    comma = "," if len(value) > 1 or opening == "(" else ""
    inner = INDENT * (depth + 1)
    for key, item in _pairs(value, opening):
        text = atom(item)
        if text is not None:  # most elements: written here, without a call per line
            writer.line(inner + key + text + comma)
        elif layouts is not None:
            writer.line(layouts.text(item, key, comma, depth + 1, flat))
        else:
            # One element's lines gathered in a list (small), not the whole literal's (megabytes).
            lines: list[str] = []
            _lines(lines.append, item, inner + key, comma, depth + 1, flat)
            writer.line("\n".join(lines))
    writer.line(INDENT * depth + closing + suffix)


def _pairs(value: Any, opening: str) -> Iterator[tuple[str, Any]]:
    """(prefix, element) pairs, lazily: 'key: ' for mapping entries, '' for sequence elements."""
    if opening == "{":
        return zip(map(_key, value.keys()), value.values(), strict=True)
    return zip(repeat(""), value, strict=False)  # repeat is endless


def _lines(emit: Callable[[str], None], value: Any, head: str, suffix: str, depth: int, flat: _Flat) -> None:
    """``_write_lines`` for a collection ``value`` under ``head`` (indentation and prefix), each line
    handed to ``emit``: the inner loop of layout, with the common element types tested first."""
    found = flat.form(value)
    if found is not None and found[1] <= LINE_LENGTH - str_width(head) - str_width(suffix):
        emit(head + found[0] + suffix)
        return
    opening, closing = _BRACKETS.get(type(value)) or _kind(value)
    count = len(value)
    if not count:
        emit(head + opening + closing + suffix)
        return
    emit(head + opening)
    comma = "," if count > 1 or opening == "(" else ""
    inner = INDENT * (depth + 1)
    for key, item in _pairs(value, opening):
        kind = type(item)
        if kind is str:
            emit(inner + key + string(item) + comma)
        elif kind is dict or kind is tuple or kind is list:
            _lines(emit, item, inner + key, comma, depth + 1, flat)
        else:
            text = atom(item)
            if text is None:
                _lines(emit, item, inner + key, comma, depth + 1, flat)
            else:
                emit(inner + key + text + comma)
    emit(INDENT * depth + closing + suffix)


def assignment(target: str, value: Any, depth: int = 0) -> str:
    """``target = value`` as black formats it (``target`` may carry an annotation)."""
    out = io.StringIO(newline="")
    write_assignment(out, target, value, depth)
    return out.getvalue()


def write_assignment(out: TextIO, target: str, value: Any, depth: int = 0, layouts: Layouts | None = None) -> None:
    """Write ``assignment(target, value, depth)`` to ``out`` without building it as one string first.

    A right-hand side that is a single too-long atom is wrapped in parentheses when that makes
    it fit, exactly as black's right-hand-side split does. When even the first line of a
    collection's layout is too long and the target ends in a subscripted annotation
    (``name: tuple[str, ...]``), black splits the annotation's brackets instead. ``layouts``
    (``generate --watch``) reuses the lines of the value's elements laid out in earlier renders.
    """
    indent = INDENT * depth
    text = atom(value)
    if text is not None:
        line = f"{indent}{target} = {text}"
        if str_width(line) > LINE_LENGTH and len(indent) + len(INDENT) + str_width(text) <= LINE_LENGTH:
            out.write(f"{indent}{target} = (\n{indent}{INDENT}{text}\n{indent})")
        else:
            out.write(line)
        return
    split = _annotation_split(target, value, depth)
    if split is not None:
        out.write(split)
        return
    _write_lines(_Writer(out), value, f"{target} = ", "", depth, None, layouts)


def _annotation_split(target: str, value: Any, depth: int) -> str | None:
    """``name: head[`` / inner / ``] = value`` when black prefers it (see write_assignment), else None.

    A Context field's ``tuple[str, ...]`` under a name of 63 or 64 characters is the one generated
    target long enough for it.
    """
    if not target.endswith("]") or "[" not in target:
        return None
    indent = INDENT * depth
    head = f"{indent}{target} = "
    if _flat_within(value, LINE_LENGTH - str_width(head)) is not None:
        return None  # the whole assignment fits on its line
    opening, closing = _kind(value)
    if str_width(head + opening + ("" if len(value) else closing)) <= LINE_LENGTH:
        return None  # the usual split at the value's own brackets
    name, _, inner = target[:-1].partition("[")
    out = io.StringIO(newline="")
    out.write(f"{indent}{name}[\n{indent}{INDENT}{inner}\n")
    _write_lines(_Writer(out), value, "] = ", "", depth)
    return out.getvalue()
