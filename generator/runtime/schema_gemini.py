"""Hooks of the Gemini policy: the OpenAPI-subset ``Schema`` of the Gemini API (UPPERCASE types).

The keyword table is formats.GEMINI; this module holds only what a table cannot say: type lists
and null branches folded into ``nullable``, string-only enums, supported formats per type,
integer exclusive bounds made inclusive, and the closing checks.

Standard library only: this module is copied verbatim into the generated package (relative
imports only) and is also imported by the generator at build time.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .schema_common import (
    DialectError,
    Schema,
    _is_number,
    _join_descriptions,
    _json_type_of,
)
from .schema_limits import check_property_keys
from .schema_walk import Hooks, NodeWork, _Walker


@dataclass
class _Shape:
    """What Gemini makes of a node's type, nulls and union, worked out before its keywords."""

    types: list[str]
    gtypes: list[str]
    nullable: bool
    any_of: Any
    null_branches: list[int] = field(default_factory=list)
    collapsed: Schema | None = None
    """The one non-null anyOf branch, merged into the node (anyOf [X, null] -> X, nullable)."""


class GeminiHooks(Hooks):
    """Gemini's OpenAPI-subset ``Schema`` (google-genai ``types.Schema``), UPPERCASE types.

    Rewritten here: type lists and anyOf-with-null become ``nullable``; a type list of several
    types becomes anyOf; a string const becomes a one-value enum; integer exclusive bounds
    become inclusive ones; ``additionalProperties: false`` is dropped (the subset cannot say
    it: the object goes out open, and calls are checked as sent). Moved into the
    description: non-string enum/const, formats the type lacks, number exclusive bounds, a
    null default. Refused: additionalProperties true or a schema (maps), an
    object below the root without properties, a schema with no type, tuple items, property
    names outside Gemini's rules, required names that are not properties.
    """

    def prepare(self, w: _Walker, node: NodeWork) -> None:
        n = node.n
        nullable = n.get("nullable") is True
        t = n.get("type")
        types = list(t) if isinstance(t, list) else ([t] if t else [])
        if "null" in types and len(types) > 1:
            types.remove("null")
            nullable = True
        any_of = n.get("anyOf", n.get("oneOf"))
        null_branches: list[int] = []
        if isinstance(any_of, list):
            null_branches = [
                i
                for i, b in enumerate(any_of)
                if isinstance(b, dict)
                and b.get("type") == "null"
                and set(b) <= {"type", "description", "title"}
            ]
            nullable = nullable or bool(null_branches)
        if not types and any_of is None:
            types = _infer_type(w, node)
        gtypes = [w.policy.types[x] for x in types]
        node.state = _Shape(types, gtypes, nullable, any_of, null_branches)

    def keyword(self, w: _Walker, node: NodeWork, key: str, value: Any) -> None:
        _KEYWORDS[key](w, node, key, value)

    def complete(self, w: _Walker, node: NodeWork) -> None:
        out, shape = node.out, node.state
        if shape.collapsed is not None:
            for ck, cv in shape.collapsed.items():
                if ck == "description":
                    out["description"] = _join_descriptions(out.get("description"), cv)
                elif ck not in out:
                    out[ck] = cv
        if "type" not in node.n and "type" not in out and shape.gtypes:
            out["type"] = shape.gtypes[0]
            if shape.nullable:
                out["nullable"] = True
        types = w.policy.types
        if out.get("type") == types["array"] and "items" not in out:
            raise DialectError(
                node.at,
                f"{w.dialect}: an array needs 'items'",
                "give the element schema, e.g. items: {type: string}",
            )
        if (
            out.get("type") == types["object"]
            and not node.is_root
            and not out.get("properties")
        ):
            raise DialectError(
                node.at,
                f"{w.dialect}: an object below the root needs declared properties",
                "declare its properties, or take the value as a JSON string",
            )
        super().complete(w, node)
        if node.is_root:
            out.setdefault("type", w.policy.root_type)
            out.setdefault("properties", {})
            out.setdefault("required", [])


def _infer_type(w: _Walker, node: NodeWork) -> list[str]:
    n = node.n
    if "properties" in n:
        return ["object"]
    if "items" in n:
        return ["array"]
    values = list(n.get("enum", [])) + ([n["const"]] if "const" in n else [])
    kinds = {_json_type_of(v) for v in values if v is not None}
    if len(kinds) == 1:
        kind = kinds.pop()
        return [kind] if kind is not None and kind in w.policy.types else []
    if kinds == {"integer", "number"}:
        return ["number"]
    raise DialectError(
        node.at,
        f"{w.dialect}: schema has no type",
        "give it a 'type' (Gemini cannot express 'any value')",
    )


# ---- the CUSTOM keywords of formats.GEMINI, one function each ------------------------------


def _type(w: _Walker, node: NodeWork, key: str, value: Any) -> None:
    out, shape = node.out, node.state
    if key == "type" and len(shape.gtypes) == 1:
        out["type"] = shape.gtypes[0]
    elif key == "type":
        out["anyOf"] = [{"type": g} for g in shape.gtypes]
        if shape.any_of is not None:
            raise DialectError(
                w._child(key, node.at, node.origins),
                f"{w.dialect}: a type list together with anyOf",
                "fold the types into the anyOf branches",
            )
    if shape.nullable and "nullable" not in out:
        out["nullable"] = True


def _items(w: _Walker, node: NodeWork, key: str, value: Any) -> None:
    if isinstance(value, list):
        w.refuse(node, key)
    node.out["items"] = w.node(value, w._child(key, node.at, node.origins))


def _additional_properties(w: _Walker, node: NodeWork, key: str, value: Any) -> None:
    if value is False:  # dropped: the subset cannot close an object (it is sent open)
        w.dropped.append((w._child(key, node.at, node.origins), key))
    else:
        raise DialectError(
            w._child(key, node.at, node.origins),
            f"{w.dialect}: free-form maps (additionalProperties) cannot be expressed",
            "declare fixed properties, or take a list of {key, value} objects",
        )


def _any_of(w: _Walker, node: NodeWork, key: str, value: Any) -> None:
    shape, n = node.state, node.n
    path = w._child(key, node.at, node.origins)
    keep = [i for i in range(len(value)) if i not in shape.null_branches]
    conv = [w.node(value[i], path + (i,)) for i in keep]
    if len(conv) == 1 and not any(x in n for x in ("type", "properties", "items")):
        shape.collapsed = conv[0]
    else:
        node.out["anyOf"] = conv
    if shape.nullable:
        node.out["nullable"] = True


def _enum(w: _Walker, node: NodeWork, key: str, value: Any) -> None:
    shape = node.state
    values = [e for e in value if e is not None] if shape.nullable else list(value)
    if all(isinstance(e, str) for e in value) and shape.types == ["string"]:
        node.out["enum"] = list(value)
    elif all(isinstance(e, str) for e in values) and shape.types == ["string"]:
        node.out["enum"] = values
    else:
        w.describe(node, "enum", values)


def _const(w: _Walker, node: NodeWork, key: str, value: Any) -> None:
    if isinstance(value, str) and node.state.types == ["string"]:
        node.out["enum"] = [value]
    else:
        w.describe(node, key, value)


def _format(w: _Walker, node: NodeWork, key: str, value: Any) -> None:
    gtypes = node.state.gtypes
    if len(gtypes) == 1 and value in w.policy.formats.get(gtypes[0], ()):
        node.out["format"] = value
    else:
        w.describe(node, key, value)


def _exclusive_bound(w: _Walker, node: NodeWork, key: str, value: Any) -> None:
    bound = "minimum" if key == "exclusiveMinimum" else "maximum"
    if (
        node.state.types == ["integer"]
        and _is_number(value)
        and float(value).is_integer()
        and bound not in node.n
    ):
        node.out[bound] = int(value) + (1 if bound == "minimum" else -1)
    else:
        w.describe(node, key, value)


def _properties(w: _Walker, node: NodeWork, key: str, value: Any) -> None:
    path = w._child(key, node.at, node.origins)
    if not isinstance(value, dict):
        raise DialectError(path, "properties must map names to schemas")
    check_property_keys(w.record, {key: value}, node.origins.get(key, node.at))
    node.out["properties"] = w._children(key, value, node.at, node.origins)


def _required(w: _Walker, node: NodeWork, key: str, value: Any) -> None:
    props = node.n.get("properties", {})
    for r in value:
        if r not in props:
            raise DialectError(
                w._child(key, node.at, node.origins),
                f"{w.dialect}: required names {r!r}, which is not a property",
                "declare the property or drop it from required",
            )
    node.out["required"] = list(value)


def _default(w: _Walker, node: NodeWork, key: str, value: Any) -> None:
    if value is None:  # the SDK's Schema cannot carry a null default
        w.describe(node, key, value)
    else:
        node.out[key] = copy.deepcopy(value)


_KEYWORDS: dict[str, Callable[[_Walker, NodeWork, str, Any], None]] = {
    "type": _type,
    "nullable": _type,
    "items": _items,
    "additionalProperties": _additional_properties,
    "anyOf": _any_of,
    "oneOf": _any_of,
    "enum": _enum,
    "const": _const,
    "format": _format,
    "exclusiveMinimum": _exclusive_bound,
    "exclusiveMaximum": _exclusive_bound,
    "properties": _properties,
    "required": _required,
    "default": _default,
}
