"""Hover: what a tool, variant or parameter becomes, computed by the same lowering the generator runs.

For a variant (or one of its parameters): the JSON Schema each native format of toolgen.yaml
sends, identical ones grouped, with what each format moves into the description text, drops or
rewrites; the XML prompt fragment of the text path; and the requirements and the text with
placeholders filled, for the default context (every context field at its declared default).
Hovering a placeholder, a context field or a shared parameter shows its definition. The model
is the latest check's, or, while the specs have errors, the last error-free one (the hover says so).
"""

from __future__ import annotations

import json
import re
from typing import Any

from lsprotocol import types

from ..lower.checks import entry
from ..lower.sent_checks import input_schema
from ..model import Catalog, Parameter, Text, ToolVariant, plain
from ..resolve import ResolvedFamily
from ..runtime.formats import FORMATS
from ..runtime.native import fast_copy
from ..runtime.predicates import MatcherError, evaluate
from ..runtime.prompt_blocks import PromptParam, schema_note, tool_block
from ..runtime.schema_dialects import DialectError, convert
from .navigate import symbol_at
from .session import Session

_PLACEHOLDER = re.compile(r"\{\{([A-Za-z_][A-Za-z0-9_]*)\}\}")


def hover(session: Session, position: types.Position) -> types.Hover | None:
    found = symbol_at(session, position)
    analysis = session.model
    if analysis is None or analysis.catalog is None:
        return None
    catalog = analysis.catalog
    stale = "" if analysis is session.analysis else "_(as of the last check without errors)_\n\n"
    if found is not None and found[0].kind in ("placeholder", "context", "parameter"):
        text = _symbol_text(catalog, found[0].kind, found[0].name)
        if text:
            return _markdown(stale + text)
    if found is not None and found[0].kind == "tool" and session.kind != "tool":
        chosen = _listed_variant(session, catalog, analysis.families, found[0].name)
        return _markdown(stale + variant_text(catalog, chosen, None, analysis.families)) if chosen is not None else None
    if session.kind != "tool":
        return None
    cursor = session.cursor(position)
    where = cursor.path if cursor.key is not None else cursor.container
    source = analysis.sources.get(session.path)  # the file as the model read it
    tool_id = source.data.get("id") if source is not None and isinstance(source.data, dict) else None
    try:
        tool = catalog.tool(str(tool_id))
    except KeyError:
        return None
    if len(where) >= 2 and where[0] == "variants":
        variant = tool.variant(str(where[1]))
    else:
        variant = tool.variant(catalog.project.fallback) or (tool.variants[0] if tool.variants else None)
    if variant is None:
        return None
    parameter = None
    if len(where) >= 4 and where[2] == "parameters" and isinstance(where[3], int):
        parameter = _parameter(source.data if source is not None else None, variant, where[3])
    return _markdown(stale + variant_text(catalog, variant, parameter, analysis.families))


def _listed_variant(
    session: Session, catalog: Catalog, families: tuple[ResolvedFamily, ...], tool_id: str
) -> ToolVariant | None:
    """The variant a tool listed in a family file resolves to for that family (in toolgen.yaml's
    list: for the fallback family), as resolve.py picks it."""
    source = session.source(session.path)
    data = source.data if source is not None and isinstance(source.data, dict) else {}
    family = str(data.get("family")) if session.kind == "family" else catalog.project.fallback
    for resolved in families:
        if resolved.family.name == family:
            return next((v for v in resolved.variants if v.tool_id == tool_id), None)
    return None


def _json(value: Any, indent: int | None = None) -> str:
    """JSON for the hover; the model's frozen mappings and tuples are written as objects and lists."""
    return json.dumps(value, indent=indent, ensure_ascii=False, default=dict)


def _markdown(text: str) -> types.Hover:
    return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, text))


def _parameter(data: Any, variant: ToolVariant, index: int) -> Parameter | None:
    """The resolved parameter written at ``parameters[index]`` of the variant (by its name or use)."""
    try:
        written = data["variants"][variant.family]["parameters"][index]
    except (KeyError, IndexError, TypeError):
        return None
    name = written.get("name") or written.get("use") if isinstance(written, dict) else None
    return next((p for p in variant.parameters if p.name == name), None)


def default_context(catalog: Catalog) -> dict[str, Any]:
    """The context hovers evaluate against: every field at its declared default."""
    return {field.name: field.default for field in catalog.project.context}


def fill(catalog: Catalog, text: Text, context: dict[str, Any]) -> str:
    """The text's pieces whose conditions hold, with placeholders filled, as run time does."""
    pieces = [piece.text for piece in text if piece.when is None or _holds(piece.when, context)]
    return _PLACEHOLDER.sub(lambda m: _placeholder_value(catalog, m, context), "".join(pieces))


def _holds(predicate: Any, context: dict[str, Any]) -> bool:
    try:
        return evaluate(predicate, context)
    except MatcherError:
        return False


def _placeholder_value(catalog: Catalog, match: re.Match[str], context: dict[str, Any]) -> str:
    spec = next((p for p in catalog.project.placeholders if p.name == match.group(1)), None)
    if spec is None:
        return match.group(0)
    raw = context.get(spec.field)
    raw = spec.default if raw is None else raw
    for when, shown in spec.mapping:
        if when == raw and type(when) is type(raw):
            return str(shown)
    value = spec.default if spec.mapping else raw
    return value if isinstance(value, str) else _json(value)


def variant_text(
    catalog: Catalog, variant: ToolVariant, parameter: Parameter | None, families: tuple[ResolvedFamily, ...]
) -> str:
    """The hover of a variant, or of one of its parameters."""
    title = f"**{variant.key}**" + (f" · parameter `{parameter.name}`" if parameter else "")
    parts = [title, "### Sent to each native format"]
    schema = input_schema(variant)
    groups: dict[str, list[str]] = {}
    losses: list[str] = []
    for fmt in (f for f in FORMATS if f in catalog.project.formats):
        strict = variant.strict and FORMATS[fmt].strict is not None
        try:
            sent = entry(fmt, variant)
            conversion = convert(schema, fmt, strict=strict)
        except DialectError as exc:
            losses.append(f"- {fmt}: cannot be sent ({exc})")
            continue
        shown: Any = sent
        if parameter is not None:
            shown = conversion.schema.get("properties", {}).get(parameter.name)
        groups.setdefault(_json(shown, indent=2), []).append(fmt)
        lost = [f"`{k}` at {'/'.join(map(str, p)) or 'root'} described in text" for p, k in conversion.described]
        lost += [f"`{k}` at {'/'.join(map(str, p)) or 'root'} dropped" for p, k in conversion.dropped]
        lost += [notice.message for notice in conversion.notices]
        if lost:
            losses.append(f"- {fmt}: " + "; ".join(lost))
    for text, formats in groups.items():
        parts.append(f"{', '.join(formats)}:\n```json\n{text}\n```")
    parts.append("What the formats drop or rewrite:\n" + ("\n".join(losses) if losses else "nothing"))
    context = default_context(catalog)
    enabled = _enabled(families, variant.family, context)
    params = [
        PromptParam(
            p.name,
            p.required,
            fill(catalog, p.instruction, context),
            fill(catalog, p.description, context),
            p.usage or "",
            schema_note(fast_copy(p.schema)),
        )
        for p in variant.parameters
        if (p.requires is None or _holds(p.requires, context)) and all(d in enabled for d in p.dependencies)
    ]
    block = tool_block(variant.name, fill(catalog, variant.description, context), params)
    parts.append("### XML prompt fragment (default context)\n```xml\n" + block + "\n```")
    requires = parameter.requires if parameter is not None else variant.requires
    if requires is None:
        parts.append("Requirements: none")
    else:
        verdict = "holds" if _holds(requires, context) else "does not hold"
        parts.append(f"Requirements: `{_json(requires)}` — {verdict} for the default context")
    placeholders = sorted({m.group(1) for t in _texts(variant) for m in _PLACEHOLDER.finditer(plain(t))})
    if placeholders:
        filled = ", ".join(f"`{{{{{n}}}}}` → {_placeholder_value(catalog, _match(n), context)!r}" for n in placeholders)
        parts.append("Placeholders (default context): " + filled)
    parts.append("_Default context: every field of toolgen.yaml's `context` at its `default`._")
    return "\n\n".join(parts)


def _enabled(families: tuple[ResolvedFamily, ...], family: str, context: dict[str, Any]) -> set[str]:
    """The tools ``family`` offers in ``context`` (a parameter whose dependency is not among them
    is left out of the prompt, as at run time)."""
    for resolved in families:
        if resolved.family.name == family:
            return {v.tool_id for v in resolved.variants if v.requires is None or _holds(v.requires, context)}
    return set()


def _texts(variant: ToolVariant) -> list[Text]:
    return [variant.description, *(p.instruction for p in variant.parameters)]


def _match(name: str) -> re.Match[str]:
    found = _PLACEHOLDER.match("{{" + name + "}}")
    assert found is not None
    return found


def _symbol_text(catalog: Catalog, kind: str, name: str) -> str:
    project = catalog.project
    if kind == "context":
        field = next((f for f in project.context if f.name == name), None)
        if field is None:
            return ""
        kind_text = field.type + (" or null" if field.nullable else "")
        return f"context field **{name}**: {kind_text}, default `{_json(field.default)}`\n\n{field.doc}"
    if kind == "placeholder":
        spec = next((p for p in project.placeholders if p.name == name), None)
        if spec is None:
            return ""
        value = _placeholder_value(catalog, _match(name), default_context(catalog))
        return f"placeholder **{{{{{name}}}}}** from context field `{spec.field}`: {value!r} in the default context"
    users = [v.key for t in catalog.tools for v in t.variants for p in v.parameters if p.shared == name]
    return f"shared parameter **{name}** (parameters.yaml), used by: {', '.join(users) or 'no variant'}"
