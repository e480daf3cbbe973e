"""generator/runtime/streams.py on its own: the OpenAI Responses and Gemini accumulators.

Each stream is cut after every event (with argument pieces of several sizes): what is complete
then equals ``read_calls`` of the whole reply, an open call previews a prefix of its final
arguments, and ``finish()`` equals ``read_calls`` of the reply the events so far describe.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from test_runtime_replies import EXPECTED, Dumpable, _assert_prefix, _feed_all, as_object

from generator.runtime.replies import read_calls
from generator.runtime.schema_common import MAX_NESTING
from generator.runtime.streams import GeminiStream, OpenAIResponsesStream
from generator.runtime.tool_types import ToolUse
from replies_data import CALLS, gemini_chunks, openai_responses_events, reply

# ---- OpenAI Responses ---------------------------------------------------------------------


def _responses_so_far(events: list[dict[str, Any]]) -> dict[str, Any]:
    """What the events so far say, as one reply: the calls added, with the argument text the
    deltas gave (the whole text of a done event replaces them)."""
    calls: dict[int, list[Any]] = {}
    for event in events:
        index = event.get("output_index")
        item = event.get("item", {})
        if event["type"] == "response.output_item.added" and item["type"] == "function_call":
            calls[index] = [item["call_id"], item["name"], item["arguments"]]
        elif event["type"] == "response.function_call_arguments.delta":
            calls[index][2] += event["delta"]
        elif event["type"] == "response.function_call_arguments.done":
            calls[index][2] = event["arguments"]
    return reply("openai-responses", [tuple(c) for _, c in sorted(calls.items())])  # type: ignore[misc]


@pytest.mark.parametrize("size", [1, 5, 1000])
def test_responses_stream_matches_the_whole_reply_at_every_cut(size: int) -> None:
    events = openai_responses_events(size=size)
    whole = read_calls(reply("openai-responses"), "openai-responses")
    for cut in range(len(events) + 1):
        stream = OpenAIResponsesStream()
        _feed_all(stream, events[:cut])
        calls = stream.calls
        complete = [c for c in calls if not c.partial]
        assert complete == whole[: len(complete)]
        assert len(calls) - len(complete) <= 1
        for use, final in zip(calls, whole, strict=False):
            assert (use.id, use.name, use.error) == (final.id, final.name, None)
            _assert_prefix(use.params, final.params)
        assert stream.finish() == read_calls(_responses_so_far(events[:cut]), "openai-responses")
        assert stream.problems == []
    stream = OpenAIResponsesStream()
    changed = _feed_all(stream, events)
    assert stream.calls == whole == EXPECTED
    assert [use for batch in changed for use in batch if not use.partial] == whole
    assert changed[-1] == []  # response.completed: everything was closed already


def test_responses_previews_come_from_the_deltas() -> None:
    stream = OpenAIResponsesStream()
    events = openai_responses_events([("c1", "read_file", {"path": 'src/é"x.ts'})], size=1)
    previews = [u.params.get("path") for e in events for u in stream.feed(e) if u.partial]
    assert previews[0] is None and previews[-1] == 'src/é"x.ts'
    assert "src/" in previews and 'src/é"' in previews


def test_responses_whole_arguments_win_over_lost_deltas() -> None:
    events = openai_responses_events([("c1", "w", {"k": [1, 2]})], size=2)
    deltas = [e for e in events if e["type"] == "response.function_call_arguments.delta"]
    events.remove(deltas[1])
    stream = OpenAIResponsesStream()
    _feed_all(stream, events)
    assert stream.calls == [ToolUse("w", {"k": [1, 2]}, id="c1")]
    # without the arguments.done event, the item's done event gives the text
    events = [e for e in events if e["type"] != "response.function_call_arguments.done"]
    stream = OpenAIResponsesStream()
    _feed_all(stream, events)
    assert stream.calls == [ToolUse("w", {"k": [1, 2]}, id="c1")]


def test_responses_item_done_alone_is_a_call() -> None:
    """A stream joined late, or a server that sends items whole: the done event is enough."""
    events = [e for e in openai_responses_events() if e["type"] == "response.output_item.done"]
    stream = OpenAIResponsesStream()
    _feed_all(stream, events)
    assert stream.calls == EXPECTED


def test_responses_end_events_close_open_calls() -> None:
    for end in ("response.completed", "response.incomplete", "response.failed"):
        events = openai_responses_events([("c1", "w", '{"a": "b'), ("c2", "v", {})], size=3)
        closing = ("response.function_call_arguments.done", "response.output_item.done")
        events = [e for e in events if e["type"] not in closing]
        events[-1]["type"] = end
        stream = OpenAIResponsesStream()
        closed = _feed_all(stream, events)[-1]
        assert [u.id for u in closed] == ["c1", "c2"] and not any(u.partial for u in closed)
        assert "not valid JSON" in (closed[0].error or "") and closed[1] == ToolUse("v", {}, id="c2")


def test_responses_malformed_calls_and_hostile_events_cost_only_themselves() -> None:
    calls = [("c1", "a", '{"x": 1'), (None, "b", {}), ("c3", "", {}), ("c1", "d", {}), ("c5", "e", {"ok": True})]
    events = openai_responses_events(calls, size=2)  # type: ignore[arg-type]
    events.insert(5, {"type": "response.function_call_arguments.delta", "output_index": "nope", "delta": "x"})
    events.insert(5, {"type": "response.function_call_arguments.delta", "output_index": 1, "delta": 5})
    events.insert(5, {"type": ["unhashable"], "output_index": 1})
    events.insert(5, 42)  # type: ignore[arg-type]
    stream = OpenAIResponsesStream()
    _feed_all(stream, events)
    got = stream.calls
    assert got == read_calls(reply("openai-responses", calls), "openai-responses")  # type: ignore[arg-type]
    assert "not valid JSON" in (got[0].error or "") and "no call id" in (got[1].error or "")
    assert "names no tool" in (got[2].error or "") and "already has the id 'c1'" in (got[3].error or "")
    assert got[4] == ToolUse("e", {"ok": True}, id="c5") and stream.problems == []


def test_responses_other_items_are_not_calls() -> None:
    stream = OpenAIResponsesStream()
    reasoning = {"type": "reasoning", "id": "rs_1", "summary": []}
    assert stream.feed({"type": "response.output_item.added", "output_index": 0, "item": reasoning}) == []
    assert stream.feed({"type": "response.output_item.done", "output_index": 0, "item": reasoning}) == []
    assert stream.feed({"type": "response.function_call_arguments.delta", "output_index": 0, "delta": "{"}) == []
    assert stream.finish() == []


def test_responses_limits_hold_while_streaming() -> None:
    events = openai_responses_events([("c1", "w", {"a": "x" * 500}), ("c2", "ok", {})], size=50)
    stream = OpenAIResponsesStream(max_argument_chars=100)
    _feed_all(stream, events)
    assert "longer than 100 characters" in (stream.calls[0].error or "")
    assert stream.calls[1] == ToolUse("ok", {}, id="c2")
    deep = "[" * (MAX_NESTING + 1) + "]" * (MAX_NESTING + 1)
    stream = OpenAIResponsesStream()
    _feed_all(stream, openai_responses_events([("c1", "w", '{"a": ' + deep + "}")], size=7))
    assert "nested more than" in (stream.calls[0].error or "")


def test_responses_stream_of_sdk_like_objects() -> None:
    for wrap in (Dumpable, as_object):
        stream = OpenAIResponsesStream()
        _feed_all(stream, [wrap(e) for e in openai_responses_events(size=4)])
        assert stream.calls == EXPECTED


# ---- Gemini -------------------------------------------------------------------------------

GEMINI_CALLS: list[tuple[str | None, str, Any]] = [(None, "a", {"x": 1}), *CALLS, (None, "b", {"y": [None]})]


@pytest.mark.parametrize("per_chunk", [1, 2, 5])
@pytest.mark.parametrize("calls", [CALLS, GEMINI_CALLS])
def test_gemini_stream_matches_the_whole_reply_at_every_cut(
    calls: list[tuple[str | None, str, Any]], per_chunk: int
) -> None:
    chunks = gemini_chunks(calls, per_chunk)
    whole = read_calls(reply("gemini", calls), "gemini")
    for cut in range(len(chunks) + 1):
        stream = GeminiStream()
        changed = _feed_all(stream, chunks[:cut])
        so_far = [p for c in chunks[:cut] for p in c["candidates"][0]["content"]["parts"]]
        expected = read_calls({"candidates": [{"content": {"parts": so_far}}]}, "gemini")
        assert stream.calls == expected == whole[: len(expected)] == stream.finish()
        assert [u for batch in changed for u in batch] == expected  # each call once, complete
    assert stream.problems == []


def test_gemini_ids_and_errors_across_chunks() -> None:
    calls: list[tuple[str | None, str, Any]] = [("g1", "a", {}), ("g1", "b", {}), (None, "", {}), (None, "c", [1])]
    stream = GeminiStream()
    _feed_all(stream, gemini_chunks(calls, 1))
    got = stream.calls
    assert got == read_calls(reply("gemini", calls), "gemini")
    assert got[0] == ToolUse("a", {}, id="g1") and "already has the id 'g1'" in (got[1].error or "")
    assert "names no tool" in (got[2].error or "") and got[2].id == "toolgen-call-2"
    assert "a JSON array, not an object" in (got[3].error or "")


def test_gemini_hostile_chunks_and_parts() -> None:
    class Exploding:
        @property
        def functionCall(self) -> Any:
            raise RuntimeError("boom")

    stream = GeminiStream()
    bad_parts = {"candidates": [{"content": {"parts": [Exploding(), {"functionCall": {"name": "ok", "args": {}}}]}}]}
    for chunk in (None, 3, "x", {}, {"candidates": []}, {"candidates": [{"content": {"parts": 7}}]}, bad_parts):
        stream.feed(chunk)
    assert stream.calls == [ToolUse("ok", {}, id="toolgen-call-0")]
    assert stream.problems == ["part 0 not read: RuntimeError: boom"]


def test_gemini_limits_hold() -> None:
    deep: Any = {}
    for _ in range(MAX_NESTING + 1):
        deep = {"a": deep}
    calls: list[tuple[str | None, str, Any]] = [("g1", "w", {"a": "x" * 500}), ("g2", "d", deep), ("g3", "ok", {})]
    stream = GeminiStream(max_argument_chars=100)
    _feed_all(stream, gemini_chunks(calls, 2))
    first, second, third = stream.calls
    assert "longer than 100 characters" in (first.error or "") and "nested more than" in (second.error or "")
    assert third == ToolUse("ok", {}, id="g3")


def test_gemini_stream_of_sdk_like_objects() -> None:
    chunks = gemini_chunks(CALLS, 2)
    for wrap in (Dumpable, as_object):
        stream = GeminiStream()
        _feed_all(stream, [wrap(json.loads(json.dumps(c))) for c in chunks])
        assert stream.calls == EXPECTED
