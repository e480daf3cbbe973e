"""One tool call's body as the XML call parser reads it (see xml_calls.py for the rules).

Standard library only: copied verbatim into the generated package.
"""

from __future__ import annotations

import bisect
import heapq
from collections.abc import Sequence
from typing import (
    Any,
)

from .predicates import JS_WHITESPACE
from .tool_types import ToolUse
from .xml_grammar import (
    _NO_EVENT,
    _NON_WS,
    _Buffer,
    _drop_partial_tag,
    _find,
    _is_blank,
    _OpenParams,
    _span,
    _ToolGrammar,
)

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


class _Block:
    """One call's body from offset ``start``: its tokens and the runs through them."""

    __slots__ = (
        "alive",
        "blank_to",
        "closes",
        "end",
        "ev_kind",
        "ev_pos",
        "g_on",
        "open_ws",
        "pending",
        "scan",
        "scanned",
        "spans",
        "start",
        "tool",
        "v_on",
        "w_final",
        "w_next",
        "walks",
    )

    def __init__(self, tool: _ToolGrammar, start: int):
        self.tool = tool
        self.start = start
        self.scan = start  # tokens before this offset are recorded
        #: Offsets of the tags read between parameters (``<param>`` or ``</tool>``), and
        #: what they are there (a parameter name, or None for the tool's closing tag).
        self.ev_pos: list[int] = []
        self.ev_kind: list[str | None] = []
        #: Offsets of each parameter's closing tags.
        self.closes: dict[str, list[int]] = {p: [] for p in tool.open_tag}
        # runs: activations not yet reached (offset, 0 = between parameters / 1 = in param)
        self.pending: list[tuple[int, int, str]] = [(start, 0, "")]
        self.g_on = False  # a run is between parameters
        self.v_on: set[str] = set()  # parameters some run is inside
        self.end: int | None = None  # offset just past the call's closing tag
        # open-call memos, keyed by an offset where a run is between parameters
        self.w_final: dict[int, bool] = {}  # well formed from here (final answer)
        self.w_next: dict[int, int] = {}  # well formed from here up to that offset
        self.walks: dict[int, list[Any]] = {}  # [offset reached, params read] from here
        self.alive: dict[str, list[int]] = {p: [] for p in tool.content}
        # Memos that keep an open call's whitespace scans linear over all feeds:
        self.blank_to: dict[int, int] = {}  # rest from offset is blank up to offset
        self.spans: dict[tuple[int, int], str] = {}  # finished values, read once
        self.open_ws: dict[int, list[int]] = {}  # open value: [scanned to, first, last]
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
            kind: str | None = _NO_EVENT
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
        choice: dict[int, int] = {}  # content event -> index of its closing tag
        suffix: dict[str, tuple[dict[int, int], dict[int, int]]] = {}
        items: list[tuple[Any, ...]] = [(ev_pos[k], 1, k) for k in range(n_ev)]
        for c in tool.content:
            lst = closes[c]
            hi = bisect.bisect_right(lst, last - len(tool.close_tag[c]))
            items.extend((lst[j], 0, j, c) for j in range(hi))
            suffix[c] = ({}, {})
        items.sort(reverse=True)

        def after(q: int) -> tuple[bool, bool]:
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

        params: dict[str, str] = {}
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
        path: list[int] = []
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

    def _pick(self, text: str, name: str, s: int) -> int | None:
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

    def _walk(self, text: str, q: int) -> tuple[dict[str, str], tuple[str, int] | None]:
        """Parameters read between parameters from ``q`` up to a content parameter or a
        parameter still arriving (returned with its value's offset), or the end."""
        tool, ev_pos, ev_kind = self.tool, self.ev_pos, self.ev_kind
        state = self.walks.get(q)
        if state is None:
            state = self.walks[q] = [q, {}]
        node, params = state
        stop: tuple[str, int] | None = None
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

    def partial(self, text: str, buffer: _Buffer | None = None) -> ToolUse:
        """The call so far (its closing tag has not arrived).

        With a ``buffer`` (streaming), the value still arriving is not copied out of the text
        now but when it is read (see :class:`_OpenParams`), so a feed costs the size of its
        chunk however long the open value grows.
        """
        tool = self.tool
        params: dict[str, str] = {}
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
            lo, hi = self._open_bounds(text, s, close)
            if buffer is not None:
                return ToolUse(tool.name, _OpenParams(params, p, buffer, lo, hi), True)
            params[p] = text[lo:hi]
            break
        return ToolUse(tool.name, params, partial=True)

    def _open_bounds(self, text: str, s: int, close_tag: str) -> tuple[int, int]:
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
            first, last = _extend_ws(text, done, stable, first, last)
            memo[:] = [stable, first, last]
        self.scanned += max(end - stable, 0)
        first, last = _extend_ws(text, stable, end, first, last)
        return (first, last + 1) if 0 <= first <= last else (s, s)


def _extend_ws(text: str, lo: int, hi: int, first: int, last: int) -> tuple[int, int]:
    """The first and last non-whitespace indexes up to ``hi``, given those (-1: none yet)
    up to ``lo``: the open-value scan extends them over ``text[lo:hi]`` only."""
    if first < 0:
        m = _NON_WS.search(text, lo, hi)
        first = -1 if m is None else m.start()
    kept = len(text[lo:hi].rstrip(JS_WHITESPACE))
    if kept:
        last = lo + kept - 1
    return first, last
