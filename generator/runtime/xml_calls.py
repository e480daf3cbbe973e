"""Streaming parser for XML tool calls (the text path).

Models without native tool calling answer with tool calls written as XML::

    I'll read it.
    <read_file>
    <path>src/main.py</path>
    </read_file>

Standard library only: this module is copied verbatim into the generated package, so it uses
relative imports only.

Rules (they model Cline's ``parseAssistantMessageV2``):

* Only the given tool names open a tool call (``<name>`` exactly: no attributes, no spaces);
  inside a call only that tool's parameter names open a parameter (``<param>``). Every other
  text or tag is plain text; inside a parameter value it is part of the value. Text outside
  calls is not returned.
* Values are kept verbatim except that surrounding whitespace is stripped exactly like
  ECMAScript ``String.prototype.trim`` (Cline calls ``.trim()`` on every value): the stripped
  code points are ``predicates.JS_WHITESPACE`` (note: U+FEFF is stripped, U+0085 and U+001C-U+001F
  are not, unlike Python's ``str.strip()``). Interior whitespace, newlines and tags survive.
* While a parameter is open, only its own closing tag can end it (the tool's closing tag inside
  a value is part of the value).
* A non-content parameter ends at the first ``</param>``.
* A content-like parameter (``content_params``, e.g. file content, diffs, patches) may contain
  its own closing tag: the LAST ``</param>`` before the tool's closing tag wins. Precisely:
  every ``</param>`` occurrence is a candidate end; from each candidate the rest of the call is
  read with these same rules up to the tool's closing tag. The call ends at the earliest closing
  tag any candidate reaches (so a complete block never changes once reported). Among the
  candidates reaching that closing tag, the last one whose remainder is well formed (only
  whitespace and parameters between it and ``</tool>``) wins; if none is well formed, the last
  one. So a file whose content contains ``</content>`` round-trips. Not recoverable (inherently
  ambiguous, as in Cline): a content value holding its own closing tag followed later by the
  tool's closing tag ends the call there. Likewise, when another parameter's value holds the
  content parameter's closing tag followed by well-formed text, that later tag is taken as the
  content's end (for example ``task_progress`` = ``</content><task_progress>`` in write_to_file).
* A call whose closing tag has not fully arrived is returned with ``partial=True`` and the
  parameters seen so far; an open parameter holds its value so far (trimmed, and without a
  trailing fragment of its own closing tag, e.g. ``</pa``). While a content parameter is open,
  an already seen ``</param>`` counts as its end only if everything after it so far is
  whitespace or parameters; otherwise the value so far runs to the end of the text.
* The text may be cut anywhere: parsing never raises, a half-received opening tag is not a
  call, and a call is complete (``partial=False``) only once its full closing tag is present.
  Complete blocks of a prefix are exactly the first complete blocks of any longer text.
* Parameters are reported in the order first seen; a repeated parameter keeps the last value.

A finished reply (``parse_reply``) is read with the same rules, plus tags that look like a call
of a tool that does not exist, so the model can be told so instead of its call passing as prose.
Such a call, outside the known calls and outside markdown code (fenced blocks, which a line
starting with three backticks or tildes opens and the next such line closes, and inline code
between backticks on one line), is exactly:

* an opening tag ``<name>`` whose name is snake_case with at least one underscore
  (``[a-z][a-z0-9]*(_[a-z0-9]+)+``, the shape of the catalog's tool names; no HTML element
  name has an underscore), not a tool the family knows;
* then one or more parameters ``<param>value</param>`` (``param`` is ``[a-z][a-z0-9_]*``; the
  value runs to the first ``</param>`` and is trimmed as above), separated only by whitespace;
* then the closing tag ``</name>``, before any known call starts.

Anything else (a tag with attributes, prose or a bare value inside, no parameter, no closing
tag) is prose. Unknown calls are read from finished replies only: while a reply streams, a
later closing tag could still turn a reported call into the parameter of an enclosing one.
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Collection, Mapping, Sequence

from .tool_types import ToolUse
from .xml_block import _Block
from .xml_grammar import _NON_WS, _Buffer, _Grammar, _trim

__all__ = [
    "DEFAULT_CONTENT_PARAMS",
    "StreamingParser",
    "parse_partial_json_array",
    "parse_reply",
    "parse_tool_calls",
]

#: Parameters whose values are content (file content, diffs, patches): they may hold their own
#: closing tag. ``content`` (write_to_file, new_rule), ``diff`` (replace_in_file),
#: ``input`` (apply_patch).
DEFAULT_CONTENT_PARAMS: frozenset[str] = frozenset({"content", "diff", "input"})


class _Reader:
    """Blocks of a growing text; complete blocks are final, the open one is kept."""

    __slots__ = ("block", "current", "done", "ends", "grammar", "open_scan", "starts")

    def __init__(self, grammar: _Grammar):
        self.grammar = grammar
        self.done: list[ToolUse] = []
        self.starts: list[int] = []  # where each block's opening tag starts
        self.ends: list[int] = []  # where each complete block ends
        self.open_scan = 0  # no tool opening tag starts before this offset
        self.block: _Block | None = None
        self.current: ToolUse | None = None  # the open block as of the last read

    def read(self, text: str, buffer: _Buffer | None = None) -> None:
        """``text`` extends the text of the previous call (``buffer``: see _Block.partial)."""
        grammar = self.grammar
        if not grammar.sane:
            self.block = None  # tags may overlap: read the open call afresh
        while True:
            block = self.block
            if block is None:
                m = None
                if grammar.open_re is not None:
                    m = grammar.open_re.search(text, self.open_scan)
                if m is None:
                    self.open_scan = max(
                        self.open_scan, len(text) - grammar.max_open + 1
                    )
                    self.current = None
                    return
                block = self.block = _Block(grammar.tool(m.group(1)), m.end())
                self.starts.append(m.start())
            block.advance(text)
            if block.end is None:
                self.current = block.partial(text, buffer)
                return
            self.done.append(block.complete(text))
            self.ends.append(block.end)
            self.open_scan = block.end
            self.block = None

    def blocks(self) -> list[ToolUse]:
        return self.done + ([self.current] if self.current is not None else [])


def parse_tool_calls(
    text: str,
    tools: Mapping[str, Sequence[str]],
    *,
    content_params: Collection[str] = DEFAULT_CONTENT_PARAMS,
) -> list[ToolUse]:
    """Tool-use blocks in ``text``, in order (see the module docstring for the rules).

    ``tools`` maps the known tool names to their parameter names. The last block is
    ``partial=True`` when its closing tag has not arrived yet.
    """
    reader = _Reader(_Grammar(tools, content_params))
    reader.read(text)
    return reader.blocks()


_UNKNOWN_OPEN = re.compile(r"<([a-z][a-z0-9]*(?:_[a-z0-9]+)+)>")
_PARAM_OPEN = re.compile(r"<([a-z][a-z0-9_]*)>")
_ANY_CLOSE = re.compile(r"</([a-z][a-z0-9_]*)>")
_INLINE_CODE = re.compile(r"`[^`\n]+`")


def _inside(spans: Sequence[tuple[int, int]], offset: int) -> bool:
    """Whether ``offset`` lies in one of ``spans`` (sorted, not overlapping)."""
    k = bisect.bisect_right(spans, (offset, float("inf"))) - 1
    return k >= 0 and spans[k][0] <= offset < spans[k][1]


def _code_spans(text: str) -> list[tuple[int, int]]:
    """Markdown code in ``text``, sorted: fenced blocks (an open fence runs to the end of the
    text) and inline code on one line outside them."""
    fences: list[tuple[int, int]] = []
    opened = -1
    line = 0
    while line <= len(text):
        end = text.find("\n", line)
        end = len(text) if end < 0 else end
        first = line
        while first < end and first - line < 4 and text[first] == " ":
            first += 1
        if first - line <= 3 and text.startswith(("```", "~~~"), first):
            if opened < 0:
                opened = line
            else:
                fences.append((opened, end))
                opened = -1
        line = end + 1
    if opened >= 0:
        fences.append((opened, len(text)))
    spans = list(fences)
    for m in _INLINE_CODE.finditer(text):
        if not _inside(fences, m.start()):
            spans.append((m.start(), m.end()))
    spans.sort()
    return spans


class _Closes:
    """Offsets of every closing tag ``</name>`` of the text, by name (found in one pass)."""

    def __init__(self, text: str) -> None:
        self.at: dict[str, list[int]] = {}
        for m in _ANY_CLOSE.finditer(text):
            self.at.setdefault(m.group(1), []).append(m.start())

    def next(self, name: str, offset: int) -> int:
        """The first ``</name>`` at or after ``offset``, or -1."""
        found = self.at.get(name, ())
        k = bisect.bisect_left(found, offset)
        return found[k] if k < len(found) else -1


def _unknown_call(
    text: str, start: int, name: str, limit: int, closes: _Closes
) -> tuple[ToolUse, int] | None:
    """The unknown call whose opening tag ends at ``start`` (see the module docstring) and
    the offset after its closing tag, or None; the call must end by ``limit``."""
    values: list[tuple[str, int, int]] = []  # sliced only once the call is whole
    pos = start
    while True:
        m = _NON_WS.search(text, pos, limit)
        if m is None or text[m.start()] != "<":
            return None
        tag = m.start()
        if text.startswith(f"</{name}>", tag):
            if not values:
                return None
            params = {p: _trim(text[a:b]) for p, a, b in values}
            return ToolUse(name, params), tag + len(name) + 3
        param = _PARAM_OPEN.match(text, tag)
        if param is None:
            return None
        close = closes.next(param.group(1), param.end())
        if close < 0 or close >= limit:
            return None
        values.append((param.group(1), param.end(), close))
        pos = close + len(param.group(1)) + 3


def _unknown_calls(
    text: str, known: Collection[str], taken: Sequence[tuple[int, int]]
) -> list[tuple[int, ToolUse]]:
    """Calls of unknown tools with their offsets, outside the ``taken`` spans (the known
    calls, in order) and outside markdown code."""
    code = _code_spans(text)
    closes = _Closes(text)
    found: list[tuple[int, ToolUse]] = []
    starts = [0, *(b for _, b in taken)]
    ends = [*(a for a, _ in taken), len(text)]
    for lo, hi in zip(starts, ends, strict=True):
        scan = lo
        while True:
            m = _UNKNOWN_OPEN.search(text, scan, hi)
            if m is None:
                break
            scan = m.end()
            if m.group(1) in known or _inside(code, m.start()):
                continue
            call = _unknown_call(text, m.end(), m.group(1), hi, closes)
            if call is not None:
                found.append((m.start(), call[0]))
                scan = call[1]
    return found


def parse_reply(
    text: str,
    tools: Mapping[str, Sequence[str]],
    *,
    content_params: Collection[str] = DEFAULT_CONTENT_PARAMS,
) -> list[ToolUse]:
    """Every call of a finished reply, in text order: the known tools' calls (the last one
    ``partial=True`` when its closing tag never came: the reply was cut off inside it) and the
    calls of unknown tools (see the module docstring), which the caller must refuse."""
    reader = _Reader(_Grammar(tools, content_params))
    reader.read(text)
    ends = [*reader.ends, len(text)][: len(reader.starts)]  # an open call: to the end
    taken = list(zip(reader.starts, ends, strict=True))
    found = list(zip(reader.starts, reader.blocks(), strict=True))
    found += _unknown_calls(text, tools, taken)
    found.sort(key=lambda pair: pair[0])
    return [use for _, use in found]


class StreamingParser:
    """Accumulates streamed text; :meth:`feed` returns the current blocks.

    Complete blocks never change once reported. The open block's tokens and reading are
    kept between feeds, and its value still arriving is sliced from the text only when
    read, so each feed costs about the size of the chunk: streaming is linear in the text.
    """

    def __init__(
        self,
        tools: Mapping[str, Sequence[str]],
        *,
        content_params: Collection[str] = DEFAULT_CONTENT_PARAMS,
    ):
        self._grammar = _Grammar(tools, content_params)
        self._buffer = _Buffer()
        self._reader = _Reader(self._grammar)
        self._blocks: list[ToolUse] = []

    @property
    def text(self) -> str:
        """Everything fed so far."""
        return self._buffer.text

    @property
    def blocks(self) -> list[ToolUse]:
        """The blocks as of the last feed."""
        return list(self._blocks)

    def feed(self, chunk: str) -> list[ToolUse]:
        if chunk:
            # Let go of the open call's previous values first: when the caller has too, the
            # memory after the text is free again and the text grows in place, not by a copy.
            self._blocks = []
            self._reader.current = None
            buffer = self._buffer
            text, buffer.text = buffer.text, ""
            text += chunk  # in place when not shared
            buffer.text = text
            self._reader.read(text, buffer)
            self._blocks = self._reader.blocks()
        return list(self._blocks)

    def reset(self) -> None:
        # A new buffer: blocks handed out before keep reading the text they came from.
        self._buffer = _Buffer()
        self._reader = _Reader(self._grammar)
        self._blocks = []


_JSON_WS = " \t\n\r"


def parse_partial_json_array(text: str) -> list[str]:
    """The complete string elements of a (possibly cut) JSON array of strings.

    ``'["a", "b'`` -> ``["a"]``; ``'["a", "b"]'`` -> ``["a", "b"]``; ``''`` or garbage -> ``[]``.
    Reading stops at the first element that is not a complete, valid string (a cut string, a
    cut escape, a non-string element, a bad escape); the strings before it are returned.
    Leading whitespace and anything after the closing ``]`` are ignored. Never raises.
    """
    out: list[str] = []
    if not isinstance(text, str):
        return out
    n = len(text)
    i = 0
    while i < n and text[i] in _JSON_WS:
        i += 1
    if i >= n or text[i] != "[":
        return out
    i += 1
    while True:
        while i < n and text[i] in _JSON_WS:
            i += 1
        if i >= n or text[i] != '"':
            return out  # cut, "]", or a non-string element
        j = i + 1
        while j < n and text[j] != '"':
            j += 2 if text[j] == "\\" else 1
        if j >= n:
            return out  # string (or an escape in it) cut off
        try:
            value = json.loads(text[i : j + 1], strict=False)
        except ValueError:
            return out
        out.append(value)
        i = j + 1
        while i < n and text[i] in _JSON_WS:
            i += 1
        if i >= n or text[i] != ",":
            return out
        i += 1
