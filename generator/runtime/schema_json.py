"""The JSON-Schema dialects: anthropic, bedrock-converse and OpenAI (plain and strict mode).

Standard library only: this module is copied verbatim into the generated package (relative
imports only) and is also imported by the generator at build time.
"""

from __future__ import annotations

import copy
from typing import Any

from .schema_common import (
    _LOGIC,
    DialectError,
    Path,
    _extra_sentence,
    _ordered,
    _with_extras,
)
from .schema_walk import _Walker

_STRICT_FORMATS = (
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
)


class _JsonSchemaWalker(_Walker):
    """anthropic, bedrock-converse and non-strict OpenAI: standard JSON Schema stays as it is."""

    def emit(self, n: dict, at: Path, origins: dict, *, is_root: bool) -> dict:
        out: dict = {}
        nullable = n.get("nullable") is True
        for k, v in n.items():
            if k == "nullable":
                continue
            if k == "items" and isinstance(v, list):  # draft-4 tuple form
                out["prefixItems"] = [
                    self.node(s, self._child("items", at, origins) + (i,))
                    for i, s in enumerate(v)
                ]
                continue
            if k == "additionalItems" and isinstance(n.get("items"), list):
                out["items"] = self._children("additionalItems", v, at, origins)
                continue
            if k == "dependencies" and isinstance(v, dict):
                out[k] = {
                    name: (
                        copy.deepcopy(d)
                        if isinstance(d, list)
                        else self.node(d, self._child(k, at, origins) + (name,))
                    )
                    for name, d in v.items()
                }
                continue
            out[k] = self._children(k, v, at, origins)
        if nullable:
            self._make_nullable(out)
        if is_root:
            out.setdefault("type", "object")
            out.setdefault("properties", {})
            out.setdefault("required", [])
        return out

    @staticmethod
    def _make_nullable(out: dict) -> None:
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
        elif "enum" in out:
            if None not in out["enum"]:
                out["enum"] = out["enum"] + [None]
        # an untyped schema already accepts null


class _OpenAIWalker(_JsonSchemaWalker):
    """OpenAI non-strict: like anthropic; the root gets ``additionalProperties: false``."""

    def emit(self, n: dict, at: Path, origins: dict, *, is_root: bool) -> dict:
        out = super().emit(n, at, origins, is_root=is_root)
        if is_root:
            out.setdefault("additionalProperties", False)
        return out


# keyword policy for OpenAI strict mode: kept as is / moved into the description
_STRICT_KEEP = (
    "type",
    "description",
    "title",
    "enum",
    "const",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "anyOf",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
)


class _OpenAIStrictWalker(_JsonSchemaWalker):
    """OpenAI strict mode (``strict: true``): the Structured-Outputs subset of JSON Schema.

    Every object: all properties required (optional ones made nullable), ``additionalProperties``
    false, ``properties`` present. Arrays need ``items``. Each schema needs a type (or
    anyOf/enum/const/$ref). ``allOf`` is flattened, ``oneOf`` becomes ``anyOf`` (with a notice).
    Moved into the description: default, examples, minLength, maxLength, formats strict does not
    know, uniqueItems, minProperties, maxProperties, propertyNames, readOnly, writeOnly,
    deprecated, contentEncoding, contentMediaType, dependentRequired, unknown keywords.
    Refused: additionalProperties true or a schema, not/if/then/else, patternProperties,
    dependentSchemas, prefixItems/tuple items, contains, unevaluated*, dependencies.
    """

    merge_all_of = True
    one_of_as_any_of = True

    def __init__(self, root: Any, dialect: str) -> None:
        super().__init__(root)
        self.dialect = dialect + " strict"

    def emit(self, n: dict, at: Path, origins: dict, *, is_root: bool) -> dict:
        out: dict = {}
        extras: list[str] = []
        t = n.get("type")
        if t is None and not any(k in n for k in ("anyOf", "oneOf", "enum", "const")):
            if "properties" in n:
                t = "object"
            elif "items" in n:
                t = "array"
            else:
                raise DialectError(
                    at,
                    f"{self.dialect}: schema has no type",
                    "give it a 'type' (strict mode cannot express 'any value')",
                )
            n = {"type": t, **{k: v for k, v in n.items() if k != "type"}}
        types = t if isinstance(t, list) else ([t] if t else [])
        for k, v in n.items():
            kpath = self._child(k, at, origins)
            if k == "nullable":
                continue
            if k in _LOGIC or (k == "items" and isinstance(v, list)):
                raise DialectError(
                    kpath,
                    f"{self.dialect}: keyword {k!r} is not supported",
                    "restructure the schema, or use strict=False",
                )
            if k == "additionalProperties":
                if v is False:
                    continue  # re-added below
                raise DialectError(
                    kpath,
                    f"{self.dialect}: objects must have additionalProperties false "
                    "(free-form maps cannot be expressed)",
                    "declare the properties, take the map as a list of key/value "
                    "objects, or use strict=False",
                )
            if k == "format" and v not in _STRICT_FORMATS:
                extras.append(f"Format: {v}.")
                continue
            if k == "oneOf":
                out["anyOf"] = self._children(k, v, at, origins)
                continue
            if k in _STRICT_KEEP:
                out[k] = self._children(k, v, at, origins)
                continue
            extras.append(_extra_sentence(k, v))
        if n.get("nullable") is True:
            self._make_nullable(out)
        if "array" in types and "items" not in out:
            raise DialectError(
                at,
                f"{self.dialect}: an array needs 'items'",
                "give the element schema, e.g. items: {type: string}",
            )
        if is_root:
            out.setdefault(
                "properties", {}
            )  # a bare root object is a tool without parameters
        if "object" in types:
            if "properties" not in out:
                raise DialectError(
                    at,
                    f"{self.dialect}: an object needs declared 'properties'",
                    "declare the properties (an empty object needs properties: {}), "
                    "or use strict=False",
                )
            props = out["properties"]
            given = list(out.get("required", []))
            for r in given:
                if r not in props:
                    raise DialectError(
                        self._child("required", at, origins),
                        f"{self.dialect}: required names {r!r}, which is not a property",
                        "declare the property or drop it from required",
                    )
            for name in props:
                if name not in given:
                    props[name] = _nullable_copy(props[name])
            out["required"] = list(props)
            out["additionalProperties"] = False
        if extras:
            out["description"] = _with_extras(out.get("description"), extras)
        return out


def _nullable_copy(schema: dict) -> dict:
    """A copy of a converted schema that also accepts null (for optional strict properties)."""
    out = dict(schema)
    t = out.get("type")
    if t is not None:
        _JsonSchemaWalker._make_nullable(out)
        return _ordered(out)
    if "anyOf" in out:
        _JsonSchemaWalker._make_nullable(out)
        return _ordered(out)
    if "enum" in out or "const" in out:
        if "const" in out:
            out["enum"] = [out.pop("const"), None]
        elif None not in out["enum"]:
            out["enum"] = out["enum"] + [None]
        return _ordered(out)
    # a $ref (or something else without a type): wrap it
    wrapped: dict = {}
    if "description" in out:
        wrapped["description"] = out.pop("description")
    wrapped["anyOf"] = [out, {"type": "null"}]
    return wrapped
