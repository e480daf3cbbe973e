"""Tests for generator/runtime/schema_dialects.py: one walker, five provider dialects."""

from __future__ import annotations

import copy
import json

import pytest
from jsonschema.exceptions import SchemaError
from pydantic import ValidationError

from conftest import reference_file
from generator.runtime.schema_dialects import (
    DIALECTS,
    DialectError,
    Notice,
    check_limits,
    convert,
    convert_parameters,
    tool_entry,
)
from sdk_validators import (
    check_json_schema,
    validate_anthropic,
    validate_bedrock,
    validate_gemini,
    validate_openai_chat,
    validate_openai_responses,
    validate_tool,
)

JSON_DIALECTS = ("anthropic", "openai-chat", "openai-responses", "bedrock-converse")
OPENAI = ("openai-chat", "openai-responses")
# every dialect, plus OpenAI strict mode
VARIANTS = [(d, False) for d in DIALECTS] + [(d, True) for d in OPENAI]


def obj(props: dict, required: list | None = None, **extra) -> dict:
    schema = {"type": "object", "properties": props}
    if required is not None:
        schema["required"] = required
    schema.update(extra)
    return schema


def prop(schema: dict, dialect: str, name: str, *, strict: bool = False) -> dict:
    return convert_parameters(obj({name: schema}), dialect, strict=strict)["properties"][name]


def refused(schema: dict, dialect: str, *, strict: bool = False) -> DialectError:
    with pytest.raises(DialectError) as info:
        convert_parameters(schema, dialect, strict=strict)
    return info.value


# ----------------------------------------------------------------------------- golden structure


def _fill(node):
    """Golden structure -> a concrete value: {"$text": n} becomes a string of n characters."""
    if isinstance(node, dict):
        if set(node) == {"$text"}:
            return "x" * node["$text"]
        return {k: _fill(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_fill(v) for v in node]
    return node


def _golden_cases():
    data = json.loads(GOLDEN.read_text())
    for key, tool in data["anthropic"].items():
        if "$throws" not in tool:
            yield key, _fill(tool), _fill(data["openai"][key]), _fill(data["gemini"][key])


GOLDEN = reference_file("golden-structure")
GOLDEN_CASES = list(_golden_cases())


def test_golden_structure_every_builtin_tool():
    """Canonical input (the anthropic shape) reproduces the modelled system's output per dialect,
    key order included, except Gemini's integer defect (Cline emits NUMBER; we emit INTEGER)."""
    validated: set = set()

    def validate_once(dialect: str, tool: dict) -> None:
        key = (dialect, json.dumps(tool))
        if key not in validated:
            validate_tool(dialect, tool)
            validated.add(key)

    for key, anth, oai, gem in GOLDEN_CASES:
        params = anth["input_schema"]
        for dialect, expected in (("anthropic", anth), ("openai-chat", oai), ("gemini", gem)):
            got = tool_entry(dialect, anth["name"], anth["description"], params)
            if dialect == "gemini":
                expected = copy.deepcopy(expected)
                for name, p in expected["parameters"]["properties"].items():
                    if params["properties"][name]["type"] == "integer":
                        p["type"] = "INTEGER"
            assert json.dumps(got) == json.dumps(expected), (key, dialect)
            validate_once(dialect, got)
        validate_once("openai-responses", tool_entry("openai-responses", anth["name"], anth["description"], params))
        if anth["description"]:
            validate_once("bedrock-converse",
                          tool_entry("bedrock-converse", anth["name"], anth["description"], params))


def test_empty_tool_is_emitted_everywhere_but_bedrock_needs_a_description():
    empty = {"type": "object", "properties": {}, "required": []}
    assert tool_entry("anthropic", "focus_chain", "", empty)["input_schema"] == empty
    assert tool_entry("gemini", "focus_chain", "", empty)["parameters"] == {
        "type": "OBJECT",
        "properties": {},
        "required": [],
    }
    chat = tool_entry("openai-chat", "focus_chain", "", empty)
    assert chat["function"]["parameters"] == {**empty, "additionalProperties": False}
    validate_gemini(tool_entry("gemini", "focus_chain", "", empty))
    validate_openai_chat(chat)
    with pytest.raises(DialectError) as info:
        tool_entry("bedrock-converse", "focus_chain", "", empty)
    assert info.value.path == ("description",) and info.value.hint
    validate_bedrock([tool_entry("bedrock-converse", "focus_chain", "Records progress.", empty)])


# ----------------------------------------------------------------------------- tool_entry shapes

CANON = obj(
    {
        "path": {"type": "string", "description": "The file."},
        "start_line": {"type": "integer", "description": "First line.", "minimum": 1},
    },
    ["path"],
)


def test_tool_entry_key_order_per_dialect():
    assert list(tool_entry("anthropic", "t", "d", CANON)) == ["name", "description", "input_schema"]
    assert list(tool_entry("anthropic", "t", "d", CANON, cache_control=True)) == [
        "name", "description", "input_schema", "cache_control"]
    assert tool_entry("anthropic", "t", "d", CANON, cache_control=True)["cache_control"] == {"type": "ephemeral"}
    chat = tool_entry("openai-chat", "t", "d", CANON)
    assert list(chat) == ["type", "function"]
    assert list(chat["function"]) == ["name", "description", "strict", "parameters"]
    assert list(chat["function"]["parameters"]) == ["type", "properties", "required", "additionalProperties"]
    resp = tool_entry("openai-responses", "t", "d", CANON)
    assert list(resp) == ["type", "name", "description", "parameters", "strict"]
    assert resp["strict"] is False
    gem = tool_entry("gemini", "t", "d", CANON)
    assert list(gem) == ["name", "description", "parameters"]
    assert list(gem["parameters"]["properties"]["start_line"]) == ["type", "description", "minimum"]
    bed = tool_entry("bedrock-converse", "t", "d", CANON)
    assert list(bed) == ["toolSpec"] and list(bed["toolSpec"]) == ["name", "description", "inputSchema"]
    assert bed["toolSpec"]["inputSchema"] == {"json": CANON}


def test_tool_entry_refusals():
    with pytest.raises(DialectError) as info:
        tool_entry("openai-chat", "bad name", "d", CANON)
    assert info.value.path == ("name",)
    with pytest.raises(DialectError):
        tool_entry("anthropic", "t", "d", CANON, strict=True)
    with pytest.raises(DialectError):
        tool_entry("openai-chat", "t", "d", CANON, cache_control=True)
    with pytest.raises(ValueError, match="unknown dialect 'mistral'"):
        tool_entry("mistral", "t", "d", CANON)
    assert tool_entry("gemini", "ns.tool-1", "d", CANON)["name"] == "ns.tool-1"
    with pytest.raises(DialectError):
        tool_entry("gemini", "1tool", "d", CANON)
    with pytest.raises(DialectError):
        tool_entry("anthropic", "ns.tool", "d", CANON)


def test_tool_entry_collects_notices():
    notices: list = []
    schema = obj({"v": {"oneOf": [{"type": "string"}, {"type": "integer"}]}})
    tool_entry("gemini", "t", "d", schema, notices=notices)
    assert [n.path for n in notices] == [("properties", "v", "oneOf")]


# ----------------------------------------------------------------------------- refusals


def test_error_carries_path_message_hint():
    err = refused({"anyOf": [obj({}), obj({"a": {"type": "string"}})]}, "anthropic")
    assert err.path == ()
    assert "object" in err.message and err.hint
    assert str(err).startswith("<root>:")


@pytest.mark.parametrize("dialect,strict", VARIANTS)
def test_root_must_be_an_object(dialect, strict):
    refused({"type": "string"}, dialect, strict=strict)
    refused({"oneOf": [obj({}), obj({})]}, dialect, strict=strict)
    refused({"type": ["object", "null"], "properties": {}}, dialect, strict=strict)


@pytest.mark.parametrize("dialect", OPENAI)
def test_strict_refuses_array_without_items(dialect):
    err = refused(obj({"tags": {"type": "array"}}), dialect, strict=True)
    assert err.path == ("properties", "tags")
    assert "items" in err.hint
    # non-strict takes it as is
    assert prop({"type": "array"}, dialect, "tags") == {"type": "array"}


def test_gemini_refuses_array_without_items():
    assert refused(obj({"tags": {"type": "array"}}), "gemini").path == ("properties", "tags")


def test_gemini_refuses_recursive_ref_with_location():
    schema = obj({"tree": {"$ref": "#/$defs/Node"}},
                 **{"$defs": {"Node": obj({"kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}}})}})
    err = refused(schema, "gemini")
    assert err.path == ("properties", "tree", "$ref")
    assert "recursive" in err.message and err.hint


def test_gemini_refuses_maps_and_propertyless_nested_objects():
    m = obj({"env": {"type": "object", "additionalProperties": {"type": "string"}}})
    assert refused(m, "gemini").path == ("properties", "env", "additionalProperties")
    assert refused(obj({"meta": {"type": "object"}}), "gemini").path == ("properties", "meta")
    assert refused(obj({"v": {"description": "anything"}}), "gemini").path == ("properties", "v")


def test_gemini_property_names():
    assert refused(obj({"1st": {"type": "string"}}), "gemini").path == ("properties", "1st")
    assert refused(obj({"a b": {"type": "string"}}), "gemini").path == ("properties", "a b")
    ok = convert_parameters(obj({"_a.b-c": {"type": "string"}}), "gemini")
    assert list(ok["properties"]) == ["_a.b-c"]


def test_anthropic_top_level_property_keys():
    err = refused(obj({"filter[id]": {"type": "string"}}), "anthropic")
    assert err.path == ("properties", "filter[id]")


@pytest.mark.parametrize("dialect", OPENAI)
def test_strict_refusals(dialect):
    assert refused(obj({"env": {"type": "object", "properties": {}, "additionalProperties": {"type": "string"}}}),
                   dialect, strict=True).path == ("properties", "env", "additionalProperties")
    assert refused(obj({"v": {"type": "string", "not": {"const": "x"}}}), dialect, strict=True).path == (
        "properties", "v", "not")
    assert refused(obj({"v": {"description": "any"}}), dialect, strict=True).path == ("properties", "v")
    assert refused(obj({"o": {"type": "object"}}), dialect, strict=True).path == ("properties", "o")
    assert refused(obj({}, additionalProperties=True), dialect, strict=True).path == ("additionalProperties",)


def test_unresolvable_refs_are_refused():
    assert refused(obj({"a": {"$ref": "https://example.com/s.json"}}), "anthropic").path == ("properties", "a", "$ref")
    assert refused(obj({"a": {"$ref": "#/$defs/Missing"}}), "openai-chat").path == ("properties", "a", "$ref")
    assert refused(obj({"a": {"$ref": "#anchor"}}), "bedrock-converse").hint


def test_strict_only_for_openai():
    with pytest.raises(DialectError):
        convert_parameters(CANON, "gemini", strict=True)


# ----------------------------------------------------------------------------- gemini rules


def test_gemini_types_are_uppercase_and_arrays_keep_items():
    out = convert_parameters(obj({
        "n": {"type": "integer"}, "x": {"type": "number"}, "b": {"type": "boolean"},
        "list": {"type": "array", "items": {"type": "integer", "description": "one"}},
        "nested": {"type": "object", "description": "N", "properties": {"k": {"type": "string", "description": "K"}},
                   "required": ["k"]},
    }), "gemini")
    p = out["properties"]
    assert [p[k]["type"] for k in p] == ["INTEGER", "NUMBER", "BOOLEAN", "ARRAY", "OBJECT"]
    assert p["list"]["items"] == {"type": "INTEGER", "description": "one"}
    assert p["nested"] == {"type": "OBJECT", "description": "N",
                           "properties": {"k": {"type": "STRING", "description": "K"}}, "required": ["k"]}


def test_gemini_non_string_enum_moves_to_description():
    p = prop({"type": "integer", "description": "Level.", "enum": [1, 2, 3]}, "gemini", "lvl")
    assert p == {"type": "INTEGER", "description": "Level. Allowed values: 1, 2, 3."}
    p = prop({"type": "integer", "enum": [1, 2]}, "gemini", "lvl")
    assert p == {"type": "INTEGER", "description": "Allowed values: 1, 2."}
    assert prop({"type": "string", "enum": ["a", "b"]}, "gemini", "s") == {"type": "STRING", "enum": ["a", "b"]}


def test_gemini_nullable_forms():
    expected = {"type": "STRING", "nullable": True}
    assert prop({"type": ["string", "null"]}, "gemini", "s") == expected
    assert prop({"type": "string", "nullable": True}, "gemini", "s") == expected
    p = prop({"anyOf": [{"type": "string", "enum": ["a"]}, {"type": "null"}], "description": "D"}, "gemini", "s")
    assert p == {"type": "STRING", "description": "D", "nullable": True, "enum": ["a"]}
    p = prop({"type": ["string", "null"], "enum": ["a", None]}, "gemini", "s")
    assert p == {"type": "STRING", "nullable": True, "enum": ["a"]}


def test_gemini_type_list_becomes_any_of():
    p = prop({"type": ["string", "integer"], "description": "id"}, "gemini", "id")
    assert p == {"description": "id", "anyOf": [{"type": "STRING"}, {"type": "INTEGER"}]}


def test_gemini_const_and_bounds_and_formats():
    assert prop({"const": "on"}, "gemini", "c") == {"type": "STRING", "enum": ["on"]}
    assert prop({"const": 3}, "gemini", "c") == {"type": "INTEGER", "description": "Allowed values: 3."}
    assert prop({"type": "integer", "exclusiveMinimum": 0}, "gemini", "i") == {"type": "INTEGER", "minimum": 1}
    assert prop({"type": "number", "exclusiveMaximum": 1.5}, "gemini", "x") == {
        "type": "NUMBER", "description": "Must be less than 1.5."}
    assert prop({"type": "string", "format": "date-time"}, "gemini", "t") == {"type": "STRING", "format": "date-time"}
    assert prop({"type": "string", "description": "Link", "format": "uri"}, "gemini", "u") == {
        "type": "STRING", "description": "Link Format: uri."}
    assert prop({"type": "string", "minLength": 1, "maxLength": 9, "pattern": "^a"}, "gemini", "s") == {
        "type": "STRING", "minLength": 1, "maxLength": 9, "pattern": "^a"}
    assert prop({"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 3,
                 "uniqueItems": True}, "gemini", "a") == {
        "type": "ARRAY", "items": {"type": "STRING"}, "minItems": 1, "maxItems": 3,
        "description": "Items must be unique."}


def test_gemini_closed_objects_and_multiline_description():
    p = prop({"type": "object", "description": "line1\nline2", "properties": {"a": {"type": "string"}},
              "additionalProperties": False, "examples": [{"a": "x"}]}, "gemini", "o")
    assert p == {"type": "OBJECT", "description": 'line1\nline2\n\nExamples: {"a": "x"}.',
                 "properties": {"a": {"type": "STRING"}}}


def test_gemini_all_of_is_flattened_and_conflicts_refused():
    schema = obj({"user": {"allOf": [{"$ref": "#/$defs/Base"}, obj({"email": {"type": "string"}}, ["email"])]}},
                 **{"$defs": {"Base": obj({"id": {"type": "integer"}}, ["id"])}})
    p = convert_parameters(schema, "gemini")["properties"]["user"]
    assert p == {"type": "OBJECT", "properties": {"id": {"type": "INTEGER"}, "email": {"type": "STRING"}},
                 "required": ["id", "email"]}
    clash = obj({"v": {"allOf": [{"type": "string"}, {"type": "integer"}]}})
    assert refused(clash, "gemini").path == ("properties", "v", "allOf", 1, "type")


# ----------------------------------------------------------------------------- openai strict


def test_strict_makes_optional_nullable_and_closes_every_object():
    schema = obj({
        "path": {"type": "string", "description": "P"},
        "mode": {"type": "string", "enum": ["a", "b"]},
        "opts": obj({"deep": {"type": "boolean"}}),
        "either": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
    }, ["path"])
    out = convert_parameters(schema, "openai-chat", strict=True)
    assert out["required"] == ["path", "mode", "opts", "either"]
    assert out["additionalProperties"] is False
    p = out["properties"]
    assert p["path"] == {"type": "string", "description": "P"}
    assert p["mode"] == {"type": ["string", "null"], "enum": ["a", "b", None]}
    assert p["opts"] == {"type": ["object", "null"], "properties": {"deep": {"type": ["boolean", "null"]}},
                         "required": ["deep"], "additionalProperties": False}
    assert p["either"] == {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]}
    tool = tool_entry("openai-responses", "t", "d", schema, strict=True)
    assert tool["strict"] is True
    validate_openai_responses(tool)
    assert check_limits("openai-responses", [tool]) == []


def test_strict_moves_unsupported_keywords_into_description():
    p = prop({"type": "string", "description": "Name.", "minLength": 1, "maxLength": 5, "default": "x",
              "format": "uri", "pattern": "^a"}, "openai-chat", "n", strict=True)
    assert p == {"type": ["string", "null"],
                 "description": 'Name. Minimum length: 1. Maximum length: 5. Default: "x". Format: uri.',
                 "pattern": "^a"}
    p = prop({"type": "string", "format": "date-time"}, "openai-chat", "n", strict=True)
    assert p["format"] == "date-time"


def test_strict_one_of_becomes_any_of_with_notice():
    result = convert(obj({"v": {"oneOf": [{"type": "string"}, {"type": "integer"}]}}, ["v"]),
                     "openai-chat", strict=True)
    assert result.schema["properties"]["v"] == {"anyOf": [{"type": "string"}, {"type": "integer"}]}
    assert result.notices == (Notice(("properties", "v", "oneOf"),
                                     "openai-chat strict: oneOf emitted as anyOf (exclusivity not enforced)"),)


def test_strict_wraps_recursive_ref_when_optional():
    schema = obj({"tree": {"$ref": "#/$defs/Node"}},
                 **{"$defs": {"Node": obj({"kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}, ["kids"])}})
    out = convert_parameters(schema, "openai-chat", strict=True)
    assert out["properties"]["tree"] == {"anyOf": [{"$ref": "#/$defs/Node"}, {"type": "null"}]}
    assert out["$defs"]["Node"]["additionalProperties"] is False
    assert list(out) == ["type", "properties", "required", "additionalProperties", "$defs"]
    check_json_schema(out)


# ----------------------------------------------------------------------------- JSON-schema dialects


@pytest.mark.parametrize("dialect", JSON_DIALECTS)
def test_refs_inlined_and_recursive_kept(dialect):
    schema = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {
            "src": obj({"path": {"type": "string"}}, ["path"]),
            "dst": {"$ref": "#/properties/src", "description": "Target."},
            "tree": {"$ref": "#/definitions/Node"},
        },
        "definitions": {"Node": obj({"kids": {"type": "array", "items": {"$ref": "#/definitions/Node"}}})},
    }
    out = convert_parameters(schema, dialect)
    assert "$schema" not in out and "definitions" not in out
    assert out["properties"]["dst"] == {"type": "object", "description": "Target.",
                                        "properties": {"path": {"type": "string"}}, "required": ["path"]}
    assert out["properties"]["tree"] == {"$ref": "#/$defs/Node"}
    assert out["$defs"]["Node"]["properties"]["kids"]["items"] == {"$ref": "#/$defs/Node"}
    check_json_schema(out)


def test_root_self_reference_stays_hash():
    schema = obj({"name": {"type": "string"}, "children": {"type": "array", "items": {"$ref": "#"}}}, ["name"])
    out = convert_parameters(schema, "anthropic")
    assert out["properties"]["children"]["items"] == {"$ref": "#"}
    assert "$defs" not in out
    assert refused(schema, "gemini").path == ("properties", "children", "items", "$ref")


def test_property_names_that_look_like_keywords():
    schema = obj({"$ref": {"type": "string"}, "definitions": {"type": "array", "items": {"$ref": "#"}},
                  "type": {"type": "string", "enum": ["a"]}})
    out = convert_parameters(schema, "openai-chat")
    assert list(out["properties"]) == ["$ref", "definitions", "type"]
    assert out["properties"]["definitions"]["items"] == {"$ref": "#"}
    assert out["properties"]["$ref"] == {"type": "string"}


def test_ref_descriptions_are_joined_outer_first():
    schema = obj({"a": {"$ref": "#/$defs/A", "description": "Outer."}},
                 **{"$defs": {"A": {"type": "string", "description": "Inner."}}})
    assert convert_parameters(schema, "anthropic")["properties"]["a"] == {
        "type": "string", "description": "Outer.\n\nInner."}


@pytest.mark.parametrize("dialect", JSON_DIALECTS)
def test_canonical_nullable_becomes_type_list(dialect):
    p = prop({"type": "integer", "description": "L", "enum": [1, 2], "nullable": True}, dialect, "l")
    assert p == {"type": ["integer", "null"], "description": "L", "enum": [1, 2, None]}
    assert prop({"type": "string", "nullable": False}, dialect, "s") == {"type": "string"}


def test_draft4_forms_are_modernised():
    p = prop({"type": "number", "minimum": 0, "exclusiveMinimum": True}, "anthropic", "x")
    assert p == {"type": "number", "exclusiveMinimum": 0}
    p = prop({"type": "array", "items": [{"type": "string"}, {"type": "integer"}], "additionalItems": False},
             "anthropic", "pair")
    assert p == {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "items": False}
    check_json_schema(obj({"pair": p}))


def test_anthropic_keeps_standard_keywords_and_all_of():
    schema = obj({"v": {"allOf": [{"type": "string"}, {"minLength": 2}], "title": "V", "examples": ["ab"]},
                  "env": {"type": "object", "propertyNames": {"pattern": "^[A-Z]+$"},
                          "additionalProperties": {"type": "string"}}})
    out = convert_parameters(schema, "anthropic")
    assert out["properties"] == schema["properties"]
    assert list(out) == ["type", "properties", "required"]


def test_root_without_type_or_required_is_completed():
    out = convert_parameters({"properties": {"a": {"type": "string"}}}, "openai-chat")
    assert out == {"type": "object", "properties": {"a": {"type": "string"}}, "required": [],
                   "additionalProperties": False}
    assert convert_parameters({"type": "object"}, "anthropic") == {"type": "object", "properties": {}, "required": []}


# ----------------------------------------------------------------------------- check_limits


def test_check_limits_openai_soft_limits():
    tools = [tool_entry("openai-chat", f"t{i}", "d", CANON) for i in range(129)]
    tools[3] = tool_entry("openai-chat", "t3", "x" * 1025, CANON)
    notices = check_limits("openai-chat", tools)
    assert [n.path for n in notices] == [(3, "function", "description"), ()]
    assert check_limits("openai-responses", [tool_entry("openai-responses", "a", "d", CANON)]) == []


def test_check_limits_hard_errors():
    a = tool_entry("anthropic", "a", "d", CANON)
    with pytest.raises(DialectError) as info:
        check_limits("anthropic", [a, a])
    assert info.value.path == (1, "name")
    with pytest.raises(DialectError) as info:
        check_limits("anthropic", [{"name": "a", "input_schema": {"anyOf": []}}])
    assert info.value.path == (0, "input_schema")
    with pytest.raises(DialectError) as info:
        check_limits("gemini", [{"name": "9lives", "parameters": {"type": "OBJECT", "properties": {}}}])
    assert info.value.path == (0, "name")
    with pytest.raises(DialectError) as info:
        check_limits("gemini", [{"name": "g", "parameters": {"type": "OBJECT", "properties": {
            "n": {"type": "INTEGER", "enum": [1, 2]}}}}])
    assert info.value.path == (0, "parameters", "properties", "n", "enum")
    with pytest.raises(DialectError) as info:
        check_limits("bedrock-converse", [{"toolSpec": {"name": "b", "description": "",
                                                        "inputSchema": {"json": {"type": "object"}}}}])
    assert info.value.path == (0, "toolSpec", "description")
    bad_strict = {"type": "function", "name": "s", "description": "d", "strict": True,
                  "parameters": {"type": "object", "properties": {"a": {"type": "string"}}, "required": [],
                                 "additionalProperties": False}}
    with pytest.raises(DialectError) as info:
        check_limits("openai-responses", [bad_strict])
    assert info.value.path == (0, "parameters", "required")
    with pytest.raises(DialectError):
        check_limits("anthropic", [{"name": "a", "input_schema": {"type": "object", "properties": {"a b": {}}}}])


# ----------------------------------------------------------------------------- corpus of wild schemas

CORPUS: dict[str, dict] = {
    "mcp_fetch": {
        "type": "object",
        "title": "Fetch",
        "description": "Parameters for fetching a URL.",
        "properties": {
            "url": {"type": "string", "format": "uri", "minLength": 1, "title": "Url", "description": "URL to fetch"},
            "max_length": {
                "type": "integer",
                "exclusiveMinimum": 0,
                "exclusiveMaximum": 1000000,
                "default": 5000,
                "title": "Max Length",
            },
            "start_index": {"type": "integer", "minimum": 0, "default": 0},
            "raw": {"type": "boolean", "default": False, "description": "Raw HTML."},
        },
        "required": ["url"],
    },
    "git_log_defs": {
        "$defs": {
            "LogOptions": {
                "type": "object",
                "title": "LogOptions",
                "properties": {
                    "max_count": {"type": "integer", "default": 10},
                    "author": {"anyOf": [{"type": "string"}, {"type": "null"}]},
                },
                "required": ["max_count"],
            }
        },
        "properties": {
            "repo_path": {"type": "string", "title": "Repo Path"},
            "options": {"$ref": "#/$defs/LogOptions"},
        },
        "required": ["repo_path"],
        "type": "object",
    },
    "time_optional_null": {
        "type": "object",
        "properties": {
            "timezone": {
                "anyOf": [{"type": "string"}, {"type": "null"}],
                "default": None,
                "description": "IANA timezone name",
            }
        },
        "required": [],
    },
    "const_discriminated_union": {
        "type": "object",
        "properties": {
            "shape": {
                "oneOf": [
                    {
                        "type": "object",
                        "properties": {"kind": {"const": "circle"}, "r": {"type": "number"}},
                        "required": ["kind", "r"],
                        "additionalProperties": False,
                    },
                    {
                        "type": "object",
                        "properties": {"kind": {"const": "square"}, "side": {"type": "number"}},
                        "required": ["kind", "side"],
                        "additionalProperties": False,
                    },
                ]
            }
        },
        "required": ["shape"],
    },
    "env_map_property_names": {
        "type": "object",
        "properties": {
            "command": {"type": "string"},
            "env": {
                "type": "object",
                "propertyNames": {"pattern": "^[A-Z_][A-Z0-9_]*$"},
                "additionalProperties": {"type": "string"},
            },
        },
        "required": ["command"],
    },
    "deep_nesting": obj(
        {
            "a": obj(
                {
                    "b": {
                        "type": "array",
                        "items": obj(
                            {
                                "c": obj(
                                    {"d": {"type": "array", "items": {"type": "string", "description": "leaf"}}}, ["d"]
                                )
                            },
                            ["c"],
                        ),
                    }
                },
                ["b"],
            )
        },
        ["a"],
    ),
    "draft7_definitions": {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "definitions": {
            "Point": {
                "type": "object",
                "properties": {"x": {"type": "number"}, "y": {"type": "number"}},
                "required": ["x", "y"],
                "additionalProperties": False,
            }
        },
        "type": "object",
        "properties": {
            "points": {"type": "array", "items": {"$ref": "#/definitions/Point"}, "minItems": 2},
            "label": {"type": ["string", "null"], "examples": ["north", "south"]},
        },
        "required": ["points"],
        "additionalProperties": False,
    },
    "ref_into_properties": {
        "type": "object",
        "properties": {
            "source": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
            "destination": {"$ref": "#/properties/source", "description": "Where to copy to"},
        },
        "required": ["source", "destination"],
    },
    "all_of_composition": {
        "type": "object",
        "properties": {
            "user": {
                "allOf": [
                    {"$ref": "#/$defs/Base"},
                    {
                        "type": "object",
                        "properties": {"email": {"type": "string", "format": "email"}},
                        "required": ["email"],
                    },
                ]
            }
        },
        "$defs": {"Base": {"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]}},
    },
    "recursive_filter": {
        "type": "object",
        "properties": {"filter": {"$ref": "#/$defs/Filter"}},
        "$defs": {
            "Filter": {
                "type": "object",
                "properties": {
                    "field": {"type": "string"},
                    "and": {"type": "array", "items": {"$ref": "#/$defs/Filter"}},
                },
                "required": ["field"],
            }
        },
    },
    "untyped_values": {
        "type": "object",
        "properties": {"value": {"description": "Any JSON value"}, "tags": {"items": {"type": "string"}}},
    },
    "canonical_mixed_enums": obj(
        {
            "level": {"type": "integer", "description": "Log level", "enum": [0, 1, 2], "nullable": True},
            "color": {"type": "string", "description": "Colour", "enum": ["red", "green"]},
            "ratio": {"type": "number", "minimum": 0, "maximum": 1},
        },
        ["color"],
    ),
    "no_parameters": {"type": "object"},
    "root_recursion": obj(
        {"name": {"type": "string"}, "children": {"type": "array", "items": {"$ref": "#"}}}, ["name"]
    ),
}

# (corpus name, dialect, strict) combinations that must be refused; everything else must convert
# and pass the provider SDK validators.
REFUSED = {
    ("env_map_property_names", "gemini", False),
    ("env_map_property_names", "openai-chat", True),
    ("env_map_property_names", "openai-responses", True),
    ("recursive_filter", "gemini", False),
    ("root_recursion", "gemini", False),
    ("untyped_values", "gemini", False),
    ("untyped_values", "openai-chat", True),
    ("untyped_values", "openai-responses", True),
}


@pytest.mark.parametrize("name", sorted(CORPUS))
@pytest.mark.parametrize("dialect,strict", VARIANTS)
def test_corpus(name, dialect, strict):
    schema = CORPUS[name]
    before = copy.deepcopy(schema)
    if (name, dialect, strict) in REFUSED:
        err = refused(schema, dialect, strict=strict)
        assert err.hint and err.message
        assert schema == before
        return
    description = f"Tool {name}."
    tool = tool_entry(dialect, "corpus_tool", description, schema, strict=strict)
    assert schema == before, "input mutated"
    again = tool_entry(dialect, "corpus_tool", description, copy.deepcopy(schema), strict=strict)
    assert json.dumps(tool) == json.dumps(again), "not deterministic"
    validate_tool(dialect, tool)
    check_limits(dialect, [tool])
    assert not _keys_named(tool, {"$schema", "definitions", "$id"})


def _keys_named(node, names: set) -> list:
    found = []
    if isinstance(node, dict):
        found += [k for k in node if k in names]
        for v in node.values():
            found += _keys_named(v, names)
    elif isinstance(node, list):
        for v in node:
            found += _keys_named(v, names)
    return found


def test_corpus_spot_checks():
    fetch = convert_parameters(CORPUS["mcp_fetch"], "gemini")
    assert fetch["properties"]["url"] == {"type": "STRING", "description": "URL to fetch Format: uri.",
                                         "title": "Url", "minLength": 1}
    assert fetch["properties"]["max_length"] == {"type": "INTEGER", "minimum": 1, "maximum": 999999,
                                                "default": 5000, "title": "Max Length"}
    assert list(fetch)[:3] == ["type", "description", "properties"]
    shape = convert_parameters(CORPUS["const_discriminated_union"], "gemini")["properties"]["shape"]
    assert shape["anyOf"][0]["properties"]["kind"] == {"type": "STRING", "enum": ["circle"]}
    git = convert_parameters(CORPUS["git_log_defs"], "openai-chat", strict=True)
    assert git["properties"]["options"]["properties"]["author"] == {
        "anyOf": [{"type": "string"}, {"type": "null"}]}
    assert git["properties"]["options"]["type"] == ["object", "null"]
    assert git["properties"]["repo_path"] == {"type": "string", "title": "Repo Path"}
    pts = convert_parameters(CORPUS["draft7_definitions"], "bedrock-converse")
    assert pts["properties"]["points"]["items"]["required"] == ["x", "y"]
    untyped = convert_parameters(CORPUS["untyped_values"], "anthropic")
    assert untyped["properties"]["value"] == {"description": "Any JSON value"}


def test_validators_reject_known_bad_inputs():
    """The helpers must not pass silently."""
    good_chat = tool_entry("openai-chat", "t", "d", CANON)
    validate_openai_chat(good_chat)
    bad = copy.deepcopy(good_chat)
    bad["function"]["bogus"] = 1
    with pytest.raises(ValidationError):
        validate_openai_chat(bad)
    with pytest.raises(ValidationError):
        validate_openai_chat({**good_chat, "extra": True})
    good_resp = tool_entry("openai-responses", "t", "d", CANON)
    with pytest.raises(ValidationError):
        validate_openai_responses({**good_resp, "strict": "no"})
    with pytest.raises(ValidationError):
        validate_openai_responses({**good_resp, "function": {}})
    good_anth = tool_entry("anthropic", "t", "d", CANON, cache_control=True)
    validate_anthropic(good_anth)
    with pytest.raises(ValidationError):
        validate_anthropic({**good_anth, "cache_control": {"type": "ephemeral", "ttl_x": 1}})
    with pytest.raises(ValidationError):
        validate_anthropic({**good_anth, "inputSchema": {}})
    with pytest.raises(SchemaError):
        validate_anthropic({**good_anth, "input_schema": {"type": "object", "properties": {"a": {"type": "strin"}}}})
    good_gem = tool_entry("gemini", "t", "d", CANON)
    with pytest.raises(ValidationError):
        validate_gemini({**good_gem, "parameters": {"type": "OBJECT", "properties": {"a": {"type": "STRING", "x": 1}}}})
    with pytest.raises(
        ValueError, match="does not round-trip"
    ):  # lower-case type: the SDK coerces it, so the round trip differs
        validate_gemini({**good_gem, "parameters": {"type": "object", "properties": {}}})
    with pytest.raises(ValidationError):
        validate_gemini({**good_gem, "parameters": {"type": "OBJECT", "properties": {"a": {"type": "STRING",
                                                                                             "enum": [1]}}}})
    good_bed = tool_entry("bedrock-converse", "t", "d", CANON)
    validate_bedrock([good_bed])
    with pytest.raises(ValueError, match="Unknown parameter"):
        validate_bedrock([{"toolSpec": {**good_bed["toolSpec"], "extra": 1}}])
    with pytest.raises(ValueError, match="longer than 64"):
        validate_bedrock([{"toolSpec": {**good_bed["toolSpec"], "name": "a" * 65}}])
    with pytest.raises(ValueError, match="does not match"):
        validate_bedrock([{"toolSpec": {**good_bed["toolSpec"], "name": "a.b"}}])
    with pytest.raises(SchemaError):
        check_json_schema({"type": "object", "properties": {"a": {"type": 5}}})
