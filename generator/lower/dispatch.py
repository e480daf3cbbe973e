"""Lowering for generated/bindings.py (the static handler table) and dispatch.py (its coordinator).

The table lists every tool id in enum order with its handler binding from specs/tools/<id>.yaml.
Classes are not imported here: the generated coordinator binds them at construction time to an
implementation namespace (a module or a mapping) that the downstream project supplies.
"""

from __future__ import annotations

from typing import Any

from ..model import Catalog, Tool
from ..pyfmt import Layouts
from ..render import header, render_python
from ..runtime.variants import MCP_TOOL_ID, SUBAGENTS_TOOL_ID


def _sources(catalog: Catalog) -> tuple[str, ...]:
    root = catalog.project.source.split("/", 1)[0]
    return (catalog.project.source, f"{root}/tools/*.yaml")


def binding_data(tool: Tool) -> dict[str, Any] | None:
    """One HANDLERS entry: None for a tool without a handler, else the class and how to build it."""
    handler = tool.handler
    if handler.kind == "none" or handler.class_name is None:
        return None
    return {
        "class_name": handler.class_name,
        "takes_validator": handler.validator,
        "shares": handler.shares if handler.kind == "shares" else None,
    }


def bindings_values(catalog: Catalog) -> dict[str, Any]:
    """The data of bindings.py (and of the TypeScript dispatch.ts), by template variable."""
    project = catalog.project
    by_id = {tool.id: tool for tool in catalog.tools}
    handlers = {tool_id: binding_data(by_id[tool_id]) if tool_id in by_id else None for tool_id in project.tool_order}
    # The tools the coordinator routes dynamic names to (Cline: ClineDefaultTool.MCP_ACCESS and
    # USE_SUBAGENTS). A spec set without them simply gets no MCP / subagent routing.
    return {
        "handlers": handlers,
        "mcp_tool": MCP_TOOL_ID if MCP_TOOL_ID in handlers else None,
        "subagents_tool": SUBAGENTS_TOOL_ID if SUBAGENTS_TOOL_ID in handlers else None,
        "mcp_separator": project.mcp_separator,
        "subagent_prefix": project.subagent_prefix,
        "subagent_max_length": project.subagent_max_length,
        "labels": {tool.id: tool.label for tool in catalog.tools if tool.label is not None},
    }


def emit(catalog: Catalog, layouts: Layouts | None = None) -> dict[str, str]:
    return {
        "dispatch.py": render_python("dispatch.py.j2", header(_sources(catalog))),
        "bindings.py": render_python(
            "bindings.py.j2", header(_sources(catalog)), layouts, **bindings_values(catalog)
        ),
    }
