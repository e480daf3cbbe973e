"""The agent SDKs' return paths, as benchmarks/return_path.py times them next to toolgen's.

Each peer turns the same OpenAI Chat completion body into one result message per call, running a
handler that returns "ok" at once. Two ways of registering the tools per SDK:

* **schema**: the SDK's own way to register a tool from a JSON schema, given the exact
  ``parameters`` toolgen's Offer sent (openai-agents ``FunctionTool(params_json_schema=...,
  strict_json_schema=False)``; pydantic-ai ``Tool.from_schema``; LangChain ``StructuredTool``
  with the schema dict as ``args_schema``). None of the three checks the arguments against the
  schema on this route: the handler gets whatever the model sent (the bad reply shows it).
* **typed**: the SDK's validating route, the tools written as typed Python functions whose
  pydantic models say what the four schemas say (strict types, bounds, enums, nested objects that
  forbid unknown keys): openai-agents ``function_tool``, pydantic-ai ``Tool(function)``,
  LangChain ``StructuredTool.from_function``. This is what it costs a peer to check arguments.

What is called per call (everything else is set up once, outside the timing):

* openai-agents: ``await tool.on_invoke_tool(ToolContext(...), arguments_json)`` (a schema
  tool's invoker is the handler itself; a ``function_tool``'s parses, validates and turns a
  failure into the error text for the model);
* pydantic-ai: ``await ToolManager.handle_call(ToolCallPart(name, arguments_json, id))`` on a
  manager prepared once with ``for_run_step``; a ``ToolRetryError`` (bad arguments) becomes
  the retry text the agent graph would send (``tool_retry.model_response_str()``, a
  ``ToolReturnPart`` with outcome "retried");
* LangChain: ``parse_tool_call(raw_call)`` then ``tool.invoke(tool_call)`` (a ToolMessage); an
  ``OutputParserException`` (arguments not JSON) becomes an error message.

The glue around them favours the peers: calls are read from the body with plain indexing,
results are built as plain dicts, async calls are awaited one after another (no tasks) on one
event loop made once, and a peer's per-request setup (tool lists, run contexts) is left out.
"""

import asyncio
import inspect
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from return_path_replies import tool_calls, tool_message

Reply = Callable[[dict[str, Any]], list[dict[str, Any]]]


@dataclass(frozen=True)
class Peer:
    """One SDK route: ``reply(body)`` answers every call of the body."""

    key: str
    label: str
    reply: Reply
    calls: str
    """What is called per call, for the report."""


def _typed_functions() -> dict[str, Callable[..., Any]]:
    """The four tools as typed functions (async), keyed like return_path_replies.GOOD_ARGS."""
    from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

    strict = ConfigDict(extra="forbid", strict=True)

    class Filters(BaseModel):
        model_config = strict
        state: Literal["open", "closed", "all"]
        labels: list[StrictStr] | None = None

    class Query(BaseModel):
        model_config = strict
        text: Annotated[StrictStr, Field(min_length=1)]
        filters: Filters | None = None

    async def execute_command(command: StrictStr, requires_approval: StrictBool) -> str:
        """Run a shell command."""
        return "ok"

    async def replace_in_file(
        absolutePath: StrictStr, diff: StrictStr, task_progress: StrictStr | None = None
    ) -> str:
        """Edit a file with SEARCH/REPLACE blocks."""
        return "ok"

    async def read_file(
        path: StrictStr,
        start_line: StrictInt | None = None,
        end_line: StrictInt | None = None,
        task_progress: StrictStr | None = None,
    ) -> str:
        """Read a file."""
        return "ok"

    async def search_issues(
        query: Query,
        limit: Annotated[StrictInt, Field(ge=1, le=100)] | None = None,
        sort: Literal["created", "updated", "comments"] | None = None,
    ) -> str:
        """Search the issue tracker."""
        return "ok"

    return {
        "execute_command": execute_command,
        "replace_in_file": replace_in_file,
        "read_file": read_file,
        "mcp": search_issues,
    }


def _sync(func: Callable[..., Any]) -> Callable[..., Any]:
    """``func``'s signature on a function that returns "ok" without awaiting (for LangChain)."""

    def run(*args: Any, **kwargs: Any) -> str:
        return "ok"

    run.__name__ = func.__name__
    run.__doc__ = func.__doc__
    run.__annotations__ = func.__annotations__
    run.__signature__ = inspect.signature(func)  # type: ignore[attr-defined]
    return run


async def _return_at_once(*args: Any, **kwargs: Any) -> str:
    return "ok"


Answer = Callable[[list[dict[str, Any]]], Awaitable[list[dict[str, Any]]]]


def _on_loop(loop: asyncio.AbstractEventLoop, answer: Answer) -> Reply:
    """``answer`` run on ``loop`` (made once) for the body's calls."""

    def reply(body: dict[str, Any]) -> list[dict[str, Any]]:
        return loop.run_until_complete(answer(tool_calls(body)))

    return reply


def _peer(sdk: str, label: str, typed: bool, reply: Reply, calls: str) -> Peer:
    kind = "typed" if typed else "schema"
    return Peer(f"{sdk}-{kind}", f"{label}, {kind}", reply, calls)


def openai_agents(tools: dict[str, tuple[str, dict[str, Any]]], names: dict[str, str], typed: bool) -> Peer:
    """openai-agents: ``on_invoke_tool`` per call."""
    from agents import FunctionTool, function_tool, set_tracing_disabled
    from agents.tool_context import ToolContext

    # Outside a run no span is open, so each failed call would log a warning that a run's span
    # absorbs; tracing off and the SDK's logger at ERROR keep both out of the figure.
    set_tracing_disabled(True)
    logging.getLogger("openai.agents").setLevel(logging.ERROR)

    if typed:
        functions = _typed_functions()
        by_name = {
            names[key]: function_tool(func, name_override=names[key], strict_mode=False)
            for key, func in functions.items()
        }
    else:
        by_name = {
            name: FunctionTool(
                name=name,
                description=description,
                params_json_schema=schema,
                on_invoke_tool=_return_at_once,
                strict_json_schema=False,  # keep the schema as sent (strict mode rewrites it)
            )
            for name, (description, schema) in tools.items()
        }
    loop = asyncio.new_event_loop()

    async def answer(calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
        out = []
        for call in calls:
            name, arguments = call["function"]["name"], call["function"]["arguments"]
            tool = by_name.get(name)
            if tool is None:
                out.append(tool_message(call["id"], f"Tool {name} not found"))
                continue
            context = ToolContext(context=None, tool_name=name, tool_call_id=call["id"], tool_arguments=arguments)
            out.append(tool_message(call["id"], await tool.on_invoke_tool(context, arguments)))
        return out

    kind = "function_tool(typed function)" if typed else "FunctionTool(params_json_schema)"
    calls = f"{kind}.on_invoke_tool(ToolContext(...), arguments_json)"
    return _peer("openai-agents", "openai-agents", typed, _on_loop(loop, answer), calls)


def pydantic_ai(tools: dict[str, tuple[str, dict[str, Any]]], names: dict[str, str], typed: bool) -> Peer:
    """pydantic-ai: ``ToolManager.handle_call`` per call."""
    from pydantic_ai import RunContext, Tool
    from pydantic_ai.exceptions import ToolRetryError
    from pydantic_ai.messages import ToolCallPart
    from pydantic_ai.models.test import TestModel
    from pydantic_ai.tool_manager import ToolManager
    from pydantic_ai.toolsets import FunctionToolset
    from pydantic_ai.usage import RunUsage

    if typed:
        functions = _typed_functions()
        registered = [Tool(func, name=names[key]) for key, func in functions.items()]
    else:
        registered = [
            Tool.from_schema(_return_at_once, name, description, schema)
            for name, (description, schema) in tools.items()
        ]
    loop = asyncio.new_event_loop()
    # a large retry budget: every bad reply is answered with a retry text, never ends the run
    toolset = FunctionToolset(registered, max_retries=1_000_000_000)
    context = RunContext(deps=None, model=TestModel(), usage=RunUsage())
    manager = loop.run_until_complete(ToolManager(toolset).for_run_step(context))

    async def answer(calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
        out = []
        for call in calls:
            part = ToolCallPart(call["function"]["name"], call["function"]["arguments"], call["id"])
            try:
                content = await manager.handle_call(part)
            except ToolRetryError as exc:  # the retry text the agent graph sends back
                retry = exc.tool_retry
                text = getattr(retry, "model_response_str", None) or retry.model_response
                content = text()
            out.append(tool_message(call["id"], content))
        return out

    kind = "Tool(typed function)" if typed else "Tool.from_schema"
    calls = f"ToolManager.handle_call(ToolCallPart(name, arguments_json, id)), {kind}, FunctionToolset"
    return _peer("pydantic-ai", "pydantic-ai", typed, _on_loop(loop, answer), calls)


def langchain(tools: dict[str, tuple[str, dict[str, Any]]], names: dict[str, str], typed: bool) -> Peer:
    """LangChain: ``parse_tool_call`` then ``StructuredTool.invoke`` per call."""
    from langchain_core.exceptions import OutputParserException
    from langchain_core.output_parsers.openai_tools import parse_tool_call
    from langchain_core.tools import StructuredTool

    if typed:
        functions = _typed_functions()
        by_name = {
            names[key]: StructuredTool.from_function(
                func=_sync(func), name=names[key], description=func.__doc__, handle_validation_error=True
            )
            for key, func in functions.items()
        }
    else:
        by_name = {
            name: StructuredTool(
                name=name, description=description, args_schema=schema, func=lambda **kwargs: "ok"
            )
            for name, (description, schema) in tools.items()
        }

    def reply(body: dict[str, Any]) -> list[dict[str, Any]]:
        out = []
        for raw in tool_calls(body):
            try:
                call = parse_tool_call(raw, return_id=True)
            except OutputParserException as exc:
                out.append(tool_message(raw["id"], f"Error: {exc}"))
                continue
            assert call is not None
            tool = by_name.get(call["name"])
            if tool is None:
                out.append(tool_message(raw["id"], f"Error: {call['name']} is not a valid tool"))
                continue
            message = tool.invoke({**call, "type": "tool_call"})
            out.append(tool_message(message.tool_call_id, message.content))
        return out

    kind = "StructuredTool.from_function(typed function)" if typed else "StructuredTool(args_schema=schema dict)"
    calls = f"parse_tool_call(raw) + {kind}.invoke(tool_call) -> ToolMessage"
    return _peer("langchain", "LangChain", typed, reply, calls)


#: Each SDK: its distribution name (for the version and the failure message) and its builder.
SDKS: tuple[tuple[str, Callable[..., Peer]], ...] = (
    ("openai-agents", openai_agents),
    ("pydantic-ai-slim", pydantic_ai),
    ("langchain-core", langchain),
)
