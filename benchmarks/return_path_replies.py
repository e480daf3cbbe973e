"""The replies, tools and argument sets that benchmarks/return_path.py times every framework on.

One OpenAI Chat completion body with four parallel calls: three tools of the bundled catalog as
the ``native-next-gen`` family sends them (``execute_command``, ``replace_in_file`` with a
multi-line SEARCH/REPLACE diff, ``read_file``) and one MCP tool with nested arguments. The BAD
body calls the same four tools with one kind of mistake each: a wrong type, a missing required
argument, arguments that are not JSON, and (the MCP call) an unknown parameter plus three more
problems inside the nested object. ``native-next-gen`` names the edited file ``absolutePath``
(as Cline's native variant does); the other parameters are the ones the catalog sends.
"""

from __future__ import annotations

import json
from typing import Any

FORMAT = "openai-chat"
FAMILY = "native-next-gen"

#: The request's context: native calls on, an MCP hub, a working folder (a placeholder field).
CONTEXT: dict[str, Any] = {
    "provider_id": "openai",
    "model_id": "gpt-5",
    "enable_native_tool_calls": True,
    "cwd": "/home/user/project",
    "has_mcp_hub": True,
}

#: An MCP tool whose arguments hold an object with a nested object, an enum, an integer with
#: bounds and an array of strings.
SEARCH_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "query": {
            "type": "object",
            "description": "What to look for.",
            "properties": {
                "text": {"type": "string", "minLength": 1},
                "filters": {
                    "type": "object",
                    "properties": {
                        "state": {"type": "string", "enum": ["open", "closed", "all"]},
                        "labels": {"type": "array", "items": {"type": "string"}},
                    },
                    "required": ["state"],
                    "additionalProperties": False,
                },
            },
            "required": ["text"],
            "additionalProperties": False,
        },
        "limit": {"type": "integer", "minimum": 1, "maximum": 100},
        "sort": {"type": "string", "enum": ["created", "updated", "comments"]},
    },
    "required": ["query"],
    "additionalProperties": False,
}

MCP_SERVERS: list[dict[str, Any]] = [
    {
        "uid": "tracker",
        "name": "issues",
        "tools": [
            {
                "name": "search_issues",
                "description": "Search the issue tracker.",
                "inputSchema": SEARCH_SCHEMA,
            }
        ],
    }
]

DIFF = """------- SEARCH
export function start(port: number) {
  const server = createServer(handler);
  server.listen(port);
=======
export function start(port: number, host = "127.0.0.1") {
  const server = createServer(handler);
  server.on("error", (err) => log.error("server failed", err));
  server.listen(port, host);
+++++++ REPLACE
------- SEARCH
  log.info(`listening on ${port}`);
=======
  log.info(`listening on ${host}:${port}`);
+++++++ REPLACE"""

PATH = "/home/user/project/src/server.ts"

#: Argument objects of the good reply, by tool (the MCP tool under its key "mcp").
GOOD_ARGS: dict[str, dict[str, Any]] = {
    "execute_command": {"command": "npm run test -- --watch=false", "requires_approval": False},
    "replace_in_file": {"absolutePath": PATH, "diff": DIFF},
    "read_file": {"path": "src/server.ts"},
    "mcp": {
        "query": {"text": "crash on start", "filters": {"state": "open", "labels": ["bug", "p1"]}},
        "limit": 20,
        "sort": "updated",
    },
}

#: The bad reply's argument objects that are JSON (read_file's are not: see BAD_READ_FILE),
#: and for the validation-only timings a read_file object with wrong types in its place.
BAD_ARGS: dict[str, dict[str, Any]] = {
    "execute_command": {"command": "rm -rf build", "requires_approval": "yes"},  # wrong type
    "replace_in_file": {"absolutePath": PATH},  # diff missing
    "read_file": {"path": 7, "start_line": "ten"},  # validation-only stand-in
    "mcp": {  # unknown parameter, enum, bound, item type
        "query": {"text": "crash", "filters": {"state": "pending", "labels": ["bug", 3]}},
        "limit": 500,
        "verbose": True,
    },
}

#: read_file's arguments in the bad reply: JSON cut off (not an object, not parseable).
BAD_READ_FILE = '{"path": "src/server.ts"'


def tool_names(separator: str) -> dict[str, str]:
    """The name each of the four tools is called by (the MCP tool under the catalog's separator)."""
    return {
        "execute_command": "execute_command",
        "replace_in_file": "replace_in_file",
        "read_file": "read_file",
        "mcp": f"tracker{separator}search_issues",
    }


def completion(names: dict[str, str], arguments: dict[str, str]) -> dict[str, Any]:
    """An OpenAI Chat completion body calling each tool in ``names`` with its argument text."""
    calls = [
        {"id": f"call_{n}", "type": "function", "function": {"name": names[key], "arguments": arguments[key]}}
        for n, key in enumerate(names, 1)
    ]
    message = {"role": "assistant", "content": None, "refusal": None, "tool_calls": calls}
    return {
        "id": "chatcmpl-bench",
        "object": "chat.completion",
        "created": 1767225600,
        "model": "gpt-5-2025-08-07",
        "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls", "logprobs": None}],
        "usage": {"prompt_tokens": 5210, "completion_tokens": 412, "total_tokens": 5622},
    }


def replies(separator: str) -> dict[str, dict[str, Any]]:
    """The good and the bad completion body."""
    names = tool_names(separator)
    good = {key: json.dumps(value) for key, value in GOOD_ARGS.items()}
    bad = {key: json.dumps(value) for key, value in BAD_ARGS.items()}
    bad["read_file"] = BAD_READ_FILE
    return {"good": completion(names, good), "bad": completion(names, bad)}


def tool_calls(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The body's call list, read the cheapest way (the peers' glue)."""
    calls: list[dict[str, Any]] = body["choices"][0]["message"]["tool_calls"]
    return calls


def tool_message(call_id: str, content: Any) -> dict[str, Any]:
    """The OpenAI Chat result message the peers' glue builds for one call."""
    return {"role": "tool", "tool_call_id": call_id, "content": str(content)}
