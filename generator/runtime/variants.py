"""Run-time tools as spec variants: their shape, the order they join a list, skip reports.

Standard library only. MCP server tools (dynamic_tools.py) and subagent tools (subagents.py)
become dicts in the shape of the catalog's spec variants (``id``, ``spec``, ``name``,
``description``, ``requires``, ``strict``, ``parameters``) plus ``input_schema`` (the raw JSON
Schema of an MCP tool, None otherwise) and ``origin`` (where the tool came from). ``spec`` is
None: run-time tools belong to no family.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .schema_common import DialectError

__all__ = [
    "MCP_TOOL_ID",
    "SUBAGENTS_TOOL_ID",
    "make_parameter",
    "make_variant",
    "merge_tools",
    "skip_record",
]

MCP_TOOL_ID = "use_mcp_tool"
"""The tool id every MCP tool variant carries (calls are dispatched to its handler)."""
SUBAGENTS_TOOL_ID = "use_subagents"
"""The static tool the dynamic subagent tools replace."""


def make_variant(
    tool_id: str,
    name: str,
    description: str,
    parameters: Iterable[dict[str, Any]],
    input_schema: Any,
    origin: dict[str, Any],
) -> dict[str, Any]:
    """A run-time tool as a spec variant (see the module docstring)."""
    return {
        "id": tool_id,
        "spec": None,
        "name": name,
        "description": (description,),
        "requires": None,
        "strict": False,
        "parameters": tuple(parameters),
        "input_schema": input_schema,
        "origin": origin,
    }


def make_parameter(
    name: str,
    required: bool,
    instruction: str,
    schema: Mapping[str, Any],
    usage: str | None,
) -> dict[str, Any]:
    """A run-time tool's parameter in the shape of a spec parameter."""
    return {
        "name": name,
        "required": required,
        "instruction": (instruction,),
        "description": (),
        "usage": usage,
        "schema": schema,
        "dependencies": (),
        "requires": None,
    }


def skip_record(
    variant: Mapping[str, Any], stage: str, error: BaseException | str
) -> dict[str, Any]:
    """The skipped-report entry for a run-time variant that ``stage`` (a format, "prompt") refused.

    The reason is ``"<stage>: <message>"``; an unexpected exception also names its type.
    """
    origin = variant.get("origin")
    origin = origin if isinstance(origin, Mapping) else {}
    plain = isinstance(error, (str, DialectError))
    message = str(error) if plain else f"{type(error).__name__}: {error}"
    return {
        "server": origin.get("server"),
        "uid": origin.get("uid"),
        "tool": origin.get("tool"),
        "name": variant.get("name"),
        "reason": message if message.startswith(stage) else f"{stage}: {message}",
    }


def merge_tools(
    static_variants: Iterable[Mapping[str, Any]],
    subagent_variants: Iterable[Mapping[str, Any]],
    mcp_variants: Iterable[Mapping[str, Any]],
) -> list[Mapping[str, Any]]:
    """Static tools, then subagent tools, then MCP tools (the modelled system's order).

    When there are subagent tools, the static ``use_subagents`` is left out: they replace it.
    The dicts themselves are passed through, not copied.
    """
    subagents = list(subagent_variants)
    static = [
        v
        for v in static_variants
        if not (subagents and v.get("id") == SUBAGENTS_TOOL_ID)
    ]
    return static + subagents + list(mcp_variants)
