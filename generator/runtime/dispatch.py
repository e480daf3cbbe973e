"""Tool dispatch: the coordinator that routes tool calls to handlers, given handler bindings.

``Bindings`` holds what the specs say (generated into bindings.py): every tool id, in enum
order, with its handler binding, and the tools that serve MCP and subagent calls. The handler
classes themselves belong to the project that uses the generated package:
``Coordinator.from_namespace`` binds them at construction time from a module, or a mapping of
class names to classes. The generated dispatch.py subclasses ``Coordinator`` with its bindings.

Routing (``Coordinator.get_handler``), first match wins:

1. a name containing the MCP separator goes to the MCP tool's handler;
2. the static table;
3. a dynamic subagent tool name goes to a ``SharedToolHandler`` around a subagents handler,
   created on first use and cached per name. The cache keeps the ``MAX_DYNAMIC_HANDLERS``
   names used most recently: any name a model invents is routed, so an unbounded cache
   would grow with every invented name. A name dropped from the cache gets a fresh handler
   when it is used again.

The coordinator holds no per-task state: ``config`` is handed to the handler untouched.

Async handlers: ``Coordinator.execute_async`` awaits handlers whose ``execute`` (or
``handle_partial_block``) is a coroutine function or returns an awaitable, and runs sync ones in a
worker thread (``asyncio.to_thread``) so a slow handler cannot stall the event loop; pass
``sync_in_thread=False`` to run them in the loop thread instead. A timeout stops waiting for the
handler (an async one is cancelled; a thread cannot be, it finishes in the background).

How a handler method is called (a shared handler, a worker thread, an awaitable) and the
developer error below live in handler_calls.py.

An async handler on a sync path is the developer's mistake, not the model's, so it raises
``AsyncHandlerError`` (a TypeError) and is never answered to the model: ``from_namespace`` and
``register`` refuse async handlers unless the coordinator is bound with ``asynchronous=True``; a
coordinator bound so refuses the sync ``execute`` before running anything; and a sync handler
that returns an awaitable on the sync path raises too (the awaitable is closed, not leaked).

Labels: ``Coordinator.label(use)`` (or ``Bindings.label``) gives a short label for a call from the
tool's ``label:`` template in the specs; see _runtime/labels.py.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import (
    Any,
    ClassVar,
    Protocol,
    Self,
    runtime_checkable,
)

from .dynamic_tools import parse_mcp_name
from .handler_calls import (
    BIND_ASYNC,
    USE_ASYNC,
    AsyncHandlerError,
    HandlerRaised,
    SharedToolHandler,
    async_methods,
    call_method,
    refuse_async,
    refuse_awaitable,
)
from .labels import escape_label_text, fill_label
from .tool_types import ToolResult, ToolUse

__all__ = [
    "MAX_DYNAMIC_HANDLERS",
    "AsyncHandlerError",
    "Bindings",
    "Coordinator",
    "MissingHandlersError",
    "SharedToolHandler",
    "ToolHandler",
]

_log = logging.getLogger(__name__)

MAX_DYNAMIC_HANDLERS = 256
"""How many subagent tool names a Coordinator keeps a handler for (least recently used go)."""


@runtime_checkable
class ToolHandler(Protocol):
    """What the coordinator needs from a handler; ``handle_partial_block`` is optional."""

    name: str

    def execute(self, config: Any, block: ToolUse) -> ToolResult: ...


class MissingHandlersError(LookupError):
    """The implementation namespace lacks handler classes; ``missing`` maps each class to its tool ids."""

    def __init__(self, missing: Mapping[str, tuple[str, ...]]) -> None:
        self.missing: dict[str, tuple[str, ...]] = {
            name: tuple(ids) for name, ids in missing.items()
        }
        lines = [
            f"  {name} (for {', '.join(ids)})" for name, ids in self.missing.items()
        ]
        super().__init__(
            f"{len(lines)} handler class(es) missing from the implementation namespace:\n"
            + "\n".join(lines)
        )


@dataclass(frozen=True)
class Bindings:
    """The handler bindings of a spec set (the data in the generated bindings.py)."""

    handlers: Mapping[str, Mapping[str, Any] | None] = field(default_factory=dict)
    """Every tool id in enum order: None (no handler), else class_name, takes_validator, shares."""
    mcp_tool: str | None = None
    """The tool whose handler receives every MCP tool call."""
    subagents_tool: str | None = None
    """The tool whose handler class serves the dynamic subagent tools."""
    mcp_separator: str = ""
    """Separates server uid and tool name in an MCP tool name."""
    subagent_prefix: str = ""
    subagent_max_length: int = 0
    labels: Mapping[str, str] = field(default_factory=dict)
    """Label templates by tool id (specs ``label:``); see _runtime/labels.py."""

    def is_subagent_tool_name(self, name: str) -> bool:
        """Whether ``name`` has the shape of a dynamic subagent tool name."""
        prefix = self.subagent_prefix
        return (
            bool(prefix)
            and name.startswith(prefix)
            and len(prefix) < len(name) <= self.subagent_max_length
        )

    def is_mcp_name(self, name: str) -> bool:
        """Whether ``name`` is routed to the MCP tool (it holds the separator)."""
        return bool(self.mcp_separator) and self.mcp_separator in name

    def label(self, use: ToolUse) -> str:
        """A short label for ``use``, e.g. ``[read_file for 'src/app.ts']``; never raises.

        A static tool fills its own template; an MCP tool name fills the MCP tool's template with
        the server and tool from the name; a dynamic subagent name shows its prompt. Anything else
        (or a tool without a template) is labelled with its name in brackets.
        """
        name = use.name if isinstance(use.name, str) else str(use.name)
        try:
            return self._label(name, use.params)
        except Exception:
            return f"[{name}]"

    def _label(self, name: str, params: Any) -> str:
        template = self.labels.get(name)
        if template is not None:
            return fill_label(template, params)
        if self.is_mcp_name(name) and self.mcp_tool in self.labels:
            parsed = parse_mcp_name(name, self.mcp_separator)
            server, tool = parsed or name.split(self.mcp_separator, 1)
            values = dict(params) if isinstance(params, Mapping) else {}
            values.update(server_name=server, tool_name=tool)
            return fill_label(self.labels[str(self.mcp_tool)], values)
        if self.is_subagent_tool_name(name):
            return fill_label(f"[{escape_label_text(name)} for '{{prompt}}']", params)
        return f"[{name}]"

    def table(self) -> list[dict[str, Any]]:
        """The static table as JSON-able rows (``toolgen show dispatch``), in enum order."""
        return [
            {
                "id": tool_id,
                "handler_class": binding["class_name"] if binding else None,
                "takes_validator": bool(binding and binding["takes_validator"]),
                "shares": binding["shares"] if binding else None,
            }
            for tool_id, binding in self.handlers.items()
        ]


def _lookup(namespace: Any, class_name: str) -> Callable[..., Any] | None:
    found = (
        namespace.get(class_name)
        if isinstance(namespace, Mapping)
        else getattr(namespace, class_name, None)
    )
    return found if callable(found) else None


def _build(
    factory: Callable[..., Any], binding: Mapping[str, Any], validator: Any
) -> Any:
    return factory(validator) if binding["takes_validator"] else factory()


def _describe(exc: BaseException) -> str:
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class Coordinator:
    """Routes tool calls to registered handlers; see the module docstring for the routing order.

    ``subagent_factory`` makes the handler behind each dynamic subagent tool name; without one,
    the handler registered for the subagents tool is shared. A subclass sets ``bindings``.
    """

    bindings: ClassVar[Bindings] = Bindings()

    def __init__(
        self,
        *,
        subagent_factory: Callable[[], Any] | None = None,
        asynchronous: bool = False,
    ) -> None:
        self._handlers: dict[str, Any] = {}
        self._subagent_factory = subagent_factory
        self.asynchronous = asynchronous
        """Bound for the async paths: async handlers allowed, the sync ``execute`` refused."""
        self._dynamic: OrderedDict[str, SharedToolHandler] = OrderedDict()
        self._lock = threading.Lock()

    @classmethod
    def from_namespace(
        cls,
        namespace: Any,
        *,
        validator: Any = None,
        lenient: bool = False,
        asynchronous: bool = False,
    ) -> Self:
        """Build and register every handler of the bindings from ``namespace``.

        A class whose binding takes the validator is called with ``validator``, others with no
        arguments. Tools that share a handler get a ``SharedToolHandler`` around the same instance.
        Missing classes raise one ``MissingHandlersError`` naming all of them, unless ``lenient``,
        which registers what exists and skips the rest. Handlers with an ``async def`` method
        raise one ``AsyncHandlerError`` naming all of them unless ``asynchronous`` (the
        coordinator is then for ``execute_async`` and the Offer's async answers only).
        """
        bindings = cls.bindings
        missing: dict[str, list[str]] = {}
        for tool_id, binding in bindings.handlers.items():
            if (
                binding is not None
                and _lookup(namespace, binding["class_name"]) is None
            ):
                missing.setdefault(binding["class_name"], []).append(tool_id)
        if missing and not lenient:
            raise MissingHandlersError(
                {name: tuple(ids) for name, ids in missing.items()}
            )

        owners: dict[str, Any] = {}
        for tool_id, binding in bindings.handlers.items():
            if binding is None or binding["shares"] is not None:
                continue
            factory = _lookup(namespace, binding["class_name"])
            if factory is not None:
                owners[tool_id] = _build(factory, binding, validator)

        subagent_factory: Callable[[], Any] | None = None
        subagents_tool = bindings.subagents_tool
        subagent_binding = (
            bindings.handlers.get(subagents_tool) if subagents_tool else None
        )
        if subagent_binding is not None:
            subagent_class = _lookup(namespace, subagent_binding["class_name"])
            if subagent_class is not None:
                subagent_factory = functools.partial(
                    _build, subagent_class, subagent_binding, validator
                )

        coordinator = cls(subagent_factory=subagent_factory, asynchronous=asynchronous)
        found: list[str] = []
        for tool_id, binding in bindings.handlers.items():
            if binding is None:
                continue
            if binding["shares"] is None:
                handler = owners.get(tool_id)
            elif binding["shares"] in owners:
                handler = SharedToolHandler(tool_id, owners[binding["shares"]])
            else:
                handler = None
            if handler is not None:
                coordinator._handlers[tool_id] = handler
                found += async_methods(handler, tool_id)
        if subagent_binding is not None and subagents_tool not in coordinator._handlers:
            subagent_class = _lookup(namespace, subagent_binding["class_name"])
            if subagent_class is not None:  # only the dynamic names use it
                found += async_methods(subagent_class, str(subagents_tool))
        if found and not asynchronous:
            raise AsyncHandlerError(
                "async handlers bound for sync execution", found, BIND_ASYNC
            )
        return coordinator

    def register(self, handler: Any) -> None:
        """Register ``handler`` under ``handler.name`` (replacing any handler of that name)."""
        name = getattr(handler, "name", None)
        name = getattr(name, "value", name)
        if not isinstance(name, str) or not name:
            raise TypeError(
                f"a handler needs a non-empty string 'name' attribute, got {handler!r}"
            )
        found = async_methods(handler, name)
        if found and not self.asynchronous:
            raise AsyncHandlerError(
                "an async handler registered for sync execution", found, BIND_ASYNC
            )
        self._handlers[name] = handler

    def check_sync(self, entry: str) -> None:
        """Raise ``AsyncHandlerError`` when this coordinator is bound for async (a sync ``entry``
        point such as ``Offer.answer`` calls this before running anything)."""
        if self.asynchronous:
            async_names = [
                m for n, h in self._handlers.items() for m in async_methods(h, n)
            ]
            raise AsyncHandlerError(
                f"{entry} is sync, and this coordinator was bound with asynchronous=True",
                async_names or ["(no async handler yet)"],
                USE_ASYNC,
            )

    def names(self) -> tuple[str, ...]:
        """The statically registered tool names, in registration order."""
        return tuple(self._handlers)

    def has(self, name: str) -> bool:
        """Whether ``get_handler(name)`` finds a handler (without creating a dynamic one)."""
        bindings = self.bindings
        if bindings.is_mcp_name(name):
            mcp_tool = bindings.mcp_tool
            return mcp_tool is not None and mcp_tool in self._handlers
        if name in self._handlers or name in self._dynamic:
            return True
        subagents_tool = bindings.subagents_tool
        return bindings.is_subagent_tool_name(name) and (
            self._subagent_factory is not None
            or (subagents_tool is not None and subagents_tool in self._handlers)
        )

    def label(self, use: ToolUse) -> str:
        """A short label for a call, e.g. ``[read_file for 'src/app.ts']``; never raises."""
        return self.bindings.label(use)

    def get_handler(self, name: str) -> Any | None:
        """The handler for a tool-use name, or None; see the module docstring for the order."""
        bindings = self.bindings
        if bindings.is_mcp_name(name):
            mcp_tool = bindings.mcp_tool
            return self._handlers.get(mcp_tool) if mcp_tool is not None else None
        handler = self._handlers.get(name)
        if handler is not None:
            return handler
        if not bindings.is_subagent_tool_name(name):
            return None
        with self._lock:
            cached = self._dynamic.get(name)
            if cached is not None:
                self._dynamic.move_to_end(name)
                return cached
            if self._subagent_factory is not None:
                inner = self._subagent_factory()
            elif bindings.subagents_tool is not None:
                inner = self._handlers.get(bindings.subagents_tool)
            else:
                inner = None
            if inner is None:
                return None
            cached = self._dynamic[name] = SharedToolHandler(name, inner)
            while len(self._dynamic) > MAX_DYNAMIC_HANDLERS:
                self._dynamic.popitem(last=False)
            return cached

    def _route(self, block: ToolUse) -> tuple[bool, Any]:
        """``(True, answer)`` for a call answered without a handler, else ``(False, handler)``."""
        if block.error is not None:
            return True, None if block.partial else ToolResult.error(block.error)
        try:
            return False, self.get_handler(block.name)
        except Exception as exc:
            _log.exception("dispatch: could not create the handler for %s", block.name)
            return True, (
                None
                if block.partial
                else ToolResult.error(
                    f"Error executing tool {block.name}: {_describe(exc)}"
                )
            )

    def execute(self, config: Any, block: ToolUse) -> ToolResult | None:
        """Run a tool call; never raises.

        A partial (still streaming) block goes to the handler's ``handle_partial_block`` when it
        has one, and the result is None. A complete block returns the handler's result, an error
        result for an unknown name, or an error result naming the tool and the exception it raised.
        A block that could not be read from the reply (``block.error``, see _runtime/replies.py)
        never reaches a handler: its error is the result. Raises ``AsyncHandlerError`` (a
        developer error) when the coordinator is bound for async or the handler is async.
        """
        if self.asynchronous:
            self.check_sync("Coordinator.execute")
        answered, handler = self._route(block)
        if answered:
            return handler  # type: ignore[no-any-return]
        if block.partial:
            partial = (
                getattr(handler, "handle_partial_block", None)
                if handler is not None
                else None
            )
            if partial is not None:
                refuse_async(handler, "handle_partial_block", block.name)
                try:
                    value = partial(config, block)
                except Exception:
                    _log.exception("dispatch: partial block of %s failed", block.name)
                else:
                    refuse_awaitable(value, handler, "handle_partial_block", block.name)
            return None
        if handler is None:
            return ToolResult.error(f"No handler registered for tool: {block.name}")
        refuse_async(handler, "execute", block.name)
        try:
            result: ToolResult = handler.execute(config, block)
        except Exception as exc:
            _log.exception("dispatch: %s raised", block.name)
            return ToolResult.error(
                f"Error executing tool {block.name}: {_describe(exc)}"
            )
        refuse_awaitable(result, handler, "execute", block.name)
        return result

    async def execute_async(
        self,
        config: Any,
        block: ToolUse,
        *,
        timeout: float | None = None,
        sync_in_thread: bool = True,
    ) -> ToolResult | None:
        """Run a tool call from async code; never raises, except ``asyncio.CancelledError``.

        Answers as ``execute`` does, but awaits async handlers (and awaitables a handler returns)
        and runs sync handlers via ``asyncio.to_thread`` unless ``sync_in_thread`` is False.
        ``timeout`` (seconds) bounds the wait: past it the result is an error naming the tool.
        Cancelling the calling task cancels the handler and propagates; it is not an error result.
        """
        answered, handler = self._route(block)
        if answered:
            return handler  # type: ignore[no-any-return]
        if block.partial:
            partial = getattr(handler, "handle_partial_block", None)
            if partial is not None:
                try:
                    await asyncio.wait_for(
                        call_method(
                            handler,
                            "handle_partial_block",
                            config,
                            block,
                            sync_in_thread,
                        ),
                        timeout,
                    )
                except (HandlerRaised, TimeoutError):
                    _log.exception("dispatch: partial block of %s failed", block.name)
            return None
        if handler is None:
            return ToolResult.error(f"No handler registered for tool: {block.name}")
        try:
            result: ToolResult = await asyncio.wait_for(
                call_method(handler, "execute", config, block, sync_in_thread), timeout
            )
            return result
        except HandlerRaised as raised:
            _log.error("dispatch: %s raised", block.name, exc_info=raised.exc)
            return ToolResult.error(
                f"Error executing tool {block.name}: {_describe(raised.exc)}"
            )
        except TimeoutError:
            _log.warning("dispatch: %s timed out after %s s", block.name, timeout)
            return ToolResult.error(
                f"Error executing tool {block.name}: no result within {timeout:g} s"
            )
