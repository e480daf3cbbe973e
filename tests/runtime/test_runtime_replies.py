"""generator/runtime/replies.py on its own: reading calls from replies, streams, result messages."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from generator.runtime import formats
from generator.runtime.replies import (
    MAX_ARGUMENT_CHARS,
    SYNTHETIC_ID_PREFIX,
    decode_arguments,
    read_calls,
    result_message,
    result_messages,
)
from generator.runtime.schema_common import MAX_NESTING, _json_type_of
from generator.runtime.streams import AnthropicStream, OpenAIChatStream
from generator.runtime.tool_types import ToolResult, ToolUse
from replies_data import CALLS, FORMATS, anthropic_events, openai_chat_chunks, reply

EXPECTED = [ToolUse(name, args, id=call_id) for call_id, name, args in CALLS]


def as_object(value: Any) -> Any:
    """``value`` with every dict turned into an object with attributes (an SDK-like object);
    call arguments stay dicts, as the SDKs keep them."""
    if isinstance(value, dict):
        return SimpleNamespace(**{k: v if k in ("input", "args") else as_object(v) for k, v in value.items()})
    if isinstance(value, list):
        return [as_object(v) for v in value]
    return value


class Dumpable:
    """An object whose only way in is ``model_dump()``, like a pydantic model."""

    def __init__(self, data: dict[str, Any]) -> None:
        self._data = data

    def model_dump(self) -> dict[str, Any]:
        return self._data


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_parallel_call_in_order_with_its_id(fmt: str) -> None:
    assert read_calls(reply(fmt), fmt) == EXPECTED


@pytest.mark.parametrize("fmt", FORMATS)
def test_objects_read_by_attribute_and_by_model_dump(fmt: str) -> None:
    data = reply(fmt)
    assert read_calls(Dumpable(data), fmt) == EXPECTED
    assert read_calls(as_object(data), fmt) == EXPECTED


def test_sdk_objects_spell_keys_in_snake_case() -> None:
    """google-genai objects say function_call where the JSON body says functionCall."""
    part = SimpleNamespace(function_call=SimpleNamespace(name="f", args={"a": 1}, id="x"), text=None)
    response = SimpleNamespace(candidates=[SimpleNamespace(content=SimpleNamespace(parts=[part]))])
    assert read_calls(response, "gemini") == [ToolUse("f", {"a": 1}, id="x")]
    block = SimpleNamespace(tool_use=SimpleNamespace(tool_use_id="t1", name="g", input={}))
    assert read_calls({"output": {"message": {"content": [block]}}}, "bedrock-converse") == [ToolUse("g", {}, id="t1")]


@pytest.mark.parametrize(
    "fmt, part",
    [
        ("openai-chat", lambda r: r["choices"][0]),
        ("openai-chat", lambda r: r["choices"][0]["message"]),
        ("openai-chat", lambda r: r["choices"][0]["message"]["tool_calls"]),
        ("gemini", lambda r: r["candidates"][0]),
        ("gemini", lambda r: r["candidates"][0]["content"]),
        ("bedrock-converse", lambda r: r["output"]),
        ("bedrock-converse", lambda r: r["output"]["message"]),
        ("anthropic", lambda r: r["content"]),
        ("openai-responses", lambda r: r["output"]),
    ],
)
def test_a_part_along_the_call_path_is_read_too(fmt: str, part: Any) -> None:
    assert read_calls(part(reply(fmt)), fmt) == EXPECTED


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_text_reply_has_no_calls_and_no_problem(fmt: str) -> None:
    problems: list[str] = []
    assert read_calls(reply(fmt, []), fmt, problems=problems) == []
    assert problems == []


def test_openai_text_reply_with_null_tool_calls() -> None:
    data = reply("openai-chat", [])
    data["choices"][0]["message"]["tool_calls"] = None
    problems: list[str] = []
    assert read_calls(data, "openai-chat", problems=problems) == [] and problems == []


@pytest.mark.parametrize(
    "response, fmt, expected",
    [
        ({"foo": 1}, "gemini", "unknown response shape: dict without candidates[0].content.parts"),
        ({"candidates": []}, "gemini", "the response has no candidates[0] (empty)"),
        ({"choices": {"0": {}}}, "openai-chat", "the response has no choices[0] (dict)"),
        ({"choices": [{"message": {"tool_calls": {"id": 1}}}]}, "openai-chat", "is a dict, not a list"),
        ("just text", "anthropic", "unknown response shape: str without content"),
        (None, "bedrock-converse", "unknown response shape: NoneType"),
        (reply("bedrock-converse"), "openai-responses", "output is a dict, not a list"),
    ],
)
def test_unknown_shapes_give_no_calls_and_are_reported(response: Any, fmt: str, expected: str) -> None:
    problems: list[str] = []
    assert read_calls(response, fmt, problems=problems) == []
    assert len(problems) == 1 and expected in problems[0]


def test_malformed_json_is_an_error_for_that_call_only() -> None:
    calls = [("c1", "a", {"x": 1}), ("c2", "b", '{"x": 1,'), ("c3", "c", "[1, 2]"), ("c4", "d", "NaN")]
    for fmt in ("openai-chat", "openai-responses"):
        uses = read_calls(reply(fmt, calls), fmt)
        assert [u.id for u in uses] == ["c1", "c2", "c3", "c4"]
        assert uses[0] == ToolUse("a", {"x": 1}, id="c1")
        assert all(u.params == {} and u.error for u in uses[1:])
        assert "tool b was not run: its arguments are not valid JSON" in (uses[1].error or "")
        assert "line 1 column 9" in (uses[1].error or "")
        assert "a JSON array, not an object" in (uses[2].error or "")
        assert "not valid JSON (NaN is not JSON)" in (uses[3].error or "")


@pytest.mark.parametrize("fmt", FORMATS)
def test_arguments_that_are_not_an_object(fmt: str) -> None:
    if fmt.startswith("openai"):
        return  # there the arguments are JSON text, covered above
    uses = read_calls(reply(fmt, [("c1", "a", [1]), ("c2", "b", 3), ("c3", "c", {"ok": True})]), fmt)
    assert [bool(u.error) for u in uses] == [True, True, False]
    assert "a JSON array" in (uses[0].error or "") and "a JSON integer" in (uses[1].error or "")


def test_empty_argument_text_means_no_arguments() -> None:
    assert read_calls(reply("openai-chat", [("c1", "a", "")]), "openai-chat") == [ToolUse("a", {}, id="c1")]
    assert read_calls(reply("gemini", [("c1", "a", None)]), "gemini") == [ToolUse("a", {}, id="c1")]


def test_huge_arguments_are_refused_before_parsing() -> None:
    huge = '{"content": "' + "x" * 10_000_000 + '"}'
    uses = read_calls(reply("openai-chat", [("c1", "write", huge), ("c2", "ok", "{}")]), "openai-chat")
    assert uses[1] == ToolUse("ok", {}, id="c2")
    assert uses[0].params == {} and f"at most {MAX_ARGUMENT_CHARS} are read" in (uses[0].error or "")
    # an object already parsed by the SDK is held to the same limit
    big = read_calls(reply("anthropic", [("c1", "write", {"content": "x" * 10_000_000})]), "anthropic")
    assert "longer than" in (big[0].error or "")
    # and the limit can be set per call
    small = read_calls(reply("gemini", [("c1", "w", {"a": "x" * 50})]), "gemini", max_argument_chars=40)
    assert small[0].error


def test_deep_arguments_are_refused() -> None:
    deep_text = '{"a": ' + "[" * (MAX_NESTING + 5) + "]" * (MAX_NESTING + 5) + "}"
    uses = read_calls(reply("openai-chat", [("c1", "a", deep_text)]), "openai-chat")
    assert f"nested more than {MAX_NESTING} levels" in (uses[0].error or "")
    deep: Any = {}
    for _ in range(MAX_NESTING + 5):
        deep = {"a": deep}
    uses = read_calls(reply("bedrock-converse", [("c1", "a", deep)]), "bedrock-converse")
    assert f"nested more than {MAX_NESTING} levels" in (uses[0].error or "")


def test_gemini_calls_without_ids_get_stable_ids() -> None:
    calls: list[tuple[str | None, str, Any]] = [(None, "a", {}), ("given", "b", {}), (None, "c", {})]
    first = read_calls(reply("gemini", calls), "gemini")
    assert [u.id for u in first] == [f"{SYNTHETIC_ID_PREFIX}0", "given", f"{SYNTHETIC_ID_PREFIX}2"]
    assert all(u.error is None for u in first)
    assert read_calls(reply("gemini", calls), "gemini") == first


@pytest.mark.parametrize("fmt", [f for f in FORMATS if f != "gemini"])
def test_a_missing_id_is_an_error_where_the_api_always_gives_one(fmt: str) -> None:
    uses = read_calls(reply(fmt, [(None, "a", {}), ("c2", "b", {})]), fmt)
    assert uses[0].id == f"{SYNTHETIC_ID_PREFIX}0" and "no call id" in (uses[0].error or "")
    assert uses[1] == ToolUse("b", {}, id="c2")


@pytest.mark.parametrize("fmt", FORMATS)
def test_missing_name_and_duplicate_ids(fmt: str) -> None:
    uses = read_calls(reply(fmt, [("c1", "", {}), ("c2", "b", {}), ("c2", "c", {"x": 1})]), fmt)
    assert "a tool without a name was not run: the reply names no tool" in (uses[0].error or "")
    assert uses[1] == ToolUse("b", {}, id="c2")
    assert uses[2].id == "c2" and "already has the id 'c2'" in (uses[2].error or "") and uses[2].params == {}


def test_an_id_reused_after_a_broken_call_is_still_a_duplicate() -> None:
    uses = read_calls(reply("openai-chat", [("c1", "a", "{bad"), ("c1", "b", "{}")]), "openai-chat")
    assert "not valid JSON" in (uses[0].error or "") and "already has the id 'c1'" in (uses[1].error or "")


def test_a_custom_openai_tool_call_is_answered_with_an_error() -> None:
    data = reply("openai-chat")
    data["choices"][0]["message"]["tool_calls"].append({"id": "c9", "type": "custom", "custom": {"name": "x"}})
    last = read_calls(data, "openai-chat")[-1]
    assert last.id == "c9" and last.error


def test_a_hostile_element_costs_that_element_only() -> None:
    class Exploding:
        @property
        def type(self) -> str:
            raise RuntimeError("boom")

    data = reply("anthropic")
    data["content"].insert(1, Exploding())
    problems: list[str] = []
    assert read_calls(data, "anthropic", problems=problems) == EXPECTED
    assert problems == ["element 1 not read: RuntimeError: boom"]


def test_unknown_format() -> None:
    with pytest.raises(ValueError, match="unknown dialect 'nope'"):
        read_calls({}, "nope")


def test_decode_arguments_directly() -> None:
    assert decode_arguments('{"a": [1, "x"]}') == ({"a": [1, "x"]}, None)
    assert decode_arguments("  ") == ({}, None)
    assert decode_arguments(b"{}")[1] == "its arguments are a JSON bytes, not an object"


# ---- streaming ----------------------------------------------------------------------------


def _feed_all(stream: Any, events: list[dict[str, Any]]) -> list[list[ToolUse]]:
    return [stream.feed(e) for e in events]


@pytest.mark.parametrize("size", [1, 4, 1000])
def test_anthropic_stream_matches_the_whole_reply_at_every_cut(size: int) -> None:
    events = anthropic_events(size=size)
    whole = read_calls(reply("anthropic"), "anthropic")
    for cut in range(len(events) + 1):
        stream = AnthropicStream()
        _feed_all(stream, events[:cut])
        calls = stream.calls
        complete = [c for c in calls if not c.partial]
        assert complete == whole[: len(complete)]
        for use in calls:  # an open call shows a prefix of its final arguments
            assert use.error is None
            final = whole[[w.id for w in whole].index(use.id)]
            assert use.name == final.name
            _assert_prefix(use.params, final.params)
        assert len([c for c in calls if c.partial]) <= 1
    stream = AnthropicStream()
    _feed_all(stream, events)
    assert stream.calls == whole == stream.finish()


@pytest.mark.parametrize("size", [1, 5, 1000])
def test_openai_chat_stream_matches_the_whole_reply_at_every_cut(size: int) -> None:
    chunks = openai_chat_chunks(size=size)
    whole = read_calls(reply("openai-chat"), "openai-chat")
    for cut in range(len(chunks) + 1):
        stream = OpenAIChatStream()
        _feed_all(stream, chunks[:cut])
        calls = stream.calls
        assert all(c.partial for c in calls) or cut == len(chunks)
        for use, final in zip(calls, whole, strict=False):
            assert (use.id, use.name) == (final.id, final.name)
            _assert_prefix(use.params, final.params)
        assert stream.finish() == read_calls(_truncated_chat(chunks[:cut]), "openai-chat")
    stream = OpenAIChatStream()
    changed = _feed_all(stream, chunks)
    assert changed[-1] == whole == stream.calls


def _truncated_chat(chunks: list[dict[str, Any]]) -> dict[str, Any]:
    """What the chunks so far say, as one reply (for comparing with a stream cut there)."""
    calls: dict[int, dict[str, str]] = {}
    for chunk in chunks:
        for delta in chunk["choices"][0]["delta"].get("tool_calls", []):
            entry = calls.setdefault(delta["index"], {"id": "", "name": "", "arguments": ""})
            entry["id"] = entry["id"] or delta.get("id", "")
            entry["name"] += delta.get("function", {}).get("name", "")
            entry["arguments"] += delta["function"]["arguments"]
    return reply("openai-chat", [(c["id"], c["name"], c["arguments"]) for _, c in sorted(calls.items())])


def _assert_prefix(partial: Any, final: Any) -> None:
    """``partial`` is what a prefix of ``final``'s JSON text shows."""
    if isinstance(final, dict):
        assert isinstance(partial, dict) and set(partial) <= set(final)
        for key in partial:
            _assert_prefix(partial[key], final[key])
    elif isinstance(final, list):
        assert isinstance(partial, list) and len(partial) <= len(final)
        for p, f in zip(partial, final, strict=False):
            _assert_prefix(p, f)
    elif isinstance(final, str):
        assert isinstance(partial, str) and final.startswith(partial)
    elif isinstance(final, int) and not isinstance(final, bool):
        assert str(final).startswith(str(partial))
    else:
        assert partial == final


def test_stream_previews_for_handlers() -> None:
    stream = AnthropicStream()
    events = anthropic_events([("t1", "read_file", {"path": 'src/é"x.ts'})], size=1)
    previews = [u.params.get("path") for e in events for u in stream.feed(e) if u.partial]
    assert previews[0] is None and previews[-1] == 'src/é"x.ts'
    assert "src/" in previews and 'src/é"' in previews  # the escape sequences are never cut


def test_stream_arguments_past_the_limit_make_an_error() -> None:
    stream = OpenAIChatStream(max_argument_chars=100)
    chunks = openai_chat_chunks([("c1", "w", {"a": "x" * 500}), ("c2", "ok", {})], size=50)
    uses = _feed_all(stream, chunks)[-1]
    assert "longer than 100 characters" in (uses[0].error or "") and uses[1] == ToolUse("ok", {}, id="c2")


def test_stream_malformed_arguments_and_hostile_events() -> None:
    stream = AnthropicStream()
    events = anthropic_events([("t1", "a", '{"x": 1'), ("t2", "b", {"y": 2})])
    events.insert(3, {"type": "content_block_delta", "index": "nope"})
    events.insert(3, 42)  # type: ignore[arg-type]
    _feed_all(stream, events)
    first, second = stream.calls
    assert "not valid JSON" in (first.error or "") and second == ToolUse("b", {"y": 2}, id="t2")


def test_stream_of_sdk_like_objects() -> None:
    stream = OpenAIChatStream()
    for chunk in openai_chat_chunks(size=2):
        stream.feed(Dumpable(chunk))
    assert stream.calls == EXPECTED


def test_long_stream_previews_are_throttled_not_quadratic() -> None:
    """A 60 KB argument streamed in 2-character pieces: previews still arrive, in linear work."""
    text = json.dumps({"content": "y" * 60_000})
    stream = AnthropicStream()
    stream.feed(
        {"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "t", "name": "w"}}
    )
    lengths = set()
    for i in range(0, len(text), 2):
        (use,) = stream.feed(
            {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "input_json_delta", "partial_json": text[i : i + 2]},
            }
        )
        lengths.add(len(use.params.get("content", "")))
    assert 20 < len(lengths) < 10_000  # re-read on growth, not on every delta
    (done,) = stream.feed({"type": "content_block_stop", "index": 0})
    assert done.params == {"content": "y" * 60_000}


# ---- results ------------------------------------------------------------------------------

USE = ToolUse("read_file", {"path": "a"}, id="call_1")


@pytest.mark.parametrize(
    "fmt, ok, failed",
    [
        (
            "anthropic",
            {"type": "tool_result", "tool_use_id": "call_1", "content": "fine", "is_error": False},
            {"type": "tool_result", "tool_use_id": "call_1", "content": "bad", "is_error": True},
        ),
        (
            "openai-chat",
            {"role": "tool", "tool_call_id": "call_1", "content": "fine"},
            {"role": "tool", "tool_call_id": "call_1", "content": "bad"},
        ),
        (
            "openai-responses",
            {"type": "function_call_output", "call_id": "call_1", "output": "fine"},
            {"type": "function_call_output", "call_id": "call_1", "output": "bad"},
        ),
        (
            "gemini",
            {"functionResponse": {"id": "call_1", "name": "read_file", "response": {"output": "fine"}}},
            {"functionResponse": {"id": "call_1", "name": "read_file", "response": {"error": "bad"}}},
        ),
        (
            "bedrock-converse",
            {"toolResult": {"toolUseId": "call_1", "content": [{"text": "fine"}], "status": "success"}},
            {"toolResult": {"toolUseId": "call_1", "content": [{"text": "bad"}], "status": "error"}},
        ),
    ],
)
def test_result_message_per_format(fmt: str, ok: dict[str, Any], failed: dict[str, Any]) -> None:
    assert result_message(USE, ToolResult.ok("fine"), fmt) == ok
    assert result_message(USE, ToolResult.error("bad"), fmt) == failed
    assert result_message(USE, ToolResult.deny("bad"), fmt) == failed


def test_gemini_leaves_made_up_ids_out() -> None:
    use = ToolUse("f", {}, id=f"{SYNTHETIC_ID_PREFIX}0")
    assert result_message(use, ToolResult.ok("x"), "gemini") == {
        "functionResponse": {"name": "f", "response": {"output": "x"}}
    }


def test_result_messages_group_where_the_format_does() -> None:
    second = ToolUse("b", {}, id="call_2")
    answers = [(USE, ToolResult.ok("1")), (second, ToolResult.error("2"))]
    (anthropic,) = result_messages(answers, "anthropic")
    assert anthropic["role"] == "user" and [b["tool_use_id"] for b in anthropic["content"]] == ["call_1", "call_2"]
    chat = result_messages(answers, "openai-chat")
    assert [m["tool_call_id"] for m in chat] == ["call_1", "call_2"]
    (gemini,) = result_messages(answers, "gemini")
    assert gemini["role"] == "user" and len(gemini["parts"]) == 2
    (bedrock,) = result_messages(answers, "bedrock-converse")
    assert [b["toolResult"]["status"] for b in bedrock["content"]] == ["success", "error"]
    assert result_messages([], "anthropic") == []


def test_every_record_has_the_return_path() -> None:
    for rec in formats.FORMATS.values():
        assert rec.call_path and rec.call_fields is not None and rec.result_envelope is not None


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=60, deadline=None)
@example(args={"a": 'x\U0001f600y\\"z'}, ascii_only=True, size=1)  # a surrogate pair is never split
@given(
    args=st.dictionaries(st.text(max_size=4), _JSON_VALUES, max_size=4),
    ascii_only=st.booleans(),
    size=st.integers(1, 7),
)
def test_stream_previews_are_prefixes_of_the_final_arguments(args: dict[str, Any], ascii_only: bool, size: int) -> None:
    """Any object, cut anywhere: every preview shows part of the final value, and the end is exact."""
    text = json.dumps(args, ensure_ascii=ascii_only)
    stream = AnthropicStream()
    for event in anthropic_events([("t1", "w", text)], size=size):
        for use in stream.feed(event):
            _assert_prefix(use.params, args)
    assert stream.calls == [ToolUse("w", args, id="t1")]


def test_text_result_lays_out_label_outcome_and_output() -> None:
    from generator.runtime.replies import text_result
    from generator.runtime.tool_types import ToolResult, ToolUse

    use = ToolUse("read_file", {"path": "a.txt"})
    assert text_result(use, ToolResult.ok("one\ntwo")) == "[read_file] returned:\none\ntwo"
    assert text_result(use, ToolResult.error("no such file")) == "[read_file] failed:\nno such file"
    assert text_result(use, ToolResult.deny(), "[read_file for 'a.txt']").startswith(
        "[read_file for 'a.txt'] was denied:\n"
    )


# ---- the fast paths give what the plain ones give ------------------------------------------

_JSONISH = st.text(alphabet='{}[]"\\:, a1-.eE\n\t\ufeffnul', max_size=60)


def _outcome(read: Any, text: str) -> Any:
    try:
        return ("value", read(text))
    except ValueError as exc:
        return ("error", type(exc).__name__, str(exc))


def _decoded_the_plain_way(text: str) -> tuple[Any, str | None]:
    """decode_arguments for text, step by step as it reads: blank, nesting, then json.loads."""
    from generator.runtime.replies import _reject_constant
    from generator.runtime.schema_common import MAX_NESTING, json_text_too_deep

    if not text.strip():
        return {}, None
    if json_text_too_deep(text):
        return {}, f"its arguments are nested more than {MAX_NESTING} levels deep"
    try:
        value = json.loads(text, parse_constant=_reject_constant)
    except ValueError as exc:
        detail = getattr(exc, "msg", str(exc))
        where = f" at line {exc.lineno} column {exc.colno}" if isinstance(exc, json.JSONDecodeError) else ""
        return {}, f"its arguments are not valid JSON ({detail}{where})"
    if not isinstance(value, dict):
        return {}, f"its arguments are a JSON {_json_type_of(value)}, not an object"
    return value, None


_DEEP = st.integers(95, 105).flatmap(
    lambda n: st.sampled_from(
        [
            '{"a": ' + "[" * n + "]" * n + "}",
            '{"a": ' + "[" * n + "]" * n,
            '{"a": ' + "[" * n + "]" * n + "} x",
            '{"a": "' + "[" * n + '"}',
            '{"a": ' + '{"b": ' * n + "1" + "}" * n + "}",
            '{"a": ' + "[" * n + "NaN" + "]" * n + "}",
        ]
    )
)


@given(st.one_of(_JSONISH, _DEEP))
@settings(max_examples=400, deadline=None)
@example('{"a": 1}  ')
@example('{"a": ' + "[" * 5000 + "]" * 5000 + "}")
@example('{"a": [1, {"b": "}"}]}')
@example('{"a": NaN}')
@example("{" * 200)
def test_arguments_text_is_decoded_as_the_plain_steps_decode_it(text: str) -> None:
    """decode_arguments scans an object first and checks its nesting after (the text's own
    check only when the object is not flat): the same values and reasons as checking first."""
    from generator.runtime.replies import decode_arguments

    assert decode_arguments(text) == _decoded_the_plain_way(text)


@given(_JSONISH)
@settings(max_examples=400, deadline=None)
@example('{"a": 1}  ')
@example('{"a": [1, {"b": "}"}]}')
@example('{"a": ')
@example('{"a": NaN}')
@example('{"a": 1} x')
@example("\ufeff{}")
def test_arguments_are_decoded_as_json_loads_decodes_them(text: str) -> None:
    from generator.runtime.replies import _loads, _reject_constant

    assert _outcome(_loads, text) == _outcome(lambda t: json.loads(t, parse_constant=_reject_constant), text)


@given(st.text(alphabet='{}[]"\\ ab', max_size=80), st.integers(0, 6))
@settings(max_examples=400, deadline=None)
@example('"\\', 0)
@example('{"[[[": [', 1)
def test_the_depth_bound_agrees_with_the_bracket_scan(text: str, limit: int) -> None:
    from generator.runtime.schema_common import json_text_depth, json_text_too_deep

    assert json_text_too_deep(text, limit) == (json_text_depth(text, limit) > limit)
    deep = "[" * (MAX_NESTING + 1) + "]" * (MAX_NESTING + 1)
    assert json_text_too_deep(deep) and not json_text_too_deep('["' + "[" * 500 + '"]')


def test_tool_use_makes_the_call_the_dataclass_makes() -> None:
    from dataclasses import asdict, replace

    from generator.runtime.tool_types import tool_use

    assert not hasattr(ToolUse, "__post_init__")  # tool_use skips __init__: nothing may run there
    made = tool_use("read_file", {"path": "a"}, True, "c1", "late")
    plain = ToolUse("read_file", {"path": "a"}, True, "c1", "late")
    assert made == plain and hash(tool_use("x", (), False, "", None)) == hash(ToolUse("x", ()))  # type: ignore[arg-type]
    assert vars(made) == vars(plain) and list(vars(made)) == list(vars(plain)) and asdict(made) == asdict(plain)
    assert replace(made, params={}) == replace(plain, params={}) and repr(made) == repr(plain)
    with pytest.raises(AttributeError):
        made.name = "other"  # type: ignore[misc]
    assert not hasattr(ToolResult, "__post_init__")
    for quick, plain_result in (
        (ToolResult.ok("fine"), ToolResult("fine")),
        (ToolResult.error("bad"), ToolResult("bad", is_error=True)),
    ):
        assert quick == plain_result and list(vars(quick).items()) == list(vars(plain_result).items())
        assert hash(quick) == hash(plain_result) and repr(quick) == repr(plain_result)


_ODD_VALUES = st.one_of(
    st.none(),
    st.just(""),
    st.text(max_size=6),
    st.integers(-3, 3),
    st.booleans(),
    st.just('{"a": 1}'),
    st.just("{ not json"),
    st.dictionaries(st.sampled_from(["a", "b"]), st.integers(), max_size=2),
)


@st.composite
def _call_elements(draw: Any, fmt: str) -> Any:
    """A call-list element of ``fmt`` with each field present, absent or odd."""
    fields = formats.record(fmt).call_fields
    assert fields is not None
    call: dict[str, Any] = {}
    for path, good in ((fields.name, "read_file"), (fields.id, "call_1"), (fields.arguments, '{"path": "a"}')):
        choice = draw(st.sampled_from(["good", "odd", "absent"]))
        if choice == "absent":
            continue
        node = call
        for key in path[:-1]:
            node = node.setdefault(str(key), {})
        node[str(path[-1])] = good if choice == "good" else draw(_ODD_VALUES)
    if fields.wrapper is not None:
        return {fields.wrapper: call} if draw(st.booleans()) else call
    if fields.marker is not None:
        key, wanted = fields.marker
        call[key] = wanted if draw(st.booleans()) else "text"
    return call


@pytest.mark.parametrize("fmt", FORMATS)
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_the_quick_reader_agrees_with_the_general_one(fmt: str, data: Any) -> None:
    """read_calls reads plain-dict elements the quick way (_plain_call); where that applies,
    it gives what the general reader (_read_call) gives for the same element."""
    from generator.runtime import replies

    fields = formats.record(fmt).call_fields
    assert fields is not None
    item = data.draw(_call_elements(fmt))
    quick = replies._plain_call(item, fields, 0, MAX_ARGUMENT_CHARS)
    if quick is not replies._MISSING:
        assert quick == replies._read_call(item, fields, 0, MAX_ARGUMENT_CHARS)


_NODES = st.recursive(
    st.one_of(st.none(), st.integers(-1, 2), st.sampled_from(["a", "b", ""])),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.sampled_from(["a", "b", "c"]), inner, max_size=3),
        st.tuples(inner),
    ),
    max_leaves=12,
)


@given(_NODES, st.lists(st.one_of(st.sampled_from(["a", "b"]), st.integers(-1, 2)), max_size=4))
@settings(max_examples=300, deadline=None)
def test_the_compiled_path_reader_is_plain_indexing(node: Any, path: list[Any]) -> None:
    """_path_reader(path), compiled once per path, reads what _indexed reads (or _MISSING)."""
    from generator.runtime import replies

    assert replies._path_reader(tuple(path))(node) is replies._indexed(node, path) or (
        replies._path_reader(tuple(path))(node) == replies._indexed(node, path)
    )
