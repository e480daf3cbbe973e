"""What ``breaking`` says about a tool's host-facing fields: title, annotations, output schema.

MCP hosts approve calls without asking on the strength of the annotations, so a hint that now
promises less (read-only to writing, non-destructive to destructive, idempotent to not, a closed
world to an open one) is breaking; one that promises more is not. Hints a spec leaves out count
with the MCP specification's defaults. Clients read ``structuredContent`` by the output schema:
removing or changing it breaks them, adding one does not.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..diagnostics import Location
from ..load import PathKey
from ..model import ANNOTATION_HINTS, Tool
from .findings import Collector
from .schemadiff import shape

#: The value of each hint that promises something a host may rely on.
_PROMISE = {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True, "openWorldHint": False}
_SAYS = {  # hint -> (when it promises less, when it promises more)
    "readOnlyHint": ("may now change its environment", "is now read-only"),
    "destructiveHint": ("is now destructive", "is now non-destructive"),
    "idempotentHint": ("is no longer idempotent", "is now idempotent"),
    "openWorldHint": ("now reaches an open world", "now stays in a closed world"),
}


def effective(tool: Tool) -> dict[str, bool]:
    """Every hint's value for ``tool``: what its spec sets, else the MCP default."""
    first = tool.variants[0] if tool.variants else None
    given = dict(first.annotations) if first is not None else {}
    return {name: given.get(name, default) for name, default in ANNOTATION_HINTS}


def _title(tool: Tool) -> str | None:
    return tool.variants[0].title if tool.variants else None


def _output(tool: Tool) -> Mapping[str, Any] | None:
    return tool.variants[0].output_schema if tool.variants else None


def compare_host_fields(
    before: Mapping[str, Tool],
    after: Mapping[str, Tool],
    at: Callable[[str, PathKey], Location],
    renamed: dict[str, str],
    out: Collector,
) -> None:
    """Findings for every tool in both versions (``renamed``: old id -> new id); ``at`` locates
    a key in a file of the new version."""
    for tool_id, tool in before.items():
        now = after.get(renamed.get(tool_id, tool_id))
        if now is None:
            continue
        if _title(tool) != _title(now):
            where = at(now.source, ("title",) if _title(now) is not None else ())
            out.add("DESCRIPTION_CHANGED", where, f"tool {now.id!r}: title changed", tool=now.id)
        was, hints = effective(tool), effective(now)
        where = at(now.source, ("annotations",) if now.variants and now.variants[0].annotations else ())
        for name, _ in ANNOTATION_HINTS:
            if was[name] == hints[name]:
                continue
            lost_promise = was[name] == _PROMISE[name]
            rule = "ANNOTATION_WEAKENED" if lost_promise else "ANNOTATION_STRENGTHENED"
            says = _SAYS[name][0 if lost_promise else 1]
            message = f"tool {now.id!r} {says} ({name}: {str(hints[name]).lower()})"
            out.add(rule, where, message, tool=now.id)
        before_schema, after_schema = _output(tool), _output(now)
        where = at(now.source, ("output_schema",) if after_schema is not None else ())
        if before_schema is None and after_schema is not None:
            out.add("OUTPUT_SCHEMA_ADDED", where, f"tool {now.id!r} now declares an output schema", tool=now.id)
        elif before_schema is not None and after_schema is None:
            message = f"tool {now.id!r} no longer declares an output schema (no structuredContent)"
            out.add("OUTPUT_SCHEMA_CHANGED", where, message, tool=now.id)
        elif before_schema is not None and after_schema is not None and shape(before_schema) != shape(after_schema):
            out.add("OUTPUT_SCHEMA_CHANGED", where, f"tool {now.id!r}: its output schema changed", tool=now.id)
