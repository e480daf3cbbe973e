"""Validate tool dicts with the providers' own SDK types; every function raises on invalid input.

Import from tests as ``from sdk_validators import validate_openai_chat, ...``.

The SDK request types are TypedDicts, which pydantic validates leniently (unknown keys pass).
:func:`_closed` rebuilds such a TypedDict (recursively, nested TypedDicts too) as a copy whose
pydantic config forbids extra keys, so a misspelt or misplaced key fails validation instead of
being ignored. The SDK classes themselves are never modified.
"""

from __future__ import annotations

import collections.abc
import functools
import re
import typing
import warnings

import typing_extensions
from pydantic import ConfigDict, TypeAdapter

__all__ = [
    "check_json_schema",
    "validate_anthropic",
    "validate_bedrock",
    "validate_gemini",
    "validate_openai_chat",
    "validate_openai_responses",
    "validate_result_messages",
    "validate_tool",
]

_FORBID = ConfigDict(extra="forbid")


def _is_typeddict(tp: typing.Any) -> bool:
    return isinstance(tp, type) and typing_extensions.is_typeddict(tp)


def _close_type(tp: typing.Any, memo: dict) -> typing.Any:
    """``tp`` with every TypedDict inside replaced by its closed copy."""
    if _is_typeddict(tp):
        return _closed(tp, memo)
    origin = typing_extensions.get_origin(tp)
    args = typing_extensions.get_args(tp)
    if origin is None or not args:
        return tp
    if origin is typing_extensions.Annotated:
        return typing_extensions.Annotated[(_close_type(args[0], memo), *args[1:])]
    if origin is typing.Literal:
        return tp
    closed_args = tuple(_close_type(a, memo) for a in args)
    if origin is typing.Union or str(origin) == "<class 'types.UnionType'>":
        return typing.Union[closed_args]  # noqa: UP007 -- built from a runtime tuple, which `|` cannot spell
    # lazy containers would validate element by element only when consumed: use lists
    if origin in (collections.abc.Iterable, collections.abc.Sequence, list):
        return list[closed_args[0]]
    if origin in (dict, collections.abc.Mapping):
        return dict[closed_args[0], closed_args[1]]
    return tp


def _closed(td: type, memo: dict | None = None) -> type:
    """A copy of the TypedDict ``td`` that forbids unknown keys (nested ones too)."""
    memo = {} if memo is None else memo
    if td in memo:
        return memo[td]
    hints = typing_extensions.get_type_hints(td, include_extras=True)
    required = getattr(td, "__required_keys__", frozenset(hints))
    fields = {}
    for key, tp in hints.items():
        tp = _close_type(tp, memo)
        fields[key] = typing_extensions.Required[tp] if key in required else typing_extensions.NotRequired[tp]
    closed = typing_extensions.TypedDict(f"Closed{td.__name__}", fields)  # type: ignore[operator]
    closed.__pydantic_config__ = _FORBID  # type: ignore[attr-defined]
    memo[td] = closed
    return closed


@functools.cache
def _adapter(td: type) -> TypeAdapter:
    return TypeAdapter(_closed(td))


def _validate_typeddict(td: type, value: dict) -> None:
    _adapter(td).validate_python(value, strict=True)


def validate_openai_chat(tool: dict) -> None:
    """A Chat Completions ``tools`` element (``ChatCompletionFunctionToolParam``)."""
    from openai.types import chat

    td = getattr(chat, "ChatCompletionFunctionToolParam", None) or chat.ChatCompletionToolParam
    _validate_typeddict(td, tool)
    check_json_schema(tool["function"].get("parameters", {}))


def validate_openai_responses(tool: dict) -> None:
    """A Responses API ``tools`` element (``FunctionToolParam``)."""
    from openai.types.responses import FunctionToolParam

    _validate_typeddict(FunctionToolParam, tool)
    check_json_schema(tool.get("parameters") or {})


def validate_anthropic(tool: dict) -> None:
    """A Messages API custom tool (``anthropic.types.ToolParam``)."""
    from anthropic.types import ToolParam

    _validate_typeddict(ToolParam, tool)
    if tool["input_schema"].get("type") != "object":
        raise ValueError("anthropic: input_schema.type must be 'object'")
    check_json_schema(tool["input_schema"])


def validate_gemini(decl: dict) -> None:
    """A ``FunctionDeclaration``: SDK model validation with warnings as errors, no key ignored."""
    from google.genai import types

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model = types.FunctionDeclaration.model_validate(decl)
        dumped = model.model_dump(mode="json", by_alias=True, exclude_none=True)
    if dumped != decl:
        raise ValueError(f"gemini: the SDK model does not round-trip the declaration:\n{dumped!r}\n!=\n{decl!r}")


@functools.lru_cache(maxsize=1)
def _converse_shape():
    import botocore.session

    session = botocore.session.get_session()
    return session.get_service_model("bedrock-runtime").operation_model("Converse").input_shape


def validate_bedrock(tools: list) -> None:
    """A Converse ``toolConfig.tools`` list, checked by botocore's own parameter validator."""
    from botocore.validate import ParamValidator

    params = {
        "modelId": "anthropic.claude-3-haiku-20240307-v1:0",
        "messages": [{"role": "user", "content": [{"text": "hi"}]}],
        "toolConfig": {"tools": tools},
    }
    shape = _converse_shape()
    report = ParamValidator().validate(params, shape)
    if report.has_errors():
        raise ValueError(report.generate_report())
    # botocore checks only the lower length bound; apply the model's max and pattern too
    spec_shape = shape.members["toolConfig"].members["tools"].member.members["toolSpec"]
    for i, tool in enumerate(tools):
        if "toolSpec" not in tool:
            continue
        spec = tool["toolSpec"]
        for key, value in spec.items():
            meta = spec_shape.members[key].metadata
            if isinstance(value, str):
                if "max" in meta and len(value) > meta["max"]:
                    raise ValueError(f"bedrock: tools[{i}].toolSpec.{key} longer than {meta['max']}")
                if "pattern" in meta and not re.fullmatch(meta["pattern"], value):
                    raise ValueError(f"bedrock: tools[{i}].toolSpec.{key} does not match {meta['pattern']}")
        check_json_schema(spec["inputSchema"]["json"])


def check_json_schema(schema: dict) -> None:
    """The schema is valid JSON Schema (draft 2020-12 meta-schema)."""
    import jsonschema

    jsonschema.Draft202012Validator.check_schema(schema)


def validate_tool(dialect: str, tool: dict) -> None:
    """Dispatches to the validator of ``dialect`` (one of schema_dialects.DIALECTS)."""
    if dialect == "anthropic":
        validate_anthropic(tool)
    elif dialect == "openai-chat":
        validate_openai_chat(tool)
    elif dialect == "openai-responses":
        validate_openai_responses(tool)
    elif dialect == "gemini":
        validate_gemini(tool)
    elif dialect == "bedrock-converse":
        validate_bedrock([tool])
    else:
        raise ValueError(f"unknown dialect {dialect!r}")


def validate_result_messages(dialect: str, messages: list, assistant: dict | None = None) -> None:
    """The conversation messages ``result_messages`` built, checked with the provider SDK's own types.

    ``assistant`` is the assistant turn holding the calls (Bedrock: checked with the results, as
    botocore validates whole requests).
    """
    if dialect == "anthropic":
        import anthropic.types

        # newer SDKs make MessageParam a union of one TypedDict per role
        td = getattr(anthropic.types, "UserMessageParam", None) or anthropic.types.MessageParam
        for message in messages:
            _validate_typeddict(td, message)
            # the block union also holds lenient response models: check each result block closed
            for block in message["content"]:
                _validate_typeddict(anthropic.types.ToolResultBlockParam, block)
    elif dialect == "openai-chat":
        from openai.types.chat import ChatCompletionToolMessageParam

        for message in messages:
            _validate_typeddict(ChatCompletionToolMessageParam, message)
    elif dialect == "openai-responses":
        from openai.types.responses.response_input_param import FunctionCallOutput

        for item in messages:
            _validate_typeddict(FunctionCallOutput, item)
    elif dialect == "gemini":
        from google.genai import types

        for message in messages:
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                dumped = types.Content.model_validate(message).model_dump(mode="json", by_alias=True, exclude_none=True)
            if dumped != message:
                raise ValueError(f"gemini: the SDK model does not round-trip the content:\n{dumped!r}\n!=\n{message!r}")
    elif dialect == "bedrock-converse":
        from botocore.validate import ParamValidator

        shape = _converse_shape()
        turns = [{"role": "user", "content": [{"text": "hi"}]}] + ([assistant] if assistant else []) + messages
        report = ParamValidator().validate({"modelId": "m", "messages": turns}, shape)
        if report.has_errors():
            raise ValueError(report.generate_report())
        # botocore does not check enums: apply the model's status values
        block = shape.members["messages"].member.members["content"].member
        statuses = block.members["toolResult"].members["status"].enum
        for message in messages:
            for item in message["content"]:
                status = item.get("toolResult", {}).get("status")
                if status is not None and status not in statuses:
                    raise ValueError(f"bedrock: toolResult.status {status!r} is not one of {statuses}")
    else:
        raise ValueError(f"unknown dialect {dialect!r}")
