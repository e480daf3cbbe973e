"""The walker every dialect shares: normalization and the policy-driven emitter.

``_Walker`` (built on ``schema_refs._RefResolver``, which resolves ``$ref`` and merges
``allOf``) walks an input JSON Schema and emits each normalized node as the format's keyword
table (formats.py) says; the format's CUSTOM keywords go to its hooks (schema_json: the
JSON-Schema dialects and OpenAI strict mode, schema_gemini: Gemini).

Standard library only: this module is copied verbatim into the generated package (relative
imports only) and is also imported by the generator at build time.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, NoReturn

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
    _ordered,
    _render,
    _with_extras,
)
from .schema_refs import _RefResolver


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


class _Walker(_RefResolver):
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
        super().__init__(root, record.name + policy.label if label is None else label)
        self.record = record
        self.policy = policy
        self.hooks = hooks
        self.merge_all_of = policy.merge_all_of
        self.one_of_as_any_of = policy.one_of_as_any_of
        self.recursive_refs = policy.recursive_refs
        self.notices: list[Notice] = []
        self.described: list[tuple[Path, str]] = []
        """Input paths of the keywords moved into description text (not in the schema sent)."""
        self.dropped: list[tuple[Path, str]] = []
        """Input paths of the keywords the format cannot express (not sent, not described)."""

    # ---- normalization --------------------------------------------------------------------

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
                self.describe(node, k, v)
            elif action == CUSTOM:
                self.hooks.keyword(self, node, k, v)
            elif action.startswith(RENAME):
                node.out[action[len(RENAME) :]] = self._children(k, v, at, origins)
            else:
                self.refuse(node, k)
        self.hooks.complete(self, node)
        return node.out

    def describe(self, node: NodeWork, key: str, value: Any) -> None:
        """Moves ``key`` into the node's description text, and remembers where it was."""
        node.extras.append(_extra_sentence(key, value))
        self.described.append((self._child(key, node.at, node.origins), key))

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
