"""The Gemini dialect: the OpenAPI-subset ``Schema`` of the Gemini API (UPPERCASE types).

Standard library only: this module is copied verbatim into the generated package (relative
imports only) and is also imported by the generator at build time.
"""

from __future__ import annotations

import copy
import re

from .schema_common import (
    _LOGIC,
    DialectError,
    Path,
    _extra_sentence,
    _is_number,
    _join_descriptions,
    _json_type_of,
    _with_extras,
)
from .schema_walk import _Walker

#: Property keys Gemini takes (conservative: the function-name rule).
GEMINI_PROPERTY_KEY = re.compile(r"^[a-zA-Z_][a-zA-Z0-9_.-]{0,63}$")

_GEMINI_TYPES = {
    "string": "STRING",
    "number": "NUMBER",
    "integer": "INTEGER",
    "boolean": "BOOLEAN",
    "array": "ARRAY",
    "object": "OBJECT",
    "null": "NULL",
}
_GEMINI_FORMATS = {
    "STRING": ("enum", "date-time"),
    "NUMBER": ("float", "double"),
    "INTEGER": ("int32", "int64"),
}


# keyword policy for Gemini: kept (renamed to the API's camelCase spelling, which is the same)
_GEMINI_KEEP = (
    "description",
    "title",
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "pattern",
    "minProperties",
    "maxProperties",
    "default",
)


class _GeminiWalker(_Walker):
    """Gemini's OpenAPI-subset ``Schema`` (google-genai ``types.Schema``), UPPERCASE types.

    Kept: description, title, enum (strings), format (STRING: enum/date-time, NUMBER:
    float/double, INTEGER: int32/int64), minimum/maximum, minLength/maxLength,
    minItems/maxItems, pattern, minProperties/maxProperties, default, nullable, properties,
    required, items, anyOf. Rewritten: type lists and anyOf-with-null become ``nullable``; a type
    list of several types becomes anyOf; a string const becomes a one-value enum; integer
    exclusive bounds become inclusive ones; allOf is flattened; oneOf becomes anyOf (notice);
    ``additionalProperties: false`` is dropped (Gemini objects are closed). Moved into the
    description: non-string enum/const, other formats, examples, number exclusive bounds,
    multipleOf, uniqueItems, propertyNames, readOnly/writeOnly/deprecated, unknown keywords.
    Refused: recursive refs, additionalProperties true or a schema (maps), an object below the
    root without properties, a schema with no type, not/if/then/else and the other logic
    keywords, property names outside Gemini's rules.
    """

    dialect = "gemini"
    merge_all_of = True
    one_of_as_any_of = True
    recursive_refs = False

    def emit(self, n: dict, at: Path, origins: dict, *, is_root: bool) -> dict:
        out: dict = {}
        extras: list[str] = []
        nullable = n.get("nullable") is True
        t = n.get("type")
        types = list(t) if isinstance(t, list) else ([t] if t else [])
        if "null" in types and len(types) > 1:
            types.remove("null")
            nullable = True
        any_of = n.get("anyOf", n.get("oneOf"))
        collapsed: dict | None = None
        null_branches: list[int] = []
        if isinstance(any_of, list):
            null_branches = [
                i
                for i, b in enumerate(any_of)
                if isinstance(b, dict)
                and b.get("type") == "null"
                and set(b) <= {"type", "description", "title"}
            ]
            if null_branches:
                nullable = True
        if not types and any_of is None:
            types = self._infer_type(n, at)
        gtypes = [_GEMINI_TYPES[x] for x in types]
        for k, v in n.items():
            kpath = self._child(k, at, origins)
            if k in ("type", "nullable"):
                if k == "type" and len(gtypes) == 1:
                    out["type"] = gtypes[0]
                elif k == "type":
                    out["anyOf"] = [{"type": g} for g in gtypes]
                    if any_of is not None:
                        raise DialectError(
                            kpath,
                            "gemini: a type list together with anyOf",
                            "fold the types into the anyOf branches",
                        )
                if nullable and "nullable" not in out:
                    out["nullable"] = True
                continue
            if k in _LOGIC or (k == "items" and isinstance(v, list)):
                raise DialectError(
                    kpath,
                    f"gemini: keyword {k!r} cannot be expressed",
                    "restructure the schema without it",
                )
            if k == "additionalProperties":
                if v is False:
                    continue  # Gemini objects only take declared properties
                raise DialectError(
                    kpath,
                    "gemini: free-form maps (additionalProperties) cannot be expressed",
                    "declare fixed properties, or take a list of {key, value} objects",
                )
            if k in ("anyOf", "oneOf"):
                keep = [i for i in range(len(v)) if i not in null_branches]
                conv = [self.node(v[i], kpath + (i,)) for i in keep]
                if len(conv) == 1 and not any(
                    x in n for x in ("type", "properties", "items")
                ):
                    collapsed = conv[0]
                else:
                    out["anyOf"] = conv
                if nullable:
                    out["nullable"] = True
                continue
            if k == "enum":
                if all(isinstance(e, str) for e in v) and types == ["string"]:
                    out["enum"] = list(v)
                else:
                    values = [e for e in v if e is not None] if nullable else list(v)
                    if all(isinstance(e, str) for e in values) and types == ["string"]:
                        out["enum"] = values
                    else:
                        extras.append(_extra_sentence("enum", values))
                continue
            if k == "const":
                if isinstance(v, str) and types == ["string"]:
                    out["enum"] = [v]
                else:
                    extras.append(_extra_sentence("const", v))
                continue
            if k == "format":
                if len(gtypes) == 1 and v in _GEMINI_FORMATS.get(gtypes[0], ()):
                    out["format"] = v
                else:
                    extras.append(_extra_sentence("format", v))
                continue
            if k in ("exclusiveMinimum", "exclusiveMaximum"):
                bound = "minimum" if k == "exclusiveMinimum" else "maximum"
                if (
                    types == ["integer"]
                    and _is_number(v)
                    and float(v).is_integer()
                    and bound not in n
                ):
                    out[bound] = int(v) + (1 if bound == "minimum" else -1)
                else:
                    extras.append(_extra_sentence(k, v))
                continue
            if k == "properties":
                if not isinstance(v, dict):
                    raise DialectError(kpath, "properties must map names to schemas")
                for name in v:
                    if not isinstance(name, str) or not GEMINI_PROPERTY_KEY.fullmatch(
                        name
                    ):
                        raise DialectError(
                            kpath + (name,),
                            f"gemini: property name {name!r} is not allowed",
                            "property names must start with a letter or underscore and use "
                            "only letters, digits, _ . - (at most 64 characters)",
                        )
                out["properties"] = self._children(k, v, at, origins)
                continue
            if k == "required":
                props = n.get("properties", {})
                for r in v:
                    if r not in props:
                        raise DialectError(
                            kpath,
                            f"gemini: required names {r!r}, which is not a property",
                            "declare the property or drop it from required",
                        )
                out["required"] = list(v)
                continue
            if k == "items":
                out["items"] = self.node(v, kpath)
                continue
            if k == "default" and v is None:
                extras.append(
                    _extra_sentence(k, v)
                )  # the SDK's Schema cannot carry a null default
                continue
            if k in _GEMINI_KEEP:
                out[k] = copy.deepcopy(v)
                continue
            extras.append(_extra_sentence(k, v))
        if collapsed is not None:  # anyOf [X, null] -> X, nullable
            for ck, cv in collapsed.items():
                if ck == "description":
                    out["description"] = _join_descriptions(out.get("description"), cv)
                elif ck not in out:
                    out[ck] = cv
        if "type" not in n and "type" not in out and gtypes:
            out["type"] = gtypes[0]
            if nullable:
                out["nullable"] = True
        if out.get("type") == "ARRAY" and "items" not in out:
            raise DialectError(
                at,
                "gemini: an array needs 'items'",
                "give the element schema, e.g. items: {type: string}",
            )
        if out.get("type") == "OBJECT" and not is_root and not out.get("properties"):
            raise DialectError(
                at,
                "gemini: an object below the root needs declared properties",
                "declare its properties, or take the value as a JSON string",
            )
        if extras:
            out["description"] = _with_extras(out.get("description"), extras)
        if is_root:
            out.setdefault("type", "OBJECT")
            out.setdefault("properties", {})
            out.setdefault("required", [])
        return out

    def _infer_type(self, n: dict, at: Path) -> list[str]:
        if "properties" in n:
            return ["object"]
        if "items" in n:
            return ["array"]
        values = list(n.get("enum", [])) + ([n["const"]] if "const" in n else [])
        kinds = {_json_type_of(v) for v in values if v is not None}
        if len(kinds) == 1:
            kind = kinds.pop()
            return [kind] if kind in _GEMINI_TYPES else []
        if kinds == {"integer", "number"}:
            return ["number"]
        raise DialectError(
            at,
            "gemini: schema has no type",
            "give it a 'type' (Gemini cannot express 'any value')",
        )
