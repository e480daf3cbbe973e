"""generator/runtime/dispatch.py with hand-made bindings (nothing generated)."""

from __future__ import annotations

import pytest

from generator.runtime.dispatch import (
    Bindings,
    Coordinator,
    MissingHandlersError,
    SharedToolHandler,
)
from generator.runtime.tool_types import ToolResult, ToolUse

BINDINGS = Bindings(
    handlers={
        "read": {"class_name": "Reader", "takes_validator": True, "shares": None},
        "peek": {"class_name": "Reader", "takes_validator": True, "shares": "read"},
        "use_mcp_tool": {"class_name": "Mcp", "takes_validator": False, "shares": None},
        "use_subagents": {"class_name": "Agents", "takes_validator": False, "shares": None},
        "silent": None,
    },
    mcp_tool="use_mcp_tool",
    subagents_tool="use_subagents",
    mcp_separator="__mcp__",
    subagent_prefix="use_subagent_",
    subagent_max_length=20,
)


class Small(Coordinator):
    bindings = BINDINGS


class Handler:
    made = 0

    def __init__(self, validator=None) -> None:
        self.validator = validator
        self.name = type(self).__name__
        Handler.made += 1

    def execute(self, config, block: ToolUse) -> ToolResult:
        if block.name == "boom":
            raise RuntimeError("no")
        return ToolResult.ok(f"{self.name}:{block.name}")


class Reader(Handler):
    pass


class Mcp(Handler):
    pass


class Agents(Handler):
    pass


NAMESPACE = {"Reader": Reader, "Mcp": Mcp, "Agents": Agents}


def test_routing_order() -> None:
    coordinator = Small.from_namespace(NAMESPACE, validator="v")
    assert coordinator.names() == ("read", "peek", "use_mcp_tool", "use_subagents")
    peek = coordinator.get_handler("peek")
    assert isinstance(peek, SharedToolHandler) and peek.inner is coordinator.get_handler("read")
    assert peek.validator == "v"
    assert isinstance(coordinator.get_handler("srv__mcp__find"), Mcp)
    scout = coordinator.get_handler("use_subagent_scout")
    assert isinstance(scout, SharedToolHandler) and isinstance(scout.inner, Agents)
    assert coordinator.get_handler("use_subagent_scout") is scout  # cached per name
    assert coordinator.get_handler("use_subagent_much_too_long") is None
    assert not coordinator.has("silent") and coordinator.has("use_subagent_x")


def test_execute_never_raises() -> None:
    coordinator = Small.from_namespace(NAMESPACE)
    assert coordinator.execute(None, ToolUse("read", {})) == ToolResult.ok("Reader:read")
    assert "No handler registered for tool: nope" in str(coordinator.execute(None, ToolUse("nope", {})))
    boom = Reader()
    boom.name = "boom"
    coordinator.register(boom)
    assert "Error executing tool boom: RuntimeError: no" in str(coordinator.execute(None, ToolUse("boom", {})))
    assert coordinator.execute(None, ToolUse("read", {}, partial=True)) is None


def test_a_call_that_could_not_be_read_never_reaches_its_handler() -> None:
    coordinator = Small.from_namespace(NAMESPACE)
    bad = ToolUse("read", {}, id="c1", error="The call to tool read was not run: bad JSON.")
    assert coordinator.execute(None, bad) == ToolResult.error("The call to tool read was not run: bad JSON.")
    assert coordinator.execute(None, ToolUse("read", {}, partial=True, error="x")) is None


def test_missing_classes_are_listed_together_unless_lenient() -> None:
    with pytest.raises(MissingHandlersError) as err:
        Small.from_namespace({"Mcp": Mcp})
    assert err.value.missing == {"Reader": ("read", "peek"), "Agents": ("use_subagents",)}
    assert Small.from_namespace({"Mcp": Mcp}, lenient=True).names() == ("use_mcp_tool",)


def test_table_rows() -> None:
    rows = BINDINGS.table()
    assert rows[1] == {"id": "peek", "handler_class": "Reader", "takes_validator": True, "shares": "read"}
    assert rows[-1] == {"id": "silent", "handler_class": None, "takes_validator": False, "shares": None}


def test_the_base_coordinator_has_no_tools() -> None:
    coordinator = Coordinator.from_namespace({})
    assert coordinator.names() == () and coordinator.get_handler("x__mcp__y") is None
