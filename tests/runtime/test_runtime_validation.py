"""The argument checker (generator/runtime/validation.py) on hand-made schemas: every keyword,
every text-path coercion rule, problems named by their place, JSON's data model (tuples, 1 and
1.0, true and 1, big and exact numbers), dialects, and schemas that cannot be enforced refused
with every place listed. tests/test_schema_suite.py runs the official suite on top of this."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

import pytest

from generator.runtime.schema_common import MAX_NESTING
from generator.runtime.validation import (
    SchemaRefused,
    arguments_checker,
    coerce_text,
    compile_schema,
    schema_refusals,
)
from generator.runtime.validation_scope import MAX_PATTERN_TEXT, matches


def problems_of(schema: Any, value: Any, coerce: bool = False, dialect: str = "2020-12") -> list[str]:
    problems: list[str] = []
    compile_schema(schema, dialect=dialect)(value, "x", problems, coerce)
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
    assert problems_of(schema, "kelvin") == ['x: must be one of "metric", "imperial" (got "kelvin")']
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
    assert problems_of({"items": [{"type": "string"}]}, [1]) == ["x[0]: expected string, got integer 1"]
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
    assert problems_of(any_of, "ab") == [
        'x: must match at least one of these schemas (got "ab"): 1) expected integer, got string'
        ' "ab"; 2) must be at most 1 characters long'
    ]
    typed_only = {"anyOf": [{"type": "integer"}, {"type": "null"}]}
    assert problems_of(typed_only, "3") == ['x: expected integer or null, got string "3"']
    one_of = {"oneOf": [{"type": "number"}, {"type": "integer"}]}
    assert problems_of(one_of, 1.5) == []
    assert problems_of(one_of, 1) == ["x: must match exactly one of these schemas, but matches 1 and 2 (got 1)"]
    all_of = {"allOf": [{"minimum": 1}, {"maximum": 2}]}
    assert problems_of(all_of, 3) == ["x: must be at most 2 (got 3)"]
    assert problems_of({"not": {"type": "string"}}, "a") == ['x: must not match {"type": "string"} (got "a")']
    condition = {"if": {"minimum": 10}, "then": {"multipleOf": 5}, "else": {"maximum": 3}}
    assert problems_of(condition, 15) == []
    assert problems_of(condition, 12) == ["x: must be a multiple of 5 (got 12)"]
    assert problems_of(condition, 4) == ["x: must be at most 3 (got 4)"]


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
    ("schema", "refused"),
    [
        (None, ["/: a schema must be an object or a boolean"]),
        ([], ["/: a schema must be an object or a boolean"]),
        (
            {"type": 3, "enum": "x", "minimum": "1", "items": 5},
            [
                "/type: must be a type name or a list of them: null, boolean, integer, number, "
                "string, array, object",
                "/enum: must be a list of values",
                "/minimum: must be a number",
                "/items: must be a schema (an object or a boolean)",
            ],
        ),
        (
            {"properties": {"a": "junk"}, "required": "a", "anyOf": "x"},
            [
                "/properties/a: must be a schema (an object or a boolean)",
                "/required: must be a list of property names",
                "/anyOf: must be a non-empty list of schemas",
            ],
        ),
        (
            {"multipleOf": 0, "minLength": True, "maxItems": -1, "uniqueItems": "yes"},
            [
                "/multipleOf: must be greater than 0",
                "/minLength: must be a non-negative integer",
                "/maxItems: must be a non-negative integer",
                "/uniqueItems: must be true or false",
            ],
        ),
        ({"$ref": "#/definitions/missing"}, ['/$ref: "#/definitions/missing" points to nothing']),
        (
            {"$defs": {"a": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"},
            [
                "/$defs/a/$ref: leads back to a schema it is inside of without reading into the value"
                " (an endless loop)"
            ],
        ),
        (
            {"$schema": "https://example.com/my-dialect"},
            ['/$schema: "https://example.com/my-dialect" is not a dialect toolgen knows'],
        ),
        (
            {"$recursiveRef": "#", "$schema": "https://json-schema.org/draft/2019-09/schema"},
            ["/$recursiveRef: draft 2019-09's dynamic reference is not implemented"],
        ),
        ({"minimum": float("nan")}, ["/minimum: nan is not a JSON number"]),
    ],
)
def test_schemas_that_cannot_be_enforced_are_refused_listing_every_place(schema: Any, refused: list[str]) -> None:
    assert [str(r) for r in schema_refusals(schema)] == refused
    with pytest.raises(SchemaRefused) as caught:
        compile_schema(schema)
    assert [str(r) for r in caught.value.refusals] == refused
    assert str(caught.value) == "the schema cannot be checked: " + "; ".join(refused)
    with pytest.raises(SchemaRefused):
        arguments_checker(schema)


def test_a_refusal_names_pointer_keyword_and_reason() -> None:
    [refusal] = schema_refusals({"properties": {"a/b": {"pattern": 3}}})
    assert (refusal.pointer, refusal.keyword) == ("/properties/a~1b", "pattern")
    assert refusal.reason == "must be a regular expression (a string)"


def test_remote_refs_need_retrieve_and_never_use_the_network() -> None:
    schema = {"properties": {"n": {"$ref": "https://example.com/int.json"}}}
    [refusal] = schema_refusals(schema)
    assert refusal.keyword == "$ref" and "pass retrieve=" in refusal.reason
    asked: list[str] = []

    def retrieve(uri: str) -> Any:
        asked.append(uri)
        return {"type": "integer"}

    assert problems_of_with(schema, {"n": "1"}, retrieve) == ['x.n: expected integer, got string "1"']
    assert asked == ["https://example.com/int.json"]

    def failing(uri: str) -> Any:
        raise OSError("offline")

    [refusal] = schema_refusals(schema, retrieve=failing)
    assert refusal.reason == 'could not retrieve "https://example.com/int.json": offline'


def problems_of_with(schema: Any, value: Any, retrieve: Any) -> list[str]:
    problems: list[str] = []
    compile_schema(schema, retrieve=retrieve)(value, "x", problems, False)
    return problems


def test_deep_schema_is_checked_up_to_the_limit_and_refused_past_it() -> None:
    def nested(levels: int) -> tuple[dict[str, Any], Any]:
        schema: dict[str, Any] = {"type": "string"}
        value: Any = "a"
        for _ in range(levels):
            schema = {"type": "array", "items": schema}
            value = [value]
        return schema, value

    schema, value = nested(MAX_NESTING // 2 - 1)  # two containers per level
    assert problems_of(schema, value) == []
    too_deep, _ = nested(MAX_NESTING)
    [refusal] = schema_refusals(too_deep)
    assert refusal.reason == f"nested deeper than {MAX_NESTING} levels"


# ---- JSON Schema's data model ---------------------------------------------------------------


def test_tuples_and_read_only_mappings_are_json_arrays_and_objects() -> None:
    schema = MappingProxyType(
        {
            "type": "object",
            "properties": MappingProxyType(
                {
                    "unit": MappingProxyType({"type": "string", "enum": ("c", "f")}),
                    "pair": MappingProxyType({"type": ("array", "null"), "prefixItems": ({"type": "integer"},)}),
                }
            ),
            "required": ("unit",),
            "additionalProperties": False,
        }
    )
    check = arguments_checker(schema)  # type: ignore[arg-type]
    assert check({"unit": "c", "pair": (1, 2)}, False) == ({"unit": "c", "pair": [1, 2]}, [])
    _, problems = check({"unit": "k", "pair": ("a",), "x": 1}, False)
    assert problems == [
        'unit: must be one of "c", "f" (got "k")',
        'pair[0]: expected integer, got string "a"',
        "x: unknown parameter",
    ]
    assert check({"pair": None}, False)[1] == ["unit: required, but missing"]


def test_spec_shaped_catalog_data_is_checked_as_json() -> None:
    """The generated catalog_data holds JSON arrays as tuples: every keyword must still hold."""
    from generator.runtime.native import parameters_schema

    param = MappingProxyType(
        {
            "name": "mode",
            "required": True,
            "instruction": ("How to write.",),
            "description": (),
            "usage": "mode",
            "schema": MappingProxyType({"type": "string", "enum": ("overwrite", "append")}),
            "dependencies": (),
            "requires": None,
        }
    )
    schema = parameters_schema([{**param, "instruction": ""}])
    check = arguments_checker(schema)
    assert check({"mode": "append"}, False) == ({"mode": "append"}, [])
    assert check({"mode": "replace"}, False)[1] == ['mode: must be one of "overwrite", "append" (got "replace")']
    assert check({}, False)[1] == ["mode: required, but missing"]
    nested = {
        "type": "object",
        "properties": {
            "items": {
                "type": "array",
                "items": {"type": "object", "properties": {"n": {}}, "required": ("n",)},
            }
        },
        "required": ("items",),
    }
    assert arguments_checker(nested)({"items": [{"n": 1}, {}]}, False)[1] == ["items[1].n: required, but missing"]


@pytest.mark.parametrize(
    ("schema", "value", "expected"),
    [
        ({"uniqueItems": True}, [1, 1.0], ["x: items must be unique"]),
        ({"uniqueItems": True}, [1, True], []),
        ({"uniqueItems": True}, [{"a": 1, "b": [0]}, {"b": [0.0], "a": 1}], ["x: items must be unique"]),
        ({"uniqueItems": True}, (0, False, [0], [False]), []),
        ({"enum": [1]}, True, ["x: must be 1 (got true)"]),
        ({"enum": [[1, {"a": True}]]}, [1.0, {"a": True}], []),
        ({"enum": [[1, {"a": True}]]}, [1.0, {"a": 1}], ['x: must be [1, {"a": true}] (got [1.0, {"a": 1}])']),
        ({"const": {"a": False}}, {"a": 0}, ['x: must be {"a": false} (got {"a": 0})']),
        ({"multipleOf": 0.0001}, 0.0075, []),
        ({"multipleOf": 0.5}, 1e308, []),
        ({"multipleOf": 3}, 10**40 + 1, [f"x: must be a multiple of 3 (got {10**40 + 1})"]),
        ({"multipleOf": 1e-300}, 10**400, []),
        ({"multipleOf": 2**70}, 2**80, []),
        ({"multipleOf": 0.1}, 2.0**80, []),  # 1.2089258196146292e+24, as its shortest decimal text
        ({"minimum": 2**64}, 2**64 - 1, [f"x: must be at least {2**64} (got {2**64 - 1})"]),
        ({"maximum": 1e308}, 10**309, [f"x: must be at most 1e+308 (got {10**309})"]),
        ({"type": "integer"}, 10**30, []),
        ({"type": "integer"}, 1.0, []),
        ({"type": "number"}, float("nan"), ["x: not a JSON number (got NaN)"]),
        ({"minimum": 0}, float("-inf"), ["x: not a JSON number (got -Infinity)"]),
        ({"minItems": 2.0}, [1], ["x: must have at least 2 items"]),
        ({"maxLength": 1}, "\U0001f600", []),
        ({"properties": {"a": False}}, {"a": 1}, ["x.a: no value is allowed here"]),
        (False, 1, ["x: no value is allowed here"]),
        (True, {"anything": [1]}, []),
    ],
)
def test_json_values_and_numbers(schema: Any, value: Any, expected: list[str]) -> None:
    assert problems_of(schema, value) == expected


def test_integral_floats_become_ints_where_the_schema_says_integer() -> None:
    schema = {
        "type": "object",
        "properties": {"n": {"type": "integer"}, "x": {"type": "number"}, "l": {"items": {"type": "integer"}}},
    }
    args, problems = arguments_checker(schema)({"n": 3.0, "x": 3.0, "l": [1.0, 2]}, False)
    assert problems == []
    assert args == {"n": 3, "x": 3.0, "l": [1, 2]}
    assert type(args["n"]) is int and type(args["x"]) is float and type(args["l"][0]) is int


# ---- keywords beyond the common tool shape ---------------------------------------------------


@pytest.mark.parametrize(
    ("schema", "value", "expected"),
    [
        ({"contains": {"type": "integer"}}, ["a"], ['x: must contain at least 1 items matching {"type": "integer"}']),
        (
            {"contains": {"const": 1}, "maxContains": 1},
            [1, 1],
            ['x: must contain at most 1 items matching {"const": 1} (has 2)'],
        ),
        ({"contains": {"const": 1}, "minContains": 0}, [], []),
        ({"dependentRequired": {"a": ["b"]}}, {"a": 1}, ["x.b: required when a is present, but missing"]),
        ({"dependentSchemas": {"a": {"required": ["c"]}}}, {"a": 1}, ["x.c: required, but missing"]),
        (
            {"propertyNames": {"maxLength": 2}},
            {"abc": 1},
            ['x.abc: the name "abc" is not allowed: must be at most 2 characters long'],
        ),
        (
            {"$defs": {"n": {"type": "integer"}}, "properties": {"a": {"$ref": "#/$defs/n"}}},
            {"a": "1"},
            ['x.a: expected integer, got string "1"'],
        ),
        (
            {"definitions": {"a~b/c": {"minimum": 2}}, "$ref": "#/definitions/a~0b~1c"},
            1,
            ["x: must be at least 2 (got 1)"],
        ),
        ({"$defs": {"%": {"const": 1}}, "$ref": "#/$defs/%25"}, 2, ["x: must be 1 (got 2)"]),
        (
            {"$id": "https://a.example/root", "$defs": {"i": {"$anchor": "i", "type": "integer"}}, "$ref": "#i"},
            "s",
            ['x: expected integer, got string "s"'],
        ),
        (
            {"prefixItems": [{"type": "string"}], "unevaluatedItems": False},
            ["a", 1],
            ["x[1]: no value is allowed here"],
        ),
        (
            {"properties": {"a": {}}, "allOf": [{"properties": {"b": {}}}], "unevaluatedProperties": False},
            {"a": 1, "b": 2, "c": 3},
            ["x.c: unknown parameter"],
        ),
        ({"format": "date"}, "2024-02-30", ['x: must be a valid date, like "2024-05-01" (got "2024-02-30")']),
        ({"format": "email"}, "a@example.com", []),
        ({"format": "int32"}, 2**31, ["x: must be an integer from -2147483648 to 2147483647 (int32) (got 2147483648)"]),
        ({"format": "made-up"}, "anything", []),
    ],
)
def test_more_keywords(schema: Any, value: Any, expected: list[str]) -> None:
    assert problems_of(schema, value) == expected


def test_draft7_ref_overrides_its_siblings_and_array_items() -> None:
    draft7 = "http://json-schema.org/draft-07/schema#"
    schema = {
        "$schema": draft7,
        "definitions": {"s": {"type": "string"}},
        "properties": {"a": {"$ref": "#/definitions/s", "maxLength": 1}},
    }
    assert problems_of(schema, {"a": "long"}) == []
    assert problems_of({"$schema": draft7, "items": [{"type": "string"}], "additionalItems": False}, ["a", "b"]) == [
        "x: must have at most 1 items"
    ]
    assert problems_of({"$schema": draft7, "dependencies": {"a": ["b"]}}, {"a": 1}) == [
        "x.b: required when a is present, but missing"
    ]


def test_gemini_dialect() -> None:
    schema = {
        "type": "OBJECT",
        "properties": {
            "unit": {"type": "STRING", "format": "enum", "enum": ["c", "f"]},
            "when": {"type": "STRING", "format": "date-time", "nullable": True},
            "n": {"type": "INTEGER", "format": "int32"},
        },
        "required": ["unit"],
        "propertyOrdering": ["unit", "when", "n"],
    }
    check = arguments_checker(schema, dialect="gemini")
    assert check({"unit": "c", "when": None, "n": 1}, False) == ({"unit": "c", "n": 1}, [])
    assert check({"unit": "k", "when": "soon", "extra": 1}, False)[1] == [
        'unit: must be one of "c", "f" (got "k")',
        'when: must be a valid date-time, like "2024-05-01T12:00:00Z" (got "soon")',
    ]
    # OpenAPI semantics: the subset has no additionalProperties, so an undeclared key is allowed
    assert check({"unit": "c", "extra": 1}, False) == ({"unit": "c", "extra": 1}, [])
    empty = arguments_checker({"type": "OBJECT", "properties": {}}, dialect="gemini")
    assert empty({"x": 1}, False) == ({"x": 1}, [])
    # nullable: true lets null through the whole node: its type, its enum, a bare anyOf
    nulls = {
        "type": "OBJECT",
        "properties": {
            "e": {"type": "STRING", "enum": ["a"], "nullable": True},
            "u": {"anyOf": [{"type": "INTEGER"}, {"type": "BOOLEAN"}], "nullable": True},
            "plain": {"type": "STRING", "enum": ["a"]},
        },
    }
    assert problems_of(nulls, {"e": None, "u": None}, dialect="gemini") == []
    assert problems_of(nulls, {"plain": None}, dialect="gemini") == [
        "x.plain: expected string, got null"
    ]
    assert [str(r) for r in schema_refusals({"type": "STRING", "const": "a"}, dialect="gemini")] == [
        "/const: Gemini's Schema has no such keyword"
    ]


def test_every_problem_is_collected_with_its_place() -> None:
    schema = {
        "type": "object",
        "properties": {
            "reporter": {"type": "object", "properties": {"email": {"type": "string", "format": "email"}}},
            "items": {
                "type": "array",
                "items": {"type": "object", "properties": {"name": {"type": "string", "minLength": 1}}},
            },
        },
    }
    _, problems = arguments_checker(schema)(
        {"reporter": {"email": "nobody"}, "items": [{"name": "a"}, {"name": ""}, {"name": 3}]}, False
    )
    assert problems == [
        'reporter.email: must be a valid email, like "name@example.com" (got "nobody")',
        "items[1].name: must be at least 1 characters long",
        "items[2].name: expected string, got integer 3",
    ]


def test_recursive_schemas_compile_once_and_check_deep_values() -> None:
    schema = {
        "$defs": {
            "node": {
                "type": "object",
                "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/node"}}, "v": {"type": "integer"}},
            }
        },
        "$ref": "#/$defs/node",
    }
    value: dict[str, Any] = {"v": 1}
    for _ in range(30):
        value = {"kids": [value], "v": 0}
    assert problems_of(schema, value) == []
    value["kids"][0]["kids"][0]["v"] = "x"
    assert problems_of(schema, value) == ['x.kids[0].kids[0].v: expected integer, got string "x"']


def test_text_path_reads_a_parameter_given_by_ref_as_its_target_declares() -> None:
    schema = {"type": "object", "$defs": {"n": {"type": "integer"}}, "properties": {"days": {"$ref": "#/$defs/n"}}}
    assert arguments_checker(schema)({"days": "3"}, True) == ({"days": 3}, [])
    assert arguments_checker(schema)({"days": "3"}, False)[1] == ['days: expected integer, got string "3"']


def test_a_text_too_long_to_match_is_a_problem_in_both_runtimes_alike() -> None:
    """Over MAX_PATTERN_TEXT code points a text is not matched (V8 gives up on such texts, where
    Python answers): the same problem in both; validation.test.ts checks the TS side."""
    unmatched = "could not be checked against the pattern ^a*$: too long to match (send a shorter text)"
    assert problems_of({"pattern": "^a*$"}, "a" * MAX_PATTERN_TEXT) == []
    assert problems_of({"pattern": "^a*$"}, "a" * (MAX_PATTERN_TEXT + 1)) == [f"x: {unmatched}"]
    assert problems_of({"pattern": "^a*$"}, "\U0001f600" * MAX_PATTERN_TEXT) == [
        "x: must match the pattern ^a*$"
    ]
    key = "a" * (MAX_PATTERN_TEXT + 1)
    for closing in ({"additionalProperties": False}, {"unevaluatedProperties": False}):
        schema = {"patternProperties": {"^a*$": {"type": "integer"}}, **closing}
        assert problems_of(schema, {key: "1"}) == [f"x.{key}: the name {unmatched}"]  # once
    assert matches(lambda text: True, "") is True
