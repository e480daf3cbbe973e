"""The validator's checks of one schema object's own value: type, enum, numbers, strings, format.

Standard library only; ts_runtime/validation_checks.ts builds the same checks. Each maker reads
its keywords from a ``Scope`` (validation_scope.py) and returns a ``Run`` closure, or None when
the schema does not use them; a keyword value it cannot enforce is refused through
``Scope.refuse`` instead. validation_shapes.py checks arrays and objects, validation_compile.py
references and combinators, and composes the runs of one schema object.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import ge, gt, le, lt
from typing import Any

from .json_formats import CHECKS, LIKE
from .json_values import is_multiple, json_type, show, unique_key
from .validation_keywords import FORMATS
from .validation_scope import (
    MAX_PATTERN_TEXT,
    Problem,
    Run,
    Scope,
    accept,
    coerce_text,
    got_text,
    is_number,
    non_json_number,
    unmatched,
)

_FORMAT_STATUS = {name: (status, kind) for name, status, kind, _ in FORMATS}
_GEMINI_TYPES = {
    "STRING": "string",
    "NUMBER": "number",
    "INTEGER": "integer",
    "BOOLEAN": "boolean",
    "ARRAY": "array",
    "OBJECT": "object",
    "NULL": "null",
}
_TYPES = ("null", "boolean", "integer", "number", "string", "array", "object")


# ---- type --------------------------------------------------------------------------------


def read_types(scope: Scope) -> tuple[str, ...]:
    """The declared types (``nullable: true`` adds null); refused when not type names."""
    schema = scope.schema
    raw = schema.get("type")
    if raw is None and "type" not in schema:
        types: tuple[str, ...] = ()
    else:
        names: list[Any] = raw if isinstance(raw, list) else [raw]
        if scope.dialect == "gemini":
            names = [
                _GEMINI_TYPES.get(n, n) if isinstance(n, str) else n for n in names
            ]
        if not names or not all(n in _TYPES for n in names):
            scope.refuse(
                "type", f"must be a type name or a list of them: {', '.join(_TYPES)}"
            )
            return ()
        types = tuple(dict.fromkeys(names))
    nullable = schema.get("nullable", False)
    if not isinstance(nullable, bool):
        scope.refuse("nullable", "must be true or false")
    elif nullable and types and "null" not in types:
        types += ("null",)
    return types


_FAST_CLASSES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int,),  # a float may be NaN or an infinity: it takes the slow path
    "boolean": (bool,),
    "array": (list,),
    "object": (dict,),
    "null": (type(None),),
}


def _chain(steps: list[Run]) -> Run | None:
    """The steps as one run (None when there are none)."""
    if len(steps) <= 1:
        return steps[0] if steps else None
    chain = tuple(steps)

    def run(value: Any, problems: list[Problem], coerce: bool) -> Any:
        for step in chain:
            value = step(value, problems, coerce)
        return value

    return run


def typed(types: tuple[str, ...], steps: list[Run]) -> Run:
    """A schema object's run: the type check (with text-path coercion), then its steps."""
    after = _chain(steps)
    if not types:
        return accept if after is None else after
    allowed = frozenset(types + (("integer",) if "number" in types else ()))
    fast = frozenset(cls for name in types for cls in _FAST_CLASSES[name])
    to_int = "integer" in types and "number" not in types
    wanted = " or ".join(types)

    def run(value: Any, problems: list[Problem], coerce: bool) -> Any:
        cls = type(value)
        if cls in fast:  # the common case: a plain value of a declared type
            if after is None:
                return value
            return after(value, problems, coerce and cls is not str)
        if coerce and cls is str:
            value = coerce_text(value, types)
            nested = False  # values inside decoded JSON are native
        else:
            nested = coerce
        kind = json_type(value)
        if kind not in allowed:
            if kind is None and non_json_number(value):
                problems.append([f"not a JSON number (got {show(value)})"])
            else:
                problems.append([f"expected {wanted}, got {got_text(value, coerce)}"])
            return value
        if to_int and type(value) is float:
            value = int(value)
        return value if after is None else after(value, problems, nested)

    return run


def null_passes(run: Run) -> Run:
    """Gemini's ``nullable: true``: null is valid for the whole node (its type, enum, anyOf)."""

    def run_nullable(value: Any, problems: list[Problem], coerce: bool) -> Any:
        return value if value is None else run(value, problems, coerce)

    return run_nullable


# ---- enum and const ----------------------------------------------------------------------


def values(scope: Scope) -> Run | None:
    schema = scope.schema
    if "enum" in schema:
        allowed = schema["enum"]
        if not isinstance(allowed, list):
            scope.refuse("enum", "must be a list of values")
            return None
        if "const" in schema and scope.dialect != "gemini":
            return all_of_runs(
                _one_of_values(allowed), _one_of_values([schema["const"]])
            )
        return _one_of_values(allowed)
    if "const" in schema:
        return _one_of_values([schema["const"]])
    return None


def all_of_runs(*runs: Run | None) -> Run | None:
    steps = tuple(r for r in runs if r is not None)
    if len(steps) <= 1:
        return steps[0] if steps else None

    def run(value: Any, problems: list[Problem], coerce: bool) -> Any:
        for step in steps:
            value = step(value, problems, coerce)
        return value

    return run


def _one_of_values(allowed: list[Any]) -> Run:
    lead = "must be one of" if len(allowed) != 1 else "must be"
    shown = ", ".join(show(v) for v in allowed)
    if all(type(v) is str for v in allowed):
        texts = frozenset(allowed)

        def run_texts(value: Any, problems: list[Problem], coerce: bool) -> Any:
            if not (isinstance(value, str) and value in texts):
                problems.append([f"{lead} {shown} (got {show(value)})"])
            return value

        return run_texts
    keys = frozenset(unique_key(v) for v in allowed)

    def run(value: Any, problems: list[Problem], coerce: bool) -> Any:
        if unique_key(value) not in keys:
            problems.append([f"{lead} {shown} (got {show(value)})"])
        return value

    return run


# ---- numbers -------------------------------------------------------------------------------


def numbers(scope: Scope) -> Run | None:
    schema = scope.schema
    tests: list[tuple[Callable[[Any, Any], bool], Any, str]] = []
    low, high = scope.number("minimum"), scope.number("maximum")
    ex_low, ex_high = scope.number("exclusiveMinimum"), scope.number("exclusiveMaximum")
    for key in ("exclusiveMinimum", "exclusiveMaximum"):
        flag = schema.get(key)
        if isinstance(flag, bool) and flag and schema.get(key[9:].lower()) is None:
            scope.refuse(key, f"the draft 4 flag needs {key[9:].lower()} beside it")
    if low is not None:
        if schema.get("exclusiveMinimum") is True:
            tests.append((gt, low, "greater than"))
        else:
            tests.append((ge, low, "at least"))
    if high is not None:
        if schema.get("exclusiveMaximum") is True:
            tests.append((lt, high, "less than"))
        else:
            tests.append((le, high, "at most"))
    if ex_low is not None:
        tests.append((gt, ex_low, "greater than"))
    if ex_high is not None:
        tests.append((lt, ex_high, "less than"))
    step = scope.number("multipleOf")
    if step is not None:
        if step > 0:
            tests.append((is_multiple, step, "a multiple of"))
        else:
            scope.refuse("multipleOf", "must be greater than 0")
    if not tests:
        return None
    checks = tuple(tests)

    def run(value: Any, problems: list[Problem], coerce: bool) -> Any:
        if type(value) is bool or not isinstance(value, (int, float)):
            return value
        if non_json_number(value):
            problems.append([f"not a JSON number (got {show(value)})"])
            return value
        for test, bound, wanted in checks:
            if not test(value, bound):
                problems.append([f"must be {wanted} {bound} (got {value})"])
        return value

    return run


# ---- strings -------------------------------------------------------------------------------


def strings(scope: Scope) -> Run | None:
    low, high = scope.count("minLength"), scope.count("maxLength")
    source = scope.schema.get("pattern")
    search = scope.pattern("pattern", source) if "pattern" in scope.schema else None
    if low is None and high is None and search is None:
        return None

    def run(value: Any, problems: list[Problem], coerce: bool) -> Any:
        if not isinstance(value, str):
            return value
        if low is not None and len(value) < low:
            problems.append([f"must be at least {low} characters long"])
        if high is not None and len(value) > high:
            problems.append([f"must be at most {high} characters long"])
        if search is not None:
            if len(value) > MAX_PATTERN_TEXT:  # matches(), inlined: the common path
                problems.append([unmatched(source)])
            elif not search(value):
                problems.append([f"must match the pattern {source}"])
        return value

    return run


def formats(scope: Scope) -> Run | None:
    name = scope.schema.get("format")
    if name is None and "format" not in scope.schema:
        return None
    if not isinstance(name, str):
        scope.refuse("format", "must be a format name (a string)")
        return None
    status, kind = _FORMAT_STATUS.get(name, ("annotation", ""))
    if name == "enum":
        if scope.dialect == "gemini" and "enum" not in scope.schema:
            scope.refuse("format", "format enum needs the enum values beside it")
        return None  # Gemini's enum format: the enum keyword checks the values
    if status != "enforced":
        return None
    check = CHECKS[name]
    like = LIKE[name]
    if kind == "number":

        def run_number(value: Any, problems: list[Problem], coerce: bool) -> Any:
            if is_number(value) and not non_json_number(value) and not check(value):
                problems.append([f"must be {like} ({name}) (got {value})"])
            return value

        return run_number

    def run(value: Any, problems: list[Problem], coerce: bool) -> Any:
        if isinstance(value, str) and not check(value):
            problems.append(
                [f"must be a valid {name}, like {like} (got {show(value)})"]
            )
        return value

    return run
