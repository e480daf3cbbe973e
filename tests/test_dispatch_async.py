"""Coordinator.execute_async (async and sync handlers, timeouts, cancellation), and async
handlers on the sync path raising AsyncHandlerError (a developer error, never a result for the
model). Plain ``asyncio.run``: no pytest plugin needed."""

from __future__ import annotations

import asyncio
import sys
import threading
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

import pytest

_REPO_ROOT = str(Path(__file__).resolve().parents[1])
if _REPO_ROOT not in sys.path:
    sys.path.insert(0, _REPO_ROOT)

from generated._runtime.tool_types import ToolResult, ToolUse  # noqa: E402
from generated.catalog import SUBAGENTS  # noqa: E402
from generated.dispatch import AsyncHandlerError, Coordinator, SharedToolHandler  # noqa: E402

CONFIG = object()


class AsyncRead:
    name = "read_file"

    def __init__(self) -> None:
        self.partials: list[ToolUse] = []

    async def execute(self, config: Any, block: ToolUse) -> ToolResult:
        assert config is CONFIG
        await asyncio.sleep(0)
        return ToolResult.ok(f"read {block.params['path']}")

    async def handle_partial_block(self, config: Any, block: ToolUse) -> None:
        await asyncio.sleep(0)
        self.partials.append(block)


class SyncRead:
    name = "read_file"

    def __init__(self) -> None:
        self.threads: list[threading.Thread] = []

    def execute(self, config: Any, block: ToolUse) -> ToolResult:
        self.threads.append(threading.current_thread())
        return ToolResult.ok("sync")


class ReturnsAwaitable:
    """A sync method that hands back an awaitable (e.g. a wrapped coroutine)."""

    name = "read_file"

    def execute(self, config: Any, block: ToolUse) -> Awaitable[ToolResult]:
        async def later() -> ToolResult:
            return ToolResult.ok("later")

        return later()


class Raises:
    name = "read_file"

    def __init__(self, exc: Exception) -> None:
        self.exc = exc

    async def execute(self, config: Any, block: ToolUse) -> ToolResult:
        raise self.exc


class Waits:
    """Blocks on an event that never fires, so only a timeout or a cancel ends the call."""

    name = "read_file"

    def __init__(self) -> None:
        self.started = asyncio.Event()
        self.cancelled = False

    async def execute(self, config: Any, block: ToolUse) -> ToolResult:
        self.started.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            self.cancelled = True
            raise
        return ToolResult.ok("never")


def _coordinator(handler: Any) -> Coordinator:
    coordinator = Coordinator(asynchronous=True)
    coordinator.register(handler)
    return coordinator


def _run(handler: Any, block: ToolUse, **kwargs: Any) -> ToolResult | None:
    return asyncio.run(_coordinator(handler).execute_async(CONFIG, block, **kwargs))


READ = ToolUse("read_file", {"path": "a.txt"})


def test_an_async_handler_is_awaited() -> None:
    assert _run(AsyncRead(), READ) == ToolResult.ok("read a.txt")


def test_a_sync_handler_runs_in_a_worker_thread_by_default() -> None:
    handler = SyncRead()
    assert _run(handler, READ) == ToolResult.ok("sync")
    assert handler.threads[0] is not threading.main_thread()


def test_a_sync_handler_can_run_in_the_loop_thread() -> None:
    handler = SyncRead()
    assert _run(handler, READ, sync_in_thread=False) == ToolResult.ok("sync")
    assert handler.threads == [threading.main_thread()]


def test_an_awaitable_returned_by_a_sync_method_is_awaited() -> None:
    assert _run(ReturnsAwaitable(), READ) == ToolResult.ok("later")


def test_a_shared_alias_of_an_async_handler_is_awaited() -> None:
    coordinator = Coordinator(asynchronous=True)
    coordinator.register(SharedToolHandler("read_file", AsyncRead()))
    assert asyncio.run(coordinator.execute_async(CONFIG, READ)) == ToolResult.ok("read a.txt")


@pytest.mark.parametrize("exc", [ValueError("bad path"), TimeoutError("disk slow"), KeyError("path")])
def test_handler_exceptions_become_error_results_naming_the_tool(exc: Exception) -> None:
    result = _run(Raises(exc), READ, timeout=5)
    assert result is not None and result.is_error
    assert result.content.startswith(f"Error executing tool read_file: {type(exc).__name__}")


def test_a_timeout_is_an_error_result_and_cancels_the_handler() -> None:
    handler = Waits()
    result = _run(handler, READ, timeout=0.01)
    assert result == ToolResult.error("Error executing tool read_file: no result within 0.01 s")
    assert handler.cancelled


def test_cancellation_propagates() -> None:
    handler = Waits()

    async def main() -> None:
        task = asyncio.create_task(_coordinator(handler).execute_async(CONFIG, READ))
        await handler.started.wait()
        task.cancel()
        await task

    with pytest.raises(asyncio.CancelledError):
        asyncio.run(main())
    assert handler.cancelled


def test_unknown_tools_and_unreadable_calls_are_answered_without_a_handler() -> None:
    coordinator = Coordinator()
    unknown = asyncio.run(coordinator.execute_async(CONFIG, ToolUse("nope", {})))
    assert unknown == ToolResult.error("No handler registered for tool: nope")
    broken = ToolUse("read_file", {}, error="arguments are not JSON")
    assert asyncio.run(_coordinator(AsyncRead()).execute_async(CONFIG, broken)) == ToolResult.error(
        "arguments are not JSON"
    )


def test_a_handler_without_execute_is_an_error_result() -> None:
    class Nameless:
        name = "read_file"

    result = _run(Nameless(), READ)
    assert result is not None and result.is_error and "read_file" in result.content


def test_async_partial_blocks_are_awaited_and_their_failures_swallowed() -> None:
    handler = AsyncRead()
    partial = ToolUse("read_file", {"path": "a"}, partial=True)
    assert _run(handler, partial) is None
    assert handler.partials == [partial]

    class BadPartial(AsyncRead):
        async def handle_partial_block(self, config: Any, block: ToolUse) -> None:
            raise RuntimeError("preview failed")

    assert _run(BadPartial(), partial) is None


def test_dynamic_subagent_names_reach_an_async_handler() -> None:
    class Subagent:
        name = "use_subagents"

        async def execute(self, config: Any, block: ToolUse) -> ToolResult:
            return ToolResult.ok(f"{block.name}: {block.params['prompt']}")

    coordinator = Coordinator(subagent_factory=Subagent)
    name = f"{SUBAGENTS['name_prefix']}reviewer"
    result = asyncio.run(coordinator.execute_async(CONFIG, ToolUse(name, {"prompt": "go"})))
    assert result == ToolResult.ok(f"{name}: go")


# ---- async handlers on the sync path: AsyncHandlerError, raised to the developer -----------


def _sync(handler: Any) -> Coordinator:
    """A coordinator for the sync path, the handler put in its table behind register's back
    (as a subagent factory or a later swap could): the run-time checks must still hold."""
    coordinator = Coordinator()
    coordinator._handlers[handler.name] = handler
    return coordinator


def test_the_error_is_a_type_error_exported_by_the_package() -> None:
    import generated

    assert issubclass(AsyncHandlerError, TypeError) and generated.AsyncHandlerError is AsyncHandlerError


@pytest.mark.parametrize("handler", [AsyncRead(), SharedToolHandler("read_file", AsyncRead())])
def test_register_refuses_an_async_handler_on_a_sync_coordinator(handler: Any) -> None:
    with pytest.raises(AsyncHandlerError) as caught:
        Coordinator().register(handler)
    assert caught.value.handlers == (
        "AsyncRead.execute (read_file)",
        "AsyncRead.handle_partial_block (read_file)",
    )
    assert "asynchronous=True" in str(caught.value)


def test_from_namespace_names_every_async_handler_and_how_to_bind_for_async() -> None:
    class ReadFileToolHandler(AsyncRead):
        def __init__(self, validator: Any = None) -> None:
            super().__init__()

    class WriteToFileToolHandler:
        name = "write_to_file"

        def __init__(self, validator: Any = None) -> None:
            pass

        async def execute(self, config: Any, block: ToolUse) -> ToolResult:
            return ToolResult.ok("written")

    namespace = {"ReadFileToolHandler": ReadFileToolHandler, "WriteToFileToolHandler": WriteToFileToolHandler}
    with pytest.raises(AsyncHandlerError) as caught:
        Coordinator.from_namespace(namespace, lenient=True)
    found = caught.value.handlers
    assert "ReadFileToolHandler.execute (read_file)" in found
    assert "ReadFileToolHandler.handle_partial_block (read_file)" in found
    # the shared tools are named too, each with the owner's class
    assert {f for f in found if f.startswith("WriteToFileToolHandler.execute")} == {
        "WriteToFileToolHandler.execute (replace_in_file)",
        "WriteToFileToolHandler.execute (write_to_file)",
        "WriteToFileToolHandler.execute (new_rule)",
    }
    assert "from_namespace(namespace, asynchronous=True)" in str(caught.value)
    coordinator = Coordinator.from_namespace(namespace, lenient=True, asynchronous=True)
    assert asyncio.run(coordinator.execute_async(CONFIG, ToolUse("new_rule", {}))) == ToolResult.ok("written")


def test_from_namespace_checks_the_subagents_class_too() -> None:
    class UseSubagentsToolHandler:
        name = "use_subagents"

        def __init__(self, validator: Any = None) -> None:
            pass

        async def execute(self, config: Any, block: ToolUse) -> ToolResult:
            return ToolResult.ok("sub")

    with pytest.raises(AsyncHandlerError, match=r"UseSubagentsToolHandler\.execute \(use_subagents\)"):
        Coordinator.from_namespace({"UseSubagentsToolHandler": UseSubagentsToolHandler}, lenient=True)


def test_a_coordinator_bound_for_async_refuses_sync_execute_before_running_anything() -> None:
    handler = SyncRead()
    coordinator = Coordinator(asynchronous=True)
    coordinator.register(handler)
    with pytest.raises(AsyncHandlerError, match=r"Coordinator\.execute is sync"):
        coordinator.execute(CONFIG, READ)
    assert handler.threads == []
    assert asyncio.run(coordinator.execute_async(CONFIG, READ)) == ToolResult.ok("sync")


@pytest.mark.parametrize("handler", [AsyncRead(), ReturnsAwaitable(), SharedToolHandler("read_file", AsyncRead())])
def test_sync_execute_raises_for_an_async_handler(handler: Any, recwarn: pytest.WarningsRecorder) -> None:
    with pytest.raises(AsyncHandlerError, match=r"\.execute \(read_file\)"):
        _sync(handler).execute(CONFIG, READ)
    assert not [w for w in recwarn if "never awaited" in str(w.message)], "the awaitable is closed, not leaked"


def test_sync_execute_raises_for_an_async_partial_preview(recwarn: pytest.WarningsRecorder) -> None:
    class ReturnsAwaitablePreview(SyncRead):
        def handle_partial_block(self, config: Any, block: ToolUse) -> Awaitable[None]:
            return asyncio.sleep(0)

    partial = ToolUse("read_file", {"path": "a"}, partial=True)
    for handler in (AsyncRead(), ReturnsAwaitablePreview()):
        with pytest.raises(AsyncHandlerError, match=r"handle_partial_block \(read_file\)"):
            _sync(handler).execute(CONFIG, partial)
    assert not [w for w in recwarn if "never awaited" in str(w.message)]


def test_a_subagent_factory_making_async_handlers_raises_on_the_sync_path() -> None:
    class Subagent:
        name = "use_subagents"

        async def execute(self, config: Any, block: ToolUse) -> ToolResult:
            return ToolResult.ok("sub")

    name = f"{SUBAGENTS['name_prefix']}reviewer"
    with pytest.raises(AsyncHandlerError, match=r"Subagent\.execute"):
        Coordinator(subagent_factory=Subagent).execute(CONFIG, ToolUse(name, {"prompt": "go"}))


def test_an_offer_checks_calls_before_execute_async() -> None:
    """Offer.execute_async refuses what was not offered and validates, then awaits the handler."""
    from generated import Offer

    offer = Offer("generic", {})
    coordinator = _coordinator(AsyncRead())
    refused = asyncio.run(offer.execute_async(coordinator, CONFIG, ToolUse("made_up", {})))
    assert refused is not None and refused.is_error and "made_up" in refused.content
    invalid = asyncio.run(offer.execute_async(coordinator, CONFIG, ToolUse("read_file", {})))
    assert invalid is not None and invalid.is_error and "Invalid arguments for tool read_file" in invalid.content
    ran = asyncio.run(offer.execute_async(coordinator, CONFIG, READ, timeout=5))
    assert ran == ToolResult.ok("read a.txt")
