"""Parameters: shared definitions and 'use:', dependencies, and the JSON-Schema keywords of each value.

A schema keyword that cannot apply to the declared type (``items`` on a string, ``minimum`` on an
array) would be dropped or rejected by a provider, so it is an error here, where it was written.
"""

from __future__ import annotations

import dataclasses
import re
from types import MappingProxyType
from typing import Any

from ..load import PathKey, SourceFile
from ..model import SCHEMA_KEYWORD_ORDER, Parameter
from ..validate import suggest
from .common import Scope, article, fits, freeze
from .predicates import check_predicate
from .text import check_text

CONTAINER_KEYWORDS = {"items": "array", "properties": "object"}
NUMERIC_KEYWORDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")
STRING_KEYWORDS = ("minLength", "maxLength", "format")


def check_shared_parameters(scope: Scope) -> None:
    """Check each shared parameter once, where it is defined (not at every 'use:')."""
    if scope.shared_src is None:
        return
    for name, spec in scope.shared_params.items():
        parameter(scope, scope.shared_src, {"name": name, **spec}, ("parameters", name))


def parameter(scope: Scope, src: SourceFile, spec: dict[str, Any], at: PathKey) -> Parameter:
    """One parameter of a variant (or of parameters.yaml), with its shared definition merged in."""
    shared_name = spec.get("use")
    merged = dict(spec)
    if shared_name is not None:
        if shared_name not in scope.shared_params:
            scope.diags.error(
                src.loc(at + ("use",)),
                "E308",
                f"unknown shared parameter {shared_name!r}",
                suggest(shared_name, scope.shared_params) or "define it in specs/parameters.yaml",
            )
        else:
            overrides = {k: v for k, v in spec.items() if k != "use"}
            merged = {"name": shared_name, **scope.shared_params[shared_name], **overrides}
            if not overrides:
                # A plain 'use:' adds nothing to check: the definition was checked where it lives.
                built = parameter(scope.silent(), src, merged, at)
                return dataclasses.replace(built, shared=shared_name)
    name = merged.get("name", shared_name or "?")
    for i, dep in enumerate(merged.get("dependencies") or []):
        if dep not in scope.tool_ids:
            scope.diags.error(
                src.loc(at + ("dependencies", i)),
                "E307",
                f"parameter {name!r} depends on unknown tool id {dep!r}",
                suggest(dep, scope.tool_ids) or "name a tool id listed in toolgen.yaml",
            )
    if merged.get("requires") is not None:
        check_predicate(scope, src, merged["requires"], at + ("requires",))
    instruction = check_text(scope, src, merged.get("instruction"), at + ("instruction",))
    description = check_text(scope, src, merged.get("description"), at + ("description",))
    schema = _schema(scope, src, merged, at, top=True)
    return Parameter(
        name=name,
        required=bool(merged.get("required", False)),
        instruction=instruction,
        description=description,
        usage=merged.get("usage"),
        schema=schema,
        dependencies=tuple(merged.get("dependencies") or ()),
        requires=freeze(merged.get("requires")),
        shared=shared_name,
        location=src.loc(at),
    )


def _schema(scope: Scope, src: SourceFile, spec: dict[str, Any], at: PathKey, top: bool) -> MappingProxyType[str, Any]:
    """Canonical JSON-Schema keywords of a parameter or nested schema, in emission order."""
    type_name = spec.get("type", "string")
    out: dict[str, Any] = {"type": type_name}
    if spec.get("nullable"):
        out["nullable"] = True
    if not top and "description" in spec:
        out["description"] = spec["description"]
    for key in SCHEMA_KEYWORD_ORDER:
        # A parameter's own 'required' says whether the model must pass it; its members' is spelled differently.
        source_key = "member_required" if (top and key == "required") else key
        if source_key in spec:
            out[key] = _keyword(scope, src, spec, at, key, source_key, type_name)
    return MappingProxyType(out)


def _keyword(
    scope: Scope, src: SourceFile, spec: dict[str, Any], at: PathKey, key: str, source_key: str, type_name: str
) -> Any:
    """One keyword's canonical value, after checking it against the schema's type."""
    diags = scope.diags
    value = spec[source_key]
    nullable_none = value is None and spec.get("nullable")
    container = CONTAINER_KEYWORDS.get(key)
    if container is not None and type_name != container:
        diags.error(
            src.loc(at + (key,), key=True),
            "E311",
            f"{key!r} needs type {container}, not {type_name}",
            f"set 'type: {container}' or remove {key!r}",
        )
    if key == "items":
        return _schema(scope, src, value, at + ("items",), top=False)
    if key == "properties":
        return MappingProxyType(
            {n: _schema(scope, src, s, at + ("properties", n), top=False) for n, s in value.items()}
        )
    if key == "required":
        members = spec.get("properties") or {}
        for i, member in enumerate(value):
            if member not in members:
                diags.error(
                    src.loc(at + (source_key, i)),
                    "E311",
                    f"required member {member!r} is not among the properties",
                    suggest(member, members) or "add it under properties:",
                )
        return tuple(value)
    if key == "enum":
        for i, item in enumerate(value):
            if not (item is None and spec.get("nullable")) and not fits(item, type_name):
                diags.error(
                    src.loc(at + ("enum", i)),
                    "E311",
                    f"enum value {item!r} does not fit type {type_name}",
                    f"use {type_name} values or change the type",
                )
        return tuple(value)
    if key == "default":
        if not nullable_none and not fits(value, type_name):
            diags.error(
                src.loc(at + ("default",)),
                "E311",
                f"default {value!r} does not fit type {type_name}",
                f"give {article(type_name)} {type_name} default",
            )
        return value
    if key == "pattern":
        # Only compiled: unlike the other string keywords, a pattern on a non-string type is not reported.
        try:
            re.compile(value)
        except re.error as exc:
            diags.error(src.loc(at + ("pattern",)), "E320", f"invalid regular expression: {exc}", "fix the pattern")
        return value
    if key in NUMERIC_KEYWORDS and type_name not in ("integer", "number"):
        diags.error(
            src.loc(at + (key,), key=True),
            "E311",
            f"{key!r} needs a numeric type, not {type_name}",
            "set 'type: integer' or 'type: number'",
        )
    elif key in STRING_KEYWORDS and type_name != "string":
        diags.error(
            src.loc(at + (key,), key=True),
            "E311",
            f"{key!r} needs type string, not {type_name}",
            "remove it or change the type",
        )
    return value
