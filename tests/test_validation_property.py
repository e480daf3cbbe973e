"""toolgen's verdict equals the ``jsonschema`` library's on generated schemas and values.

Hypothesis draws schemas (types and type lists, enum, const, number bounds and multipleOf with
big integers and floats, string lengths and patterns, among them ECMA-262 semantics Python's re
does not share, arrays, objects with required and patternProperties, anyOf/oneOf/allOf/not/
if-then-else, boolean schemas, nesting)
and JSON values, and compares ``compile_schema``'s verdict with Draft202012Validator's. JSON
Schema patterns are ECMA-262, so the reference validator runs ``pattern``, ``patternProperties``
and ``additionalProperties`` with the ``regress`` ECMA-262 engine instead of Python's ``re``.
Bounded and derandomised: the same examples every run, a few seconds.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import regress
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator, ValidationError, validators

from generator.runtime.validation import compile_schema

TYPES = ("null", "boolean", "integer", "number", "string", "array", "object")
TEXTS = ("", "a", "ab", "abc", "B", "1", "a1", "x y", "é", "zz", "ab\n", "\U0001f600", "a\u2028", "\u0661")
KEYS = ("a", "b", "c1", "x_y", "é")
# Patterns where Python's own re reads otherwise too ($ before a final newline, \w \d \s and . beyond
# ASCII and the BMP, \p{..}, an unset group's backreference): the ECMA-262 runtime must answer as regress.
PATTERNS = (
    "^a",
    "b$",
    "^[a-z]+$",
    "\\d",
    "^.{2,3}$",
    "x|y",
    "^[^0-9]*$",
    "(a)\\1",
    "^\\w+$",
    "^.$",
    "\\s",
    "^\\p{L}+$",
    "^(?:(a)|b)\\1$",
    "[^a]$",
)
EXAMPLES = 400


def _search(pattern: str, text: str) -> bool:
    return regress.Regex(pattern, "u").find(text) is not None


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if validator.is_type(instance, "string") and not _search(pattern, instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _pattern_properties(validator: Any, patterns: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "object"):
        return
    for pattern, sub in patterns.items():
        for key, value in instance.items():
            if _search(pattern, key):
                yield from validator.descend(value, sub, path=key, schema_path=pattern)


def _additional_properties(validator: Any, extra: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "object"):
        return
    patterns = schema.get("patternProperties", {})
    extras = [k for k in instance if k not in schema.get("properties", {}) and not any(_search(p, k) for p in patterns)]
    if validator.is_type(extra, "object"):
        for key in extras:
            yield from validator.descend(instance[key], extra, path=key)
    elif extra is False and extras:
        yield ValidationError(f"unexpected properties {extras!r}")


EcmaValidator = validators.extend(
    Draft202012Validator,
    {"pattern": _pattern, "patternProperties": _pattern_properties, "additionalProperties": _additional_properties},
)

NUMBERS = st.one_of(
    st.integers(-6, 6),
    st.sampled_from([10**30, -(10**20), 2**53 + 1, 2**64]),
    st.sampled_from([0.5, -1.5, 2.0, 1e-3, 3.25, 1e20]),
)
SCALARS = st.one_of(st.none(), st.booleans(), NUMBERS, st.sampled_from(TEXTS))
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(KEYS), inner, max_size=3)),
    max_leaves=8,
)
COUNTS = st.integers(0, 3)


def _leaves() -> st.SearchStrategy[Any]:
    return st.one_of(
        st.booleans(),
        st.sampled_from(TYPES).map(lambda t: {"type": t}),
        st.lists(st.sampled_from(TYPES), min_size=1, max_size=3, unique=True).map(lambda t: {"type": t}),
        st.lists(SCALARS, min_size=1, max_size=3).map(lambda v: {"enum": v}),
        VALUES.map(lambda v: {"const": v}),
        st.fixed_dictionaries(
            {},
            optional={
                "minimum": NUMBERS,
                "maximum": NUMBERS,
                "exclusiveMinimum": NUMBERS,
                "exclusiveMaximum": NUMBERS,
                "multipleOf": st.sampled_from([1, 2, 3, 0.5, 0.25, 10**20]),
            },
        ),
        st.fixed_dictionaries(
            {"type": st.just("string")},
            optional={"minLength": COUNTS, "maxLength": COUNTS, "pattern": st.sampled_from(PATTERNS)},
        ),
    )


def _branches(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(
        st.fixed_dictionaries(
            {"type": st.just("array")},
            optional={
                "items": inner,
                "prefixItems": st.lists(inner, min_size=1, max_size=2),
                "minItems": COUNTS,
                "maxItems": COUNTS,
                "uniqueItems": st.booleans(),
                "contains": inner,
            },
        ),
        st.fixed_dictionaries(
            {"type": st.sampled_from(["object", ["object", "null"]])},
            optional={
                "properties": st.dictionaries(st.sampled_from(KEYS), inner, max_size=3),
                "required": st.lists(st.sampled_from(KEYS), max_size=2, unique=True),
                "additionalProperties": inner,
                "patternProperties": st.dictionaries(st.sampled_from(PATTERNS), inner, max_size=1),
                "minProperties": COUNTS,
                "maxProperties": COUNTS,
            },
        ),
        st.lists(inner, min_size=1, max_size=3).map(lambda b: {"anyOf": b}),
        st.lists(inner, min_size=1, max_size=3).map(lambda b: {"oneOf": b}),
        st.lists(inner, min_size=1, max_size=3).map(lambda b: {"allOf": b}),
        inner.map(lambda s: {"not": s}),
        st.tuples(inner, inner, inner).map(lambda t: {"if": t[0], "then": t[1], "else": t[2]}),
    )


SCHEMAS = st.recursive(_leaves(), _branches, max_leaves=6)


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None)
@given(SCHEMAS, st.lists(VALUES, min_size=1, max_size=6))
def test_toolgen_decides_as_jsonschema_with_an_ecma_regex_engine(schema: Any, values: list[Any]) -> None:
    check = compile_schema(schema)
    reference = EcmaValidator(schema)
    for value in values:
        problems: list[str] = []
        check(value, "", problems, False)
        expected = reference.is_valid(value)
        assert (not problems) == expected, (schema, value, problems)
