"""Writes hostile.json: MCP tools built to break tool-list conversion, one case per tool.

Run from the repository root: ``python tests/data/mcp/make_hostile.py``. The file is committed;
tests read it and never run this script. Each tool's description says which case it is.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def nested(levels: int, key: str) -> dict[str, Any]:
    """A schema nested ``levels`` times through ``key``, built without recursion."""
    node: dict[str, Any] = {"type": "string"}
    for _ in range(levels):
        node = {"type": "array", key: node} if key == "items" else {"type": "object", "properties": {"n": node}}
    return node


def deep_text(levels: int) -> str:
    """JSON text of an array schema nested ``levels`` times (too deep for json.dumps to write)."""
    return '{"type": "array", "items": ' * levels + '{"type": "string"}' + "}" * levels


def obj(**properties: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties}


STR = {"type": "string"}

TOOLS: list[Any] = [
    # a free-form map, as HTTP-request and environment-setting tools declare headers/env
    {"name": "free_form_map", "description": "String-to-string map (headers).",
     "inputSchema": obj(url=STR, headers={"type": "object", "additionalProperties": STR})},
    {"name": "files/read", "description": "Slash in the name.", "inputSchema": obj(path=STR)},
    {"name": "read file", "description": "Space in the name.", "inputSchema": obj(path=STR)},
    {"name": "café", "description": "Non-ASCII name.", "inputSchema": obj(order=STR)},
    {"name": "tool\n", "description": "Newline at the end of the name.", "inputSchema": obj()},
    {"name": "dangling_ref", "description": "A $ref to nothing.",
     "inputSchema": obj(a={"$ref": "#/$defs/missing"})},
    {"name": "external_ref", "description": "A $ref to another document.",
     "inputSchema": obj(a={"$ref": "https://example.com/schema.json"})},
    {"name": "property_not_object", "description": "A property schema that is a number.",
     "inputSchema": obj(a=5)},
    {"name": "recursive_ref", "description": "A tree: recursive $ref.",
     "inputSchema": {"type": "object", "properties": {"root": {"$ref": "#/$defs/node"}},
                     "$defs": {"node": obj(label=STR, children={"type": "array", "items": {"$ref": "#/$defs/node"}})}}},
    {"name": "deep_300", "description": "Nested 300 levels.", "inputSchema": obj(x=nested(150, "properties"))},
    # spliced in as text below: json.dumps itself recurses too deep to write it
    {"name": "deep_3000", "description": "Nested 3000 levels.", "inputSchema": obj(x="@DEEP@")},
    {"name": "not_finite", "description": "NaN and Infinity.",
     "inputSchema": obj(n={"type": "number", "minimum": float("-inf"), "maximum": float("nan"),
                            "enum": [1, float("nan"), 2]}, m={"type": "number", "default": float("inf")})},
    {"name": "", "description": "Empty name.", "inputSchema": obj()},
    {"description": "No name at all.", "inputSchema": obj()},
    {"name": None, "description": "Null name."},
    "a tool that is a string",
    {"name": "dup", "description": "First of two tools named dup.", "inputSchema": obj()},
    {"name": "dup", "description": "Second of two tools named dup.", "inputSchema": obj()},
    {"name": "a/b", "description": "Rewritten to _x_a_2f_b.", "inputSchema": obj()},
    {"name": "_x_a_2f_b", "description": "Looks like a rewritten name.", "inputSchema": obj()},
    {"name": "no_input_schema", "description": "inputSchema missing."},
    {"name": "null_input_schema", "description": "inputSchema null.", "inputSchema": None},
    {"name": "schema_is_string", "description": "inputSchema a string.", "inputSchema": "object"},
    {"name": "schema_is_list", "description": "inputSchema a list.", "inputSchema": [STR]},
    {"name": "type_list", "description": "A property with a type list.",
     "inputSchema": obj(v={"type": ["string", "number"]}, w={"type": ["string", "null"]})},
    {"name": "root_type_list", "description": "Root type list with null.",
     "inputSchema": {"type": ["object", "null"], "properties": {"a": STR}}},
    {"name": "huge_enum", "description": "2000 enum values.",
     "inputSchema": obj(choice={"type": "string", "enum": [f"value_{i:04d}" for i in range(2000)]})},
    {"name": "number_description", "description": 42, "inputSchema": obj()},
    {"name": "null_description", "description": None, "inputSchema": obj()},
    {"name": "ü" * 30, "description": "Too long once rewritten.", "inputSchema": obj()},
    {"name": "x0mcp0y", "description": "The MCP separator inside the tool name.", "inputSchema": obj()},
    {"name": "property_key_space", "description": "A property key with a space.",
     "inputSchema": obj(**{"my key": STR})},
    {"name": "one_of", "description": "oneOf, which Gemini's subset reads as anyOf.",
     "inputSchema": obj(v={"oneOf": [STR, {"type": "integer"}]})},
    {"name": "boolean_property", "description": "A property schema that is true.",
     "inputSchema": obj(anything=True)},
    {"name": "properties_is_list", "description": "properties given as a list.",
     "inputSchema": {"type": "object", "properties": [STR]}},
    {"name": "unknown_type", "description": "A type no JSON Schema has.",
     "inputSchema": obj(v={"type": "text"})},
]

SERVERS = [
    {"uid": "xhost1", "name": "hostile", "disabled": False, "tools": TOOLS},
    {"uid": "bad uid", "name": "bad-uid", "disabled": False,
     "tools": [{"name": "ok", "description": "Fine tool, bad server uid.", "inputSchema": obj()}]},
    {"uid": "xgood1", "name": "good", "disabled": False,
     "tools": [{"name": "still_here", "description": "A plain tool next to the hostile ones.",
                "inputSchema": obj(q=STR)}]},
]

if __name__ == "__main__":
    out = Path(__file__).with_name("hostile.json")
    text = json.dumps(SERVERS, ensure_ascii=False).replace('"@DEEP@"', deep_text(3000))
    out.write_text(text + "\n", "utf-8")
