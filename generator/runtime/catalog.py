"""The run-time functions that read the resolved catalog (its data is in catalog_data.py).

``select_family`` picks a family for a provider and model, ``enabled_tools`` lists the tools a
family offers in a context, and ``resolve_text`` turns spec text into what the model sees.
"""

from __future__ import annotations

import re
from typing import Any, Mapping, Sequence

from .catalog_data import (
    SELECTION,
    RULES,
    PRECONDITION,
    FALLBACK,
    FAMILIES,
    SPECS,
    FAMILY_SPECS,
    PLACEHOLDERS,
    ROUTING,
    MCP,
    SUBAGENTS,
)
from .context import Context, as_context
from .dynamic_tools import (
    mcp_tools,
    merge_tools,
    skip_record,
    subagent_tools,
    subagents_active,
)
from .prompt_blocks import PLACEHOLDER_RE
from .predicates import MatcherError, SelectionData, evaluate, normalize, select

__all__ = [
    "FAMILIES",
    "SPECS",
    "VARIANTS",
    "select_family",
    "holds",
    "enabled_tools",
    "enabled_variants",
    "assemble",
    "dynamic_variants",
    "visible_parameters",
    "resolve_text",
    "resolve_placeholders",
    "route",
]

VARIANTS: dict[str, tuple[dict[str, Any], ...]] = {
    family: tuple(SPECS[key] for key in keys) for family, keys in FAMILY_SPECS.items()
}
_DATA = SelectionData(**SELECTION)


def select_family(context: Context | Mapping[str, Any]) -> str:
    """The family whose selection rule holds first (in selection order), else the fallback."""
    context = as_context(context)
    return select(RULES, context, _DATA, FALLBACK, PRECONDITION)


def holds(predicate: Mapping[str, Any] | None, context: Any) -> bool:
    """Whether a context requirement holds (None means no requirement).

    A requirement that cannot be evaluated (e.g. a model test with no model id) does not hold.
    """
    if predicate is None:
        return True
    try:
        return evaluate(predicate, as_context(context), _DATA)
    except MatcherError:
        return False


def _family(family: str) -> str:
    name = str(getattr(family, "value", family))
    if name not in VARIANTS:
        raise KeyError(f"unknown family {name!r}; known: {', '.join(VARIANTS)}")
    return name


def enabled_variants(
    family: str, context: Context | Mapping[str, Any]
) -> tuple[dict[str, Any], ...]:
    """The family's resolved spec variants whose context requirements hold, in prompt order."""
    context = as_context(context)
    return tuple(v for v in VARIANTS[_family(family)] if holds(v["requires"], context))


def dynamic_variants(
    family: str,
    context: Context | Mapping[str, Any],
    *,
    mcp_servers: Sequence[Mapping[str, Any]] = (),
    subagents: Sequence[Mapping[str, Any]] = (),
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Run-time tools for a request: (subagent tools + MCP tools, tools left out with reasons).

    Subagent tools exist only when subagents are active for this family and context.
    """
    context = as_context(context)
    extra: list[dict[str, Any]] = []
    skipped: list[dict[str, Any]] = []
    if subagents and subagents_active(context, FAMILIES[_family(family)]["tools"]):
        configs = [c for c in subagents if isinstance(c, Mapping)]
        skipped += [
            skip_record({}, "subagents", "config is not an object")
            for c in subagents
            if not isinstance(c, Mapping)
        ]
        extra += subagent_tools(
            configs,
            prefix=SUBAGENTS["name_prefix"],
            max_length=SUBAGENTS["max_length"],
            separator=MCP["separator"],
        )
    if mcp_servers:
        tools, left_out = mcp_tools(
            mcp_servers, separator=MCP["separator"], max_length=MCP["name_max_length"]
        )
        extra += tools
        skipped += left_out
    return extra, skipped


def assemble(
    family: str,
    context: Context | Mapping[str, Any],
    extra_variants: Sequence[Mapping[str, Any]] = (),
) -> tuple[Mapping[str, Any], ...]:
    """Static enabled tools, then subagent tools, then MCP tools (the modelled system's order).

    When dynamic subagent tools are present, the static use_subagents tool is left out.
    """
    context = as_context(context)
    static = enabled_variants(family, context)
    subagent = [v for v in extra_variants if v.get("input_schema") is None]
    mcp = [v for v in extra_variants if v.get("input_schema") is not None]
    return tuple(merge_tools(list(static), subagent, mcp))


def enabled_tools(family: str, context: Context | Mapping[str, Any]) -> tuple[str, ...]:
    """The tool ids a family offers in this context, in prompt order."""
    return tuple(v["id"] for v in enabled_variants(family, context))


def visible_parameters(
    variant: Mapping[str, Any],
    context: Context | Mapping[str, Any],
    enabled_ids: Sequence[str] | None = None,
) -> tuple[dict[str, Any], ...]:
    """Parameters whose requirements hold and, when ``enabled_ids`` is given, whose dependencies are enabled."""
    context = as_context(context)
    return tuple(
        p
        for p in variant["parameters"]
        if holds(p["requires"], context)
        and (
            enabled_ids is None or all(dep in enabled_ids for dep in p["dependencies"])
        )
    )


def _as_text(value: Any) -> str:
    """How a value reads in prompt text: JavaScript-style (true, 1.5, a,b), as the modelled system shows it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(_as_text(v) for v in value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def resolve_placeholders(text: str, context: Context | Mapping[str, Any]) -> str:
    """Replace every {{NAME}} with its context value (or the placeholder's documented default)."""
    context = as_context(context)

    def value(match: re.Match[str]) -> str:
        spec = PLACEHOLDERS.get(match.group(1))
        if spec is None:
            return match.group(0)
        field = spec["field"]
        raw = getattr(context, field, None)
        if raw is None:
            raw = spec["default"]
        for when, text in spec["map"]:
            if when == raw and type(when) is type(raw):
                return text
        return _as_text(spec["default"] if spec["map"] else raw)

    return PLACEHOLDER_RE.sub(value, text)


def resolve_text(
    pieces: Sequence[Any],
    context: Context | Mapping[str, Any] | None,
    *,
    placeholders: bool = True,
) -> str:
    """Join the text pieces whose conditions hold, then fill placeholders.

    With ``context=None`` only unconditional pieces are kept and placeholders stay as written.
    """
    if context is not None:
        context = as_context(context)
    parts = []
    for piece in pieces:
        if isinstance(piece, str):
            parts.append(piece)
        elif context is not None and holds(piece[1], context):
            parts.append(piece[0])
    text = "".join(parts)
    if context is None or not placeholders:
        return text
    return resolve_placeholders(text, context)


def route(provider_id: str | None, model_id: str | None = None) -> str:
    """The native format a provider's requests use (specs/toolgen.yaml ``routing``).

    Provider ids are normalized exactly as selection's ``provider_in`` normalizes them, so a
    context routes to the format of the family it selects; anything but a string is no provider.
    """
    provider = normalize(provider_id) if isinstance(provider_id, str) else None
    # The predicates see the raw values, as selection rules do.
    context = {"provider_id": provider_id, "model_id": model_id}
    for rule in ROUTING["rules"]:
        if provider is None or provider not in rule["providers"]:
            continue
        if rule["when"] is None:
            return rule["format"]
        try:
            if evaluate(rule["when"], context, _DATA):
                return rule["format"]
        except MatcherError:
            continue
    return ROUTING["default"]
