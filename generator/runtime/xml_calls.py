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
"""

from __future__ import annotations

import bisect
import functools
import heapq
import json
import re
from typing import Collection, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple

from .predicates import JS_WHITESPACE
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

#: First character that String.prototype.trim would keep.
_NON_WS = re.compile("[^" + "".join(f"\\u{ord(c):04x}" for c in JS_WHITESPACE) + "]")

# How the parser works (linear in the text length):
#
# * A call's body is read as a set of runs through a small automaton: between parameters
#   (``G``), inside a parameter, inside a content parameter. A content parameter's value may
#   end at each of its closing tags or go on; every other state is deterministic. Each tag
#   of the tool is a token; the tokens are found once, left to right, and every run is
#   advanced together (at most one active copy of each state), so the earliest closing tag
#   any run reaches -- the end of the call -- is found in one pass (``_Block.advance``).
# * A complete call is then resolved once, right to left over the tokens of the call
#   (``_Block.complete``): for every position after a closing tag, whether the rest reaches
#   the end of the call and whether it is well formed; each content parameter takes the last
#   well-formed candidate (else the last one) from suffix tables, in constant time.
# * An open call (still streaming) keeps its tokens and the automaton between feeds. Its
#   reading memoises, per position after a closing tag, whether the rest is well formed so
#   far; a "no" is final (more text cannot make it well formed), so each content parameter
#   skips dead candidates once (union-find) and each position is walked once.


def _trim(value: str) -> str:
    return value.strip(JS_WHITESPACE)


def _is_blank(text: str) -> bool:
    return not text.strip(JS_WHITESPACE)


def _span(text: str, start: int, end: int) -> str:
    """``_trim(text[start:end])`` with a single copy."""
    m = _NON_WS.search(text, start, end)
    if m is None:
        return ""
    start = m.start()
    stop = max(start, end - 32)
    while end > stop and text[end - 1] in JS_WHITESPACE:
        end -= 1
    value = text[start:end]
    return _trim(value) if end == stop else value


def _drop_partial_tag(text: str, tags: Sequence[str]) -> str:
    """Drop a trailing proper prefix of any of ``tags``."""
    lt = text.rfind("<")
    if lt >= 0:
        tail = text[lt:]
        if any(len(tail) < len(tag) and tag.startswith(tail) for tag in tags):
            return text[:lt]
    return text


def _sane(name: str) -> bool:
    """Tags built from such names never overlap (needed to keep state between feeds)."""
    return "<" not in name and ">" not in name


class _ToolGrammar:
    __slots__ = (
        "name",
        "close",
        "tags",
        "stray_tags",
        "tag_re",
        "max_tag",
        "open_of",
        "close_of",
        "order",
        "open_tag",
        "close_tag",
        "content",
        "sane",
    )

    def __init__(
        self, name: str, params: Sequence[str], content_params: Collection[str]
    ):
        self.name = name
        self.close = f"</{name}>"
        names = [p for p in dict.fromkeys(params) if p]
        #: Parameter names in the order a ``<param>`` alternation tries them.
        self.order = sorted(names, key=len, reverse=True)
        self.open_tag = {p: f"<{p}>" for p in names}
        self.close_tag = {p: f"</{p}>" for p in names}
        self.open_of = {tag: p for p, tag in self.open_tag.items()}
        self.close_of = {tag: p for p, tag in self.close_tag.items()}
        #: Tags that make the text between parameters not plain text (a trailing prefix of
        #: one is a tag still arriving).
        self.stray_tags = tuple(self.open_tag[p] for p in names) + (self.close,)
        self.tags = tuple(
            dict.fromkeys(
                [self.open_tag[p] for p in names]
                + [self.close]
                + [self.close_tag[p] for p in names]
            )
        )
        alts = "|".join(
            re.escape(tag[1:]) for tag in sorted(self.tags, key=len, reverse=True)
        )
        self.tag_re = re.compile(f"<(?=({alts}))")
        self.max_tag = max(len(tag) for tag in self.tags)
        self.content = frozenset(p for p in names if p in content_params)
        self.sane = _sane(name) and all(_sane(p) for p in names)


@functools.lru_cache(maxsize=512)
def _tool_grammar(
    name: str, params: Tuple[str, ...], content: frozenset
) -> _ToolGrammar:
    return _ToolGrammar(name, params, content)


class _Grammar:
    __slots__ = ("params", "content", "open_re", "max_open", "sane")

    def __init__(
        self, tools: Mapping[str, Sequence[str]], content_params: Collection[str]
    ):
        self.content = frozenset(content_params)
        self.params: Dict[str, Tuple[str, ...]] = {
            name: tuple(params) for name, params in tools.items() if name
        }
        self.max_open = max((len(n) + 2 for n in self.params), default=0)
        #: Whether the open call's reading may be kept between feeds.
        self.sane = all(
            _sane(name) and all(_sane(p) for p in params)
            for name, params in self.params.items()
        )
        if self.params:
            alts = "|".join(
                re.escape(n) for n in sorted(self.params, key=len, reverse=True)
            )
            self.open_re: Optional[re.Pattern] = re.compile(f"<({alts})>")
        else:
            self.open_re = None

    def tool(self, name: str) -> _ToolGrammar:
        return _tool_grammar(name, self.params[name], self.content)


def _find(parent: List[int], j: int) -> int:
    """The last index <= ``j`` not known dead (-1 if none); dead ``j`` has parent ``j - 1``."""
    root = j
    while root >= 0 and parent[root] != root:
        root = parent[root]
    while j > root:
        parent[j], j = root, parent[j]
    return root


_NO_EVENT = ""  # not a parameter name (names are non-empty)


class _Block:
    """One call's body from offset ``start``: its tokens and the runs through them."""

    __slots__ = (
        "tool",
        "start",
        "scan",
        "ev_pos",
        "ev_kind",
        "closes",
        "pending",
        "g_on",
        "v_on",
        "end",
        "w_final",
        "w_next",
        "walks",
        "alive",
        "blank_to",
        "spans",
        "open_ws",
        "scanned",
    )

    def __init__(self, tool: _ToolGrammar, start: int):
        self.tool = tool
        self.start = start
        self.scan = start  # tokens before this offset are recorded
        #: Offsets of the tags read between parameters (``<param>`` or ``</tool>``), and
        #: what they are there (a parameter name, or None for the tool's closing tag).
        self.ev_pos: List[int] = []
        self.ev_kind: List[Optional[str]] = []
        #: Offsets of each parameter's closing tags.
        self.closes: Dict[str, List[int]] = {p: [] for p in tool.open_tag}
        # runs: activations not yet reached (offset, 0 = between parameters / 1 = in param)
        self.pending: List[Tuple[int, int, str]] = [(start, 0, "")]
        self.g_on = False  # a run is between parameters
        self.v_on: set = set()  # parameters some run is inside
        self.end: Optional[int] = None  # offset just past the call's closing tag
        # open-call memos, keyed by an offset where a run is between parameters
        self.w_final: Dict[int, bool] = {}  # well formed from here (final answer)
        self.w_next: Dict[int, int] = {}  # well formed from here up to that offset
        self.walks: Dict[int, list] = {}  # [offset reached, params read] from here
        self.alive: Dict[str, List[int]] = {p: [] for p in tool.content}
        # Memos that keep an open call's whitespace scans linear over all feeds:
        self.blank_to: Dict[int, int] = {}  # rest from offset is blank up to offset
        self.spans: Dict[Tuple[int, int], str] = {}  # finished values, read once
        self.open_ws: Dict[int, List[int]] = {}  # open value: [scanned to, first, last]
        #: Characters the whitespace scans of the open call examined (tests check that
        #: this stays linear in the text, however it is cut into chunks).
        self.scanned = 0

    # ------------------------------------------------------------------ tokens and runs

    def advance(self, text: str) -> None:
        """Read the tokens that arrived; stop at the call's end."""
        tool = self.tool
        pending, v_on = self.pending, self.v_on
        last = self.scan
        for m in tool.tag_re.finditer(text, self.scan):
            i = m.start()
            kind: Optional[str] = _NO_EVENT
            if tool.sane:  # one tag here
                tags: Sequence[str] = ("<" + m.group(1),)
                kind = tool.open_of.get(tags[0], _NO_EVENT)
            else:
                tags = [t for t in tool.tags if text.startswith(t, i)]
                kind = next((p for p in tool.order if tool.open_tag[p] in tags), kind)
            if kind == _NO_EVENT and tool.close in tags:
                kind = None
            if kind != _NO_EVENT:
                self.ev_pos.append(i)
                self.ev_kind.append(kind)
            while pending and pending[0][0] <= i:
                _, state, name = heapq.heappop(pending)
                if state:
                    v_on.add(name)
                else:
                    self.g_on = True
            if self.g_on and kind != _NO_EVENT:
                self.g_on = False
                if kind is None:
                    self.end = i + len(tool.close)
                    return
                heapq.heappush(pending, (i + len(tool.open_tag[kind]), 1, kind))
            for tag in tags:
                p = tool.close_of.get(tag)
                if p is None:
                    continue
                self.closes[p].append(i)
                if p in v_on:
                    if p not in tool.content:
                        v_on.discard(p)
                    heapq.heappush(pending, (i + len(tag), 0, ""))
            last = i + len(tags[0])
        self.scan = max(last, len(text) - tool.max_tag + 1, self.scan)

    # ------------------------------------------------------------------ complete call

    def complete(self, text: str) -> ToolUse:
        """The call, once ``end`` is known: resolved right to left over its tokens."""
        tool, start = self.tool, self.start
        ev_pos, ev_kind, closes = self.ev_pos, self.ev_kind, self.closes
        last = self.end - len(tool.close)  # type: ignore[operator]
        n_ev = bisect.bisect_right(ev_pos, last)
        reach = [False] * n_ev  # from this event the rest ends at ``last``
        clean = [False] * n_ev  # ... and is well formed
        choice: Dict[int, int] = {}  # content event -> index of its closing tag
        suffix: Dict[str, Tuple[Dict[int, int], Dict[int, int]]] = {}
        items: List[tuple] = [(ev_pos[k], 1, k) for k in range(n_ev)]
        for c in tool.content:
            lst = closes[c]
            hi = bisect.bisect_right(lst, last - len(tool.close_tag[c]))
            items.extend((lst[j], 0, j, c) for j in range(hi))
            suffix[c] = ({}, {})
        items.sort(reverse=True)

        def after(q: int) -> Tuple[bool, bool]:
            if q > last:
                return False, False
            k = bisect.bisect_left(ev_pos, q)
            if not reach[k]:
                return False, False
            return True, clean[k] and _NON_WS.search(text, q, ev_pos[k]) is None

        for item in items:
            if item[1] == 0:  # a content parameter's closing tag
                _, _, j, c = item
                ok, tidy = after(closes[c][j] + len(tool.close_tag[c]))
                last_ok, last_tidy = suffix[c]
                later = last_ok.get(j + 1, -1)  # the last candidate wins
                last_ok[j] = later if later >= 0 else j if ok else -1
                later = last_tidy.get(j + 1, -1)
                last_tidy[j] = later if later >= 0 else j if ok and tidy else -1
                continue
            r, _, k = item
            p = ev_kind[k]
            if p is None:
                reach[k] = clean[k] = r == last
                continue
            s = r + len(tool.open_tag[p])
            lst = closes[p]
            j = bisect.bisect_left(lst, s)
            if p in tool.content:
                last_ok, last_tidy = suffix[p]
                pick = last_tidy.get(j, -1)
                if pick < 0:
                    pick = last_ok.get(j, -1)
                if pick >= 0:
                    choice[k] = pick
                    reach[k], clean[k] = after(lst[pick] + len(tool.close_tag[p]))
            elif j < len(lst):
                reach[k], clean[k] = after(lst[j] + len(tool.close_tag[p]))

        params: Dict[str, str] = {}
        q = start
        while True:
            k = bisect.bisect_left(ev_pos, q)
            p = ev_kind[k]
            if p is None:
                return ToolUse(tool.name, params, partial=False)
            s = ev_pos[k] + len(tool.open_tag[p])
            lst = closes[p]
            j = choice[k] if p in tool.content else bisect.bisect_left(lst, s)
            params[p] = _span(text, s, lst[j])
            q = lst[j] + len(tool.close_tag[p])

    # ------------------------------------------------------------------ open call

    def _rest_clean(self, text: str, q: int) -> bool:
        """Nothing but whitespace and a tag still arriving after ``q``."""
        start = self.blank_to.get(q, q)
        m = _NON_WS.search(text, start)
        self.blank_to[q] = len(text) if m is None else m.start()
        self.scanned += self.blank_to[q] - start
        if m is None:
            return True
        if len(text) - m.start() >= self.tool.max_tag:
            return False
        return _is_blank(_drop_partial_tag(text[m.start() :], self.tool.stray_tags))

    def _well_formed(self, text: str, q: int) -> bool:
        """Whether a run between parameters at ``q`` has read only whitespace and
        parameters up to a content parameter or the end of the text. False is final."""
        tool, ev_pos, ev_kind = self.tool, self.ev_pos, self.ev_kind
        w_final, w_next = self.w_final, self.w_next
        path: List[int] = []
        while True:
            ok = w_final.get(q)
            if ok is not None:
                final = True
                break
            nxt = w_next.get(q)
            if nxt is not None:
                path.append(q)
                q = nxt
                continue
            final = True
            k = bisect.bisect_left(ev_pos, q)
            if k == len(ev_pos):
                ok = self._rest_clean(text, q)
                final = not ok
            elif _NON_WS.search(text, q, ev_pos[k]) is not None:
                ok = False
            else:
                p = ev_kind[k]
                ok = True
                if p is not None and p not in tool.content:
                    lst = self.closes[p]
                    j = bisect.bisect_left(lst, ev_pos[k] + len(tool.open_tag[p]))
                    if j == len(lst):
                        final = False  # inside a parameter still arriving
                    else:
                        w_next[q] = nxt = lst[j] + len(tool.close_tag[p])
                        path.append(q)
                        q = nxt
                        continue
            if final:
                w_final[q] = ok
            break
        for node in path:
            if final:
                w_final[node] = ok
            else:
                w_next[node] = q
        return ok

    def _pick(self, text: str, name: str, s: int) -> Optional[int]:
        """The last closing tag of content parameter ``name`` after ``s`` followed by a
        well-formed rest, if any."""
        lst, parent = self.closes[name], self.alive[name]
        parent.extend(range(len(parent), len(lst)))
        width = len(self.tool.close_tag[name])
        j0 = bisect.bisect_left(lst, s)
        j = _find(parent, len(lst) - 1)
        while j >= j0:
            if self._well_formed(text, lst[j] + width):
                return lst[j]
            parent[j] = j - 1
            j = _find(parent, j - 1)
        return None

    def _walk(
        self, text: str, q: int
    ) -> Tuple[Dict[str, str], Optional[Tuple[str, int]]]:
        """Parameters read between parameters from ``q`` up to a content parameter or a
        parameter still arriving (returned with its value's offset), or the end."""
        tool, ev_pos, ev_kind = self.tool, self.ev_pos, self.ev_kind
        state = self.walks.get(q)
        if state is None:
            state = self.walks[q] = [q, {}]
        node, params = state
        stop: Optional[Tuple[str, int]] = None
        while True:
            k = bisect.bisect_left(ev_pos, node)
            p = ev_kind[k] if k < len(ev_pos) else None
            if p is None:
                break
            s = ev_pos[k] + len(tool.open_tag[p])
            lst = self.closes[p]
            j = bisect.bisect_left(lst, s)
            if p in tool.content or j == len(lst):
                stop = (p, s)
                break
            params[p] = _span(text, s, lst[j])
            node = lst[j] + len(tool.close_tag[p])
        state[0] = node
        return params, stop

    def partial(self, text: str, buffer: Optional[_Buffer] = None) -> ToolUse:
        """The call so far (its closing tag has not arrived).

        With a ``buffer`` (streaming), the value still arriving is not copied out of the text
        now but when it is read (see :class:`_OpenParams`), so a feed costs the size of its
        chunk however long the open value grows.
        """
        tool = self.tool
        params: Dict[str, str] = {}
        q = self.start
        while True:
            read, stop = self._walk(text, q)
            params.update(read)
            if stop is None:
                break
            p, s = stop
            close = tool.close_tag[p]
            if p in tool.content:
                x = self._pick(text, p, s)
                if x is not None:
                    value = self.spans.get((s, x))
                    if value is None:
                        value = self.spans[(s, x)] = _span(text, s, x)
                    params[p] = value
                    q = x + len(close)
                    continue
            start, stop = self._open_bounds(text, s, close)
            if buffer is not None:
                return ToolUse(
                    tool.name, _OpenParams(params, p, buffer, start, stop), True
                )
            params[p] = text[start:stop]
            break
        return ToolUse(tool.name, params, partial=True)

    def _open_bounds(self, text: str, s: int, close_tag: str) -> Tuple[int, int]:
        """Where the trimmed value so far of a parameter opened at ``s`` lies, without a
        trailing fragment of ``close_tag``; each character is scanned once over all feeds.

        Characters more than a tag's length from the end are never held back, so where the
        value's first and last non-whitespace characters among them lie is kept between feeds;
        only the newly stable characters and the short tail are examined.
        """
        end = len(text)
        for k in range(min(len(close_tag) - 1, end - s), 0, -1):
            if text.endswith(close_tag[:k], s):
                end -= k
                break
        memo = self.open_ws.get(s)
        if memo is None:
            memo = self.open_ws[s] = [s, -1, -1]
        done, first, last = memo
        stable = max(done, len(text) - self.tool.max_tag)
        if stable > done:
            self.scanned += stable - done
            if first < 0:
                m = _NON_WS.search(text, done, stable)
                first = -1 if m is None else m.start()
            kept = len(text[done:stable].rstrip(JS_WHITESPACE))
            if kept:
                last = done + kept - 1
            memo[:] = [stable, first, last]
        self.scanned += max(end - stable, 0)
        if first < 0:
            m = _NON_WS.search(text, stable, end)
            first = -1 if m is None else m.start()
        kept = len(text[stable:end].rstrip(JS_WHITESPACE))
        if kept:
            last = stable + kept - 1
        return (first, last + 1) if 0 <= first <= last else (s, s)


class _Buffer:
    """The streamed text, held in one place so that it can grow in place (see feed)."""

    __slots__ = ("text",)

    def __init__(self) -> None:
        self.text = ""


class _OpenParams(Mapping[str, str]):
    """The parameters of a call still arriving; the last one's value is read on demand.

    The streamed text only grows by appending (until a reset, which starts a new buffer),
    so the value's bounds stay valid after later feeds: it is sliced when first read.
    """

    __slots__ = ("_done", "_name", "_buffer", "_start", "_stop", "_value")

    def __init__(
        self, done: Dict[str, str], name: str, buffer: _Buffer, start: int, stop: int
    ) -> None:
        self._done = done
        self._name = name
        self._buffer = buffer
        self._start = start
        self._stop = stop
        self._value: Optional[str] = None

    def __getitem__(self, key: str) -> str:
        if key != self._name:
            return self._done[key]
        if self._value is None:
            self._value = self._buffer.text[self._start : self._stop]
        return self._value

    def __iter__(self) -> Iterator[str]:
        yield from self._done
        yield self._name

    def __len__(self) -> int:
        return len(self._done) + 1

    def __contains__(self, key: object) -> bool:
        return key == self._name or key in self._done

    def __repr__(self) -> str:
        return repr(dict(self))


class _Reader:
    """Blocks of a growing text; complete blocks are final, the open one is kept."""

    __slots__ = ("grammar", "done", "open_scan", "block", "current")

    def __init__(self, grammar: _Grammar):
        self.grammar = grammar
        self.done: List[ToolUse] = []
        self.open_scan = 0  # no tool opening tag starts before this offset
        self.block: Optional[_Block] = None
        self.current: Optional[ToolUse] = None  # the open block as of the last read

    def read(self, text: str, buffer: Optional[_Buffer] = None) -> None:
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
            block.advance(text)
            if block.end is None:
                self.current = block.partial(text, buffer)
                return
            self.done.append(block.complete(text))
            self.open_scan = block.end
            self.block = None

    def blocks(self) -> List[ToolUse]:
        return self.done + ([self.current] if self.current is not None else [])


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
    reader = _Reader(_Grammar(tools, content_params))
    reader.read(text)
    return reader.blocks()


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
        self._blocks: List[ToolUse] = []

    @property
    def text(self) -> str:
        """Everything fed so far."""
        return self._buffer.text

    @property
    def blocks(self) -> List[ToolUse]:
        """The blocks as of the last feed."""
        return list(self._blocks)

    def feed(self, chunk: str) -> List[ToolUse]:
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
