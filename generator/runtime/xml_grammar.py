"""Building blocks of the XML call parser (xml_calls.py): tags per tool, text helpers, and
the streamed text's buffer from which an open value is sliced when read.

Standard library only: copied verbatim into the generated package.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection, Iterator, Mapping, Sequence

from .predicates import JS_WHITESPACE

#: First character that String.prototype.trim would keep.
_NON_WS = re.compile("[^" + "".join(f"\\u{ord(c):04x}" for c in JS_WHITESPACE) + "]")


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
        "close",
        "close_of",
        "close_tag",
        "content",
        "max_tag",
        "name",
        "open_of",
        "open_tag",
        "order",
        "sane",
        "stray_tags",
        "tag_re",
        "tags",
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
    name: str, params: tuple[str, ...], content: frozenset[str]
) -> _ToolGrammar:
    return _ToolGrammar(name, params, content)


class _Grammar:
    __slots__ = ("content", "max_open", "open_re", "params", "sane")

    def __init__(
        self, tools: Mapping[str, Sequence[str]], content_params: Collection[str]
    ):
        self.content = frozenset(content_params)
        self.params: dict[str, tuple[str, ...]] = {
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
            self.open_re: re.Pattern[str] | None = re.compile(f"<({alts})>")
        else:
            self.open_re = None

    def tool(self, name: str) -> _ToolGrammar:
        return _tool_grammar(name, self.params[name], self.content)


def _find(parent: list[int], j: int) -> int:
    """The last index <= ``j`` not known dead (-1 if none); dead ``j`` has parent ``j - 1``."""
    root = j
    while root >= 0 and parent[root] != root:
        root = parent[root]
    while j > root:
        parent[j], j = root, parent[j]
    return root


_NO_EVENT = ""  # not a parameter name (names are non-empty)


class _Buffer:
    """The streamed text, held in one place so that it can grow in place (see feed)."""

    __slots__ = ("text",)

    def __init__(self) -> None:
        self.text = ""


class _OpenParams(Mapping[str, str]):
    """The parameters of a call still arriving; the last one's value is read on demand.

    The streamed text only grows by appending (until a reset, which starts a new buffer),
    so the value's bounds stay valid after later feeds: it is sliced when first read. Keys
    and their order are those a dict would have (a repeated parameter keeps its first
    place and takes the later value). It is a read-only Mapping, not a dict: ``dict(params)``
    gives a plain copy (for ``json.dumps``, say).
    """

    __slots__ = ("_buffer", "_done", "_name", "_start", "_stop", "_value")

    def __init__(
        self, done: dict[str, str], name: str, buffer: _Buffer, start: int, stop: int
    ) -> None:
        self._done = done
        self._name = name
        self._buffer = buffer
        self._start = start
        self._stop = stop
        self._value: str | None = None

    def __getitem__(self, key: str) -> str:
        if key != self._name:
            return self._done[key]
        if self._value is None:
            self._value = self._buffer.text[self._start : self._stop]
        return self._value

    def __iter__(self) -> Iterator[str]:
        yield from self._done
        if self._name not in self._done:
            yield self._name

    def __len__(self) -> int:
        return len(self._done) + (self._name not in self._done)

    def __contains__(self, key: object) -> bool:
        return key == self._name or key in self._done

    def __repr__(self) -> str:
        return repr(dict(self))
