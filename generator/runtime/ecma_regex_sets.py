"""Code point sets for ecma_regex: classes, class escapes and ``\\p{..}``, as sorted ranges.

Standard library only. A set is a tuple of ``(first, last)`` code point ranges, sorted, disjoint
and not adjacent, so two equal sets have one spelling. Both emitters (Python's ``re`` here,
JavaScript in ts_runtime/ecma_regex_sets.ts) write every class as these explicit ranges, so what
``\\s``, ``.`` or ``\\p{L}`` means never depends on the engine or its Unicode version: the
General_Category data is the committed table in unicode_data.py (Unicode 17.0.0).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from . import unicode_data

__all__ = [
    "CLASS_ESCAPES",
    "DOT",
    "MAX_CODE",
    "Ranges",
    "complement",
    "property_ranges",
    "union",
]

Ranges = tuple[tuple[int, int], ...]
MAX_CODE = 0x10FFFF


def union(sets: Iterable[Ranges]) -> Ranges:
    """All the code points of ``sets``, merged into one sorted spelling."""
    merged: list[list[int]] = []
    for first, last in sorted(r for ranges in sets for r in ranges):
        if merged and first <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], last)
        else:
            merged.append([first, last])
    return tuple((first, last) for first, last in merged)


def complement(ranges: Ranges) -> Ranges:
    """Every code point U+0000..U+10FFFF that ``ranges`` lacks."""
    out: list[tuple[int, int]] = []
    start = 0
    for first, last in ranges:
        if first > start:
            out.append((start, first - 1))
        start = last + 1
    if start <= MAX_CODE:
        out.append((start, MAX_CODE))
    return tuple(out)


_DIGIT: Ranges = ((0x30, 0x39),)
_WORD: Ranges = ((0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A))
# ECMA-262 WhiteSpace and LineTerminator: \t \n \v \f \r, space, U+00A0, U+1680, U+2000..U+200A,
# U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF (the Zs list as of Unicode 17).
_SPACE: Ranges = (
    (0x09, 0x0D),
    (0x20, 0x20),
    (0xA0, 0xA0),
    (0x1680, 0x1680),
    (0x2000, 0x200A),
    (0x2028, 0x2029),
    (0x202F, 0x202F),
    (0x205F, 0x205F),
    (0x3000, 0x3000),
    (0xFEFF, 0xFEFF),
)
_LINE_TERMINATORS: Ranges = ((0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029))

DOT = complement(_LINE_TERMINATORS)
"""What ``.`` matches without the ``s`` flag: any code point but a line terminator."""

CLASS_ESCAPES: dict[str, Ranges] = {
    "d": _DIGIT,
    "D": complement(_DIGIT),
    "w": _WORD,
    "W": complement(_WORD),
    "s": _SPACE,
    "S": complement(_SPACE),
}
"""``\\d \\D \\w \\W \\s \\S`` as ECMA-262 defines them with the ``u`` flag and without ``i``."""


# ---- \p{..} ---------------------------------------------------------------------------------


@functools.cache
def _categories() -> dict[str, Ranges]:
    """Each General_Category (``Lu``, ``Nd``, ...) as ranges, decoded once from the table."""
    names = unicode_data.CATEGORIES.split()
    found: dict[str, list[tuple[int, int]]] = {name: [] for name in names}
    digits = {char: index for index, char in enumerate(unicode_data.DIGITS)}
    code = value = 0
    for char in unicode_data.CATEGORY_RUNS:
        digit = digits[char]
        if digit >= 32:
            value = value * 32 + digit - 32
            continue
        value = value * 32 + digit
        length, category = divmod(value, len(names))
        found[names[category]].append((code, code + length))
        code += length + 1
        value = 0
    return {name: tuple(ranges) for name, ranges in found.items()}


@functools.cache
def _values() -> dict[str, Ranges]:
    """Every name \\p{..} answers: General_Category values and aliases, Any, ASCII, Assigned."""
    categories = _categories()
    values = {
        name: union(categories[code] for code in codes.split())
        for name, codes in unicode_data.GENERAL_CATEGORY_VALUES
    }
    values["Any"] = ((0, MAX_CODE),)
    values["ASCII"] = ((0, 0x7F),)
    values["Assigned"] = complement(categories["Cn"])
    return values


_LONE = re.compile(r"[A-Za-z0-9_]+")
_PAIR = re.compile(r"([A-Za-z_]+)=([A-Za-z0-9_]+)")
_SUPPORTED = "General_Category values (L, Lu, Nd, Letter, ...), Any, ASCII or Assigned"


def property_ranges(body: str) -> Ranges | str:
    """The set ``\\p{body}`` stands for, or the message saying why it is an error or refused."""
    pair = _PAIR.fullmatch(body)
    if pair is not None:
        name, value = pair.groups()
        if name in unicode_data.GENERAL_CATEGORY_NAMES.split():
            found = _values().get(value)
            if found is None or value in ("Any", "ASCII", "Assigned"):
                return (
                    f"unknown General_Category value {value}: "
                    "write one like L, Lu, Nd, Letter or Decimal_Number"
                )
            return found
        if name in unicode_data.SCRIPT_NAMES.split():
            return (
                f"toolgen does not support the Unicode property {name}={value}: "
                f"use {_SUPPORTED}, or list the characters in a class"
            )
        return (
            f"unknown Unicode property {name}: ECMA-262 knows General_Category (gc), "
            "Script (sc) and Script_Extensions (scx)"
        )
    if _LONE.fullmatch(body) is None:
        return (
            "invalid Unicode property escape: write \\p{Value} or \\p{Name=Value} "
            "with ASCII letters, digits and _"
        )
    found = _values().get(body)
    if found is not None:
        return found
    if body in unicode_data.BINARY_PROPERTIES.split():
        return (
            f"toolgen does not support the Unicode property {body}: "
            f"use {_SUPPORTED}, or list the characters in a class"
        )
    return (
        f"unknown Unicode property {body}: "
        "write a General_Category value (L, Nd, Letter, ...), Any, ASCII or Assigned"
    )
