"""The input side of the schema walk: ``$ref`` resolution and ``allOf`` merging.

``_RefResolver`` follows local JSON pointers through the input schema, tells recursive refs
(kept as ``$ref`` where the format allows) from the rest (inlined), names the ``$defs`` the
output needs, and flattens ``allOf``. ``schema_walk._Walker`` builds on it and emits each
node as the format's policy says.

Standard library only: this module is copied verbatim into the generated package (relative
imports only) and is also imported by the generator at build time.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote

from .schema_common import (
    _DEF_CONTAINERS,
    _SCHEMA_MAP,
    DialectError,
    Origins,
    Path,
    Schema,
    _join_descriptions,
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


class _RefResolver:
    """Resolves refs and merges ``allOf`` in the input schema ``root``; ``dialect`` names the
    format in messages."""

    def __init__(self, root: Any, dialect: str) -> None:
        self.root = root
        self.dialect = dialect
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
