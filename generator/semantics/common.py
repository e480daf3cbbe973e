"""What every semantic check shares: the names the project declares, where to report, small value tests."""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from ..diagnostics import Diagnostics
from ..load import PathKey, SourceFile

PY_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "boolean": (bool,),
    "integer": (int,),
    "number": (int, float),
    "array": (list,),
    "object": (dict,),
}


@dataclass(frozen=True)
class Scope:
    """The names toolgen.yaml and parameters.yaml declare, read once, and the diagnostics to report to.

    Every check in this package reads references against these, so they travel together.
    """

    project_src: SourceFile
    shared_src: SourceFile | None
    diags: Diagnostics
    context_types: Mapping[str, str]
    placeholders: frozenset[str]
    provider_sets: Mapping[str, Any]
    model_sets: Mapping[str, Any]
    model_predicates: Mapping[str, Any]
    tool_ids: tuple[str, ...]
    known_tools: frozenset[str]  # tool_ids, for membership tests (thousands of them)
    family_enum: tuple[str, ...]
    shared_params: Mapping[str, Any]
    mcp_separator: str

    @classmethod
    def read(cls, project: SourceFile, shared: SourceFile | None, diags: Diagnostics) -> Scope:
        data = project.data
        selection = data.get("selection") or {}
        return cls(
            project_src=project,
            shared_src=shared,
            diags=diags,
            context_types={name: spec["type"] for name, spec in (data.get("context") or {}).items()},
            placeholders=frozenset((data.get("placeholders") or {}).keys()),
            provider_sets=selection.get("provider_sets") or {},
            model_sets=selection.get("model_sets") or {},
            model_predicates=selection.get("model_predicates") or {},
            tool_ids=tuple(data.get("tools") or ()),
            known_tools=frozenset(data.get("tools") or ()),
            family_enum=tuple(data.get("families") or ()),
            shared_params=(shared.data or {}).get("parameters", {}) if shared else {},
            mcp_separator=(data.get("mcp") or {}).get("separator", "__mcp__"),
        )

    def silent(self) -> Scope:
        """The same scope reporting into a throwaway list (for checks already reported elsewhere)."""
        return dataclasses.replace(self, diags=Diagnostics())


def member_name(name: str) -> str:
    """The Python enum member for an id: upper snake case, never a reserved ``_sunder_`` name."""
    member = re.sub(r"[^A-Za-z0-9]+", "_", name).upper()
    return member if not member.startswith("_") else "X" + member


def file_stem(src: SourceFile) -> str:
    """The file name without '.yaml': a tool file and a family file must be named after their id."""
    return src.path.rsplit("/", 1)[-1].removesuffix(".yaml")


def article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


def fits(value: Any, type_name: str) -> bool:
    """Whether a spec value has a declared type (booleans are not numbers here, unlike in Python)."""
    if isinstance(value, bool) and type_name in ("integer", "number"):
        return False
    return isinstance(value, PY_TYPES[type_name])


def non_finite(value: Any, path: PathKey) -> list[PathKey]:
    """Paths of NaN/Infinity numbers: JSON, Python literals and the providers have no place for them."""
    if isinstance(value, float) and not math.isfinite(value):
        return [path]
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in non_finite(v, path + (k,))]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in non_finite(v, path + (i,))]
    return []


def freeze(value: Any) -> Any:
    """Read-only deep copy of predicate data (mappings become MappingProxyType, lists tuples)."""
    if isinstance(value, dict):
        return MappingProxyType({k: freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(freeze(v) for v in value)
    return value
