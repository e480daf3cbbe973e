"""The stream accumulators: a provider's streamed reply, event by event, into tool calls.

Standard library only; copied verbatim into the generated package (``_runtime/streams.py``)
and re-exported by ``providers`` and the package root. Each accumulator's :meth:`feed` takes one
event or chunk (a dict or an SDK object) and returns the calls it changed: ``partial=True``
previews while a call's arguments arrive, then the complete call, built by the same code as
:func:`replies.read_calls` builds it (so the finished calls equal ``read_calls`` of the whole
reply). One malformed event or call costs that event or call only; nothing raises, and what
could not be read is a line in ``problems``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from .formats import CallFields
from .replies import (
    _MISSING,
    MAX_ARGUMENT_CHARS,
    _calls_record,
    _field,
    _make_use,
    _mark_duplicate,
    _plain,
    _read_call,
    _refusal,
    _reject_constant,
    _walk,
)
from .schema_common import MAX_NESTING
from .tool_types import ToolUse

__all__ = [
    "AnthropicStream",
    "GeminiStream",
    "OpenAIChatStream",
    "OpenAIResponsesStream",
]

_PREVIEW_ALWAYS = 16_384
"""Arguments up to this length are re-read for the preview on every delta; longer ones when
they have grown by a quarter since the last preview, so a long stream costs linear time."""
_STRING_RUN = re.compile(r'[^"\\]*')
_HEX = frozenset("0123456789abcdefABCDEF")
# A string's text ending in the first half of a surrogate pair (an escaped backslash before
# it does not count): the preview waits for the second half instead of showing half a char.
_HIGH_SURROGATE_END = re.compile(r"(?<!\\)(?:\\\\)*\\u[dD][89abAB][0-9a-fA-F]{2}\Z")


class _PartialJSON:
    """Incrementally scanned JSON text, and the object it holds so far (for previews).

    The scanner keeps the open containers and the last place where the text, cut there and
    closed, is valid JSON; an open value string is cut at its end and closed. Each character is
    scanned once.
    """

    def __init__(self, max_chars: int) -> None:
        self.max_chars = max_chars
        self.chunks: list[str] = []
        self.length = 0
        self.overflow = False
        self.stack: list[str] = []
        self.key_next: list[bool] = []
        self.in_string = False
        self.string_is_key = False
        self.escape = 0  # characters of a pending escape sequence (\\ and \\uXXXX)
        self.in_scalar = False
        self.good: tuple[int, str] = (0, "")
        self.valid_prefix = False  # no opener seen yet: nothing to show
        self.preview: dict[str, Any] = {}
        self.previewed_at = -1

    def add(self, text: str) -> None:
        if self.overflow or not text:
            return
        if self.length + len(text) > self.max_chars:
            self.overflow = True
            self.chunks = []
            return
        self.chunks.append(text)
        start = self.length
        self.length += len(text)
        if len(self.stack) <= MAX_NESTING:
            self._scan(text, start)

    def _closers(self) -> str:
        return "".join("}" if c == "{" else "]" for c in reversed(self.stack))

    def _value_done(self, end: int) -> None:
        self.good = (end, self._closers())

    def _scan(self, text: str, offset: int) -> None:
        i, n = 0, len(text)
        while i < n:
            if self.in_string:
                if self.escape:
                    char = text[i]
                    if self.escape == 1 and char == "u":
                        self.escape = 5
                    elif self.escape > 1 and char in _HEX:
                        self.escape -= 1
                    else:
                        self.escape = 0
                    if self.escape == 1:
                        self.escape = 0
                    i += 1
                    continue
                run = _STRING_RUN.match(text, i)
                i = run.end() if run else i
                if i >= n:
                    break
                if text[i] == "\\":
                    self.escape = 1
                else:
                    self.in_string = False
                    if not self.string_is_key:
                        self._value_done(offset + i + 1)
                i += 1
                continue
            char = text[i]
            if self.in_scalar and char in ",}] \t\r\n:":
                self.in_scalar = False
                self._value_done(offset + i)
            if char == '"':
                self.in_string = True
                self.string_is_key = bool(self.stack and self.stack[-1] == "{") and (
                    self.key_next[-1]
                )
            elif char in "{[":
                self.stack.append(char)
                self.key_next.append(char == "{")
                self.valid_prefix = True
                self._value_done(offset + i + 1)
                if len(self.stack) > MAX_NESTING:
                    return
            elif char in "}]":
                if self.stack:
                    self.stack.pop()
                    self.key_next.pop()
                self._value_done(offset + i + 1)
            elif char == ":":
                if self.key_next:
                    self.key_next[-1] = False
            elif char == ",":
                if self.key_next and self.stack[-1] == "{":
                    self.key_next[-1] = True
            elif char not in " \t\r\n":
                self.in_scalar = True
            i += 1

    def text(self) -> str:
        if len(self.chunks) > 1:
            self.chunks = ["".join(self.chunks)]
        return self.chunks[0] if self.chunks else ""

    def partial_params(self) -> dict[str, Any]:
        """The object so far; the last preview while re-reading would cost too much."""
        if self.overflow or not self.valid_prefix or len(self.stack) > MAX_NESTING:
            return self.preview
        if self.length > _PREVIEW_ALWAYS and self.length < self.previewed_at * 1.25:
            return self.preview
        text = self.text()
        candidates = []
        if self.in_string and not self.string_is_key:
            # drop an unfinished escape sequence (\\ or \\u12) before closing the string
            pending = 1 if self.escape == 1 else (7 - self.escape if self.escape else 0)
            cut = self.length - pending
            if _HIGH_SURROGATE_END.search(text, max(cut - 16, 0), cut):
                cut -= 6
            candidates.append(text[:cut] + '"' + self._closers())
        elif self.in_scalar:
            candidates.append(text + self._closers())
        cut, closers = self.good
        candidates.append(text[:cut] + closers)
        for candidate in candidates:
            try:
                value = json.loads(candidate, parse_constant=_reject_constant)
            except ValueError:
                continue
            if isinstance(value, dict):
                self.preview = value
                break
        self.previewed_at = self.length
        return self.preview


class _OpenCall:
    """One call while its arguments stream in."""

    def __init__(self, call_id: str, name: str, max_chars: int) -> None:
        self.id = call_id
        self.name = name
        self.max_chars = max_chars
        self.arguments = _PartialJSON(max_chars)
        self.initial: dict[str, Any] = {}
        """Arguments given whole at the start (Anthropic sends ``{}`` there, then deltas)."""

    def partial(self) -> ToolUse:
        params = self.arguments.partial_params() if self.arguments.length else {}
        return ToolUse(
            self.name, params or dict(self.initial), partial=True, id=self.id
        )

    def close(self, fields: CallFields, position: int) -> ToolUse:
        if self.arguments.overflow:
            reason = f"its arguments are longer than {self.max_chars} characters"
            return ToolUse(self.name, {}, id=self.id, error=_refusal(self.name, reason))
        text = self.arguments.text()
        return _make_use(
            self.name,
            self.id,
            text if text or not self.initial else self.initial,
            fields.ids_optional,
            position,
            self.max_chars,
        )


class _Stream:
    """Shared bookkeeping of the stream accumulators: calls by stream index, in order."""

    format = ""

    def __init__(self, *, max_argument_chars: int = MAX_ARGUMENT_CHARS) -> None:
        self.max_argument_chars = max_argument_chars
        self._open: dict[int, _OpenCall] = {}
        self._done: dict[int, ToolUse] = {}
        self._seen: set[str] = set()
        self.problems: list[str] = []

    def feed(self, event: Any) -> list[ToolUse]:
        """The calls ``event`` (a dict or an SDK object) changed, in order; never raises."""
        try:
            return self._feed(_plain(event))
        except Exception as exc:  # a hostile event: report, never raise
            self.problems.append(f"event not read: {type(exc).__name__}: {exc}")
            return []

    def _feed(self, event: Any) -> list[ToolUse]:
        raise NotImplementedError

    def _start(self, index: int, call_id: str, name: str) -> _OpenCall:
        call = self._open[index] = _OpenCall(call_id, name, self.max_argument_chars)
        return call

    def _close(self, index: int) -> ToolUse | None:
        call = self._open.pop(index, None)
        if call is None:
            return None
        _, fields = _calls_record(self.format)
        position = sum(1 for i in (*self._done, *self._open) if i < index)
        return self._record(index, call.close(fields, position))

    def _record(self, index: int, use: ToolUse) -> ToolUse:
        """Keep ``use`` as the finished call at ``index`` (an error if its id was seen)."""
        use = self._done[index] = _mark_duplicate(use, self._seen)
        return use

    def _close_all(self) -> list[ToolUse]:
        """Close every open call, in order, and return them."""
        closed = (self._close(index) for index in sorted(self._open))
        return [use for use in closed if use is not None]

    @property
    def calls(self) -> list[ToolUse]:
        """Every call so far in stream order; open ones are ``partial``."""
        out = dict(self._done)
        out.update({i: c.partial() for i, c in self._open.items()})
        return [out[i] for i in sorted(out)]

    def finish(self) -> list[ToolUse]:
        """Close every open call (the stream ended) and return all calls, in order."""
        self._close_all()
        return self.calls


def _is_index(value: Any) -> bool:
    """An integer stream index (``True`` is not one, as in the TypeScript twin)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _text_of(node: Any, key: str) -> str:
    """``node.key`` when it is text, else "" (a call's id and name as they start)."""
    value = _field(node, key)
    return value if isinstance(value, str) else ""


class AnthropicStream(_Stream):
    """Accumulates Anthropic Messages stream events into tool calls.

    Feed each event (dict or SDK event object) to :meth:`feed`; it returns the calls the event
    changed: a ``partial`` ToolUse at ``content_block_start`` and every ``input_json_delta``,
    and the complete call at ``content_block_stop``.
    """

    format = "anthropic"

    def _feed(self, event: Any) -> list[ToolUse]:
        kind = _field(event, "type")
        index = _field(event, "index")
        if not _is_index(index):
            return []
        if kind == "content_block_start":
            block = _field(event, "content_block")
            if _field(block, "type") != "tool_use":
                return []
            started = self._start(index, _text_of(block, "id"), _text_of(block, "name"))
            initial = _walk(block, ("input",))
            if isinstance(initial, Mapping):
                started.initial = dict(initial)
            return [started.partial()]
        call = self._open.get(index)
        if call is None:
            return []
        if kind == "content_block_delta":
            delta = _field(event, "delta")
            fragment = _walk(delta, ("partial_json",))
            if _field(delta, "type") != "input_json_delta" or not isinstance(
                fragment, str
            ):
                return []
            call.arguments.add(fragment)
            return [call.partial()]
        if kind == "content_block_stop":
            use = self._close(index)
            return [use] if use is not None else []
        return []


class OpenAIChatStream(_Stream):
    """Accumulates OpenAI Chat Completions stream chunks into tool calls (choice 0).

    Feed each chunk (dict or ``ChatCompletionChunk``) to :meth:`feed`; it returns the calls the
    chunk changed, ``partial`` while open. The calls are complete when a chunk gives choice 0 a
    ``finish_reason`` (or at :meth:`finish`, for a stream that ended without one).
    """

    format = "openai-chat"

    def _feed(self, chunk: Any) -> list[ToolUse]:
        choices = _field(chunk, "choices")
        if not isinstance(choices, (list, tuple)):
            return []
        changed: dict[int, ToolUse] = {}
        for choice in choices:
            if _field(choice, "index") not in (0, _MISSING):
                continue
            for delta in _walk(choice, ("delta", "tool_calls")) or ():
                index = _field(delta, "index")
                if not _is_index(index) or index in self._done:
                    continue
                call = self._open.get(index) or self._start(index, "", "")
                call.id = call.id or _text_of(delta, "id")
                name = _walk(delta, ("function", "name"))
                if isinstance(name, str) and name and name != call.name:
                    call.name += name
                fragment = _walk(delta, ("function", "arguments"))
                if isinstance(fragment, str):
                    call.arguments.add(fragment)
                changed[index] = call.partial()
            if _walk(choice, ("finish_reason",)) is not None:
                for index in sorted(self._open):
                    use = self._close(index)
                    if use is not None:
                        changed[index] = use
        return [changed[i] for i in sorted(changed)]


_RESPONSE_ENDS = frozenset(
    ("response.completed", "response.incomplete", "response.failed")
)


class OpenAIResponsesStream(_Stream):
    """Accumulates OpenAI Responses stream events into tool calls.

    Feed each event (dict or ``ResponseStreamEvent``) to :meth:`feed`; calls are keyed by
    ``output_index``. It returns a ``partial`` ToolUse at ``response.output_item.added`` of a
    ``function_call`` item and at every ``response.function_call_arguments.delta``, and the
    complete call at ``response.function_call_arguments.done`` (or ``response.output_item.done``
    when that comes first). The whole argument text those events carry wins over the deltas. A
    ``response.completed``, ``.incomplete`` or ``.failed`` event closes what is still open.
    """

    format = "openai-responses"

    def _feed(self, event: Any) -> list[ToolUse]:
        kind = _field(event, "type")
        if isinstance(kind, str) and kind in _RESPONSE_ENDS:
            return self._close_all()
        index = _field(event, "output_index")
        if not _is_index(index) or index in self._done:
            return []
        if kind in ("response.output_item.added", "response.output_item.done"):
            item = _field(event, "item")
            if _field(item, "type") != "function_call":
                return []
            call = self._open.get(index) or self._start(index, "", "")
            call.id = call.id or _text_of(item, "call_id")
            call.name = call.name or _text_of(item, "name")
            whole = _field(item, "arguments")
            if kind == "response.output_item.added":
                if isinstance(whole, str):
                    call.arguments.add(whole)
                return [call.partial()]
            return self._finish_call(index, call, whole)
        streaming = self._open.get(index)
        if streaming is None:
            return []
        if kind == "response.function_call_arguments.delta":
            fragment = _field(event, "delta")
            if not isinstance(fragment, str):
                return []
            streaming.arguments.add(fragment)
            return [streaming.partial()]
        if kind == "response.function_call_arguments.done":
            return self._finish_call(index, streaming, _field(event, "arguments"))
        return []

    def _finish_call(self, index: int, call: _OpenCall, whole: Any) -> list[ToolUse]:
        """Close ``call``, its arguments replaced by ``whole`` when that is the full text."""
        if isinstance(whole, str) and whole != call.arguments.text():
            call.arguments = _PartialJSON(self.max_argument_chars)
            call.arguments.add(whole)
        use = self._close(index)
        return [use] if use is not None else []


class GeminiStream(_Stream):
    """Accumulates streamed Gemini ``generateContent`` chunks into tool calls (candidate 0).

    Feed each chunk (dict or ``GenerateContentResponse``) to :meth:`feed`. Gemini sends every
    ``functionCall`` part whole, in one chunk, so :meth:`feed` returns each call complete, never
    ``partial``; calls are numbered across chunks, so a call without an id gets the same made-up
    id as :func:`replies.read_calls` gives it in the whole reply. Vertex AI's argument streaming
    (``partialArgs``, ``willContinue``) is not read.
    """

    format = "gemini"

    def _feed(self, chunk: Any) -> list[ToolUse]:
        rec, fields = _calls_record(self.format)
        parts = _walk(chunk, rec.call_path)
        if not isinstance(parts, (list, tuple)):
            return []
        changed: list[ToolUse] = []
        for number, part in enumerate(parts):
            index = len(self._done)
            try:
                use = _read_call(part, fields, index, self.max_argument_chars)
            except Exception as exc:  # one hostile part costs that part only
                self.problems.append(
                    f"part {number} not read: {type(exc).__name__}: {exc}"
                )
                continue
            if use is not None:
                changed.append(self._record(index, use))
        return changed
