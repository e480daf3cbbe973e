"""Python literals emitted directly in black's style, so black never has to see the data.

Generated modules are mostly data. Running black over them costs seconds, so templates emit a
small code skeleton (formatted by black, cached) and the data is spliced in by this module,
which reproduces black's stable style for literals: a collection that fits on its line stays on
one line; otherwise it explodes one element per line with a trailing comma (a lone element is
hugged without one), nested collections split at their own brackets, and atoms that cannot fit
are left long. Strings follow black's quote preference. The test suite checks that black leaves
every generated file unchanged.
"""

from __future__ import annotations

import re
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Mapping

from black.strings import str_width

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


@lru_cache(maxsize=65536)
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
    if isinstance(value, Code):
        return str(value)
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return repr(value)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError("non-finite floats have no literal")
        return repr(value)
    if isinstance(value, str):
        return string(value)
    return None


def _brackets(value: Any) -> tuple[str, str, list[tuple[str | None, Any]]]:
    if isinstance(value, (dict, MappingProxyType)):
        return "{", "}", [(string(k) if isinstance(k, str) else atom(k), v) for k, v in value.items()]
    if isinstance(value, tuple):
        return "(", ")", [(None, v) for v in value]
    if isinstance(value, list):
        return "[", "]", [(None, v) for v in value]
    if isinstance(value, (set, frozenset)):
        raise TypeError("sets have no stable order; emit a sorted tuple instead")
    raise TypeError(f"cannot emit {type(value).__name__} as a literal")


def flat(value: Any, memo: dict[int, str] | None = None) -> str:
    """The one-line form of a value (``memo`` caches collections by identity within one call tree)."""
    text = atom(value)
    if text is not None:
        return text
    if memo is not None and id(value) in memo:
        return memo[id(value)]
    opening, closing, items = _brackets(value)
    parts = [f"{k}: {flat(v, memo)}" if k is not None else flat(v, memo) for k, v in items]
    if opening == "(" and len(parts) == 1:
        text = f"({parts[0]},)"
    else:
        text = opening + ", ".join(parts) + closing
    if memo is not None:
        memo[id(value)] = text
    return text


def _lines(value: Any, prefix: str, suffix: str, depth: int, memo: dict[int, str]) -> list[str]:
    """Lines for ``prefix + value + suffix`` at indentation ``depth``, split as black would."""
    indent = INDENT * depth
    one = f"{indent}{prefix}{flat(value, memo)}{suffix}"
    if str_width(one) <= LINE_LENGTH or atom(value) is not None:
        return [one]
    opening, closing, items = _brackets(value)
    if not items:
        return [one]
    lines = [f"{indent}{prefix}{opening}"]
    if len(items) == 1:
        # A lone element is hugged without a trailing comma, except in a tuple, which needs it.
        key, item = items[0]
        lines += _lines(item, f"{key}: " if key is not None else "", "," if opening == "(" else "", depth + 1, memo)
    else:
        for key, item in items:
            lines += _lines(item, f"{key}: " if key is not None else "", ",", depth + 1, memo)
    lines.append(f"{indent}{closing}{suffix}")
    return lines


def assignment(target: str, value: Any, depth: int = 0) -> str:
    """``target = value`` as black formats it (``target`` may carry an annotation).

    A right-hand side that is a single too-long atom is wrapped in parentheses when that makes
    it fit, exactly as black's right-hand-side split does.
    """
    indent = INDENT * depth
    text = atom(value)
    if text is not None:
        line = f"{indent}{target} = {text}"
        if str_width(line) > LINE_LENGTH and len(indent) + len(INDENT) + str_width(text) <= LINE_LENGTH:
            return f"{indent}{target} = (\n{indent}{INDENT}{text}\n{indent})"
        return line
    # Values are immutable while we format them, so identity is a safe memo key.
    return "\n".join(_lines(value, f"{target} = ", "", depth, {}))


def freeze_order(mapping: Mapping[str, Any]) -> dict[str, Any]:
    """A plain dict copy (MappingProxyType is emitted like dict; this is for callers that need one)."""
    return dict(mapping)
