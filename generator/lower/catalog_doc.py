"""docs/catalog.md: which spec variant each family resolves each tool to."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import partial
from typing import Any

from ..memo import Memo, kept
from ..model import Catalog, ToolVariant
from ..resolve import ResolvedFamily

#: Keywords shown by ``type_text`` in the type itself; the others are listed after it.
_SHAPE = ("type", "nullable", "enum", "const", "items", "properties", "required", "additionalProperties")
_SHAPE_SET = frozenset((*_SHAPE, "anyOf", "oneOf", "allOf", "description", "title"))


def _cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def _value(value: Any) -> str:
    return json.dumps(list(value) if isinstance(value, tuple) else value, ensure_ascii=False)


def type_text(schema: Mapping[str, Any]) -> str:
    """A value schema in a few words: its type or union, its members, then its other keywords."""
    declared = schema.get("type")
    names = [str(t) for t in declared] if isinstance(declared, (list, tuple)) else [str(declared)] if declared else []
    if schema.get("nullable"):
        names.append("null")
    if "const" in schema:
        text = _value(schema["const"])
    elif "enum" in schema:
        text = " or ".join(_value(v) for v in schema["enum"])
    elif names == ["array"] or (names and names[0] == "array" and "items" in schema):
        items = schema.get("items")
        text = f"array of ({type_text(items)})" if isinstance(items, Mapping) else "array"
    elif "object" in names and isinstance(schema.get("properties"), Mapping):
        required = set(schema.get("required") or ())
        members = ", ".join(
            f"{k}{'*' if k in required else ''}: {type_text(v)}" for k, v in schema["properties"].items()
        )
        text = f"object {{{members}}}"
    elif "object" in names and isinstance(schema.get("additionalProperties"), Mapping):
        text = f"map of ({type_text(schema['additionalProperties'])})"
    else:
        text = " or ".join(names) if names else ""
    for key, lead, joint in (("anyOf", "", " or "), ("oneOf", "exactly one of ", "; "), ("allOf", "", " and ")):
        branches = schema.get(key)
        if branches:
            inner = lead + joint.join(f"({type_text(b)})" for b in branches)
            text = f"{text}, {inner}" if text else inner
    if schema.get("additionalProperties") is False and "properties" in schema:
        text += ", closed"
    # A pattern or format reads best as written (a table cell escapes its backslashes once).
    rest = [f"{k} {v if k in ('pattern', 'format') else _value(v)}" for k, v in schema.items() if k not in _SHAPE_SET]
    return text + (f" ({', '.join(rest)})" if rest else "")


def _parameter_rows(catalog: Catalog, families: tuple[ResolvedFamily, ...], memo: Memo | None = None) -> list[str]:
    """One row per parameter of each distinct parameter set a family resolves a tool to; with a
    ``memo`` (``generate --watch``), a tool resolved to the same variants keeps its rows."""
    rows: list[str] = []
    by_tool: dict[str, dict[str, ToolVariant]] = {}  # tool id -> spec family -> variant, in family order
    for resolved in families:
        for variant in resolved.variants:
            by_tool.setdefault(variant.tool_id, {}).setdefault(variant.family, variant)
    for tool in catalog.tools:
        used = by_tool.get(tool.id, {})
        tag = ("doc-rows", tool.id, *used)
        rows += kept(memo, tuple(used.values()), partial(_tool_rows, tool.id, used), tag)
    return rows


def _tool_rows(tool_id: str, used: dict[str, ToolVariant]) -> list[str]:
    """One tool's rows: ``used`` maps each spec family resolved to it to its variant, in family order."""
    rows: list[str] = []
    groups: dict[tuple[Any, ...], list[str]] = {}
    firsts: dict[tuple[Any, ...], ToolVariant] = {}
    for family, variant in used.items():
        key = tuple((p.name, p.required, repr(p.schema)) for p in variant.parameters)
        groups.setdefault(key, []).append(family)
        firsts.setdefault(key, variant)
    for key, names in groups.items():
        for param in firsts[key].parameters:
            rows.append(
                f"| `{tool_id}` | {_cell(', '.join(names))} | `{param.name}` | {_cell(type_text(param.schema))}"
                f" | {'yes' if param.required else 'no'} |"
            )
    return rows


def _host_rows(catalog: Catalog) -> list[str]:
    """The MCP host section (title, annotation hints, output schema), when any tool sets them."""
    rows = []
    for tool in catalog.tools:
        first = tool.variants[0] if tool.variants else None
        if first is None or (first.title is None and not first.annotations and first.output_schema is None):
            continue
        hints = ", ".join(f"{name}: {str(value).lower()}" for name, value in first.annotations) or "-"
        output = "yes" if first.output_schema is not None else "-"
        rows.append(f"| `{tool.id}` | {_cell(first.title or '-')} | {hints} | {output} |")
    if not rows:
        return []
    return [
        "",
        "## MCP hosts",
        "",
        "What the MCP server lists beside each tool (docs/mcp-server.md): its title, the annotation hints the",
        "spec sets (the others take the MCP defaults) and whether it declares an output schema.",
        "",
        "| tool | title | hints | output schema |",
        "| --- | --- | --- | --- |",
        *rows,
    ]


def emit(catalog: Catalog, families: tuple[ResolvedFamily, ...], memo: Memo | None = None) -> str:
    names = [r.family.name for r in families]
    lines = [
        "<!-- Code generated by toolgen from specs/. DO NOT EDIT. -->",
        "# Tool catalog",
        "",
        "Which spec variant each family resolves each tool to (a family's own variant, else the",
        f"`{catalog.project.fallback}` one, else the first registered). `-` means the family does not list the tool;",
        "tools without any spec exist only for dispatch.",
        "",
        "| tool | " + " | ".join(f"`{n}`" for n in names) + " |",
        "| --- |" + " --- |" * len(names),
    ]
    firsts: list[dict[str, ToolVariant]] = []  # per family: each tool's first variant (one pass, not one per tool)
    for resolved in families:
        first: dict[str, ToolVariant] = {}
        for variant in resolved.variants:
            first.setdefault(variant.tool_id, variant)
        firsts.append(first)
    for tool in catalog.tools:
        cells = []
        for first in firsts:
            match = first.get(tool.id)
            cells.append(_cell(match.family) if match else "-")
        lines.append(f"| `{tool.id}` | " + " | ".join(cells) + " |")
    lines += ["", "## Families", "", "| family | order | native tools | tools |", "| --- | --- | --- | --- |"]
    for resolved in families:
        family = resolved.family
        lines.append(
            f"| `{family.name}` | {family.order} | {'yes' if family.use_native_tools else 'no'}"
            f" | {len(resolved.variants)} |"
        )
    lines += [
        "",
        "## Parameters",
        "",
        "Each tool's parameters per variant that a family resolves it to (the variants' families; `*` marks a",
        "required member of an object).",
        "",
        "| tool | variant | parameter | type | required |",
        "| --- | --- | --- | --- | --- |",
        *_parameter_rows(catalog, families, memo),
    ]
    lines += _host_rows(catalog)
    lines += ["", "## Context fields", "", "| field | type | default | meaning |", "| --- | --- | --- | --- |"]
    for field in catalog.project.context:
        kind = field.type + (" or null" if field.nullable else "")
        default = json.dumps(list(field.default) if isinstance(field.default, tuple) else field.default)
        lines.append(f"| `{field.name}` | {kind} | `{_cell(default)}` | {_cell(field.doc)} |")
    lines += ["", "## Placeholders", "", "| placeholder | context field | default |", "| --- | --- | --- |"]
    for ph in catalog.project.placeholders:
        lines.append(f"| `{{{{{ph.name}}}}}` | `{ph.field}` | `{_cell(json.dumps(ph.default))}` |")
    return "\n".join(lines) + "\n"
