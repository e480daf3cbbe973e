"""The argument checker (generator/runtime/validation.py) on hand-made schemas: every keyword,
every text-path coercion rule, problems named by parameter, and junk schemas never raising."""

from __future__ import annotations

from typing import Any

import pytest

from generator.runtime.schema_common import MAX_NESTING
from generator.runtime.validation import arguments_checker, coerce_text, compile_schema


def problems_of(schema: Any, value: Any, coerce: bool = False) -> list[str]:
    problems: list[str] = []
    compile_schema(schema)(value, "x", problems, coerce)
    return problems


def test_types_native() -> None:
    assert problems_of({"type": "integer"}, 3) == []
    assert problems_of({"type": "integer"}, 3.0) == []
    assert problems_of({"type": "integer"}, True) == ["x: expected integer, got boolean true"]
    assert problems_of({"type": "number"}, 2.5) == []
    assert problems_of({"type": "number"}, "2.5") == ['x: expected number, got string "2.5"']
    assert problems_of({"type": "boolean"}, 0) != []
    assert problems_of({"type": "array"}, [1]) == []
    assert problems_of({"type": "object"}, {}) == []
    assert problems_of({"type": "null"}, None) == []
    assert problems_of({"type": ["string", "null"]}, None) == []
    assert problems_of({"type": "string", "nullable": True}, None) == []
    assert problems_of({"type": "string"}, None) == ["x: expected string, got null"]


def test_enum_and_const() -> None:
    schema = {"type": "string", "enum": ["metric", "imperial"]}
    assert problems_of(schema, "metric") == []
    assert problems_of(schema, "kelvin") == [
        'x: must be one of "metric", "imperial" (got "kelvin")'
    ]
    assert problems_of({"const": 1}, True) == ["x: must be 1 (got true)"]
    assert problems_of({"enum": [True]}, 1) != []


@pytest.mark.parametrize(
    ("schema", "value", "message"),
    [
        ({"minimum": 1}, 0, "x: must be at least 1 (got 0)"),
        ({"maximum": 14}, 99, "x: must be at most 14 (got 99)"),
        ({"exclusiveMinimum": 1}, 1, "x: must be greater than 1 (got 1)"),
        ({"exclusiveMaximum": 5}, 5, "x: must be less than 5 (got 5)"),
        ({"minimum": 1, "exclusiveMinimum": True}, 1, "x: must be greater than 1 (got 1)"),
        ({"maximum": 5, "exclusiveMaximum": True}, 5, "x: must be less than 5 (got 5)"),
        ({"multipleOf": 0.5}, 1.25, "x: must be a multiple of 0.5 (got 1.25)"),
        ({"minLength": 2}, "a", "x: must be at least 2 characters long"),
        ({"maxLength": 2}, "abc", "x: must be at most 2 characters long"),
        ({"pattern": "^[a-z]+$"}, "A1", "x: must match the pattern ^[a-z]+$"),
        ({"minItems": 1}, [], "x: must have at least 1 items"),
        ({"maxItems": 1}, [1, 2], "x: must have at most 1 items"),
        ({"uniqueItems": True}, [1, 1], "x: items must be unique"),
        ({"minProperties": 1}, {}, "x: must have at least 1 properties"),
        ({"maxProperties": 0}, {"a": 1}, "x: must have at most 0 properties"),
    ],
)
def test_bounds_lengths_patterns(schema: dict[str, Any], value: Any, message: str) -> None:
    assert problems_of(schema, value) == [message]


def test_values_within_bounds_pass() -> None:
    assert problems_of({"minimum": 1, "maximum": 3, "multipleOf": 0.5}, 2.5) == []
    assert problems_of({"minLength": 1, "maxLength": 3, "pattern": "b"}, "abc") == []


def test_nested_objects_and_arrays_name_the_path() -> None:
    schema = {
        "type": "object",
        "properties": {
            "items": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"n": {"type": "integer"}},
                    "required": ["n"],
                    "additionalProperties": False,
                },
            }
        },
    }
    assert problems_of(schema, {"items": [{"n": 1}, {"m": 2}, {"n": "3"}]}) == [
        "x.items[1].n: required, but missing",
        "x.items[1].m: unknown parameter",
        'x.items[2].n: expected integer, got string "3"',
    ]


def test_tuple_items_additional_and_pattern_properties() -> None:
    assert problems_of({"prefixItems": [{"type": "string"}], "items": False}, ["a", 1]) == [
        "x: must have at most 1 items"
    ]
    assert problems_of({"items": [{"type": "string"}]}, [1]) == [
        "x[0]: expected string, got integer 1"
    ]
    schema = {
        "patternProperties": {"^n_": {"type": "integer"}},
        "additionalProperties": {"type": "string"},
    }
    assert problems_of(schema, {"n_a": 1, "other": "s"}) == []
    assert problems_of(schema, {"n_a": "1", "other": 2}) == [
        'x.n_a: expected integer, got string "1"',
        "x.other: expected string, got integer 2",
    ]


def test_combinators() -> None:
    any_of = {"anyOf": [{"type": "integer"}, {"type": "string", "maxLength": 1}]}
    assert problems_of(any_of, 3) == []
    assert problems_of(any_of, "ab") == ['x: must match any of the allowed schemas (got "ab")']
    one_of = {"oneOf": [{"type": "number"}, {"type": "integer"}]}
    assert problems_of(one_of, 1.5) == []
    assert problems_of(one_of, 1) == ["x: matches more than one of the allowed schemas"]
    all_of = {"allOf": [{"minimum": 1}, {"maximum": 2}]}
    assert problems_of(all_of, 3) == ["x: must be at most 2 (got 3)"]


@pytest.mark.parametrize(
    ("text", "types", "expected"),
    [
        (" 3 ", ["integer"], 3),
        ("-4", ["number"], -4),
        ("2.5", ["number"], 2.5),
        ("1e3", ["number"], 1000.0),
        ("TRUE", ["boolean"], True),
        ("false", ["boolean"], False),
        ('["a", "b"]', ["array"], ["a", "b"]),
        ('{"k": 1}', ["object"], {"k": 1}),
        ("3", ["string", "integer"], "3"),  # a string is allowed: nothing to coerce
        ("3.5", ["integer"], "3.5"),  # not an integer: stays text and fails the type
        ("1e999", ["number"], "1e999"),  # not finite
        ("yes", ["boolean"], "yes"),
        ("[1,", ["array"], "[1,"),
        ("[1]", ["object"], "[1]"),
        ("[" * (MAX_NESTING + 1), ["array"], "[" * (MAX_NESTING + 1)),
    ],
)
def test_coercion_rules(text: str, types: list[str], expected: Any) -> None:
    result = coerce_text(text, types)
    assert result == expected and type(result) is type(expected)


def test_coercion_only_on_the_text_path_and_only_at_the_top() -> None:
    schema = {
        "type": "object",
        "properties": {
            "days": {"type": "integer"},
            "opts": {"type": "object", "properties": {"n": {"type": "integer"}}},
        },
    }
    check = arguments_checker(schema)
    assert check({"days": "3", "opts": '{"n": 2}'}, True) == ({"days": 3, "opts": {"n": 2}}, [])
    _, native = check({"days": "3"}, False)
    assert native == ['days: expected integer, got string "3"']
    _, inner = check({"opts": '{"n": "2"}'}, True)
    assert inner == ['opts.n: expected integer, got string "2"']
    _, text = check({"days": "three"}, True)
    assert text == ['days: expected integer, got text "three"']


def test_every_problem_is_reported_by_parameter() -> None:
    schema = {
        "type": "object",
        "properties": {
            "city": {"type": "string"},
            "units": {"type": "string", "enum": ["metric", "imperial"]},
            "days": {"type": "integer", "maximum": 14},
        },
        "required": ["city"],
    }
    _, problems = arguments_checker(schema)({"units": "kelvin", "days": 99}, False)
    assert problems == [
        "city: required, but missing",
        'units: must be one of "metric", "imperial" (got "kelvin")',
        "days: must be at most 14 (got 99)",
    ]


def test_strict_none_for_an_optional_is_removed() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
        "required": ["a"],
    }
    check = arguments_checker(schema)
    assert check({"a": "x", "b": None}, False) == ({"a": "x"}, [])
    assert check({"a": None}, False)[1] == ["a: expected string, got null"]


@pytest.mark.parametrize(
    "schema",
    [
        True,
        None,
        [],
        {"type": 3, "enum": "x", "minimum": "1", "pattern": "(", "items": 5},
        {"properties": {"a": "junk"}, "required": "a", "anyOf": "x"},
        {"patternProperties": {"(": {}}, "multipleOf": 0, "minLength": True},
        {"$ref": "#/definitions/missing", "format": "email"},
    ],
)
def test_junk_schemas_never_raise(schema: Any) -> None:
    for value in (None, 1, "a", [1], {"a": 1}):
        problems_of(schema, value)
        problems_of(schema, value, coerce=True)


def test_deep_schema_is_compiled_up_to_the_limit() -> None:
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(MAX_NESTING + 5):
        schema = {"type": "array", "items": schema}
    value: Any = "a"
    for _ in range(MAX_NESTING + 5):
        value = [value]
    assert problems_of(schema, value) == []
