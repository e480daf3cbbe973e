"""The run-time context's behaviour; the generated context.py declares only its fields.

A generated ``Context`` is a frozen dataclass deriving from ``ContextBase`` with its field types
(``class Context(ContextBase, field_types=FIELD_TYPES)``). Build one with ``Context(...)`` or
``Context.from_mapping(data)``; the latter rejects unknown keys and values of the wrong type,
reporting every problem at once. It also refuses values no prompt can show: integers outside
JavaScript's safe range (+-(2**53 - 1), what the modelled system can hold exactly) and NaN or
infinite numbers (JSON has no place for them), and text with a lone surrogate (JSON text may
spell one, ``"\\ud800"``, but no UTF-8 output can hold it).

Only the names ``from_mapping``, ``from_json`` and ``to_dict`` are attributes of a Context
(generator/semantics/project.py reserves them, so no field can shadow them).
"""

from __future__ import annotations

import difflib
import json
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import fields
from typing import Any, ClassVar, Self, TypeVar

from .schema_common import (
    MAX_NESTING,
    UNENCODABLE,
    _json_type_of,
    has_lone_surrogate,
    json_text_depth,
)

__all__ = ["MAX_SAFE_INTEGER", "ContextBase", "ContextError", "coercer"]

MAX_SAFE_INTEGER = 2**53 - 1
"""The largest integer magnitude a context holds (JavaScript's Number.MAX_SAFE_INTEGER)."""

C = TypeVar("C", bound="ContextBase")


class ContextError(ValueError):
    """A context mapping had unknown keys, values of the wrong type, or values out of range."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("invalid context: " + "; ".join(problems))
        self.problems = problems


class ContextBase:
    """Checked construction from JSON-like data for a dataclass of context fields."""

    # kind ("string", "boolean", "integer", "number", "string_list") and nullability per field
    _field_types: ClassVar[Mapping[str, tuple[str, bool]]] = {}

    def __init_subclass__(
        cls, *, field_types: Mapping[str, tuple[str, bool]] | None = None, **kw: Any
    ) -> None:
        super().__init_subclass__(**kw)
        if field_types is not None:
            cls._field_types = field_types

    def __new__(cls, /, *args: Any, **kwargs: Any) -> Self:
        # Runs before the dataclass __init__, only to name a mistyped keyword with the closest
        # field: Context(provider="x") would otherwise fail with Python's bare TypeError.
        for key in kwargs:
            if key not in cls._field_types and cls._field_types:
                raise TypeError(
                    f"{cls.__name__}() got an unexpected keyword argument {key!r}"
                    + _closest(key, cls._field_types)
                )
        return super().__new__(cls)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> Self:
        """A context from a JSON-like mapping; lists become tuples. Raises ContextError."""
        if not isinstance(data, Mapping):
            raise ContextError([f"expected a JSON object, got {type(data).__name__}"])
        problems: list[str] = []
        values: dict[str, Any] = {}
        for key, value in data.items():
            spec = cls._field_types.get(key)
            if spec is None:
                problems.append(f"unknown key {key!r}{_closest(key, cls._field_types)}")
                continue
            kind, nullable = spec
            if value is None and nullable:
                values[key] = None
            elif not _fits(value, kind):
                expected = kind + (" or null" if nullable else "")
                problems.append(f"{key}: expected {expected}, got {_describe(value)}")
            elif reason := _out_of_range(value):
                problems.append(f"{key}: {reason}")
            else:
                values[key] = tuple(value) if kind == "string_list" else value
        if problems:
            raise ContextError(problems)
        make: Callable[..., Self] = cls
        return make(**values)

    @classmethod
    def from_json(cls, text: str | bytes) -> Self:
        """A context from JSON text. Raises ContextError (also for text nested too deeply)."""
        if not isinstance(text, (str, bytes)):
            raise ContextError([f"expected JSON text, got {type(text).__name__}"])
        if json_text_depth(text) > MAX_NESTING:
            raise ContextError([f"JSON nested deeper than {MAX_NESTING} levels"])
        try:
            data = json.loads(text)
        except (
            ValueError,
            RecursionError,
        ) as exc:  # UnicodeDecodeError is a ValueError
            raise ContextError([f"not valid JSON: {exc}"]) from None
        return cls.from_mapping(data)

    def to_dict(self) -> dict[str, Any]:
        """The fields and their values, in declaration order."""
        instance: Any = self  # a dataclass: subclasses are declared with @dataclass
        return {f.name: getattr(self, f.name) for f in fields(instance)}


def coercer(cls: type[C]) -> Callable[[C | Mapping[str, Any] | None], C]:
    """The ``as_context`` function of a Context class."""

    def as_context(value: C | Mapping[str, Any] | None) -> C:
        """A Context as is; a mapping checked and completed with the defaults; None as all defaults."""
        if isinstance(value, cls):
            return value
        if value is None:
            make: Callable[[], C] = cls
            return make()
        data: Any = value  # from_mapping rejects anything but a mapping
        return cls.from_mapping(data)

    return as_context


def _fits(value: Any, kind: str) -> bool:
    if kind == "string":
        return isinstance(value, str)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind == "string_list":
        return isinstance(value, (list, tuple)) and all(
            isinstance(v, str) for v in value
        )
    return False


def _out_of_range(value: Any) -> str:
    """Why a well-typed value cannot be used ('' when it can)."""
    if isinstance(value, bool):
        return ""
    if isinstance(value, int) and abs(value) > MAX_SAFE_INTEGER:
        return f"integer out of range (at most {MAX_SAFE_INTEGER} either side of 0)"
    if isinstance(value, float) and not math.isfinite(value):
        return f"{value!r} is not a finite number"
    if has_lone_surrogate(value):
        return UNENCODABLE
    return ""


def _describe(value: Any) -> str:
    """A value's JSON type name, or its Python type name for anything JSON has no type for."""
    if value is None or type(value) in (bool, int, float, str, list, dict):
        return str(_json_type_of(value))
    return type(value).__name__


def closest_name(name: str, known: Iterable[str]) -> str | None:
    """The known name a mistyped ``name`` most likely meant: one it starts (``provider`` ->
    ``provider_id``), else the nearest by spelling; None when nothing is close. Shared by
    run-time context errors and the generator's spec hints."""
    names = list(known)
    prefixed = [candidate for candidate in names if candidate.startswith(name + "_")]
    close = prefixed or difflib.get_close_matches(name, names, n=1, cutoff=0.6)
    return close[0] if close else None


def _closest(key: Any, known: Mapping[str, Any]) -> str:
    """The hint " (did you mean 'provider_id'?)" for a mistyped context key, or ""."""
    close = closest_name(key, known) if isinstance(key, str) else None
    return f" (did you mean {close!r}?)" if close else ""
