"""How one handler method is called, sync or async, and the one developer error of the two.

Standard library only; copied verbatim into the generated package. dispatch.py routes a call to
a handler; this module calls it: ``SharedToolHandler`` serves a handler under another tool's
name, ``call_method`` runs a method from async code (a sync one in a worker thread when asked,
an awaitable it returns awaited, its exceptions wrapped so that they are told apart from a
timeout), and ``AsyncHandlerError`` is what an async handler raises where only sync execution is
possible: that is a mistake in the program, raised to the developer, never a result for the
model. ``async_methods`` finds such methods when handlers are bound, ``refuse_async`` and
``refuse_awaitable`` when a sync call would start or has started one.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Sequence
from typing import Any

from .tool_types import ToolResult, ToolUse

__all__ = [
    "BIND_ASYNC",
    "USE_ASYNC",
    "AsyncHandlerError",
    "HandlerRaised",
    "SharedToolHandler",
    "async_methods",
    "call_method",
    "is_async",
    "refuse_async",
    "refuse_awaitable",
]


class AsyncHandlerError(TypeError):
    """Async handlers where only sync execution is possible: a developer error, never a result.

    ``handlers`` lists each async method found, as ``Class.method (tool)``.
    """

    def __init__(self, where: str, handlers: Sequence[str], remedy: str) -> None:
        self.handlers: tuple[str, ...] = tuple(handlers)
        listed = "; ".join(self.handlers)
        super().__init__(f"{where}: {listed}. {remedy}")


BIND_ASYNC = (
    "Bind them with Coordinator.from_namespace(namespace, asynchronous=True) (or "
    "Coordinator(asynchronous=True) before register) and answer with Offer.answer_async, "
    "Offer.answer_text_async or Coordinator.execute_async."
)
USE_ASYNC = "Answer with Offer.answer_async, Offer.answer_text_async or Coordinator.execute_async."


def async_methods(handler: Any, tool: str) -> list[str]:
    """``Class.method (tool)`` for each async method of a handler (or handler class)."""
    target = handler.inner if isinstance(handler, SharedToolHandler) else handler
    owner = target if isinstance(target, type) else type(target)
    return [
        f"{owner.__name__}.{attr} ({tool})"
        for attr in ("execute", "handle_partial_block")
        if is_async(getattr(target, attr, None))
    ]


class SharedToolHandler:
    """Serves a tool under another name with the same handler instance (no copy).

    ``name`` is the alias; ``inner`` is the wrapped handler. Other attributes are read from ``inner``.
    """

    __slots__ = ("inner", "name")

    def __init__(self, name: str, inner: Any) -> None:
        self.name = name
        self.inner = inner

    def execute(self, config: Any, block: ToolUse) -> ToolResult:
        result: ToolResult = self.inner.execute(config, block)
        return result

    def handle_partial_block(self, config: Any, block: ToolUse) -> Any:
        """Passes on what the inner handler returns (an awaitable, for an async one)."""
        partial = getattr(self.inner, "handle_partial_block", None)
        return None if partial is None else partial(config, block)

    def __getattr__(self, attr: str) -> Any:
        if attr in SharedToolHandler.__slots__ or attr.startswith("__"):
            raise AttributeError(attr)
        return getattr(self.inner, attr)

    def __repr__(self) -> str:
        return f"SharedToolHandler({self.name!r}, {self.inner!r})"


class HandlerRaised(Exception):
    """Carries a handler's own exception past ``asyncio.wait_for`` (so its TimeoutError is not ours)."""

    def __init__(self, exc: Exception) -> None:
        super().__init__(exc)
        self.exc = exc


def is_async(method: Any) -> bool:
    return inspect.iscoroutinefunction(method) or inspect.isasyncgenfunction(method)


# is_async per function, for the sync path, which asks before every call: inspect's answer (a
# walk through wrappers and code flags) costs more than a quick handler's call. A bound method
# is answered by its function (inspect looks there too), so one entry serves every instance.
_ASYNC: dict[Any, bool] = {}
_ASYNC_LIMIT = 1024


def _is_async_known(method: Any) -> bool:
    func = getattr(method, "__func__", method)
    try:
        known = _ASYNC.get(func)
    except TypeError:  # an unhashable callable: ask every time
        return is_async(method)
    if known is None:
        if len(_ASYNC) >= _ASYNC_LIMIT:
            _ASYNC.clear()
        known = _ASYNC[func] = is_async(method)
    return known


def refuse_awaitable(value: Any, handler: Any, attr: str, name: str) -> None:
    """Raise ``AsyncHandlerError`` when a sync call returned an awaitable (closed first)."""
    if type(value) is ToolResult or value is None:
        return  # the usual answers, which are not awaitable: no need to ask inspect
    if inspect.isawaitable(value):
        close = getattr(value, "close", None)
        if callable(close):
            close()
        target = handler.inner if isinstance(handler, SharedToolHandler) else handler
        raise AsyncHandlerError(
            "a handler returned an awaitable on a sync path",
            [f"{type(target).__name__}.{attr} ({name})"],
            "Make the method sync, or make it async def and bind it for async "
            "(asynchronous=True). " + USE_ASYNC,
        )


async def call_method(
    handler: Any, attr: str, config: Any, block: ToolUse, in_thread: bool
) -> Any:
    """Run a handler method, awaiting what it returns; its exceptions come wrapped."""
    try:
        method = getattr(handler, attr)
        if in_thread and not is_async(method):
            value = await asyncio.to_thread(method, config, block)
        else:
            value = method(config, block)
        if inspect.isawaitable(value):
            value = await value
        return value
    except Exception as exc:
        raise HandlerRaised(exc) from exc


def refuse_async(handler: Any, attr: str, name: str) -> None:
    """Raise ``AsyncHandlerError`` before calling an async method on the sync path (one made by
    a subagent factory, or put in the table behind ``register``'s back)."""
    target = handler.inner if isinstance(handler, SharedToolHandler) else handler
    if _is_async_known(getattr(target, attr, None)):
        raise AsyncHandlerError(
            "an async handler reached a sync path",
            [f"{type(target).__name__}.{attr} ({name})"],
            BIND_ASYNC,
        )
