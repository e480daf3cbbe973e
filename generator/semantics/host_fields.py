"""A tool's host-facing fields: ``title``, MCP ``annotations`` and an ``output_schema``.

They are the same for every variant of the tool and are copied onto each, so the catalog data
carries them where the runtime reads a variant (the MCP server's tools/list). The output schema
must be an object schema the run-time validator can enforce and valid JSON Schema 2020-12: a
handler's result is checked against it before it goes out as ``structuredContent``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import jsonschema

from ..load import SourceFile
from ..model import ANNOTATION_HINTS, ToolVariant
from ..runtime.validation import schema_refusals
from .common import Scope, freeze


def host_fields(
    scope: Scope, src: SourceFile, data: dict[str, Any], variants: tuple[ToolVariant, ...]
) -> tuple[ToolVariant, ...]:
    """``variants`` with the tool's title, annotations and output schema (E332 for a bad schema)."""
    title = data.get("title")
    given = data.get("annotations") or {}
    annotations = tuple((name, bool(given[name])) for name, _ in ANNOTATION_HINTS if name in given)
    output = data.get("output_schema")
    if output is not None and not _output_ok(scope, src, output):
        output = None
    if title is None and not annotations and output is None:
        return variants
    frozen = freeze(output) if output is not None else None
    return tuple(replace(v, title=title, annotations=annotations, output_schema=frozen) for v in variants)


def _output_ok(scope: Scope, src: SourceFile, schema: dict[str, Any]) -> bool:
    where = src.loc(("output_schema",))
    problems: list[str] = []
    if schema.get("type") != "object":
        problems.append('its root must be "type": "object" (MCP sends structured results as objects)')
    try:
        jsonschema.Draft202012Validator.check_schema(schema)
    except jsonschema.SchemaError as exc:
        path = "/".join(str(p) for p in exc.path)
        problems.append(f"not valid JSON Schema 2020-12 at /{path}: {exc.message}")
    else:
        problems += [f"the validator cannot enforce {r}" for r in schema_refusals(schema)]
    for problem in problems:
        hint = "fix the schema; docs/spec-language.md lists the rules"
        scope.diags.error(where, "E332", f"output_schema: {problem}", hint)
    return not problems
