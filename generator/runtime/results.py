"""The results of tool calls, as each provider format takes them back (the return path's end).

Standard library only; copied verbatim into the generated package and re-exported by replies.py
(``result_message``, ``result_messages``, ``text_result``), where callers import them from.
What differs per format lives in its record (``formats.FormatRecord``): ``result_envelope`` and
``result_group`` say how results go back; each format's element is filled by a function made once
from its layout. ts_runtime/results.ts is the same.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from .formats import (
    CALL_ID,
    CALL_ID_IF_GIVEN,
    CALL_NAME,
    CONTENT,
    IS_ERROR,
    OUTCOME,
    RESULTS,
    STATUS,
    Envelope,
    FormatRecord,
    Items,
    Slot,
    record,
)
from .tool_types import ToolResult, ToolUse

__all__ = ["SYNTHETIC_ID_PREFIX", "result_message", "result_messages", "text_result"]

SYNTHETIC_ID_PREFIX = "toolgen-call-"
"""Start of the ids made up for calls that came without one (replies.py): a result leaves such
an id out where the format lets it (Gemini)."""


SlotValue = Callable[[ToolUse, bool, str], Any]
"""A slot's value from the call, whether it failed (or was denied), and the content text."""

_SLOT_VALUES: dict[str, SlotValue] = {
    CALL_ID.name: lambda use, failed, content: use.id,
    CALL_ID_IF_GIVEN.name: lambda use, failed, content: (
        None if use.id.startswith(SYNTHETIC_ID_PREFIX) else use.id
    ),
    CALL_NAME.name: lambda use, failed, content: use.name,
    CONTENT.name: lambda use, failed, content: content,
    IS_ERROR.name: lambda use, failed, content: failed,
    STATUS.name: lambda use, failed, content: "error" if failed else "success",
    OUTCOME.name: lambda use, failed, content: {
        "error" if failed else "output": content
    },
}


def _filler(layout: Envelope) -> Callable[[ToolUse, bool, str], dict[str, Any]]:
    """``layout`` read once into a function of one answer: each key with how its value is
    made (a slot's value, a nested layout, a constant); a slot valued None is left out.
    """
    parts: list[tuple[str, SlotValue, bool]] = []
    for key, spec in layout:
        if isinstance(spec, Slot):
            parts.append((key, _SLOT_VALUES[spec.name], True))
        elif isinstance(spec, Items):
            parts.append((key, _one_item(_filler(spec.layout)), False))
        elif isinstance(spec, tuple):
            parts.append((key, _filler(spec), False))
        else:
            parts.append((key, _constant(spec), False))

    # One function per layout, compiled once: a slot's value is written as its expression
    # (_SLOT_SOURCE) where it has one, so an answer costs one call instead of one per key.
    lines = ["def fill(use, failed, content):", "    out = {}"]
    scope: dict[str, Any] = {"_PREFIX": SYNTHETIC_ID_PREFIX}
    for number, ((key, value_of, slot), (_, spec)) in enumerate(
        zip(parts, layout, strict=True)
    ):
        # a slot as its expression, a constant text as it is; any other part is called
        source = (
            _SLOT_SOURCE.get(spec.name)
            if isinstance(spec, Slot)
            else (repr(spec) if type(spec) is str else None)
        )
        if source is None:
            scope[f"part{number}"] = value_of
            source = f"part{number}(use, failed, content)"
        if slot:
            lines += [
                f"    value = {source}",
                f"    if value is not None: out[{key!r}] = value",
            ]
        else:
            lines.append(f"    out[{key!r}] = {source}")
    lines.append("    return out")
    exec(compile("\n".join(lines), "<toolgen result filler>", "exec"), scope)
    fill: Callable[[ToolUse, bool, str], dict[str, Any]] = scope["fill"]
    return fill


# The slots whose value is one expression of (use, failed, content), as _SLOT_VALUES computes it.
_SLOT_SOURCE: dict[str, str] = {
    CALL_ID.name: "use.id",
    CALL_ID_IF_GIVEN.name: "None if use.id.startswith(_PREFIX) else use.id",
    CALL_NAME.name: "use.name",
    CONTENT.name: "content",
    IS_ERROR.name: "failed",
    STATUS.name: '"error" if failed else "success"',
    OUTCOME.name: '{"error" if failed else "output": content}',
}


def _one_item(inner: SlotValue) -> SlotValue:
    def value(use: ToolUse, failed: bool, content: str) -> list[Any]:
        return [inner(use, failed, content)]

    return value


def _constant(spec: Any) -> SlotValue:
    def value(use: ToolUse, failed: bool, content: str) -> Any:
        return spec

    return value


# Per format: its result element's filler (made on first use; the layouts never change).
_ELEMENTS: dict[str, Callable[[ToolUse, bool, str], dict[str, Any]]] = {}


def _element_filler(format: str) -> Callable[[ToolUse, bool, str], dict[str, Any]]:
    try:
        found = _ELEMENTS.get(format)
    except TypeError:  # not a format name: _results_record says so
        found = None
    if found is None:
        _, layout = _results_record(format)
        found = _ELEMENTS[format] = _filler(layout)
    return found


def _fill(layout: Envelope, values: Mapping[str, Any]) -> dict[str, Any]:
    """``layout`` with its slots filled from ``values``; a slot valued None is left out."""
    out: dict[str, Any] = {}
    for key, spec in layout:
        if isinstance(spec, Slot):
            value = values[spec.name]
            if value is None:
                continue
        elif isinstance(spec, Items):
            value = [_fill(spec.layout, values)]
        elif isinstance(spec, tuple):
            value = _fill(spec, values)
        else:
            value = spec
        out[key] = value
    return out


def _results_record(format: str) -> tuple[FormatRecord, Envelope]:
    rec = record(format)
    if rec.result_envelope is None:
        raise ValueError(f"format {format!r} has no tool-result message")
    return rec, rec.result_envelope


def result_message(use: ToolUse, result: ToolResult, format: str) -> dict[str, Any]:
    """The element answering ``use`` with ``result`` in ``format``.

    Anthropic: a ``tool_result`` content block; OpenAI Chat: a ``role: tool`` message;
    OpenAI Responses: a ``function_call_output`` input item; Gemini: a ``functionResponse``
    part; Bedrock Converse: a ``toolResult`` content block. A failed or denied result is
    flagged where the format can say so (``is_error``, ``status``, Gemini's ``error`` key).
    """
    fill = _element_filler(format)
    return fill(use, result.is_error or result.denied, str(result.content))


def result_messages(
    answers: Iterable[tuple[ToolUse, ToolResult]], format: str
) -> list[dict[str, Any]]:
    """What to append to the conversation after the assistant's reply: every answer, in order.

    Formats that carry all results of a reply in one user message (Anthropic, Gemini, Bedrock)
    get that one message; the OpenAI formats get one message or item per result.
    """
    rec, _ = _results_record(format)
    fill = _element_filler(format)
    elements = [
        fill(use, result.is_error or result.denied, str(result.content))
        for use, result in answers
    ]
    if rec.result_group is None:
        return elements
    if not elements:
        return []
    return [_fill(rec.result_group, {RESULTS.name: elements})]


def text_result(use: ToolUse, result: ToolResult, label: str | None = None) -> str:
    """A result on the text path, for the next user message: a bracketed label for the call
    (``label``, e.g. ``Coordinator.label(use)``; else ``[<tool name>]``), a header saying
    whether it returned, failed or was refused, then the output. This follows the layout the
    modelled system uses for text-path results (label, header line, output), in our wording.
    """
    outcome = (
        "was denied" if result.denied else "failed" if result.is_error else "returned"
    )
    return f"{label or '[' + use.name + ']'} {outcome}:\n{result.content}"
