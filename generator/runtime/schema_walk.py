"""The walker every dialect shares: ``$ref`` resolution, ``allOf`` merging, normalization.

``_Walker`` walks an input JSON Schema and emits each normalized node as the format's keyword
table (formats.py) says; the format's CUSTOM keywords go to its hooks (schema_json: the
JSON-Schema dialects and OpenAI strict mode, schema_gemini: Gemini).

Standard library only: this module is copied verbatim into the generated package (relative
imports only) and is also imported by the generator at build time.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import Any, NoReturn
from urllib.parse import unquote

from .formats import CUSTOM, DESCRIBE, KEEP, RENAME, FormatRecord, SchemaPolicy
from .schema_common import (
    _DEF_CONTAINERS,
    _JSON_TYPES,
    _METADATA,
    _SCHEMA_LIST,
    _SCHEMA_MAP,
    _SCHEMA_ONE,
    DialectError,
    Notice,
    Origins,
    Path,
    Schema,
    _extra_sentence,
    _join_descriptions,
    _ordered,
    _render,
    _with_extras,
)


def _decode_pointer(fragment: str) -> list[str]:
    if fragment in ("", "/"):
        return [] if fragment == "" else [""]
    if not fragment.startswith("/"):
        raise ValueError(fragment)
    return [
        unquote(p).replace("~1", "/").replace("~0", "~")
        for p in fragment[1:].split("/")
    ]


@dataclass
class NodeWork:
    """One schema node being emitted: the normalized input, where it is, and the output so far."""

    n: Schema
    at: Path
    origins: Origins
    is_root: bool
    out: Schema = field(default_factory=dict)
    extras: list[str] = field(default_factory=list)
    """Sentences for keywords moved into the description (appended by the hooks' complete)."""
    state: Any = None
    """Whatever the policy's hooks computed for this node in ``prepare``."""


class Hooks:
    """The code behind one policy's CUSTOM keywords and the per-node steps around the loop."""

    def prepare(self, w: _Walker, node: NodeWork) -> None:
        """Runs before the keyword loop; may rewrite ``node.n`` and set ``node.state``."""

    def keyword(self, w: _Walker, node: NodeWork, key: str, value: Any) -> None:
        """Emits one keyword the policy marks CUSTOM."""
        w.refuse(node, key)

    def complete(self, w: _Walker, node: NodeWork) -> None:
        """Runs after the keyword loop: defaults, closing checks, the moved-keyword text."""
        if node.extras:
            node.out["description"] = _with_extras(
                node.out.get("description"), node.extras
            )


class _Walker:
    """Walks an input schema and emits it as one format's policy says.

    The policy (formats.SchemaPolicy) gives the walker's switches (flatten ``allOf``, read
    ``oneOf`` as ``anyOf``, keep recursive refs as ``$ref``) and each keyword's action; the
    hooks carry the format's own code for the keywords it marks CUSTOM.
    """

    def __init__(
        self,
        root: Any,
        record: FormatRecord,
        policy: SchemaPolicy,
        hooks: Hooks,
        label: str | None = None,
    ) -> None:
        self.root = root
        self.record = record
        self.policy = policy
        self.hooks = hooks
        self.dialect = record.name + policy.label if label is None else label
        self.merge_all_of = policy.merge_all_of
        self.one_of_as_any_of = policy.one_of_as_any_of
        self.recursive_refs = policy.recursive_refs
        self.notices: list[Notice] = []
        self._reach_cache: dict[Path, frozenset[Path]] = {}
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
        path: list[Any] = []
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

    def _reachable(self, target: Path) -> frozenset[Path]:
        """Every ref target reachable from ``target`` by following refs (depth-first)."""
        if target in self._reach_cache:
            return self._reach_cache[target]
        seen: set[Path] = set()
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
        self, node: Any, at: Path, origins: Origins | None = None
    ) -> tuple[Schema, Path, Origins]:
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
            merged: Schema = {}
            new_origins: Origins = {}
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

    def _child(self, key: str, at: Path, origins: Origins) -> Path:
        return origins.get(key, at) + (key,)

    def _merge_all_of(
        self, node: Schema, at: Path, origins: Origins
    ) -> tuple[Schema, Origins]:
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
        origins: Origins | None = None,
        *,
        is_root: bool = False,
    ) -> Schema:
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
        n: Schema = {}
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

    def _normalize_common(self, n: Schema, at: Path, origins: Origins) -> None:
        """Dialect-independent rewrites, in place on the (already copied) node dict."""
        for key, bound in (
            ("exclusiveMinimum", "minimum"),
            ("exclusiveMaximum", "maximum"),
        ):
            if isinstance(n.get(key), bool):
                if n[key] and bound in n:
                    # draft-4: the bound itself is exclusive
                    rebuilt: Schema = {}
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

    def _check_root(self, n: Schema, at: Path) -> None:
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

    def recursive_ref(self, schema: Schema, at: Path, origins: Origins) -> Schema:
        target = self._target(schema["$ref"], at)
        if not self.recursive_refs:
            raise DialectError(
                at + ("$ref",),
                f"{self.dialect}: recursive $ref {schema['$ref']!r} cannot be expressed",
                "bound the recursion (unroll it a fixed number of levels) or take the "
                "recursive part as a JSON string",
            )
        ref = "#" if target == () else "#/$defs/" + self._def_name(target)
        out: Schema = {"$ref": ref}
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

    def emit(self, n: Schema, at: Path, origins: Origins, *, is_root: bool) -> Schema:
        """One normalized node in the format: each keyword as the policy's table says."""
        node = NodeWork(n, at, origins, is_root)
        self.hooks.prepare(self, node)
        table, default = self.policy.keywords, self.policy.default
        for k, v in node.n.items():
            action = table.get(k, default)
            if action == KEEP:
                node.out[k] = self._children(k, v, at, origins)
            elif action == DESCRIBE:
                node.extras.append(_extra_sentence(k, v))
            elif action == CUSTOM:
                self.hooks.keyword(self, node, k, v)
            elif action.startswith(RENAME):
                node.out[action[len(RENAME) :]] = self._children(k, v, at, origins)
            else:
                self.refuse(node, k)
        self.hooks.complete(self, node)
        return node.out

    def refuse(self, node: NodeWork, key: str) -> NoReturn:
        """Refuses ``key`` with the policy's wording."""
        raise DialectError(
            self._child(key, node.at, node.origins),
            f"{self.dialect}: keyword {key!r} {self.policy.refuse_message}",
            self.policy.refuse_hint,
        )

    def finish(self, root_out: Schema) -> Schema:
        """Adds the ``$defs`` of recursive targets to the root output."""
        if not self._def_order:
            return root_out
        defs: Schema = {}
        i = 0
        while i < len(self._def_order):  # converting one def may register more
            target = self._def_order[i]
            defs[self._def_names[target]] = self.node(self._get(target), target)
            i += 1
        out = dict(root_out)
        out["$defs"] = defs
        return _ordered(out)

    # ---- shared pieces --------------------------------------------------------------------

    def _children(self, key: str, value: Any, at: Path, origins: Origins) -> Any:
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
