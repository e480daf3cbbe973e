"""One JSON-Schema walker with per-provider hooks: tool parameter schemas for each LLM API.

Standard library only: this module is copied verbatim into the generated package and is also
imported by the generator at build time.

Public API
----------
``convert_parameters(schema, dialect, *, strict=False) -> dict``
    Turns the JSON Schema of a tool's parameters into the parameter schema ``dialect`` takes.
``convert(schema, dialect, *, strict=False) -> Conversion``
    The same, plus the non-fatal :class:`Notice` list the conversion produced.
``tool_entry(dialect, name, description, parameters, *, strict=False, cache_control=False)``
    The request-ready tool dict. ``parameters`` is the *input* JSON Schema: ``tool_entry``
    converts it itself (do not pass an already converted schema).
``check_limits(dialect, tools) -> list[Notice]``
    Checks a list of request-ready tool dicts against the provider's limits. Hard errors
    raise :class:`DialectError` (path starts with the tool's index in ``tools``); soft limits
    come back as notices.

Every function is pure and deterministic: inputs are never mutated and dict key order is part
of the output contract. Nothing is dropped silently: a keyword a dialect cannot take is either
moved into the description text ("Allowed values: 1, 2, 3.") or refused with a
:class:`DialectError` that names the path into the *input* schema and carries a hint.

Rules common to every dialect
-----------------------------
* Non-recursive ``$ref`` (into ``$defs``, ``definitions``, ``#/properties/...``, any local JSON
  pointer) are inlined; keywords next to the ``$ref`` override the target's, and two different
  descriptions are joined (outer first). ``$defs``/``definitions`` themselves are not emitted.
* Recursive refs are kept as ``$ref`` into the output root's ``$defs`` (``#`` stays ``#``) for
  the JSON-Schema dialects; Gemini refuses them. Refs that are not local pointers are refused.
* ``$schema``, ``$id``, ``$comment``, ``$anchor`` (metadata that constrains no value) are removed.
* The root must be an object schema (``type`` "object", or untyped with ``properties``);
  a root union or any other type is refused. The root always gets ``properties`` and
  ``required`` (empty if absent), in that order after ``type``.
* The OpenAPI-style ``nullable: true`` (toolgen's canonical form may use it) becomes a type list
  with ``"null"`` (and ``null`` in ``enum``) on the JSON-Schema dialects; ``nullable: false`` is
  the default and is removed. Draft-4 boolean ``exclusiveMinimum``/``exclusiveMaximum`` become
  the numeric form. Draft-4 tuple ``items: [...]`` becomes ``prefixItems`` (JSON dialects).
* Key order of each emitted schema: ``type``, ``description``, ``properties``, ``required``,
  ``additionalProperties``, then the other keywords in input order, ``$defs`` last.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass, field
from typing import Any, Callable
from urllib.parse import unquote

__all__ = [
    "DIALECTS",
    "DialectError",
    "Notice",
    "Conversion",
    "convert",
    "convert_parameters",
    "tool_entry",
    "check_limits",
    "NAME_PATTERNS",
    "OPENAI_MAX_TOOLS",
    "OPENAI_MAX_DESCRIPTION",
]

DIALECTS = (
    "anthropic",
    "openai-chat",
    "openai-responses",
    "gemini",
    "bedrock-converse",
)

Path = tuple  # tuple[str | int, ...]

#: Tool-name rules per dialect (provider documentation / API error messages).
NAME_PATTERNS = {
    "anthropic": re.compile(r"^[a-zA-Z0-9_-]{1,64}$"),
    "openai-chat": re.compile(r"^[a-zA-Z0-9_-]{1,64}$"),
    "openai-responses": re.compile(r"^[a-zA-Z0-9_-]{1,64}$"),
    # Gemini: starts with a letter or underscore; letters, digits, _ . - ; at most 64.
    # (Newer Gemini endpoints also take ':'; it is left out so names work on every endpoint.)
    "gemini": re.compile(r"^[a-zA-Z_][a-zA-Z0-9_.-]{0,63}$"),
    "bedrock-converse": re.compile(r"^[a-zA-Z0-9_-]{1,64}$"),
}
#: Anthropic rejects top-level property keys outside this pattern.
ANTHROPIC_PROPERTY_KEY = re.compile(r"^[a-zA-Z0-9_.-]{1,64}$")
#: Property keys Gemini takes (conservative: the function-name rule).
GEMINI_PROPERTY_KEY = re.compile(r"^[a-zA-Z_][a-zA-Z0-9_.-]{0,63}$")
OPENAI_MAX_TOOLS = 128
OPENAI_MAX_DESCRIPTION = 1024
#: OpenAI strict mode: documented nesting limit (a notice past it, not a refusal).
OPENAI_STRICT_MAX_DEPTH = 10

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
_JSON_TYPES = ("string", "number", "integer", "boolean", "array", "object", "null")

_METADATA = ("$schema", "$id", "$comment", "$anchor", "$dynamicAnchor", "$vocabulary")
_DEF_CONTAINERS = ("$defs", "definitions")
# Keywords whose value is one schema / a list of schemas / a name->schema map.
_SCHEMA_ONE = (
    "items",
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "propertyNames",
    "contains",
    "unevaluatedItems",
    "unevaluatedProperties",
    "additionalItems",
)
_SCHEMA_LIST = ("anyOf", "oneOf", "allOf", "prefixItems")
_SCHEMA_MAP = ("properties", "patternProperties", "dependentSchemas")
# Keywords no description text can stand in for (they shape which values validate).
_LOGIC = (
    "not",
    "if",
    "then",
    "else",
    "patternProperties",
    "dependentSchemas",
    "prefixItems",
    "contains",
    "unevaluatedItems",
    "unevaluatedProperties",
    "additionalItems",
    "dependencies",
    "minContains",
    "maxContains",
    "$dynamicRef",
)


class DialectError(Exception):
    """A schema (or tool) the dialect cannot take.

    ``path`` locates the problem: a tuple of keys/indices into the *input* parameters schema
    (for :func:`convert_parameters`), ``("name",)``/``("description",)`` for tool fields given
    to :func:`tool_entry`, or ``(tool index, ...)`` into the list given to :func:`check_limits`.
    """

    def __init__(self, path: Path, message: str, hint: str = "") -> None:
        self.path = tuple(path)
        self.message = message
        self.hint = hint
        where = "/".join(str(p) for p in self.path) or "<root>"
        text = f"{where}: {message}"
        if hint:
            text += f" (hint: {hint})"
        super().__init__(text)


@dataclass(frozen=True)
class Notice:
    """A non-fatal warning; ``path`` is located like :class:`DialectError`'s."""

    path: Path
    message: str


@dataclass(frozen=True)
class Conversion:
    """Result of :func:`convert`: the converted parameters schema and the notices raised."""

    schema: dict
    notices: tuple = field(default_factory=tuple)


# --------------------------------------------------------------------------------------------
# small helpers


def _render(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _render_list(values: list) -> str:
    return ", ".join(_render(v) for v in values)


def _with_extras(description: str | None, extras: list[str]) -> str | None:
    """Append the moved-keyword sentences to a description."""
    if not extras:
        return description
    tail = " ".join(extras)
    if not description:
        return tail
    body = description.rstrip()
    sep = "\n\n" if "\n" in body else " "
    return body + sep + tail


def _join_descriptions(outer: Any, inner: Any) -> Any:
    if not isinstance(inner, str) or not inner:
        return outer
    if not isinstance(outer, str) or not outer:
        return inner
    if inner in outer:
        return outer
    return outer.rstrip() + "\n\n" + inner


_ORDER_FIRST = ("type", "description", "properties", "required", "additionalProperties")


def _ordered(d: dict) -> dict:
    out = {k: d[k] for k in _ORDER_FIRST if k in d}
    for k, v in d.items():
        if k not in out and k != "$defs":
            out[k] = v
    if "$defs" in d:
        out["$defs"] = d["$defs"]
    return out


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _json_type_of(value: Any) -> str | None:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return None


def _decode_pointer(fragment: str) -> list[str]:
    if fragment in ("", "/"):
        return [] if fragment == "" else [""]
    if not fragment.startswith("/"):
        raise ValueError(fragment)
    return [
        unquote(p).replace("~1", "/").replace("~0", "~")
        for p in fragment[1:].split("/")
    ]


# --------------------------------------------------------------------------------------------
# the walker


class _Walker:
    """Walks an input schema and emits one dialect's schema.

    Subclasses override the hooks: ``merge_all_of`` (flatten ``allOf``), ``one_of_as_any_of``,
    ``recursive_refs`` (keep recursive refs as ``$ref``), ``emit`` (dialect-specific keyword
    handling of one already normalized node).
    """

    dialect = ""
    merge_all_of = False
    one_of_as_any_of = False
    recursive_refs = True

    def __init__(self, root: Any) -> None:
        self.root = root
        self.notices: list[Notice] = []
        self._reach_cache: dict[Path, frozenset] = {}
        self._def_names: dict[Path, str] = {}
        self._def_order: list[Path] = []

    # ---- refs -----------------------------------------------------------------------------

    def _target(self, ref: Any, at: Path) -> Path:
        """The path (into the input) a ``$ref`` at ``at`` points to."""
        if not isinstance(ref, str) or not ref.startswith("#"):
            raise DialectError(
                at + ("$ref",),
                f"cannot resolve $ref {ref!r}: only local JSON pointers ('#/...') are supported",
                "bundle external schemas into $defs and refer to them as '#/$defs/<name>'",
            )
        try:
            parts = _decode_pointer(ref[1:])
        except ValueError:
            raise DialectError(
                at + ("$ref",),
                f"cannot resolve $ref {ref!r}: anchors are not supported",
                "use a JSON pointer such as '#/$defs/<name>'",
            ) from None
        node: Any = self.root
        path: list = []
        for part in parts:
            if isinstance(node, dict) and part in node:
                node = node[part]
                path.append(part)
            elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
                node = node[int(part)]
                path.append(int(part))
            else:
                raise DialectError(
                    at + ("$ref",), f"$ref {ref!r} points to nothing", "fix the pointer"
                )
        return tuple(path)

    def _get(self, path: Path) -> Any:
        node = self.root
        for part in path:
            node = node[part]
        return node

    def _refs_below(self, node: Any, at: Path) -> list[Path]:
        found: list[Path] = []

        def visit(n: Any, p: Path, in_map: bool = False) -> None:
            # in_map: ``n`` maps names to schemas (properties, $defs, ...), so its keys are names
            if isinstance(n, dict):
                if in_map:
                    for k, v in n.items():
                        visit(v, p + (k,))
                    return
                if "$ref" in n:
                    found.append(self._target(n["$ref"], p))
                for k, v in n.items():
                    if (
                        k == "$ref"
                        or k in _DEF_CONTAINERS
                        or k in ("enum", "const", "default", "examples")
                    ):
                        continue
                    visit(v, p + (k,), k in _SCHEMA_MAP)
            elif isinstance(n, list):
                for i, v in enumerate(n):
                    visit(v, p + (i,))

        visit(node, at)
        return found

    def _reachable(self, target: Path) -> frozenset:
        """Every ref target reachable from ``target`` by following refs (depth-first)."""
        if target in self._reach_cache:
            return self._reach_cache[target]
        seen: set = set()
        stack = [target]
        while stack:
            t = stack.pop()
            for nxt in self._refs_below(self._get(t), t):
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        result = frozenset(seen)
        self._reach_cache[target] = result
        return result

    def is_recursive(self, target: Path) -> bool:
        return target in self._reachable(target)

    def _def_name(self, target: Path) -> str:
        if target not in self._def_names:
            if len(target) == 2 and target[0] in _DEF_CONTAINERS:
                base = str(target[1])
            else:
                base = "_".join(str(p) for p in target)
            base = re.sub(r"[^A-Za-z0-9_.-]", "_", base) or "def"
            name, n = base, 2
            taken = set(self._def_names.values())
            while name in taken:
                name, n = f"{base}_{n}", n + 1
            self._def_names[target] = name
            self._def_order.append(target)
        return self._def_names[target]

    # ---- normalization --------------------------------------------------------------------

    def _deref(
        self, node: Any, at: Path, origins: dict | None = None
    ) -> tuple[dict, Path, dict]:
        """Follows non-recursive refs; returns (schema, base path, per-key origin paths)."""
        origins = dict(origins or {})
        hops = 0
        while isinstance(node, dict) and "$ref" in node:
            target = self._target(node["$ref"], at)
            if self.is_recursive(target):
                return node, at, origins
            hops += 1
            if hops > 64:  # defensive: a non-recursive chain cannot be this long
                raise DialectError(at + ("$ref",), "$ref chain too long")
            resolved = self._get(target)
            if resolved is True:
                resolved = {}
            if not isinstance(resolved, dict):
                raise DialectError(
                    at + ("$ref",), f"$ref {node['$ref']!r} does not point to a schema"
                )
            merged: dict = {}
            new_origins: dict = {}
            for k, v in resolved.items():
                merged[k] = v
                new_origins[k] = target
            for k, v in node.items():
                if k == "$ref":
                    continue
                if k == "description" and "description" in resolved:
                    merged[k] = _join_descriptions(v, resolved["description"])
                else:
                    merged[k] = v
                new_origins[k] = origins.get(k, at)
            node, origins = merged, new_origins
            # the target's own keys now resolve relative to the target
        return node, at, origins

    def _child(self, key: str, at: Path, origins: dict) -> Path:
        return origins.get(key, at) + (key,)

    def _merge_all_of(self, node: dict, at: Path, origins: dict) -> tuple[dict, dict]:
        members = node["allOf"]
        base_path = self._child("allOf", at, origins)
        out = {k: v for k, v in node.items() if k != "allOf"}
        out_origins = {k: origins.get(k, at) for k in out}
        for i, member in enumerate(members):
            mpath = base_path + (i,)
            if member is True:
                continue
            if not isinstance(member, dict):
                raise DialectError(mpath, "allOf member is not a schema")
            m, m_at, m_origins = self._deref(member, mpath)
            if "$ref" in m:
                raise DialectError(
                    mpath,
                    f"{self.dialect}: cannot flatten allOf with a recursive $ref",
                    "move the recursive part into a property",
                )
            if "allOf" in m:
                m, m_origins = self._merge_all_of(m, m_at, m_origins)
            for k, v in m.items():
                src = m_origins.get(k, m_at)
                if k not in out:
                    out[k] = v
                    out_origins[k] = src
                elif k == "description":
                    out[k] = _join_descriptions(out[k], v)
                elif k == "required":
                    out[k] = list(out[k]) + [r for r in v if r not in out[k]]
                elif k == "properties":
                    props = dict(out[k])
                    for pk, pv in v.items():
                        if pk in props and props[pk] != pv:
                            raise DialectError(
                                src + ("properties", pk),
                                f"{self.dialect}: allOf members give property {pk!r} different schemas",
                                "merge the two definitions by hand",
                            )
                        props[pk] = pv
                    # properties from several members: keep paths honest only for the first
                    out[k] = props
                elif out[k] != v:
                    raise DialectError(
                        src + (k,),
                        f"{self.dialect}: allOf members disagree on {k!r}",
                        "merge the allOf members by hand",
                    )
        return out, out_origins

    def node(
        self,
        schema: Any,
        at: Path,
        origins: dict | None = None,
        *,
        is_root: bool = False,
    ) -> dict:
        """Converts one schema. ``at``: its input path; ``origins``: input paths of merged keys."""
        if schema is True:
            schema = {}
        if not isinstance(schema, dict):
            raise DialectError(
                at,
                f"expected a schema object, got {_render(schema)}",
                "a 'false' schema accepts nothing; remove the property instead",
            )
        schema, at, origins = self._deref(schema, at, origins)
        if "$ref" in schema:
            return self.recursive_ref(schema, at, origins)
        if "allOf" in schema and self.merge_all_of:
            schema, origins = self._merge_all_of(schema, at, origins)
        n: dict = {}
        for k, v in schema.items():
            if k in _METADATA or k in _DEF_CONTAINERS:
                continue
            n[k] = v
        self._normalize_common(n, at, origins)
        if self.one_of_as_any_of and "oneOf" in n:
            if "anyOf" in n:
                raise DialectError(
                    self._child("oneOf", at, origins),
                    f"{self.dialect}: both oneOf and anyOf on one schema",
                    "combine them into one anyOf",
                )
            self.notices.append(
                Notice(
                    self._child("oneOf", at, origins),
                    f"{self.dialect}: oneOf emitted as anyOf (exclusivity not enforced)",
                )
            )
        if is_root:
            self._check_root(n, at)
        out = self.emit(n, at, origins, is_root=is_root)
        return _ordered(out)

    def _normalize_common(self, n: dict, at: Path, origins: dict) -> None:
        """Dialect-independent rewrites, in place on the (already copied) node dict."""
        for key, bound in (
            ("exclusiveMinimum", "minimum"),
            ("exclusiveMaximum", "maximum"),
        ):
            if isinstance(n.get(key), bool):
                if n[key] and bound in n:
                    # draft-4: the bound itself is exclusive
                    rebuilt: dict = {}
                    for k, v in n.items():
                        if k == bound:
                            rebuilt[key] = v
                        elif k != key:
                            rebuilt[k] = v
                    n.clear()
                    n.update(rebuilt)
                elif n[key]:
                    raise DialectError(
                        self._child(key, at, origins),
                        f"{key}: true without {bound}",
                        f"give {bound} or remove {key}",
                    )
                else:
                    del n[key]
        t = n.get("type")
        if t is not None:
            types = t if isinstance(t, list) else [t]
            for x in types:
                if x not in _JSON_TYPES:
                    raise DialectError(
                        self._child("type", at, origins),
                        f"unknown type {_render(x)}",
                        "use one of " + ", ".join(_JSON_TYPES),
                    )
            if isinstance(t, list):
                if len(t) == 0:
                    raise DialectError(
                        self._child("type", at, origins), "empty type list"
                    )
                if len(t) == 1:
                    n["type"] = t[0]
        if "nullable" in n and not isinstance(n["nullable"], bool):
            raise DialectError(
                self._child("nullable", at, origins), "nullable must be a boolean"
            )

    def _check_root(self, n: dict, at: Path) -> None:
        t = n.get("type")
        if (
            t is None
            and "properties" in n
            and not any(k in n for k in ("anyOf", "oneOf", "allOf"))
        ):
            return
        if (
            t != "object"
            or any(k in n for k in ("anyOf", "oneOf"))
            or n.get("nullable") is True
        ):
            raise DialectError(
                at,
                f"{self.dialect}: tool parameters must be one object schema "
                f"(got {'a union' if any(k in n for k in ('anyOf', 'oneOf')) else 'type ' + _render(t)})",
                "wrap the value in an object property, or split a union into one tool per branch",
            )

    # ---- hooks ----------------------------------------------------------------------------

    def recursive_ref(self, schema: dict, at: Path, origins: dict) -> dict:
        target = self._target(schema["$ref"], at)
        if not self.recursive_refs:
            raise DialectError(
                at + ("$ref",),
                f"{self.dialect}: recursive $ref {schema['$ref']!r} cannot be expressed",
                "bound the recursion (unroll it a fixed number of levels) or take the "
                "recursive part as a JSON string",
            )
        ref = "#" if target == () else "#/$defs/" + self._def_name(target)
        out: dict = {"$ref": ref}
        for k, v in schema.items():
            if k == "$ref" or k in _METADATA:
                continue
            if k in ("description", "title"):
                out[k] = v
            else:
                raise DialectError(
                    self._child(k, at, origins),
                    f"{self.dialect}: keyword {k!r} next to a recursive $ref",
                    "move it into the referenced definition",
                )
        return out

    def emit(self, n: dict, at: Path, origins: dict, *, is_root: bool) -> dict:
        raise NotImplementedError

    def finish(self, root_out: dict) -> dict:
        """Adds the ``$defs`` of recursive targets to the root output."""
        if not self._def_order:
            return root_out
        defs: dict = {}
        i = 0
        while i < len(self._def_order):  # converting one def may register more
            target = self._def_order[i]
            defs[self._def_names[target]] = self.node(self._get(target), target)
            i += 1
        out = dict(root_out)
        out["$defs"] = defs
        return _ordered(out)

    # ---- shared pieces --------------------------------------------------------------------

    def _children(self, key: str, value: Any, at: Path, origins: dict) -> Any:
        """Converts the sub-schemas under ``key``."""
        path = self._child(key, at, origins)
        if key in _SCHEMA_ONE:
            if isinstance(value, bool):
                return value
            return self.node(value, path)
        if key in _SCHEMA_LIST:
            if not isinstance(value, list):
                raise DialectError(path, f"{key} must be a list of schemas")
            return [self.node(v, path + (i,)) for i, v in enumerate(value)]
        if key in _SCHEMA_MAP:
            if not isinstance(value, dict):
                raise DialectError(path, f"{key} must map names to schemas")
            return {name: self.node(v, path + (name,)) for name, v in value.items()}
        return copy.deepcopy(value)


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
            if {"type": "null"} not in out["anyOf"]:
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


def _extra_sentence(key: str, value: Any) -> str:
    """The description text standing in for a keyword the dialect cannot take."""
    if key == "enum" or key == "const":
        return f"Allowed values: {_render_list(value if key == 'enum' else [value])}."
    if key == "default":
        return f"Default: {_render(value)}."
    if key == "examples":
        return f"Examples: {_render_list(value) if isinstance(value, list) else _render(value)}."
    if key == "format":
        return f"Format: {value}."
    if key == "minLength":
        return f"Minimum length: {_render(value)}."
    if key == "maxLength":
        return f"Maximum length: {_render(value)}."
    if key == "exclusiveMinimum":
        return f"Must be greater than {_render(value)}."
    if key == "exclusiveMaximum":
        return f"Must be less than {_render(value)}."
    if key == "multipleOf":
        return f"Must be a multiple of {_render(value)}."
    if key == "uniqueItems":
        return "Items must be unique." if value else "Items need not be unique."
    if key == "minProperties":
        return f"At least {_render(value)} properties."
    if key == "maxProperties":
        return f"At most {_render(value)} properties."
    if key == "propertyNames":
        return f"Property names must match the schema {_render(value)}."
    if key == "deprecated":
        return "Deprecated." if value else "Not deprecated."
    if key == "readOnly":
        return "Read-only." if value else "Not read-only."
    if key == "writeOnly":
        return "Write-only." if value else "Not write-only."
    return f"{key}: {_render(value)}."


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
                    if not isinstance(name, str) or not GEMINI_PROPERTY_KEY.match(name):
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


# --------------------------------------------------------------------------------------------
# public functions


def _walker(dialect: str, strict: bool, schema: Any) -> _Walker:
    if dialect not in DIALECTS:
        raise ValueError(
            f"unknown dialect {dialect!r}; expected one of {', '.join(DIALECTS)}"
        )
    if strict and not dialect.startswith("openai"):
        raise DialectError(
            (),
            f"{dialect}: strict mode is only modelled for the OpenAI dialects",
            "pass strict=False",
        )
    if dialect == "gemini":
        return _GeminiWalker(schema)
    if dialect.startswith("openai"):
        if strict:
            return _OpenAIStrictWalker(schema, dialect)
        w = _OpenAIWalker(schema)
    else:
        w = _JsonSchemaWalker(schema)
    w.dialect = dialect
    return w


def convert(schema: dict, dialect: str, *, strict: bool = False) -> Conversion:
    """Converts a parameters JSON Schema for ``dialect``; returns the schema and notices."""
    walker = _walker(dialect, strict, schema)
    if dialect == "anthropic" and isinstance(schema, dict):
        props = schema.get("properties")
        if isinstance(props, dict):
            for name in props:
                if not isinstance(name, str) or not ANTHROPIC_PROPERTY_KEY.match(name):
                    raise DialectError(
                        ("properties", name),
                        f"anthropic: property key {name!r} is not allowed",
                        "top-level property keys must match ^[a-zA-Z0-9_.-]{1,64}$",
                    )
    out = walker.finish(walker.node(schema, (), is_root=True))
    if strict:
        depth = _depth(out)
        if depth > OPENAI_STRICT_MAX_DEPTH:
            walker.notices.append(
                Notice(
                    (),
                    f"{dialect} strict: {depth} levels of object nesting "
                    f"(documented limit {OPENAI_STRICT_MAX_DEPTH})",
                )
            )
    return Conversion(out, tuple(walker.notices))


def convert_parameters(schema: dict, dialect: str, *, strict: bool = False) -> dict:
    """The dialect's parameter schema for a tool whose parameters are the JSON Schema ``schema``.

    Raises :class:`DialectError` for what the dialect cannot express (see the module docstring
    and the dialect walkers for the rules); use :func:`convert` to also get the notices.
    """
    return convert(schema, dialect, strict=strict).schema


def _depth(schema: Any, level: int = 0) -> int:
    if not isinstance(schema, dict):
        return level
    best = level
    for k, v in schema.items():
        if k in ("properties", "$defs") and isinstance(v, dict):
            best = max(best, *(_depth(s, level + 1) for s in v.values())) if v else best
        elif k in ("items",):
            best = max(best, _depth(v, level))
        elif k == "anyOf" and isinstance(v, list):
            best = max(best, *(_depth(s, level) for s in v)) if v else best
    return best


def tool_entry(
    dialect: str,
    name: str,
    description: str,
    parameters: dict,
    *,
    strict: bool = False,
    cache_control: bool = False,
    notices: list | None = None,
) -> dict:
    """The request-ready tool dict for ``dialect``.

    ``parameters`` is the input JSON Schema; this function converts it with
    :func:`convert_parameters`. Conversion notices are appended to ``notices`` when a list is
    given. ``strict`` is for the OpenAI dialects only, ``cache_control`` (adds
    ``cache_control: {"type": "ephemeral"}`` as the last key) for anthropic only; asking either
    of another dialect raises :class:`DialectError`, as do a tool name outside the dialect's
    rules and (bedrock-converse) an empty description.
    """
    if dialect not in DIALECTS:
        raise ValueError(
            f"unknown dialect {dialect!r}; expected one of {', '.join(DIALECTS)}"
        )
    if cache_control and dialect != "anthropic":
        raise DialectError(
            (),
            f"{dialect}: cache_control is only modelled for anthropic",
            "pass cache_control=False",
        )
    if not isinstance(name, str) or not NAME_PATTERNS[dialect].match(name):
        raise DialectError(
            ("name",),
            f"{dialect}: tool name {name!r} is not allowed",
            f"names must match {NAME_PATTERNS[dialect].pattern}",
        )
    if not isinstance(description, str):
        raise DialectError(("description",), "description must be a string")
    if dialect == "bedrock-converse" and not description:
        raise DialectError(
            ("description",),
            "bedrock-converse: the tool description must not be empty",
            "write a one-line description of what the tool does",
        )
    result = convert(parameters, dialect, strict=strict)
    if notices is not None:
        notices.extend(result.notices)
    params = result.schema
    if dialect == "anthropic":
        entry: dict = {"name": name, "description": description, "input_schema": params}
        if cache_control:
            entry["cache_control"] = {"type": "ephemeral"}
        return entry
    if dialect == "openai-chat":
        return {
            "type": "function",
            "function": {
                "name": name,
                "description": description,
                "strict": bool(strict),
                "parameters": params,
            },
        }
    if dialect == "openai-responses":
        return {
            "type": "function",
            "name": name,
            "description": description,
            "parameters": params,
            "strict": bool(strict),
        }
    if dialect == "gemini":
        return {"name": name, "description": description, "parameters": params}
    return {
        "toolSpec": {
            "name": name,
            "description": description,
            "inputSchema": {"json": params},
        }
    }


def _unpack(dialect: str, tool: Any, i: int) -> tuple[Any, Any, Any, Any, Path]:
    """(name, description, parameters, strict, path to parameters) of a tool dict."""
    if not isinstance(tool, dict):
        raise DialectError((i,), "tool entry is not an object")
    try:
        if dialect == "anthropic":
            return (
                tool["name"],
                tool.get("description", ""),
                tool["input_schema"],
                False,
                (i, "input_schema"),
            )
        if dialect == "openai-chat":
            f = tool["function"]
            return (
                f["name"],
                f.get("description", ""),
                f.get("parameters"),
                f.get("strict"),
                (i, "function", "parameters"),
            )
        if dialect == "openai-responses":
            return (
                tool["name"],
                tool.get("description", ""),
                tool.get("parameters"),
                tool.get("strict"),
                (i, "parameters"),
            )
        if dialect == "gemini":
            return (
                tool["name"],
                tool.get("description", ""),
                tool.get("parameters"),
                False,
                (i, "parameters"),
            )
        spec = tool["toolSpec"]
        return (
            spec["name"],
            spec.get("description"),
            spec["inputSchema"]["json"],
            False,
            (i, "toolSpec", "inputSchema", "json"),
        )
    except (KeyError, TypeError) as exc:
        raise DialectError(
            (i,), f"{dialect}: malformed tool entry (missing {exc})"
        ) from None


def _walk_schemas(schema: Any, path: Path, visit: Callable[[dict, Path], None]) -> None:
    if not isinstance(schema, dict):
        return
    visit(schema, path)
    for k, v in schema.items():
        if k in (
            "properties",
            "$defs",
            "patternProperties",
            "dependentSchemas",
        ) and isinstance(v, dict):
            for name, s in v.items():
                _walk_schemas(s, path + (k, name), visit)
        elif k in ("anyOf", "oneOf", "allOf", "prefixItems") and isinstance(v, list):
            for j, s in enumerate(v):
                _walk_schemas(s, path + (k, j), visit)
        elif k in _SCHEMA_ONE and isinstance(v, dict):
            _walk_schemas(v, path + (k,), visit)


def check_limits(dialect: str, tools: list[dict]) -> list[Notice]:
    """Checks request-ready tool dicts (as :func:`tool_entry` builds them) against ``dialect``.

    Raises :class:`DialectError` (path ``(index, ...)``) for hard errors: a tool name outside
    the dialect's rules, duplicate names, a parameters root that is not an object, anthropic
    top-level property keys outside ``^[a-zA-Z0-9_.-]{1,64}$``, gemini property names and
    non-string enums, OpenAI strict tools breaking strict invariants, an empty bedrock
    description. Returns notices for soft limits: OpenAI more than 128 tools in one request
    and descriptions longer than 1024 characters.
    """
    if dialect not in DIALECTS:
        raise ValueError(
            f"unknown dialect {dialect!r}; expected one of {', '.join(DIALECTS)}"
        )
    notices: list[Notice] = []
    seen: dict = {}
    root_type = "OBJECT" if dialect == "gemini" else "object"
    for i, tool in enumerate(tools):
        name, description, params, strict, ppath = _unpack(dialect, tool, i)
        npath = {
            "openai-chat": (i, "function", "name"),
            "bedrock-converse": (i, "toolSpec", "name"),
        }.get(dialect, (i, "name"))
        if not isinstance(name, str) or not NAME_PATTERNS[dialect].match(name):
            raise DialectError(
                npath,
                f"{dialect}: tool name {name!r} is not allowed",
                f"names must match {NAME_PATTERNS[dialect].pattern}",
            )
        if name in seen:
            raise DialectError(
                npath,
                f"{dialect}: tool name {name!r} is used twice (also tool {seen[name]})",
                "give every tool a distinct name",
            )
        seen[name] = i
        dpath = npath[:-1] + ("description",)
        if dialect == "bedrock-converse" and not description:
            raise DialectError(
                dpath,
                "bedrock-converse: the tool description must not be empty",
                "write a one-line description of what the tool does",
            )
        if (
            dialect.startswith("openai")
            and isinstance(description, str)
            and len(description) > OPENAI_MAX_DESCRIPTION
        ):
            notices.append(
                Notice(
                    dpath,
                    f"{dialect}: description of {name!r} has {len(description)} "
                    f"characters (more than {OPENAI_MAX_DESCRIPTION})",
                )
            )
        if params is None and dialect.startswith("openai"):
            continue
        if not isinstance(params, dict) or params.get("type") != root_type:
            raise DialectError(
                ppath,
                f"{dialect}: parameters of {name!r} must be an object schema "
                f"(type {root_type!r})",
                "wrap the value in an object property",
            )
        if dialect == "anthropic":
            for key in params.get("properties", {}) or {}:
                if not ANTHROPIC_PROPERTY_KEY.match(str(key)):
                    raise DialectError(
                        ppath + ("properties", key),
                        f"anthropic: property key {key!r} is not allowed",
                        "top-level property keys must match ^[a-zA-Z0-9_.-]{1,64}$",
                    )
        if dialect == "gemini":
            _walk_schemas(params, ppath, _check_gemini_node)
        if strict is True:
            _walk_schemas(params, ppath, _check_strict_node)
    if dialect.startswith("openai") and len(tools) > OPENAI_MAX_TOOLS:
        notices.append(
            Notice(
                (),
                f"{dialect}: {len(tools)} tools in one request "
                f"(more than {OPENAI_MAX_TOOLS})",
            )
        )
    return notices


def _check_gemini_node(schema: dict, path: Path) -> None:
    for name in schema.get("properties", {}) or {}:
        if not GEMINI_PROPERTY_KEY.match(str(name)):
            raise DialectError(
                path + ("properties", name),
                f"gemini: property name {name!r} is not allowed",
                "property names must start with a letter or underscore and use only "
                "letters, digits, _ . - (at most 64 characters)",
            )
    enum = schema.get("enum")
    if enum is not None and not all(isinstance(e, str) for e in enum):
        raise DialectError(
            path + ("enum",),
            "gemini: enum values must be strings",
            "convert_parameters moves non-string enums into the description",
        )
    t = schema.get("type")
    if t is not None and t not in _GEMINI_TYPES.values():
        raise DialectError(
            path + ("type",),
            f"gemini: type {t!r} is not a Gemini type",
            "use STRING, NUMBER, INTEGER, BOOLEAN, ARRAY or OBJECT",
        )


def _check_strict_node(schema: dict, path: Path) -> None:
    t = schema.get("type")
    types = t if isinstance(t, list) else [t]
    if "object" in types:
        props = schema.get("properties")
        if not isinstance(props, dict):
            raise DialectError(path, "strict: an object needs declared properties")
        if schema.get("additionalProperties") is not False:
            raise DialectError(
                path, "strict: an object needs additionalProperties false"
            )
        if list(schema.get("required", [])) != list(props) and set(
            schema.get("required", [])
        ) != set(props):
            raise DialectError(
                path + ("required",),
                "strict: every property must be required",
                "make optional properties nullable instead",
            )
    if "array" in types and "items" not in schema:
        raise DialectError(path, "strict: an array needs 'items'")
