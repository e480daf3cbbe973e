"""The catalog as MCP tools: what ``tools/list`` shows and how ``tools/call`` is checked.

Standard library only (the MCP SDK is imported by mcp_server.py alone). A ``ToolsOffer`` is an
``Offer`` on the JSON path: the tools a family offers in a context, each listed with its name,
title, description, annotations, output schema and an input schema in JSON Schema 2020-12. The
arguments of a call are checked against exactly that listed schema, as JSON (no text
coercion), before the handler runs; refusals (a tool the context turns off, a name that does not
exist) come from ``Offer.refusal``, so every path words them alike. A tool with an output schema
answers with JSON text; ``structured`` parses it and checks it against that schema.

``report_progress(progress, total, message)`` lets a handler, sync or async, report progress on
the call it is serving; outside a served call it does nothing.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
from collections.abc import Callable, Mapping
from typing import Any

from .catalog import Catalog, Variant
from .native import fast_copy, parameters_schema
from .offer import Offer
from .prompt import TextPath
from .tool_types import ToolUse
from .validation import ArgumentsChecker, Check, arguments_checker, compile_schema

__all__ = [
    "ANNOTATION_DEFAULTS",
    "Progress",
    "ToolsOffer",
    "report_progress",
]

ANNOTATION_DEFAULTS: Mapping[str, bool] = {
    "readOnlyHint": False,
    "destructiveHint": True,
    "idempotentHint": False,
    "openWorldHint": True,
}
"""What the MCP specification assumes for an annotation a tool leaves out."""

Progress = Callable[[float, "float | None", "str | None"], None]
"""Reports progress of one call: ``(progress, total, message)``."""

_PROGRESS: contextvars.ContextVar[Progress | None] = contextvars.ContextVar(
    "toolgen_mcp_progress", default=None
)


def report_progress(
    progress: float, total: float | None = None, message: str | None = None
) -> None:
    """Report progress of the MCP call this handler serves; a no-op anywhere else.

    Safe from an async handler and from a sync handler running in a worker thread; the client
    receives it only when its request carried a ``progressToken``.
    """
    reporter = _PROGRESS.get()
    if reporter is not None:
        reporter(progress, total, message)


def progress_scope(reporter: Progress | None) -> contextvars.Token[Progress | None]:
    """Make ``reporter`` the target of ``report_progress`` in this context (mcp_server.py)."""
    return _PROGRESS.set(reporter)


def threadsafe(loop: asyncio.AbstractEventLoop, send: Callable[..., Any]) -> Progress:
    """A reporter that schedules the coroutine ``send(progress, total, message)`` on ``loop``
    from whichever thread calls it (sync handlers run in worker threads)."""

    def report(progress: float, total: float | None, message: str | None) -> None:
        coro = send(progress, total, message)
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            loop.create_task(coro)
        else:
            asyncio.run_coroutine_threadsafe(coro, loop)

    return report


class ToolsOffer(Offer):
    """The tools of ``family`` in ``context`` as MCP lists them; calls checked as JSON."""

    def __init__(
        self,
        catalog: Catalog,
        text_path: TextPath,
        formats: Mapping[str, Any],
        family: Any,
        context: Any = None,
    ) -> None:
        super().__init__(catalog, text_path, formats, family, context, format=None)
        self.listed: list[dict[str, Any]] = []
        """The ``tools/list`` entries, in the order the family offers them."""
        self._json_checkers: dict[str, ArgumentsChecker] = {}
        self._outputs: dict[str, Check] = {}
        self.unlisted: dict[str, str] = {}
        """Tools left out because the validator cannot enforce their schema: name -> why."""
        for name, variant in self.variants.items():
            entry = self._entry(variant)
            try:
                self._json_checkers[name] = arguments_checker(entry["inputSchema"])
                if "outputSchema" in entry:
                    self._outputs[name] = compile_schema(entry["outputSchema"])
            except Exception as exc:  # one tool's schema must not cost the others
                self.unlisted[name] = f"{type(exc).__name__}: {exc}"
                continue
            self.listed.append(entry)
        for name in self.unlisted:
            del self.variants[name]

    def _entry(self, variant: Variant) -> dict[str, Any]:
        catalog, context = self.catalog, self.context
        params = catalog.visible_parameters(variant, context, self._plan.enabled_ids)
        # The canonical schema every format derives from, with the context's text filled in.
        schema = parameters_schema(
            [
                {
                    **p,
                    "instruction": catalog.resolve_text(p["instruction"], context),
                    "schema": _filled(fast_copy(p["schema"]), catalog, context),
                }
                for p in params
            ]
        )
        entry: dict[str, Any] = {"name": variant["name"]}
        title = variant.get("title")
        if title:
            entry["title"] = title
        entry["description"] = catalog.resolve_text(variant["description"], context)
        entry["inputSchema"] = schema
        output = variant.get("output_schema")
        if output is not None:
            entry["outputSchema"] = fast_copy(output)
        annotations = variant.get("annotations")
        if annotations:
            entry["annotations"] = dict(annotations)
        return entry

    def check(self, use: ToolUse) -> tuple[dict[str, Any], list[str]]:
        """``use``'s arguments checked, as JSON, against the listed input schema."""
        return self._json_checkers[use.name](use.params, False)

    def has_output_schema(self, name: str) -> bool:
        return name in self._outputs

    def structured(self, name: str, content: str) -> tuple[Any, str | None]:
        """``(structured content, None)`` when ``content``, a successful result's text, is JSON
        its tool's output schema accepts, else ``(None, why)``; ``(None, None)`` for a tool
        without an output schema."""
        check = self._outputs.get(name)
        if check is None:
            return None, None
        try:
            value = json.loads(content)
        except ValueError as exc:
            return None, (
                f"Tool {name} declares an output schema, but its handler returned text that "
                f"is not JSON ({exc})"
            )
        if not isinstance(value, dict):
            return None, (
                f"Tool {name} declares an output schema, but its handler returned a JSON "
                f"{type(value).__name__}, not an object"
            )
        problems: list[str] = []
        check(value, "", problems, False)
        if problems:
            lines = "\n".join(f"- {p}" for p in problems)
            return None, (
                f"Tool {name} returned a result its output schema rejects:\n{lines}"
            )
        return value, None


def _filled(value: Any, catalog: Catalog, context: Any) -> Any:
    """``value`` with every ``{{PLACEHOLDER}}`` in its strings filled from ``context``."""
    if isinstance(value, str):
        return catalog.resolve_placeholders(value, context) if "{{" in value else value
    if isinstance(value, dict):
        return {k: _filled(v, catalog, context) for k, v in value.items()}
    if isinstance(value, list):
        return [_filled(v, catalog, context) for v in value]
    return value
