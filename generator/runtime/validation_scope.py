"""What every validator check shares: problems, the compiled ``Node``, the ``Scope`` it reads.

Standard library only; ts_runtime/validation_scope.ts is the same. A ``Run`` is
``run(value, problems, coerce) -> value``: it appends each problem as a list
``[message, innermost key, ..., outermost key]`` (keys are added on the way out, and only when
there is a problem, so valid values pay nothing for paths) and returns the value typed (an
integral float becomes an int where the schema says integer; text coerced on the text path).
A ``Scope`` is the schema object being compiled: its keywords, its subschemas compiled through
the compiler, and ``refuse`` for a keyword value the validator cannot enforce.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Sequence
from typing import Any

from .ecma_regex import PatternError, compile_pattern
from .json_values import json_type, show
from .schema_common import MAX_NESTING, json_text_depth
from .schema_index import Located

Problem = list[Any]
Run = Callable[[Any, list[Problem], bool], Any]

MAX_PATTERN_TEXT = 1_000_000
"""The longest text matched against a pattern, in code points; a longer one is a problem
(``unmatched``), in both runtimes alike. JavaScript's matcher runs out of backtracking stack on
texts of a few million characters, where Python answers (ts_runtime/validation_scope.ts also
reports a shorter text that exhausts it, which only a pattern with many nested or repeated
groups does)."""


def matches(search: Callable[[str], bool], text: str) -> bool | None:
    """Whether ``text`` matches; None when it cannot be checked (over MAX_PATTERN_TEXT)."""
    return None if len(text) > MAX_PATTERN_TEXT else search(text)


def unmatched(source: Any) -> str:
    """The problem of a text that could not be checked against the pattern ``source``."""
    return f"could not be checked against the pattern {source}: too long to match (send a shorter text)"


def accept(value: Any, problems: list[Problem], coerce: bool) -> Any:
    """The run of ``true`` and of ``{}``."""
    return value


def under(problems: list[Problem], start: int, key: str | int) -> None:
    """Put the problems from ``start`` on under ``key``."""
    for index in range(start, len(problems)):
        problems[index].append(key)


def place_text(problem: Problem, path: str = "") -> str:
    """A problem's place: ``path`` followed by its keys (``items[2].name``)."""
    if len(problem) == 2 and not path and not isinstance(problem[1], int):
        name: str = problem[1]  # a top-level parameter: the common place
        return name
    for key in reversed(problem[1:]):
        if isinstance(key, int):
            path = f"{path}[{key}]"
        elif path:
            path = f"{path}.{key}"
        else:
            path = key
    return path


def passes(run: Run, value: Any) -> bool:
    """Whether ``value`` passes a run (its problems are thrown away)."""
    found: list[Problem] = []
    run(value, found, False)
    return not found


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def non_json_number(value: Any) -> bool:
    return isinstance(value, float) and not math.isfinite(value)


def got_text(value: Any, coerce: bool) -> str:
    """How a type problem names the value it got (``text`` on the text path)."""
    text = coerce and isinstance(value, str)
    kind = "text" if text else json_type(value) or type(value).__name__
    return kind if value is None else f"{kind} {show(value)}"


_INTEGER_TEXT = re.compile(r"[-+]?\d+")
_NUMBER_TEXT = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_COERCE_ORDER = ("integer", "number", "boolean", "array", "object")


def _not_json(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def coerce_text(text: str, types: Sequence[str]) -> Any:
    """The text read as one of ``types`` by validation.py's rules, or the text unchanged."""
    if "string" in types:
        return text
    stripped = text.strip()
    for name in _COERCE_ORDER:
        if name not in types:
            continue
        integral = _INTEGER_TEXT.fullmatch(stripped) is not None
        if integral and name in ("integer", "number") and len(stripped) <= 4300:
            return int(
                stripped
            )  # longer digit strings stay text, as json.loads refuses them
        if name == "number" and not integral and _NUMBER_TEXT.fullmatch(stripped):
            number = float(stripped)
            if math.isfinite(number):
                return number
        if name == "boolean" and stripped.lower() in ("true", "false"):
            return stripped.lower() == "true"
        if name in ("array", "object") and stripped[:1] == (
            "[" if name == "array" else "{"
        ):
            if json_text_depth(stripped) > MAX_NESTING:
                continue
            try:  # NaN and the infinities are not JSON: such text stays text (as in TypeScript)
                decoded = json.loads(stripped, parse_constant=_not_json)
            except ValueError:
                continue
            if json_type(decoded) == name:
                return decoded
    return text


class Node:
    """One compiled schema (object or boolean): its run and what annotations need of it."""

    __slots__ = ("base", "parts", "place", "resource", "run", "types")

    def __init__(self, place: Located) -> None:
        self.place = place
        self.base = place.base
        self.run: Run = accept
        self.types: tuple[str, ...] = ()
        self.parts: dict[str, Any] = {}
        """What unevaluatedProperties/Items read: the applicators and their children."""
        self.resource: str | None = None


class Scope:
    """The schema object being compiled: its keywords, where it is, and how to refuse one."""

    def __init__(
        self,
        node: Node,
        child: Callable[[Located], Node],
        refuse: Callable[[Located, str, str], None],
    ) -> None:
        self.node = node
        self.schema: dict[str, Any] = node.place.schema
        self.dialect = node.place.dialect
        self._child = child
        self._refuse = refuse

    def refuse(self, key: str, reason: str) -> None:
        self._refuse(self.node.place, key, reason)

    def sub(self, *path: str | int) -> Node | None:
        """The compiled subschema at ``path`` below this object; refused unless a schema."""
        value: Any = self.schema
        for part in path:
            value = value[part]
        place = self.node.place
        if not isinstance(value, (dict, bool)):
            self._refuse(
                Located(
                    value,
                    place.base,
                    place.dialect,
                    place.document,
                    place.pointer + path[:-1],
                ),
                str(path[-1]),
                "must be a schema (an object or a boolean)",
            )
            return None
        return self._child(
            Located(
                value, place.base, place.dialect, place.document, place.pointer + path
            )
        )

    def subs(self, key: str) -> list[Node] | None:
        """The compiled schemas of a keyword holding a non-empty list of them."""
        value = self.schema[key]
        if not isinstance(value, list) or not value:
            self.refuse(key, "must be a non-empty list of schemas")
            return None
        nodes = [self.sub(key, index) for index in range(len(value))]
        return [n for n in nodes if n is not None] if all(nodes) else None

    def count(self, key: str) -> int | None:
        """A count keyword's value (2.0 is 2); refused unless a non-negative integer."""
        value: Any = self.schema.get(key)
        if value is None and key not in self.schema:
            return None
        integral = is_number(value) and (isinstance(value, int) or value.is_integer())
        if integral and value >= 0:
            return int(value)
        self.refuse(key, "must be a non-negative integer")
        return None

    def number(self, key: str) -> int | float | None:
        value = self.schema.get(key)
        if key not in self.schema or (
            isinstance(value, bool) and key.startswith("excl")
        ):
            return None  # draft 4's exclusive flags are read with minimum and maximum
        if is_number(value):
            return value
        self.refuse(key, "must be a number")
        return None

    def names(self, key: str, value: Any) -> tuple[str, ...] | None:
        """A list of property names (``required``, ``dependentRequired`` entries)."""
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return tuple(dict.fromkeys(value))
        self.refuse(key, "must be a list of property names")
        return None

    def pattern(self, key: str, source: Any) -> Callable[[str], bool] | None:
        """An ECMA-262 pattern's search function; refused when it does not compile."""
        if not isinstance(source, str):
            self.refuse(key, "must be a regular expression (a string)")
            return None
        try:
            return compile_pattern(source)
        except PatternError as exc:
            self.refuse(key, f"the pattern {show(source)} is not valid: {exc.message}")
            return None
