"""Property: Offer.check on a format says what the ``jsonschema`` library says of the schema sent.

For drawn spec-like parameter schemas (enums, bounds, patterns, type lists, anyOf, const, arrays,
nested objects with required members, closed objects) offered as an MCP tool on the bundled
package, and drawn arguments, per format: toolgen's verdict (no problems or some) equals
jsonschema's Draft 2020-12 verdict on the exact parameters schema the entry sent. Gemini's
``parameters`` are its OpenAPI subset, which toolgen checks in the validator's gemini dialect;
the oracle reads it through its own translation, ``gemini_to_json_schema`` below. ``pattern`` is
evaluated by the ``regress`` ECMA-262 engine, as JSON Schema says. No case is excused: a schema a
format cannot take is left out of the request (and rejected here as an example), nothing else.
"""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
import regress
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

import generated
from generated._runtime import sent_schema
from replies_data import FORMATS
from test_offer import NATIVE

PATTERNS = ("^[a-z]+$", "^[A-Z]{2}-[0-9]+$", "b")
STRINGS = ("", "ab", "abc\n", "AB-12", "xbx", "Z", "open", "lost")
SCALARS = (None, True, False, 0, 1, -2, 3, 2.5, 1.0, "", "ab", "AB-12", "open")


def _pattern_keyword(validator: Any, pattern: str, instance: Any, schema: Any) -> Any:
    if isinstance(instance, str) and regress.Regex(pattern, "u").find(instance) is None:
        yield jsonschema.ValidationError(f"{instance!r} does not match {pattern!r}")


ORACLE = jsonschema.validators.extend(jsonschema.Draft202012Validator, {"pattern": _pattern_keyword})


def gemini_to_json_schema(schema: Any) -> Any:
    """The JSON Schema a Gemini ``Schema`` stands for (the oracle's own reading of the subset):
    UPPERCASE type names lower-cased; ``nullable: true`` lets null through (type list, enum, or
    an extra anyOf branch); ``format: enum`` is only a marker; the rest is JSON Schema."""
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "type":
            out["type"] = value.lower()
        elif key == "properties":
            out[key] = {name: gemini_to_json_schema(sub) for name, sub in value.items()}
        elif key == "items":
            out[key] = gemini_to_json_schema(value)
        elif key == "anyOf":
            out[key] = [gemini_to_json_schema(sub) for sub in value]
        elif key not in ("nullable", "format"):
            out[key] = value
    if schema.get("nullable") is True:
        if "type" in out:
            out["type"] = [out["type"], "null"]
            if "enum" in out:
                out["enum"] = [*out["enum"], None]
        elif "anyOf" in out:
            out["anyOf"] = [*out["anyOf"], {"type": "null"}]
    return out


def scalar_schema() -> st.SearchStrategy[dict[str, Any]]:
    return st.one_of(
        st.just({"type": "string"}),
        st.builds(lambda e: {"type": "string", "enum": list(e)}, st.sets(st.sampled_from(STRINGS), min_size=1)),
        st.builds(lambda p: {"type": "string", "pattern": p}, st.sampled_from(PATTERNS)),
        st.builds(
            lambda n, m: {"type": "string", "minLength": n, "maxLength": n + m}, st.integers(0, 2), st.integers(0, 2)
        ),
        st.builds(
            lambda a, b: {"type": "integer", "minimum": a, "maximum": a + b}, st.integers(-2, 2), st.integers(0, 4)
        ),
        st.builds(lambda s: {"type": "number", "multipleOf": s, "exclusiveMinimum": 0}, st.sampled_from([0.5, 2])),
        st.just({"type": "boolean"}),
        st.just({"type": ["string", "null"]}),
        st.builds(  # Gemini: a nullable enum (null passes the node; the enum keeps the strings)
            lambda e: {"type": ["string", "null"], "enum": [*sorted(e), None]},
            st.sets(st.sampled_from(STRINGS), min_size=1),
        ),
        st.just({"anyOf": [{"type": "integer", "minimum": 1}, {"type": "string"}, {"type": "null"}]}),
        st.just({"anyOf": [{"type": "integer", "minimum": 1}, {"type": "string", "pattern": "^[A-Z]{2}-[0-9]+$"}]}),
        st.just({"type": "string", "const": "open"}),
    )


def value_schema() -> st.SearchStrategy[dict[str, Any]]:
    array = st.builds(
        lambda item, unique, most: {"type": "array", "items": item, "uniqueItems": unique, "maxItems": most},
        scalar_schema(),
        st.booleans(),
        st.integers(1, 3),
    )
    member = st.builds(
        lambda req, closed: {
            "type": "object",
            "properties": {"email": {"type": "string", "pattern": "b"}, "n": {"type": "integer", "minimum": 0}},
            "required": req,
            **({"additionalProperties": False} if closed else {}),
        },
        st.sampled_from([[], ["email"], ["email", "n"]]),
        st.booleans(),
    )
    return st.one_of(scalar_schema(), array, member)


@st.composite
def tool_and_arguments(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    names = draw(st.lists(st.sampled_from(["a", "b", "c"]), min_size=1, max_size=3, unique=True))
    properties = {name: draw(value_schema()) for name in names}
    required = [n for n in names if draw(st.booleans())]
    schema = {"type": "object", "properties": properties, "required": required}
    json_values = st.recursive(
        st.sampled_from(SCALARS),
        lambda inner: (
            st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["email", "n", "x"]), inner, max_size=3)
        ),
        max_leaves=4,
    )
    arguments = {
        key: draw(json_values | st.sampled_from(STRINGS))
        for key in draw(st.lists(st.sampled_from([*names, "zz"]), unique=True, max_size=4))
    }
    return schema, arguments


@pytest.mark.parametrize("fmt", FORMATS)
@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(case=tool_and_arguments())
def test_offer_check_equals_jsonschema_on_the_sent_schema(
    fmt: str, case: tuple[dict[str, Any], dict[str, Any]]
) -> None:
    schema, arguments = case
    servers = [{"uid": "p", "name": "p", "tools": [{"name": "t", "inputSchema": schema}]}]
    offer = generated.Offer("native-next-gen", NATIVE, format=fmt, mcp_servers=servers)
    name = f"p{generated.catalog.CATALOG.mcp['separator']}t"
    if name not in offer.names():
        reject()  # the format cannot take this schema (reported in offer.skipped)
    entry = next(e for e in offer.tools() if name in json.dumps(e))
    sent, dialect = sent_schema.sent_parameters(fmt, entry)
    oracle_schema = gemini_to_json_schema(sent) if dialect == "gemini" else sent
    expected = not list(ORACLE(oracle_schema).iter_errors(arguments))
    _, problems = offer.check(generated.ToolUse(name, arguments, id="c"))
    assert (not problems) == expected, (sent, arguments, problems)
