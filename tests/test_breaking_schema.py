"""schemadiff: the direction of each JSON-Schema change, nested members and items included."""

from __future__ import annotations

from typing import Any

import pytest

from generator.breaking.schemadiff import diff_schema

OBJECT = {
    "type": "object",
    "properties": {"depth": {"type": "integer", "maximum": 5}, "name": {"type": "string"}},
    "required": ["depth"],
}


def changes(old: dict[str, Any], new: dict[str, Any]) -> list[tuple[str, str]]:
    return list(diff_schema(old, new, "p"))


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ({"type": "integer"}, {"type": "number"}, "TYPE_WIDENED"),
        ({"type": "number"}, {"type": "integer"}, "TYPE_CHANGED"),
        ({"type": "string"}, {"type": "string", "nullable": True}, "TYPE_WIDENED"),
        ({"type": "string", "nullable": True}, {"type": "string"}, "TYPE_CHANGED"),
        ({"type": "string"}, {"type": "string", "enum": ["a"]}, "BOUND_TIGHTENED"),
        ({"type": "string", "enum": ["a"]}, {"type": "string"}, "BOUND_LOOSENED"),
        ({"type": "string", "maxLength": 9}, {"type": "string", "maxLength": 3}, "BOUND_TIGHTENED"),
        ({"type": "string"}, {"type": "string", "minLength": 1}, "BOUND_TIGHTENED"),
        ({"type": "array"}, {"type": "array", "items": {"type": "string"}}, "BOUND_TIGHTENED"),
        ({"type": "array", "maxItems": 2}, {"type": "array"}, "BOUND_LOOSENED"),
        ({"type": "string", "format": "uri"}, {"type": "string", "format": "date"}, "PATTERN_CHANGED"),
        ({"type": "string", "pattern": "a"}, {"type": "string"}, "BOUND_LOOSENED"),
        ({"type": "string", "default": "a"}, {"type": "string", "default": "b"}, "DEFAULT_CHANGED"),
        ({"type": "string", "description": "a"}, {"type": "string", "description": "b"}, "DESCRIPTION_CHANGED"),
        (OBJECT, {**OBJECT, "additionalProperties": False}, "BOUND_TIGHTENED"),
        ({"type": "string"}, {"type": "string", "const": "x"}, "BOUND_TIGHTENED"),  # a one-value enum now
    ],
)
def test_direction(old: dict[str, Any], new: dict[str, Any], expected: str) -> None:
    assert [rule for rule, _ in changes(old, new)] == [expected]


def test_nested_members_are_named_with_dots() -> None:
    new = {
        "type": "object",
        "properties": {"depth": {"type": "integer", "maximum": 3}, "mode": {"type": "string"}},
        "required": ["depth", "mode"],
    }
    assert changes(OBJECT, new) == [
        ("PARAMETER_REMOVED", "parameter 'p': property 'name' removed"),
        ("BOUND_TIGHTENED", "parameter 'p.depth': maximum lowered from 5 to 3"),
        ("PARAMETER_REQUIRED_ADDED", "parameter 'p': property 'mode' added (required)"),
    ]


def test_items_are_named_with_brackets() -> None:
    old = {"type": "array", "items": OBJECT}
    new = {"type": "array", "items": {**OBJECT, "required": ["depth", "name"]}}
    assert changes(old, new) == [("PARAMETER_MADE_REQUIRED", "parameter 'p[].name': now required")]


def test_equal_schemas_have_no_changes() -> None:
    assert changes(OBJECT, dict(OBJECT)) == []


def test_unions_combinators_and_maps_are_compared() -> None:
    """The keywords of the union and combinator spec language: compared, never a crash."""
    from generator.breaking.schemadiff import diff_schema

    def rules(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
        return [rule for rule, _ in diff_schema(old, new, "p")]

    status = {"type": "string", "enum": ["open", "shipped", "cancelled"]}
    assert rules(status, {**status, "enum": ["open", "shipped"]}) == ["ENUM_VALUE_REMOVED"]
    reporter = {"type": "object", "properties": {"email": {"type": "string"}}, "required": []}
    assert rules(reporter, {**reporter, "required": ["email"]}) == ["PARAMETER_MADE_REQUIRED"]
    union = {"anyOf": [{"type": "integer"}, {"type": "string"}]}
    assert rules(union, {"anyOf": [{"type": "integer"}]}) == ["BOUND_TIGHTENED"]
    assert rules({"anyOf": [{"type": "integer"}]}, union) == ["BOUND_LOOSENED"]
    assert rules({"allOf": [{"type": "object"}]}, {"allOf": [{"type": "object"}, {"required": ["a"]}]}) == [
        "BOUND_TIGHTENED"
    ]
    assert rules({"const": "a"}, {"const": "b"}) == ["ENUM_VALUE_REMOVED", "ENUM_VALUE_ADDED"]
    assert rules({"type": ["string", "null"]}, {"type": "string"}) == ["TYPE_CHANGED"]
    assert rules({"oneOf": [{"type": "integer"}]}, {}) == ["BOUND_LOOSENED"]
    maps = {"type": "object", "additionalProperties": {"type": "string", "maxLength": 5}}
    assert rules(maps, {**maps, "additionalProperties": {"type": "string", "maxLength": 3}}) == ["BOUND_TIGHTENED"]
