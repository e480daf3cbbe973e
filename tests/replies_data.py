"""Canned provider replies (parsed JSON bodies) and stream events for the return-path tests."""

from __future__ import annotations

import json
from typing import Any

FORMATS = ("anthropic", "openai-chat", "openai-responses", "gemini", "bedrock-converse")

#: (call id, tool name, arguments): two parallel calls, the second with nested values.
CALLS: list[tuple[str, str, dict[str, Any]]] = [
    ("call_a", "read_file", {"path": "src/app.ts"}),
    ("call_b", "search_files", {"path": ".", "regex": 'a"b\\c', "n": [1, {"x": None}]}),
    ("call_c", "list_files", {}),
]


def reply(fmt: str, calls: list[tuple[str | None, str, Any]] = CALLS, *, text: str = "Let me look.") -> dict[str, Any]:
    """A reply of ``fmt`` with some text and ``calls``; arguments given as str are sent as they are
    (raw JSON text for the OpenAI formats, the value itself elsewhere)."""

    def encoded(args: Any) -> Any:
        return args if isinstance(args, str) else json.dumps(args)

    def with_id(entry: dict[str, Any], key: str, call_id: str | None) -> dict[str, Any]:
        return {key: call_id, **entry} if call_id is not None else entry

    if fmt == "anthropic":
        content: list[dict[str, Any]] = [{"type": "text", "text": text}]
        content += [with_id({"type": "tool_use", "name": n, "input": a}, "id", i) for i, n, a in calls]
        return {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-5",
            "content": content,
            "stop_reason": "tool_use",
            "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 20},
        }
    if fmt == "openai-chat":
        tool_calls = [
            with_id({"type": "function", "function": {"name": n, "arguments": encoded(a)}}, "id", i)
            for i, n, a in calls
        ]
        return {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 1,
            "model": "gpt-4.1",
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "tool_calls",
                    "message": {"role": "assistant", "content": text, "tool_calls": tool_calls},
                }
            ],
        }
    if fmt == "openai-responses":
        output: list[dict[str, Any]] = [
            {
                "type": "message",
                "id": "msg_1",
                "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": text, "annotations": []}],
            }
        ]
        output += [
            with_id(
                {"type": "function_call", "id": f"fc_{k}", "name": n, "arguments": encoded(a), "status": "completed"},
                "call_id",
                i,
            )
            for k, (i, n, a) in enumerate(calls)
        ]
        return {
            "id": "resp_1",
            "object": "response",
            "created_at": 1,
            "model": "gpt-4.1",
            "output": output,
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": [],
        }
    if fmt == "gemini":
        parts: list[dict[str, Any]] = [{"text": text}]
        parts += [{"functionCall": with_id({"name": n, "args": a}, "id", i)} for i, n, a in calls]
        return {"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP"}]}
    if fmt == "bedrock-converse":
        blocks: list[dict[str, Any]] = [{"text": text}]
        blocks += [{"toolUse": with_id({"name": n, "input": a}, "toolUseId", i)} for i, n, a in calls]
        return {
            "output": {"message": {"role": "assistant", "content": blocks}},
            "stopReason": "tool_use",
            "usage": {"inputTokens": 1, "outputTokens": 1, "totalTokens": 2},
            "metrics": {"latencyMs": 1},
        }
    raise ValueError(fmt)


def pieces(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


def anthropic_events(calls: list[tuple[str, str, Any]] = CALLS, size: int = 3) -> list[dict[str, Any]]:
    """The raw Messages stream events of a reply: a text block, then each call's block in pieces."""
    events: list[dict[str, Any]] = [
        {"type": "message_start", "message": {**reply("anthropic", []), "content": []}},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Let me look."}},
        {"type": "content_block_stop", "index": 0},
    ]
    for index, (call_id, name, args) in enumerate(calls, start=1):
        events.append(
            {
                "type": "content_block_start",
                "index": index,
                "content_block": {"type": "tool_use", "id": call_id, "name": name, "input": {}},
            }
        )
        text = args if isinstance(args, str) else json.dumps(args)
        for piece in pieces(text, size):
            events.append(
                {
                    "type": "content_block_delta",
                    "index": index,
                    "delta": {"type": "input_json_delta", "partial_json": piece},
                }
            )
        events.append({"type": "content_block_stop", "index": index})
    events.append(
        {
            "type": "message_delta",
            "delta": {"stop_reason": "tool_use", "stop_sequence": None},
            "usage": {"output_tokens": 5},
        }
    )
    events.append({"type": "message_stop"})
    return events


def openai_chat_chunks(calls: list[tuple[str, str, Any]] = CALLS, size: int = 3) -> list[dict[str, Any]]:
    """Chat Completions stream chunks: each call's first delta has its id and name, then arguments."""

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {
            "id": "chatcmpl-1",
            "object": "chat.completion.chunk",
            "created": 1,
            "model": "gpt-4.1",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }

    chunks = [chunk({"role": "assistant", "content": "Let me look."})]
    for index, (call_id, name, args) in enumerate(calls):
        chunks.append(
            chunk(
                {
                    "tool_calls": [
                        {"index": index, "id": call_id, "type": "function", "function": {"name": name, "arguments": ""}}
                    ]
                }
            )
        )
        text = args if isinstance(args, str) else json.dumps(args)
        for piece in pieces(text, size):
            chunks.append(chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]}))
    chunks.append(chunk({}, "tool_calls"))
    return chunks


def openai_responses_events(calls: list[tuple[str | None, str, Any]] = CALLS, size: int = 3) -> list[dict[str, Any]]:
    """The Responses API stream of a reply: a message item with its text, then each call's
    ``function_call`` item (added, argument deltas, arguments done, item done), then completed."""
    whole = reply("openai-responses", calls)
    number = iter(range(1, 10_000))

    def event(kind: str, **fields: Any) -> dict[str, Any]:
        return {"type": kind, "sequence_number": next(number), **fields}

    def started(item: dict[str, Any]) -> dict[str, Any]:
        if item["type"] == "message":
            return {**item, "status": "in_progress", "content": []}
        return {**item, "status": "in_progress", "arguments": ""}

    created = {**whole, "status": "in_progress", "output": []}
    events = [event("response.created", response=created), event("response.in_progress", response=created)]
    for index, item in enumerate(whole["output"]):
        events.append(event("response.output_item.added", output_index=index, item=started(item)))
        where = {"item_id": item["id"], "output_index": index}
        if item["type"] == "message":
            text = item["content"][0]["text"]
            part = {"type": "output_text", "text": "", "annotations": []}
            events.append(event("response.content_part.added", **where, content_index=0, part=part))
            events.append(event("response.output_text.delta", **where, content_index=0, delta=text, logprobs=[]))
            events.append(event("response.output_text.done", **where, content_index=0, text=text, logprobs=[]))
            events.append(event("response.content_part.done", **where, content_index=0, part=item["content"][0]))
        else:
            for piece in pieces(item["arguments"], size):
                events.append(event("response.function_call_arguments.delta", **where, delta=piece))
            events.append(event("response.function_call_arguments.done", **where, arguments=item["arguments"]))
        events.append(event("response.output_item.done", output_index=index, item=item))
    events.append(event("response.completed", response={**whole, "status": "completed"}))
    return events


def gemini_chunks(calls: list[tuple[str | None, str, Any]] = CALLS, per_chunk: int = 1) -> list[dict[str, Any]]:
    """Streamed ``generateContent`` chunks: the text first, then ``per_chunk`` functionCall parts
    per chunk; the last chunk has the finish reason and the usage."""
    parts = reply("gemini", calls)["candidates"][0]["content"]["parts"]
    groups = [parts[:1]] + [parts[i : i + per_chunk] for i in range(1, len(parts), per_chunk)]
    chunks: list[dict[str, Any]] = [
        {"candidates": [{"content": {"role": "model", "parts": group}, "index": 0}], "modelVersion": "gemini-2.5-pro"}
        for group in groups
    ]
    chunks[-1]["candidates"][0]["finishReason"] = "STOP"
    chunks[-1]["usageMetadata"] = {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15}
    return chunks
