"""Checking a tool call's arguments against the schema that was sent, before its handler runs.

Standard library only. ``compile_schema`` turns a JSON Schema (the subset toolgen emits, plus the
common keywords of MCP servers' schemas) into a tree of closures once; running it is then a few
dict lookups per value. ``arguments_checker`` wraps the tool's parameter schema and gives back
``(typed arguments, problems)``: problems name the parameter (``days``, ``items[2].name``).

Keywords checked: type (one or a list; ``nullable``), enum, const, minimum, maximum,
exclusiveMinimum, exclusiveMaximum (number or draft-4 flag), multipleOf, minLength, maxLength,
pattern, items (a schema or a draft-4 list), prefixItems, minItems, maxItems, uniqueItems,
properties, required, additionalProperties (false or a schema), patternProperties,
minProperties, maxProperties, anyOf, oneOf, allOf. Others (format, $ref, descriptions) are not
checked. A pattern Python cannot compile is not checked either: it must not cost the call.

Text-path coercion (``coerce=True``, only for the top-level argument values, which the XML
reader gives as strings), when the declared types do not include "string":
- integer: optional sign and digits, surrounding blanks ignored (``" 3"`` -> 3);
- number: a JSON-style number (``"2.5"``, ``"1e3"``, ``"-4"``), finite; integral text -> int;
- boolean: ``true`` or ``false`` in any letter case;
- array / object: JSON text (``'["a", "b"]'``, ``'{"k": 1}'``) of that JSON type, nesting at
  most MAX_NESTING; its values are then checked as native JSON, without further coercion;
- anything else stays a string, and the type check reports it.
With several declared types, the first rule (in the order above) that reads the text wins.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from operator import ge, gt, le, lt
from typing import Any

from .schema_common import MAX_NESTING, json_text_depth

__all__ = ["Check", "arguments_checker", "coerce_text", "compile_schema"]

Check = Callable[[Any, str, list[str], bool], Any]
"""A compiled schema: ``check(value, path, problems, coerce)`` -> the (coerced) value."""

_INTEGER_TEXT = re.compile(r"[-+]?\d+")
_NUMBER_TEXT = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_COERCE_ORDER = ("integer", "number", "boolean", "array", "object")
_MISSING = object()


def _is_type(value: Any, name: str) -> bool:
    """Whether a native value has a JSON type (bools are not numbers; 3.0 is an integer)."""
    if name == "string":
        return isinstance(value, str)
    if name == "integer":
        if isinstance(value, bool):
            return False
        return isinstance(value, int) or (
            isinstance(value, float) and value.is_integer()
        )
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if name == "boolean":
        return isinstance(value, bool)
    if name == "array":
        return isinstance(value, (list, tuple))
    if name == "object":
        return isinstance(value, Mapping)
    if name == "null":
        return value is None
    return True  # an unknown type name constrains nothing


def _type_of(value: Any) -> str:
    for name in ("null", "boolean", "integer", "number", "string", "array", "object"):
        if _is_type(value, name):
            return name
    return type(value).__name__


def _show(value: Any) -> str:
    """A short rendering of a value for a problem message."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def coerce_text(text: str, types: Sequence[str]) -> Any:
    """The text read as one of ``types`` by the module's rules, or the text unchanged."""
    if "string" in types:
        return text
    stripped = text.strip()
    for name in _COERCE_ORDER:
        if name not in types:
            continue
        if name == "integer" and _INTEGER_TEXT.fullmatch(stripped):
            return int(stripped)
        if name == "number" and _NUMBER_TEXT.fullmatch(stripped):
            if _INTEGER_TEXT.fullmatch(stripped):
                return int(stripped)
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
            try:
                decoded = json.loads(stripped)
            except ValueError:
                continue
            if _is_type(decoded, name):
                return decoded
    return text


def _child(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def _where(path: str) -> str:
    return path or "arguments"


def compile_schema(schema: Any, depth: int = 0) -> Check:
    """The check for one schema node; a non-object schema (``true``, junk) accepts anything."""
    if not isinstance(schema, Mapping) or depth > MAX_NESTING:
        return _accept
    steps: list[Check] = []
    raw_type = schema.get("type")
    types: tuple[str, ...] = (
        (raw_type,)
        if isinstance(raw_type, str)
        else (
            tuple(t for t in raw_type if isinstance(t, str))
            if isinstance(raw_type, list)
            else ()
        )
    )
    if types and schema.get("nullable") is True and "null" not in types:
        types += ("null",)
    for maker in _MAKERS:
        step = maker(schema, depth)
        if step is not None:
            steps.append(step)
    return _node(types, tuple(steps))


def _accept(value: Any, path: str, problems: list[str], coerce: bool) -> Any:
    return value


def _node(types: tuple[str, ...], steps: tuple[Check, ...]) -> Check:
    def check(value: Any, path: str, problems: list[str], coerce: bool) -> Any:
        nested = coerce
        if types:
            if coerce and isinstance(value, str):
                value = coerce_text(value, types)
                nested = False  # values inside decoded JSON are native
            for name in types:
                if _is_type(value, name):
                    break
            else:
                wanted = " or ".join(types)
                got = "text" if coerce and isinstance(value, str) else _type_of(value)
                shown = "" if value is None else " " + _show(value)
                problems.append(f"{_where(path)}: expected {wanted}, got {got}{shown}")
                return value
        for step in steps:
            value = step(value, path, problems, nested)
        return value

    return check


def _values(schema: Mapping[str, Any], depth: int) -> Check | None:
    enum = schema.get("enum")
    has_const = "const" in schema
    if not isinstance(enum, list) and not has_const:
        return None
    allowed = list(enum) if isinstance(enum, list) else [schema["const"]]
    keys = [(type(v) is bool, v) for v in allowed]
    shown = ", ".join(_show(v) for v in allowed)

    def check(value: Any, path: str, problems: list[str], coerce: bool) -> Any:
        if (type(value) is bool, value) not in keys:
            lead = "must be one of" if len(allowed) != 1 else "must be"
            problems.append(f"{_where(path)}: {lead} {shown} (got {_show(value)})")
        return value

    return check


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _bounds(schema: Mapping[str, Any], depth: int) -> Check | None:
    tests: list[tuple[Callable[[Any, Any], bool], Any, str]] = []
    low, high = schema.get("minimum"), schema.get("maximum")
    ex_low, ex_high = schema.get("exclusiveMinimum"), schema.get("exclusiveMaximum")
    if _number(low):  # draft 4 spells an exclusive bound as a flag beside it
        strict = ex_low is True
        tests.append(
            (gt if strict else ge, low, "greater than" if strict else "at least")
        )
    if _number(high):
        strict = ex_high is True
        tests.append((lt if strict else le, high, "less than" if strict else "at most"))
    if _number(ex_low):
        tests.append((gt, ex_low, "greater than"))
    if _number(ex_high):
        tests.append((lt, ex_high, "less than"))
    step: Any = schema.get("multipleOf")
    if _number(step) and step > 0:
        tests.append((_multiple, step, "a multiple of"))
    if not tests:
        return None

    def check(value: Any, path: str, problems: list[str], coerce: bool) -> Any:
        if _number(value):
            for test, bound, wanted in tests:
                if not test(value, bound):
                    problems.append(
                        f"{_where(path)}: must be {wanted} {bound} (got {value})"
                    )
        return value

    return check


def _multiple(value: float, step: float) -> bool:
    quotient = value / step
    return math.isfinite(quotient) and abs(quotient - round(quotient)) < 1e-9


def _text(schema: Mapping[str, Any], depth: int) -> Check | None:
    low, high = schema.get("minLength"), schema.get("maxLength")
    low = low if isinstance(low, int) and not isinstance(low, bool) else None
    high = high if isinstance(high, int) and not isinstance(high, bool) else None
    pattern: re.Pattern[str] | None = None
    source = schema.get("pattern")
    if isinstance(source, str):
        try:
            pattern = re.compile(source)
        except re.error:
            pattern = None
    if low is None and high is None and pattern is None:
        return None

    def check(value: Any, path: str, problems: list[str], coerce: bool) -> Any:
        if not isinstance(value, str):
            return value
        if low is not None and len(value) < low:
            problems.append(f"{_where(path)}: must be at least {low} characters long")
        if high is not None and len(value) > high:
            problems.append(f"{_where(path)}: must be at most {high} characters long")
        if pattern is not None and pattern.search(value) is None:
            problems.append(f"{_where(path)}: must match the pattern {source}")
        return value

    return check


def _count(schema: Mapping[str, Any], low_key: str, high_key: str) -> tuple[Any, Any]:
    low, high = schema.get(low_key), schema.get(high_key)
    ok = (int,)
    return (
        low if isinstance(low, ok) and not isinstance(low, bool) else None,
        high if isinstance(high, ok) and not isinstance(high, bool) else None,
    )


def _array(schema: Mapping[str, Any], depth: int) -> Check | None:
    items = schema.get("items")
    prefix_source = schema.get("prefixItems")
    if isinstance(items, list):  # draft 4 tuple form
        prefix_source, items = items, schema.get("additionalItems")
    prefix = tuple(
        compile_schema(s, depth + 1)
        for s in (prefix_source if isinstance(prefix_source, list) else ())
    )
    rest = compile_schema(items, depth + 1) if isinstance(items, Mapping) else None
    closed = items is False
    low, high = _count(schema, "minItems", "maxItems")
    unique = schema.get("uniqueItems") is True
    if not (prefix or rest or closed or unique) and low is None and high is None:
        return None

    def check(value: Any, path: str, problems: list[str], coerce: bool) -> Any:
        if not isinstance(value, (list, tuple)):
            return value
        if low is not None and len(value) < low:
            problems.append(f"{_where(path)}: must have at least {low} items")
        if high is not None and len(value) > high:
            problems.append(f"{_where(path)}: must have at most {high} items")
        if closed and len(value) > len(prefix):
            problems.append(f"{_where(path)}: must have at most {len(prefix)} items")
        if unique and len({json.dumps(v, sort_keys=True) for v in value}) < len(value):
            problems.append(f"{_where(path)}: items must be unique")
        out = list(value)
        for index, item in enumerate(out):
            item_check = prefix[index] if index < len(prefix) else rest
            if item_check is not None:
                out[index] = item_check(item, _child(path, index), problems, False)
        return out

    return check


def _object(schema: Mapping[str, Any], depth: int) -> Check | None:
    raw_props = schema.get("properties")
    props = {
        key: compile_schema(sub, depth + 1)
        for key, sub in (raw_props.items() if isinstance(raw_props, Mapping) else ())
        if isinstance(key, str)
    }
    raw_required = schema.get("required")
    required = tuple(
        r
        for r in (raw_required if isinstance(raw_required, list) else ())
        if isinstance(r, str)
    )
    extra = schema.get("additionalProperties")
    closed = extra is False
    extra_check = (
        compile_schema(extra, depth + 1) if isinstance(extra, Mapping) else None
    )
    patterns: list[tuple[re.Pattern[str], Check]] = []
    raw_patterns = schema.get("patternProperties")
    for source, sub in (
        raw_patterns.items() if isinstance(raw_patterns, Mapping) else ()
    ):
        try:
            patterns.append((re.compile(source), compile_schema(sub, depth + 1)))
        except (re.error, TypeError):
            continue
    low, high = _count(schema, "minProperties", "maxProperties")
    constrained = props or required or closed or extra_check or patterns
    if not constrained and low is None and high is None:
        return None

    def check(value: Any, path: str, problems: list[str], coerce: bool) -> Any:
        if not isinstance(value, Mapping):
            return value
        for key in required:
            if key not in value:
                problems.append(f"{_child(path, key)}: required, but missing")
        if low is not None and len(value) < low:
            problems.append(f"{_where(path)}: must have at least {low} properties")
        if high is not None and len(value) > high:
            problems.append(f"{_where(path)}: must have at most {high} properties")
        out: dict[str, Any] = {}
        for key, item in value.items():
            name = str(key)
            sub = props.get(name)
            matched = False
            if sub is not None:
                item = sub(item, _child(path, name), problems, coerce)
                matched = True
            for pattern, pattern_check in patterns:
                if pattern.search(name):
                    item = pattern_check(item, _child(path, name), problems, False)
                    matched = True
            if not matched:
                if closed:
                    problems.append(f"{_child(path, name)}: unknown parameter")
                elif extra_check is not None:
                    item = extra_check(item, _child(path, name), problems, False)
            out[name] = item
        return out

    return check


def _combinators(schema: Mapping[str, Any], depth: int) -> Check | None:
    def branches(key: str) -> tuple[Check, ...]:
        raw = schema.get(key)
        return tuple(
            compile_schema(s, depth + 1) for s in (raw if isinstance(raw, list) else ())
        )

    all_of, any_of, one_of = branches("allOf"), branches("anyOf"), branches("oneOf")
    if not (all_of or any_of or one_of):
        return None

    def check(value: Any, path: str, problems: list[str], coerce: bool) -> Any:
        for branch in all_of:
            value = branch(value, path, problems, False)
        if any_of or one_of:
            passing: list[Any] = []
            for branch in any_of or one_of:
                found: list[str] = []
                result = branch(value, path, found, False)
                if not found:
                    passing.append(result)
            if not passing:
                which = "any" if any_of else "exactly one"
                problems.append(
                    f"{_where(path)}: must match {which} of the allowed schemas"
                    f" (got {_show(value)})"
                )
            elif one_of and len(passing) > 1:
                problems.append(
                    f"{_where(path)}: matches more than one of the allowed schemas"
                )
            else:
                value = passing[0]
        return value

    return check


_MAKERS: tuple[Callable[[Mapping[str, Any], int], Check | None], ...] = (
    _values,
    _bounds,
    _text,
    _array,
    _object,
    _combinators,
)


def arguments_checker(
    schema: Mapping[str, Any],
) -> Callable[[Mapping[str, Any], bool], tuple[dict[str, Any], list[str]]]:
    """A tool's argument check: ``(params, coerce) -> (typed arguments, problems)``.

    ``None`` for a parameter the schema does not require is removed first: strict formats make
    optional parameters nullable and the model sends ``null`` for one it leaves out.
    """
    check = compile_schema(schema)
    raw_required = schema.get("required")
    required = frozenset(
        r
        for r in (raw_required if isinstance(raw_required, list) else ())
        if isinstance(r, str)
    )

    def run(
        params: Mapping[str, Any], coerce: bool
    ) -> tuple[dict[str, Any], list[str]]:
        problems: list[str] = []
        cleaned = {k: v for k, v in params.items() if v is not None or k in required}
        value = check(cleaned, "", problems, coerce)
        return (value if isinstance(value, dict) else cleaned), problems

    return run
