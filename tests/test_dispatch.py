"""Tests for the committed generated/dispatch.py: handler table, binding, routing, errors."""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path
from typing import Any

import pytest

_REPO_ROOT = str(Path(__file__).resolve().parents[1])
if _REPO_ROOT not in sys.path:
    sys.path.insert(0, _REPO_ROOT)

from conftest import reference_file  # noqa: E402
from generated import dispatch  # noqa: E402
from generated._runtime.tool_types import ToolResult, ToolUse  # noqa: E402
from generated.catalog import MCP, SUBAGENTS  # noqa: E402
from generated.dispatch import (  # noqa: E402
    HANDLERS,
    TOOL_USE_NAMES,
    Coordinator,
    MissingHandlersError,
    SharedToolHandler,
    ToolId,
)

SEP = MCP["separator"]
PREFIX = SUBAGENTS["name_prefix"]
CONFIG = object()  # stands for a task config: must reach handlers untouched


# ---- test handlers ------------------------------------------------------------------------


def handler_class(class_name: str) -> type:
    """A recording handler class; each instance logs its calls in ``calls``."""

    def __init__(self: Any, *args: Any) -> None:
        self.args = args
        self.calls = []

    def execute(self: Any, config: Any, block: ToolUse) -> ToolResult:
        self.calls.append(("execute", config, block))
        return ToolResult.ok(f"{class_name} ran {block.name}")

    def handle_partial_block(self: Any, config: Any, block: ToolUse) -> None:
        self.calls.append(("partial", config, block))

    return type(
        class_name, (), {"__init__": __init__, "execute": execute, "handle_partial_block": handle_partial_block}
    )


def class_names() -> list[str]:
    return sorted({b["class_name"] for b in HANDLERS.values() if b is not None})


def full_namespace() -> dict[str, type]:
    return {name: handler_class(name) for name in class_names()}


@pytest.fixture
def coordinator() -> Coordinator:
    return Coordinator.from_namespace(full_namespace(), validator="VALIDATOR")


# ---- the static table -----------------------------------------------------------------------


def test_table_covers_every_tool_id_in_enum_order():
    assert tuple(HANDLERS) == TOOL_USE_NAMES == tuple(t.value for t in ToolId)
    assert dispatch.ToolId is ToolId


def test_table_matches_reference_handlers():
    reference = json.loads(reference_file("catalog").read_text("utf-8"))["handlers"]
    assert set(reference) == set(HANDLERS)
    for tool_id, ref in reference.items():
        binding = HANDLERS[tool_id]
        if ref["handler_class"] is None:
            assert binding is None, tool_id
            continue
        assert binding["class_name"] == ref["handler_class"], tool_id
        assert binding["takes_validator"] == ref["uses_validator"], tool_id
        assert (binding["shares"] is not None) == ref["shared_alias"], tool_id
    assert HANDLERS["focus_chain"] is None
    assert HANDLERS["replace_in_file"]["shares"] == "write_to_file"
    assert HANDLERS["new_rule"]["shares"] == "write_to_file"


def test_dispatch_table_is_json_rows():
    rows = dispatch.dispatch_table()
    assert json.loads(json.dumps(rows)) == rows
    assert [r["id"] for r in rows] == list(TOOL_USE_NAMES)
    by_id = {r["id"]: r for r in rows}
    assert by_id["focus_chain"] == {
        "id": "focus_chain",
        "handler_class": None,
        "takes_validator": False,
        "shares": None,
    }
    assert by_id["read_file"] == {
        "id": "read_file",
        "handler_class": "ReadFileToolHandler",
        "takes_validator": True,
        "shares": None,
    }
    assert by_id["new_rule"]["shares"] == "write_to_file"


def test_routing_constants_come_from_specs():
    assert dispatch.MCP_SEPARATOR == SEP
    assert dispatch.SUBAGENT_PREFIX == PREFIX
    assert SUBAGENTS["max_length"] == dispatch.SUBAGENT_MAX_LENGTH
    assert dispatch.MCP_TOOL == "use_mcp_tool"
    assert dispatch.SUBAGENTS_TOOL == "use_subagents"


# ---- binding ---------------------------------------------------------------------------------


def test_from_namespace_builds_every_handler(coordinator: Coordinator):
    expected = [t for t, b in HANDLERS.items() if b is not None]
    assert list(coordinator.names()) == expected
    assert not coordinator.has("focus_chain")
    assert coordinator.get_handler("focus_chain") is None
    for tool_id, binding in HANDLERS.items():
        if binding is None or binding["shares"]:
            continue
        handler = coordinator.get_handler(tool_id)
        assert type(handler).__name__ == binding["class_name"]
        assert handler.args == (("VALIDATOR",) if binding["takes_validator"] else ())


def test_from_module_namespace():
    module = types.ModuleType("impl")
    for name, cls in full_namespace().items():
        setattr(module, name, cls)
    coordinator = Coordinator.from_namespace(module)
    assert coordinator.has("read_file")
    assert coordinator.get_handler("read_file").args == (None,)


def test_missing_classes_reported_all_at_once():
    namespace = full_namespace()
    for name in ("WriteToFileToolHandler", "ReadFileToolHandler", "UseMcpToolHandler"):
        del namespace[name]
    namespace["BrowserToolHandler"] = "not a class"  # not callable: as good as missing
    with pytest.raises(MissingHandlersError) as info:
        Coordinator.from_namespace(namespace)
    err = info.value
    assert err.missing == {
        "WriteToFileToolHandler": ("replace_in_file", "write_to_file", "new_rule"),
        "ReadFileToolHandler": ("read_file",),
        "BrowserToolHandler": ("browser_action",),
        "UseMcpToolHandler": ("use_mcp_tool",),
    }
    message = str(err)
    assert message.startswith("4 handler class(es) missing")
    for name, ids in err.missing.items():
        assert name in message
        for tool_id in ids:
            assert tool_id in message


def test_lenient_registers_what_exists():
    namespace = full_namespace()
    del namespace["WriteToFileToolHandler"]
    del namespace["UseSubagentsToolHandler"]
    coordinator = Coordinator.from_namespace(namespace, lenient=True)
    for tool_id in ("write_to_file", "replace_in_file", "new_rule", "use_subagents"):
        assert not coordinator.has(tool_id)
    assert coordinator.has("read_file")
    # no subagent class and no registered use_subagents handler: dynamic names are unknown too
    assert not coordinator.has(PREFIX + "reviewer")
    result = coordinator.execute(CONFIG, ToolUse("write_to_file", {"path": "a"}))
    assert result == ToolResult.error("No handler registered for tool: write_to_file")


def test_shared_handler_is_the_same_instance_under_an_alias(coordinator: Coordinator):
    owner = coordinator.get_handler("write_to_file")
    for alias in ("replace_in_file", "new_rule"):
        shared = coordinator.get_handler(alias)
        assert isinstance(shared, SharedToolHandler)
        assert shared.name == alias
        assert shared.inner is owner
        assert shared.args is owner.args  # other attributes read through
    block = ToolUse("replace_in_file", {"path": "a", "diff": "d"})
    result = coordinator.execute(CONFIG, block)
    assert result == ToolResult.ok("WriteToFileToolHandler ran replace_in_file")
    assert owner.calls == [("execute", CONFIG, block)]
    partial = ToolUse("new_rule", {"path": "a"}, partial=True)
    assert coordinator.execute(CONFIG, partial) is None
    assert owner.calls[-1] == ("partial", CONFIG, partial)


def test_shared_handler_without_partial_support():
    class Plain:
        name = "write_to_file"

        def execute(self, config, block):
            return ToolResult.ok("plain")

    shared = SharedToolHandler("new_rule", Plain())
    assert shared.handle_partial_block(CONFIG, ToolUse("new_rule", partial=True)) is None
    with pytest.raises(AttributeError):
        shared.missing_attribute  # noqa: B018


def test_register_by_name():
    class Echo:
        name = ToolId.READ_FILE

        def execute(self, config, block):
            return ToolResult.ok(f"echo {dict(block.params)}")

    coordinator = Coordinator()
    coordinator.register(Echo())
    assert coordinator.has("read_file")
    assert coordinator.execute(None, ToolUse("read_file", {"path": "x"})).content == "echo {'path': 'x'}"
    with pytest.raises(TypeError):
        coordinator.register(object())


# ---- routing ---------------------------------------------------------------------------------


def test_mcp_names_route_to_use_mcp_tool(coordinator: Coordinator):
    mcp = coordinator.get_handler("use_mcp_tool")
    name = f"cfetch{SEP}fetch"
    assert coordinator.has(name)
    assert coordinator.get_handler(name) is mcp
    block = ToolUse(name, {"url": "https://example.com"})
    result = coordinator.execute(CONFIG, block)
    assert result.content == f"UseMcpToolHandler ran {name}"
    assert mcp.calls == [("execute", CONFIG, block)]  # the block reaches the handler unchanged


def test_mcp_separator_wins_over_static_and_subagent_names(coordinator: Coordinator):
    mcp = coordinator.get_handler("use_mcp_tool")
    assert coordinator.get_handler(f"read_file{SEP}x") is mcp
    assert coordinator.get_handler(f"{PREFIX}x{SEP}y") is mcp


def test_mcp_name_without_mcp_handler_is_unknown():
    namespace = full_namespace()
    del namespace["UseMcpToolHandler"]
    coordinator = Coordinator.from_namespace(namespace, lenient=True)
    name = f"cfetch{SEP}fetch"
    assert not coordinator.has(name)
    assert coordinator.execute(CONFIG, ToolUse(name)) == ToolResult.error(f"No handler registered for tool: {name}")


def test_static_names(coordinator: Coordinator):
    result = coordinator.execute(CONFIG, ToolUse("execute_command", {"command": "ls"}))
    assert result == ToolResult.ok("ExecuteCommandToolHandler ran execute_command")
    # use_subagents is a static name, not a dynamic one (the prefix ends in "_")
    assert type(coordinator.get_handler("use_subagents")).__name__ == "UseSubagentsToolHandler"


def test_subagent_handler_created_lazily_once_and_cached():
    created = []
    namespace = full_namespace()
    base = namespace["UseSubagentsToolHandler"]

    class CountingSubagents(base):  # type: ignore[misc, valid-type]
        def __init__(self, *args):
            super().__init__(*args)
            created.append(self)

    namespace["UseSubagentsToolHandler"] = CountingSubagents
    coordinator = Coordinator.from_namespace(namespace)
    assert len(created) == 1  # the static use_subagents handler
    name = PREFIX + "code_reviewer"
    assert coordinator.has(name)
    assert len(created) == 1  # has() creates nothing
    first = coordinator.get_handler(name)
    assert isinstance(first, SharedToolHandler)
    assert first.name == name
    assert isinstance(first.inner, CountingSubagents)
    assert len(created) == 2
    assert coordinator.get_handler(name) is first
    block = ToolUse(name, {"prompt": "review"})
    assert coordinator.execute(CONFIG, block).content == f"UseSubagentsToolHandler ran {name}"
    assert len(created) == 2
    assert first.inner.calls == [("execute", CONFIG, block)]
    other = coordinator.get_handler(PREFIX + "tester")
    assert other is not first and other.inner is not first.inner
    assert len(created) == 3


def test_subagent_fallback_shares_registered_handler():
    class Subagents:
        name = "use_subagents"

        def execute(self, config, block):
            return ToolResult.ok(f"subagents ran {block.name}")

    coordinator = Coordinator()
    assert coordinator.get_handler(PREFIX + "x") is None
    handler = Subagents()
    coordinator.register(handler)
    dynamic = coordinator.get_handler(PREFIX + "x")
    assert dynamic.inner is handler and dynamic.name == PREFIX + "x"


def test_subagent_name_shape(coordinator: Coordinator):
    assert not coordinator.has(PREFIX)  # prefix alone
    too_long = PREFIX + "x" * (SUBAGENTS["max_length"] - len(PREFIX) + 1)
    assert not coordinator.has(too_long)
    assert coordinator.execute(CONFIG, ToolUse(too_long)).is_error
    assert coordinator.has(too_long[:-1])


def test_unknown_name_error_text(coordinator: Coordinator):
    result = coordinator.execute(CONFIG, ToolUse("no_such_tool"))
    assert result == ToolResult("No handler registered for tool: no_such_tool", is_error=True)
    assert coordinator.execute(CONFIG, ToolUse("focus_chain")) == ToolResult.error(
        "No handler registered for tool: focus_chain"
    )
    # a partial block of an unknown tool shows nothing and produces no result
    assert coordinator.execute(CONFIG, ToolUse("no_such_tool", partial=True)) is None


# ---- errors and partial blocks ------------------------------------------------------------------


class Boom:
    name = "read_file"

    def execute(self, config, block):
        raise ValueError("disk on fire")

    def handle_partial_block(self, config, block):
        raise RuntimeError("preview broke")


def test_handler_exception_becomes_tool_error():
    coordinator = Coordinator()
    coordinator.register(Boom())
    result = coordinator.execute(CONFIG, ToolUse("read_file", {"path": "a"}))
    assert result.is_error and not result.denied
    assert "read_file" in result.content
    assert "ValueError" in result.content and "disk on fire" in result.content
    assert coordinator.execute(CONFIG, ToolUse("read_file", partial=True)) is None


def test_subagent_factory_exception_becomes_tool_error():
    def broken():
        raise RuntimeError("no subagents today")

    coordinator = Coordinator(subagent_factory=broken)
    result = coordinator.execute(CONFIG, ToolUse(PREFIX + "x"))
    assert result.is_error and "no subagents today" in result.content and PREFIX + "x" in result.content


def test_partial_block_goes_to_handle_partial_block(coordinator: Coordinator):
    handler = coordinator.get_handler("read_file")
    block = ToolUse("read_file", {"path": "sr"}, partial=True)
    assert coordinator.execute(CONFIG, block) is None
    assert handler.calls == [("partial", CONFIG, block)]


def test_partial_block_without_handle_partial_block():
    class NoPartial:
        name = "read_file"
        calls = 0

        def execute(self, config, block):
            NoPartial.calls += 1
            return ToolResult.ok("ran")

    coordinator = Coordinator()
    coordinator.register(NoPartial())
    assert coordinator.execute(CONFIG, ToolUse("read_file", partial=True)) is None
    assert NoPartial.calls == 0


def test_coordinator_passes_config_through_untouched(coordinator: Coordinator):
    config = {"task": 1}
    block = ToolUse("ask_followup_question", {"question": "?"})
    coordinator.execute(config, block)
    assert coordinator.get_handler("ask_followup_question").calls[0][1] is config
    assert config == {"task": 1}
