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
  code points are ``_JS_WHITESPACE`` below (note: U+FEFF is stripped, U+0085 and U+001C-U+001F
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
"""

from __future__ import annotations

import json
import re
from typing import Collection, Dict, List, Mapping, Optional, Sequence, Tuple

from .tool_types import ToolUse

__all__ = [
    "DEFAULT_CONTENT_PARAMS",
    "StreamingParser",
    "parse_partial_json_array",
    "parse_tool_calls",
]

#: Parameters whose values are content (file content, diffs, patches): they may hold their own
#: closing tag. ``content`` (write_to_file, new_rule), ``diff`` (replace_in_file),
#: ``input`` (apply_patch).
DEFAULT_CONTENT_PARAMS: frozenset = frozenset({"content", "diff", "input"})

#: ECMAScript WhiteSpace + LineTerminator code points (what String.prototype.trim strips).
_JS_WHITESPACE = (
    "\u0009\u000a\u000b\u000c\u000d\u0020\u00a0\u1680"
    + "".join(chr(c) for c in range(0x2000, 0x200B))
    + "\u2028\u2029\u202f\u205f\u3000\ufeff"
)

#: Nesting bound for content-parameter look-ahead; beyond it a content parameter is read like a
#: non-content one (first closing tag). Only pathological input gets that deep.
_MAX_DEPTH = 48

# (end index just past </tool> or None, params, well formed so far)
_Body = Tuple[Optional[int], Dict[str, str], bool]


def _trim(value: str) -> str:
    return value.strip(_JS_WHITESPACE)


def _is_blank(text: str) -> bool:
    return not text.strip(_JS_WHITESPACE)


def _hold_back(value: str, close_tag: str) -> str:
    """Drop a trailing proper prefix of ``close_tag`` (a closing tag still arriving)."""
    for k in range(min(len(close_tag) - 1, len(value)), 0, -1):
        if value.endswith(close_tag[:k]):
            return value[:-k]
    return value


def _drop_partial_tag(text: str, tags: Sequence[str]) -> str:
    """Drop a trailing proper prefix of any of ``tags``."""
    lt = text.rfind("<")
    if lt >= 0:
        tail = text[lt:]
        if any(len(tail) < len(tag) and tag.startswith(tail) for tag in tags):
            return text[:lt]
    return text


class _ToolGrammar:
    __slots__ = ("name", "close", "body_re", "tags", "content", "has_params")

    def __init__(
        self, name: str, params: Sequence[str], content_params: Collection[str]
    ):
        self.name = name
        self.close = f"</{name}>"
        names = [p for p in dict.fromkeys(params) if p]
        self.has_params = bool(names)
        if names:
            alts = "|".join(re.escape(p) for p in sorted(names, key=len, reverse=True))
            self.body_re = re.compile(f"<(?P<param>{alts})>|{re.escape(self.close)}")
        else:
            self.body_re = re.compile(re.escape(self.close))
        self.tags = tuple(f"<{p}>" for p in names) + (self.close,)
        self.content = frozenset(p for p in names if p in content_params)


class _Grammar:
    __slots__ = ("tools", "open_re")

    def __init__(
        self, tools: Mapping[str, Sequence[str]], content_params: Collection[str]
    ):
        content = frozenset(content_params)
        self.tools: Dict[str, _ToolGrammar] = {
            name: _ToolGrammar(name, list(params), content)
            for name, params in tools.items()
            if name
        }
        if self.tools:
            alts = "|".join(
                re.escape(n) for n in sorted(self.tools, key=len, reverse=True)
            )
            self.open_re: Optional[re.Pattern] = re.compile(f"<({alts})>")
        else:
            self.open_re = None


class _BlockReader:
    """Reads one call's body; results are memoised by start position."""

    __slots__ = ("text", "tool", "memo")

    def __init__(self, text: str, tool: _ToolGrammar):
        self.text = text
        self.tool = tool
        self.memo: Dict[int, _Body] = {}

    def body(self, pos: int, depth: int = 0) -> _Body:
        result = self.memo.get(pos)
        if result is None:
            result = self._body(pos, depth)
            self.memo[pos] = result
        return result

    def _body(self, pos: int, depth: int) -> _Body:
        text, tool = self.text, self.tool
        params: Dict[str, str] = {}
        clean = True
        while True:
            m = tool.body_re.search(text, pos)
            if m is None:
                stray = _drop_partial_tag(text[pos:], tool.tags)
                return None, params, clean and _is_blank(stray)
            clean = clean and _is_blank(text[pos : m.start()])
            name = m.group("param") if tool.has_params else None
            if name is None:
                return m.end(), params, clean
            start = m.end()
            close = f"</{name}>"
            if name in tool.content and depth < _MAX_DEPTH:
                return self._content(name, start, params, clean, depth)
            end = text.find(close, start)
            if end < 0:
                params[name] = _trim(_hold_back(text[start:], close))
                return None, params, clean
            params[name] = _trim(text[start:end])
            pos = end + len(close)

    def _content(
        self, name: str, start: int, params: Dict[str, str], clean: bool, depth: int
    ) -> _Body:
        text = self.text
        close = f"</{name}>"
        best_end: Optional[int] = None
        chosen: Optional[Tuple[int, _Body]] = None
        partial_choice: Optional[Tuple[int, _Body]] = None
        cand = text.find(close, start)
        while cand >= 0:
            if best_end is not None and cand >= best_end:
                break  # a tail starting here ends after best_end
            tail = self.body(cand + len(close), depth + 1)
            tail_end, _, tail_clean = tail
            if tail_end is not None:
                if best_end is None or tail_end < best_end:
                    best_end, chosen = tail_end, (cand, tail)
                elif tail_end == best_end and (tail_clean or not chosen[1][2]):  # type: ignore[index]
                    chosen = (cand, tail)
            elif best_end is None and tail_clean:
                partial_choice = (cand, tail)
            cand = text.find(close, cand + 1)
        pick = chosen if chosen is not None else partial_choice
        out = dict(params)
        if pick is None:
            out[name] = _trim(_hold_back(text[start:], close))
            return None, out, clean
        cand, (tail_end, tail_params, tail_clean) = pick
        out[name] = _trim(text[start:cand])
        out.update(tail_params)
        return tail_end, out, clean and tail_clean


def _parse(text: str, grammar: _Grammar, start: int = 0) -> Tuple[List[ToolUse], int]:
    """Blocks from ``start`` on, and the offset just past the last complete block."""
    blocks: List[ToolUse] = []
    resume = start
    if grammar.open_re is None:
        return blocks, resume
    pos = start
    while True:
        m = grammar.open_re.search(text, pos)
        if m is None:
            return blocks, resume
        tool = grammar.tools[m.group(1)]
        end, params, _ = _BlockReader(text, tool).body(m.end())
        if end is None:
            blocks.append(ToolUse(tool.name, dict(params), partial=True))
            return blocks, resume
        blocks.append(ToolUse(tool.name, dict(params), partial=False))
        pos = resume = end


def parse_tool_calls(
    text: str,
    tools: Mapping[str, Sequence[str]],
    *,
    content_params: Collection[str] = DEFAULT_CONTENT_PARAMS,
) -> List[ToolUse]:
    """Tool-use blocks in ``text``, in order (see the module docstring for the rules).

    ``tools`` maps the known tool names to their parameter names. The last block is
    ``partial=True`` when its closing tag has not arrived yet.
    """
    return _parse(text, _Grammar(tools, content_params))[0]


class StreamingParser:
    """Accumulates streamed text; :meth:`feed` returns the current blocks.

    Complete blocks never change once reported, so only the text after the last complete
    block is read again on each feed.
    """

    def __init__(
        self,
        tools: Mapping[str, Sequence[str]],
        *,
        content_params: Collection[str] = DEFAULT_CONTENT_PARAMS,
    ):
        self._grammar = _Grammar(tools, content_params)
        self._text = ""
        self._done: List[ToolUse] = []
        self._resume = 0
        self._blocks: List[ToolUse] = []

    @property
    def text(self) -> str:
        """Everything fed so far."""
        return self._text

    @property
    def blocks(self) -> List[ToolUse]:
        """The blocks as of the last feed."""
        return list(self._blocks)

    def feed(self, chunk: str) -> List[ToolUse]:
        if chunk:
            self._text += chunk
            found, self._resume = _parse(self._text, self._grammar, self._resume)
            self._done.extend(b for b in found if not b.partial)
            self._blocks = self._done + [b for b in found if b.partial]
        return list(self._blocks)

    def reset(self) -> None:
        self._text = ""
        self._done = []
        self._resume = 0
        self._blocks = []


_JSON_WS = " \t\n\r"


def parse_partial_json_array(text: str) -> List[str]:
    """The complete string elements of a (possibly cut) JSON array of strings.

    ``'["a", "b'`` -> ``["a"]``; ``'["a", "b"]'`` -> ``["a", "b"]``; ``''`` or garbage -> ``[]``.
    Reading stops at the first element that is not a complete, valid string (a cut string, a
    cut escape, a non-string element, a bad escape); the strings before it are returned.
    Leading whitespace and anything after the closing ``]`` are ignored. Never raises.
    """
    out: List[str] = []
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
