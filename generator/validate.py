"""Stage 2: check loaded files against the meta-schema, then check what a schema cannot (references).

Both passes only collect diagnostics; nothing here raises on bad input.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from importlib import resources
from typing import Any

from jsonschema import Draft7Validator
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry, Resource

from .diagnostics import Diagnostics
from .load import SourceFile
from .runtime.context import closest_name
from .runtime.schema_common import _json_type_of

SCHEMA_FILES = ("common", "project", "parameters", "tool", "family")


@cache
def schema_text(kind: str) -> str:
    return resources.files("generator").joinpath("schemas", f"{kind}.schema.json").read_text("utf-8")


@cache
def _registry() -> Registry:
    registry: Registry = Registry()
    for kind in SCHEMA_FILES:
        registry = registry.with_resource(
            f"{kind}.schema.json", Resource.from_contents(json.loads(schema_text(kind)))
        )
    return registry


@cache
def validator(kind: str) -> Draft7Validator:
    return Draft7Validator(json.loads(schema_text(kind)), registry=_registry())


def modeline_for(kind: str, depth: int) -> str:
    """The modeline a spec file ``depth`` folders below the spec folder should start with: it points
    at the copies of the meta-schemas in ``.schemas/`` there (what `toolgen init` and `toolgen schema` write)."""
    prefix = "../" * depth
    return f"# yaml-language-server: $schema={prefix}.schemas/{kind}.schema.json"


def check_schema(source: SourceFile, kind: str, depth: int, diags: Diagnostics) -> bool:
    """Meta-schema pass. Returns True when the file is structurally valid."""
    if not source.first_line.startswith("# yaml-language-server: $schema="):
        diags.warning(
            source.loc(()),
            "W200",
            "spec file does not start with a yaml-language-server modeline",
            f"add this first line for editor completion: {modeline_for(kind, depth)} "
            "(`toolgen schema --out <spec folder>/.schemas` writes the schemas it points at)",
        )
    if source.data is None:
        diags.error(source.loc(()), "E211", "file is empty", "fill in the spec or delete the file")
        return False
    ok = True
    for error in sorted(validator(kind).iter_errors(source.data), key=lambda e: list(map(str, e.absolute_path))):
        ok = False
        _report(source, _deepest(error), diags)
    return ok


def _deepest(error: ValidationError) -> ValidationError:
    """For oneOf/anyOf failures, report the branch that got furthest instead of 'is not valid under any'."""
    if error.context:
        candidates = [e for e in error.context if e.validator not in ("type",)] or list(error.context)
        deepest = max(candidates, key=lambda e: len(e.absolute_path))
        if len(deepest.absolute_path) > len(error.absolute_path):
            return _deepest(deepest)
        return best_match(error.context) or error
    return error


def _report(source: SourceFile, error: ValidationError, diags: Diagnostics) -> None:
    path = tuple(error.absolute_path)
    where = "/".join(map(str, path)) or "top level"
    kind = error.validator
    if kind == "additionalProperties" and isinstance(error.instance, dict) and isinstance(error.schema, Mapping):
        allowed = list(error.schema.get("properties", {}))
        extras = [k for k in error.instance if k not in allowed and not _pattern_allows(error.schema, k)]
        for key in extras:
            hint = suggest(str(key), allowed) or f"allowed keys: {', '.join(allowed)}"
            diags.error(source.loc(path + (key,), key=True), "E210", f"unknown key {key!r} in {where}", hint)
        return
    if kind == "required":
        diags.error(source.loc(path, key=True), "E211", f"{error.message} (in {where})", "add the missing key")
        return
    if kind == "type":
        expected = error.validator_value
        diags.error(
            source.loc(path),
            "E212",
            f"{where}: expected {_plural(expected)}, got {_json_type(error.instance)}",
            "change the value to the expected type",
        )
        return
    if kind in ("enum", "const"):
        options = error.validator_value if kind == "enum" else [error.validator_value]
        diags.error(
            source.loc(path),
            "E213",
            f"{where}: {json.dumps(error.instance, ensure_ascii=False)} is not one of {json.dumps(options)}",
            "use one of the listed values",
        )
        return
    if kind == "pattern":
        hint = "names start with a letter or '_' and use only letters, digits, '_' and '-' (at most 64)"
        if path[:1] in _SELF_DESCRIBED and isinstance(error.schema, Mapping):
            hint = str(error.schema.get("description", hint))
        diags.error(
            source.loc(path),
            "E213",
            f"{where}: {json.dumps(error.instance, ensure_ascii=False)[:80]} does not match {error.validator_value}",
            hint,
        )
        return
    if kind == "dependencies":
        diags.error(source.loc(path), "E214", f"{where}: {error.message}", "add the missing key next to it")
        return
    diags.error(source.loc(path), "E214", f"{where}: {error.message[:300]}", "see the meta-schema in generator/schemas")


# Blocks whose patterns are not tool or family names: a mismatch's hint is the value's own description.
_SELF_DESCRIBED = {("npm",)}


def _pattern_allows(schema: Mapping[str, Any], key: str) -> bool:
    return any(re.search(p, key) for p in schema.get("patternProperties", {}))


def _plural(expected: Any) -> str:
    if isinstance(expected, list):
        return " or ".join(map(str, expected))
    return str(expected)


def _json_type(value: Any) -> str:
    return _json_type_of(value) or "object"


def suggest(name: str, known: Iterable[str]) -> str:
    close = closest_name(name, known)
    return f"did you mean {close!r}?" if close else ""


def walk_predicates(node: Any, path: tuple[str | int, ...]) -> Iterator[tuple[dict[str, Any], tuple[str | int, ...]]]:
    """Every predicate mapping inside ``node`` (depth first, in document order)."""
    if not isinstance(node, dict):
        return
    yield node, path
    for key in ("all", "any"):
        for i, child in enumerate(node.get(key) or []):
            yield from walk_predicates(child, path + (key, i))
    if "not" in node:
        yield from walk_predicates(node["not"], path + ("not",))
