"""The return path through the generated package, checked against the provider SDKs' own types:
SDK response and stream objects are read, and the result messages are accepted by the SDKs."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import TypeAdapter

import generated
from generated import providers
from generated._runtime.tool_types import ToolResult, ToolUse
from replies_data import (
    CALLS,
    FORMATS,
    anthropic_events,
    gemini_chunks,
    openai_chat_chunks,
    openai_responses_events,
    reply,
)
from sdk_validators import validate_result_messages

EXPECTED = [ToolUse(name, args, id=call_id) for call_id, name, args in CALLS]


def sdk_response(fmt: str, data: dict[str, Any]) -> Any:
    """``data`` as the SDK's own response object (Bedrock: boto3 returns the parsed dict)."""
    if fmt == "anthropic":
        from anthropic.types import Message

        return Message.model_validate(data)
    if fmt == "openai-chat":
        from openai.types.chat import ChatCompletion

        return ChatCompletion.model_validate(data)
    if fmt == "openai-responses":
        from openai.types.responses import Response

        return Response.model_validate(data)
    if fmt == "gemini":
        from google.genai import types

        return types.GenerateContentResponse.model_validate(data)
    return data


class WithoutModelDump:
    """An SDK object seen through attributes only (as when ``model_dump`` is missing)."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def __getattr__(self, name: str) -> Any:
        if name == "model_dump":
            raise AttributeError(name)
        return getattr(self._inner, name)


def test_the_package_exports_the_return_path() -> None:
    assert generated.read_calls is providers.read_calls
    assert generated.result_messages is providers.result_messages
    streams = {"AnthropicStream", "OpenAIChatStream", "OpenAIResponsesStream", "GeminiStream"}
    assert {"read_calls", "result_message", "result_messages", *streams} <= set(generated.__all__)
    for name in streams:
        assert getattr(generated, name) is getattr(providers, name)


@pytest.mark.parametrize("fmt", FORMATS)
def test_sdk_response_objects(fmt: str) -> None:
    response = sdk_response(fmt, reply(fmt))
    assert providers.read_calls(response, fmt) == EXPECTED
    if not isinstance(response, dict):
        assert providers.read_calls(WithoutModelDump(response), fmt) == EXPECTED


@pytest.mark.parametrize("fmt", ["openai-chat", "openai-responses"])
def test_sdk_objects_with_malformed_arguments(fmt: str) -> None:
    calls = [("c1", "a", "{oops"), ("c2", "b", '{"k": "v"}')]
    uses = providers.read_calls(sdk_response(fmt, reply(fmt, calls)), fmt)
    assert uses[1] == ToolUse("b", {"k": "v"}, id="c2")
    assert uses[0].id == "c1" and "not valid JSON" in (uses[0].error or "")


def test_gemini_sdk_response_without_ids() -> None:
    response = sdk_response("gemini", reply("gemini", [(None, "a", {"x": 1}), (None, "b", {})]))
    uses = providers.read_calls(response, "gemini")
    assert [u.name for u in uses] == ["a", "b"] and all(u.error is None for u in uses)
    (message,) = providers.result_messages([(u, ToolResult.ok("done")) for u in uses], "gemini")
    assert all("id" not in part["functionResponse"] for part in message["parts"])
    validate_result_messages("gemini", [message])


def test_bedrock_reply_fields_are_botocore_output_members() -> None:
    """boto3 hands back dicts: check the record's path and field names against the service model."""
    import botocore.session

    from generated._runtime.formats import record

    rec = record("bedrock-converse")
    fields = rec.call_fields
    assert fields is not None and fields.wrapper is not None
    model = botocore.session.get_session().get_service_model("bedrock-runtime")
    shape = model.operation_model("Converse").output_shape
    for key in rec.call_path:
        shape = shape.members[key]
    block = shape.member.members[fields.wrapper]
    for path in (fields.id, fields.name, fields.arguments):
        assert path[0] in block.members


@pytest.mark.parametrize("fmt", FORMATS)
def test_result_messages_are_accepted_by_the_sdk(fmt: str) -> None:
    data = reply(fmt)
    uses = providers.read_calls(data, fmt)
    answers = [
        (uses[0], ToolResult.ok("file text")),
        (uses[1], ToolResult.error("Error executing tool search_files: boom")),
        (uses[2], ToolResult.deny()),
    ]
    messages = providers.result_messages(answers, fmt)
    assistant = data["output"]["message"] if fmt == "bedrock-converse" else None
    validate_result_messages(fmt, messages, assistant)
    for use, result in answers:
        validate_result_messages(fmt, [providers.result_messages([(use, result)], fmt)[0]], assistant)


def test_a_call_that_could_not_be_read_is_answered_with_its_error() -> None:
    uses = providers.read_calls(reply("openai-chat", [("c1", "a", "{bad")]), "openai-chat")
    messages = providers.result_messages([(u, ToolResult.error(u.error or "")) for u in uses], "openai-chat")
    assert messages[0]["tool_call_id"] == "c1" and "not valid JSON" in messages[0]["content"]
    validate_result_messages("openai-chat", messages)


def test_anthropic_stream_of_sdk_events() -> None:
    from anthropic.types import RawMessageStreamEvent

    adapter: TypeAdapter[Any] = TypeAdapter(RawMessageStreamEvent)
    stream = generated.AnthropicStream()
    for event in anthropic_events(size=2):
        stream.feed(adapter.validate_python(event))
    assert stream.calls == EXPECTED and stream.problems == []


def test_openai_chat_stream_of_sdk_chunks() -> None:
    from openai.types.chat import ChatCompletionChunk

    stream = generated.OpenAIChatStream()
    partials = []
    for chunk in openai_chat_chunks(size=2):
        partials += [u for u in stream.feed(ChatCompletionChunk.model_validate(chunk)) if u.partial]
    assert stream.calls == EXPECTED and stream.problems == []
    assert any(u.params == {"path": "src/app.ts"} for u in partials)


def test_openai_responses_stream_of_sdk_events() -> None:
    from openai.types.responses import ResponseStreamEvent

    adapter: TypeAdapter[Any] = TypeAdapter(ResponseStreamEvent)
    stream = generated.OpenAIResponsesStream()
    partials = []
    for event in openai_responses_events(size=2):
        partials += [u for u in stream.feed(adapter.validate_python(event)) if u.partial]
    whole = providers.read_calls(sdk_response("openai-responses", reply("openai-responses")), "openai-responses")
    assert stream.calls == EXPECTED == whole and stream.problems == []
    assert any(u.params == {"path": "src/app.ts"} for u in partials)


@pytest.mark.parametrize("calls", [CALLS, [(None, "a", {"x": 1}), (None, "b", {})]])
def test_gemini_stream_of_sdk_chunks(calls: list[Any]) -> None:
    from google.genai import types

    stream = generated.GeminiStream()
    for chunk in gemini_chunks(calls, 2):
        assert all(not u.partial for u in stream.feed(types.GenerateContentResponse.model_validate(chunk)))
    whole = providers.read_calls(sdk_response("gemini", reply("gemini", calls)), "gemini")
    assert stream.calls == whole and stream.problems == []
    assert all(u.error is None for u in whole)
