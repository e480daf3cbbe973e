"""Hooks of the JSON-Schema policies: anthropic, bedrock-converse, OpenAI and OpenAI strict mode.

The keyword tables are in formats.py; this module holds only what a table cannot say: the
draft-4 rewrites, OpenAPI ``nullable``, and strict mode's closed objects.

Standard library only: this module is copied verbatim into the generated package (relative
imports only) and is also imported by the generator at build time.
"""

from __future__ import annotations

import copy
from typing import Any

from .schema_common import DialectError, Schema, _ordered
from .schema_walk import Hooks, NodeWork, _Walker


class JsonHooks(Hooks):
    """Standard JSON Schema stays as it is; draft-4 tuples and ``nullable`` are rewritten."""

    def keyword(self, w: _Walker, node: NodeWork, key: str, value: Any) -> None:
        n, at, origins, out = node.n, node.at, node.origins, node.out
        if key == "nullable":
            return  # applied in complete
        if key == "items" and isinstance(value, list):  # draft-4 tuple form
            path = w._child("items", at, origins)
            out["prefixItems"] = [w.node(s, path + (i,)) for i, s in enumerate(value)]
        elif key == "additionalItems" and isinstance(n.get("items"), list):
            out["items"] = w._children("additionalItems", value, at, origins)
        elif key == "dependencies" and isinstance(value, dict):
            path = w._child(key, at, origins)
            out[key] = {
                name: (
                    copy.deepcopy(d)
                    if isinstance(d, list)
                    else w.node(d, path + (name,))
                )
                for name, d in value.items()
            }
        else:
            out[key] = w._children(key, value, at, origins)

    def complete(self, w: _Walker, node: NodeWork) -> None:
        out = node.out
        if node.n.get("nullable") is True:
            _make_nullable(out)
        if node.is_root:
            out.setdefault("type", "object")
            out.setdefault("properties", {})
            out.setdefault("required", [])
            if w.policy.closed_root:
                out.setdefault("additionalProperties", False)


def _make_nullable(out: Schema) -> None:
    """Lets ``null`` through a converted schema (in place)."""
    t = out.get("type")
    if t is not None:
        types = t if isinstance(t, list) else [t]
        if "null" not in types:
            out["type"] = types + ["null"]
        if "enum" in out and None not in out["enum"]:
            out["enum"] = out["enum"] + [None]
        if "const" in out and out["const"] is not None:
            out["enum"] = [out.pop("const"), None]
    elif "anyOf" in out:
        # a null branch may carry a description or title: it still lets null through
        if not any(
            isinstance(b, dict) and b.get("type") == "null" for b in out["anyOf"]
        ):
            out["anyOf"] = out["anyOf"] + [{"type": "null"}]
    elif "enum" in out and None not in out["enum"]:
        out["enum"] = out["enum"] + [None]
    # an untyped schema already accepts null


class StrictHooks(Hooks):
    """OpenAI strict mode (``strict: true``): the Structured-Outputs subset of JSON Schema.

    Every object: all properties required (optional ones made nullable), ``additionalProperties``
    false, ``properties`` present. Arrays need ``items``. Each schema needs a type (or
    anyOf/enum/const/$ref). The keyword table (formats.OPENAI_STRICT) says what is kept, moved
    into the description or refused; these hooks add the object rules.
    """

    def prepare(self, w: _Walker, node: NodeWork) -> None:
        n = node.n
        t = n.get("type")
        if t is None and not any(k in n for k in ("anyOf", "oneOf", "enum", "const")):
            if "properties" in n:
                t = "object"
            elif "items" in n:
                t = "array"
            else:
                raise DialectError(
                    node.at,
                    f"{w.dialect}: schema has no type",
                    "give it a 'type' (strict mode cannot express 'any value')",
                )
            node.n = {"type": t, **{k: v for k, v in n.items() if k != "type"}}
        node.state = t if isinstance(t, list) else ([t] if t else [])

    def keyword(self, w: _Walker, node: NodeWork, key: str, value: Any) -> None:
        if key == "nullable":
            return
        if key == "items" and isinstance(value, list):
            w.refuse(node, key)
        if key == "additionalProperties":
            if value is not False:
                raise DialectError(
                    w._child(key, node.at, node.origins),
                    f"{w.dialect}: objects must have additionalProperties false "
                    "(free-form maps cannot be expressed)",
                    "declare the properties, take the map as a list of key/value "
                    "objects, or use strict=False",
                )
            return  # re-added in complete
        if key == "format" and value not in w.policy.formats["*"]:
            w.describe(node, key, value)
            return
        node.out[key] = w._children(key, value, node.at, node.origins)

    def complete(self, w: _Walker, node: NodeWork) -> None:
        out, types = node.out, node.state
        if node.n.get("nullable") is True:
            _make_nullable(out)
        if "array" in types and "items" not in out:
            raise DialectError(
                node.at,
                f"{w.dialect}: an array needs 'items'",
                "give the element schema, e.g. items: {type: string}",
            )
        if node.is_root:
            # a bare root object is a tool without parameters
            out.setdefault("properties", {})
        if "object" in types:
            _close_object(w, node)
        super().complete(w, node)


def _close_object(w: _Walker, node: NodeWork) -> None:
    """Strict objects: declared properties, all required (optional ones nullable), closed."""
    out = node.out
    if "properties" not in out:
        raise DialectError(
            node.at,
            f"{w.dialect}: an object needs declared 'properties'",
            "declare the properties (an empty object needs properties: {}), "
            "or use strict=False",
        )
    props = out["properties"]
    given = list(out.get("required", []))
    for r in given:
        if r not in props:
            raise DialectError(
                w._child("required", node.at, node.origins),
                f"{w.dialect}: required names {r!r}, which is not a property",
                "declare the property or drop it from required",
            )
    for name in props:
        if name not in given:
            props[name] = _nullable_copy(props[name])
    out["required"] = list(props)
    out["additionalProperties"] = False


def _nullable_copy(schema: Schema) -> Schema:
    """A copy of a converted schema that also accepts null (for optional strict properties)."""
    out = dict(schema)
    t = out.get("type")
    if t is not None:
        _make_nullable(out)
        return _ordered(out)
    if "anyOf" in out:
        _make_nullable(out)
        return _ordered(out)
    if "enum" in out or "const" in out:
        if "const" in out:
            out["enum"] = [out.pop("const"), None]
        elif None not in out["enum"]:
            out["enum"] = out["enum"] + [None]
        return _ordered(out)
    # a $ref (or something else without a type): wrap it
    wrapped: Schema = {}
    if "description" in out:
        wrapped["description"] = out.pop("description")
    wrapped["anyOf"] = [out, {"type": "null"}]
    return wrapped
