"""Parameters: shared definitions and 'use:', dependencies, and the JSON-Schema keywords of each value.

A schema keyword that cannot apply to the declared type (``items`` on a string, ``minimum`` on an
array) would be dropped or rejected by a provider, so it is an error here, where it was written.
"""

from __future__ import annotations

import dataclasses
from types import MappingProxyType
from typing import Any

from ..load import PathKey, SourceFile
from ..model import SCHEMA_COMBINATORS, SCHEMA_KEYWORD_ORDER, Parameter
from ..runtime.ecma_regex import PatternError, compile_pattern
from ..validate import suggest
from .common import Scope, article, fits, freeze
from .deprecation import marked, read_deprecated_values, read_deprecation, values_sentence
from .predicates import check_predicate
from .text import check_text

CONTAINER_KEYWORDS = {
    "items": "array",
    "uniqueItems": "array",
    "properties": "object",
    "additionalProperties": "object",
    "minProperties": "object",
    "maxProperties": "object",
}
NUMERIC_KEYWORDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")
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
    overridden = tuple(sorted(k for k in spec if k != "use")) if shared_name is not None else ()
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
    deprecated = read_deprecation(scope, src, merged.get("deprecated"), at + ("deprecated",))
    allowed = [schema["const"]] if "const" in schema else schema.get("enum")
    allowed = list(allowed) if allowed is not None else None
    values = read_deprecated_values(scope, src, merged.get("deprecated_values"), allowed, at + ("deprecated_values",))
    sentences = [deprecated.text("parameter")] if deprecated else []
    sentences += [values_sentence(values)] if values else []
    for sentence in sentences:  # the model reads them where it reads about the parameter
        instruction, description = marked(instruction, sentence), marked(description, sentence)
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
        renamed_from=merged.get("renamed_from"),
        overrides=overridden,
        deprecated=deprecated,
        deprecated_values=values,
    )


def _types(spec: dict[str, Any]) -> tuple[str, ...]:
    """The declared type names (a union's in order); untyped unions and intersections have none."""
    declared = spec.get("type")
    if declared is None:
        return () if any(k in spec for k in SCHEMA_COMBINATORS) else ("string",)
    return tuple(declared) if isinstance(declared, list) else (declared,)


def _fits_any(value: Any, spec: dict[str, Any], types: tuple[str, ...]) -> bool:
    if value is None and (spec.get("nullable") or "null" in types):
        return True
    return not types or any(t != "null" and fits(value, t) for t in types)


def _shown(types: tuple[str, ...]) -> str:
    return " or ".join(types) if types else "any"


def _schema(scope: Scope, src: SourceFile, spec: dict[str, Any], at: PathKey, top: bool) -> MappingProxyType[str, Any]:
    """Canonical JSON-Schema keywords of a parameter or nested schema, in emission order."""
    types = _types(spec)
    out: dict[str, Any] = {}
    if "type" in spec or types:
        out["type"] = list(spec["type"]) if isinstance(spec.get("type"), list) else types[0]
    if spec.get("nullable"):
        out["nullable"] = True
    if not top and "description" in spec:
        out["description"] = spec["description"]
    for key in SCHEMA_KEYWORD_ORDER:
        # A parameter's own 'required' says whether the model must pass it; its members' is spelled differently.
        source_key = "member_required" if (top and key == "required") else key
        if source_key in spec:
            out[key] = _keyword(scope, src, spec, at, key, source_key, types)
    if isinstance(out.get("type"), list):
        out["type"] = tuple(out["type"])
    return MappingProxyType(out)


def _keyword(
    scope: Scope, src: SourceFile, spec: dict[str, Any], at: PathKey, key: str, source_key: str,
    types: tuple[str, ...],
) -> Any:
    """One keyword's canonical value, after checking it against the schema's types."""
    diags = scope.diags
    value = spec[source_key]
    container = CONTAINER_KEYWORDS.get(key)
    if container is not None and types and container not in types:
        diags.error(
            src.loc(at + (key,), key=True),
            "E311",
            f"{key!r} needs type {container}, not {_shown(types)}",
            f"set 'type: {container}' or remove {key!r}",
        )
    if key == "items":
        return _schema(scope, src, value, at + ("items",), top=False)
    if key == "additionalProperties" and isinstance(value, dict):
        return _schema(scope, src, value, at + (key,), top=False)
    if key in SCHEMA_COMBINATORS:
        return tuple(_schema(scope, src, branch, at + (key, i), top=False) for i, branch in enumerate(value))
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
    if key in ("enum", "const"):
        listed = value if key == "enum" else [value]
        for i, item in enumerate(listed):
            if not _fits_any(item, spec, types):
                diags.error(
                    src.loc(at + ("enum", i) if key == "enum" else at + ("const",)),
                    "E311",
                    f"{key} value {item!r} does not fit type {_shown(types)}",
                    f"use {_shown(types)} values or change the type",
                )
        return tuple(value) if key == "enum" else value
    if key == "default":
        if not _fits_any(value, spec, types):
            shown = _shown(types)
            diags.error(
                src.loc(at + ("default",)),
                "E311",
                f"default {value!r} does not fit type {shown}",
                f"give {article(shown)} {shown} default",
            )
        return value
    if key == "pattern":
        # Only compiled: unlike the other string keywords, a pattern on a non-string type is not reported.
        _check_pattern(scope, src, value, at + ("pattern",))
        return value
    if key in NUMERIC_KEYWORDS and types and not {"integer", "number"} & set(types):
        diags.error(
            src.loc(at + (key,), key=True),
            "E311",
            f"{key!r} needs a numeric type, not {_shown(types)}",
            "set 'type: integer' or 'type: number'",
        )
    elif key in STRING_KEYWORDS and types and "string" not in types:
        diags.error(
            src.loc(at + (key,), key=True),
            "E311",
            f"{key!r} needs type string, not {_shown(types)}",
            "remove it or change the type",
        )
    return value


def _check_pattern(scope: Scope, src: SourceFile, source: str, at: PathKey) -> None:
    """E320 for a pattern that is not ECMA-262 or that toolgen refuses, located inside the string."""
    try:
        compile_pattern(source)
    except PatternError as exc:
        scope.diags.error(
            src.loc_in_string(at, exc.offset),
            "E320",
            f"invalid regular expression {source!r}: {exc.message} (at character {exc.offset + 1})",
            "write an ECMA-262 pattern (JSON Schema's dialect): no Python-only syntax such as (?P<name>...), "
            "\\A or \\Z; escape literal characters that are syntax",
        )
