"""JSON values as JSON Schema sees them: types, equality, exact numbers, plain schemas.

Standard library only; ts_runtime/json_values.ts gives the same answers. JSON Schema's data
model is JSON's, not Python's: ``1`` and ``1.0`` are the same integer, ``true`` is not ``1``,
a tuple is an array like a list, and NaN or an infinity is no JSON number at all. Numbers are
compared exactly (Python compares ints and floats exactly), and ``multipleOf`` is decided on
the shortest decimal form of each float (``repr``), so ``0.0075`` is a multiple of ``0.0001``
and a huge integer never overflows.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any

__all__ = [
    "JSON_TYPES",
    "PlainProblem",
    "is_multiple",
    "json_equal",
    "json_type",
    "plain_json",
    "show",
    "unique_key",
]

JSON_TYPES = ("null", "boolean", "integer", "number", "string", "array", "object")

_BY_CLASS: dict[type, str] = {
    str: "string",
    bool: "boolean",
    int: "integer",
    list: "array",
    tuple: "array",
    dict: "object",
    type(None): "null",
}

PlainProblem = tuple[tuple[Any, ...], str]
"""Where a value is not plain JSON (keys and indices) and why."""


def json_type(value: Any) -> str | None:
    """The JSON type of a value (an integral float is an integer), None for anything else.

    NaN and the infinities have none: they are not JSON numbers.
    """
    name = _BY_CLASS.get(type(value))
    if name is not None:
        return name
    if isinstance(value, float):
        if value.is_integer():
            return "integer"
        return "number" if math.isfinite(value) else None
    for kind, found in _BY_CLASS.items():  # subclasses: IntEnum, OrderedDict, ...
        if isinstance(value, kind):
            return found
    return "object" if isinstance(value, Mapping) else None


def json_equal(a: Any, b: Any) -> bool:
    """JSON Schema's equality: numbers by value, booleans apart from numbers, deep."""
    a_bool, b_bool = isinstance(a, bool), isinstance(b, bool)
    if a_bool or b_bool:
        return a_bool and b_bool and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, (list, tuple)):
        return (
            isinstance(b, (list, tuple))
            and len(a) == len(b)
            and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
        )
    if isinstance(a, Mapping):
        return (
            isinstance(b, Mapping)
            and len(a) == len(b)
            and all(k in b and json_equal(v, b[k]) for k, v in a.items())
        )
    if a is None or b is None:
        return a is b
    return isinstance(a, str) and isinstance(b, str) and a == b


def unique_key(value: Any) -> Any:
    """A hashable key equal for JSON-equal values (``1`` and ``1.0`` alike, ``true`` apart)."""
    if isinstance(value, bool):
        return ("b", value)
    if isinstance(value, (int, float)):
        return ("n", value)  # 1 == 1.0 and hash(1) == hash(1.0); floats compare exactly
    if isinstance(value, str):
        return ("s", value)
    if isinstance(value, (list, tuple)):
        return ("a", tuple(unique_key(v) for v in value))
    if isinstance(value, Mapping):
        return ("o", frozenset((k, unique_key(v)) for k, v in value.items()))
    return ("z", None) if value is None else ("?", id(value))


def _exact(number: int | float) -> Fraction:
    """A number's exact value: an int as it is, a float as its shortest decimal text."""
    if isinstance(number, int):
        return Fraction(number)
    return Fraction(Decimal(repr(number)))


def is_multiple(value: int | float, step: int | float) -> bool:
    """Whether ``value`` is an integer multiple of ``step`` (> 0), in exact decimal arithmetic."""
    if type(value) is int and type(step) is int:
        return value % step == 0
    return _exact(value) % _exact(step) == 0


# json.dumps(value, ensure_ascii=False) makes an encoder per call; this one serves them all.
_ENCODER = json.JSONEncoder(ensure_ascii=False)
_LITERALS = {None: "null", True: "true", False: "false"}


def show(value: Any) -> str:
    """A short JSON rendering of a value for a problem message (60 characters at most)."""
    if value is None or type(value) is bool:
        return _LITERALS[value]
    if type(value) is int:
        text = int.__repr__(value)  # what the encoder writes for an int
        return text if len(text) <= 60 else text[:57] + "..."
    try:
        text = _ENCODER.encode(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def plain_json(
    value: Any, limit: int, problems: list[PlainProblem], at: tuple[Any, ...] = ()
) -> Any:
    """``value`` as plain JSON: dicts, lists, str, int, float, bool and None only.

    Tuples become lists and other mappings dicts. What is not JSON (a set, a NaN, a key that
    is not a string, nesting deeper than ``limit``) is left out and reported in ``problems``.
    """
    if value is None or isinstance(value, (str, bool)):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        if math.isfinite(value):
            return float(value)
        problems.append((at, f"{value!r} is not a JSON number"))
        return 0  # reported once, here
    if isinstance(value, (Mapping, list, tuple)) and len(at) >= limit:
        problems.append((at, f"nested deeper than {limit} levels"))
        return {}  # an empty schema: the place is reported once, here
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for key, item in value.items():
            if not isinstance(key, str):
                problems.append((at, f"the key {key!r} is not a string"))
                continue
            out[key] = plain_json(item, limit, problems, at + (key,))
        return out
    if isinstance(value, (list, tuple)):
        return [
            plain_json(item, limit, problems, at + (index,))
            for index, item in enumerate(value)
        ]
    problems.append((at, f"a {type(value).__name__} is not a JSON value"))
    return None
