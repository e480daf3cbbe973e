"""Text positions for the server: URIs, LSP's UTF-16 columns, and where the cursor is in the YAML.

toolgen's locations are 1-based lines and 1-based columns counted in characters (code points);
LSP's are 0-based, with columns in UTF-16 code units. The YAML path under the cursor is found
from the text alone, by indentation, so that it works on half-typed files that do not parse.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, unquote, urlparse

PathKey = tuple[str | int, ...]


def uri_to_path(uri: str) -> Path | None:
    """The absolute file path of a ``file:`` URI (None for other schemes)."""
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    return Path(os.path.abspath(unquote(parsed.path)))


def path_to_uri(path: Path) -> str:
    return "file://" + quote(os.path.abspath(path).replace(os.sep, "/"), safe="/")


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def to_utf16(line_text: str, chars: int) -> int:
    """The UTF-16 column of the character column ``chars`` (0-based) in ``line_text``."""
    return utf16_len(line_text[:chars])


def from_utf16(line_text: str, units: int) -> int:
    """The character column (0-based) of the UTF-16 column ``units`` in ``line_text``."""
    seen = 0
    for index, ch in enumerate(line_text):
        if seen >= units:
            return index
        seen += 2 if ord(ch) > 0xFFFF else 1
    return len(line_text)


def line_of(text: str, line: int) -> str:
    """Line ``line`` (0-based) of ``text``, without its line break; '' past the end."""
    lines = text.split("\n")
    return lines[line].rstrip("\r") if 0 <= line < len(lines) else ""


_FLOW_END = ",]}"


def token_end(line_text: str, start: int) -> int:
    """Where the YAML token starting at character ``start`` ends (a key, a scalar, a quoted
    string, a flow collection on one line), so that a diagnostic underlines all of it."""
    if start >= len(line_text):
        return start
    first = line_text[start]
    if first in "\"'":
        i = start + 1
        while i < len(line_text):
            if first == '"' and line_text[i] == "\\":
                i += 2
                continue
            if line_text[i] == first:
                if first == "'" and line_text[i + 1 : i + 2] == "'":
                    i += 2
                    continue
                return i + 1
            i += 1
        return len(line_text)
    if first in "[{":
        closing, depth = {"[": "]", "{": "}"}[first], 0
        for i in range(start, len(line_text)):
            if line_text[i] == first:
                depth += 1
            elif line_text[i] == closing:
                depth -= 1
                if depth == 0:
                    return i + 1
        return len(line_text.rstrip())
    i = start
    while i < len(line_text):
        ch = line_text[i]
        if ch == ":" and (i + 1 == len(line_text) or line_text[i + 1] in " \t"):
            break
        if ch == "#" and i > start and line_text[i - 1] in " \t":
            break
        if ch in _FLOW_END and i > start:
            break
        i += 1
    end = len(line_text[:i].rstrip())
    return max(end, start + 1)


@dataclass(frozen=True)
class Cursor:
    """Where the cursor is in a YAML file: the path of the mapping or list it is in (``container``),
    whether it is on a key or a value, the key of its line (if any), and the word around it."""

    container: PathKey
    on_key: bool
    key: str | None
    word: str
    word_start: int  # character columns of the word on the line
    word_end: int

    @property
    def path(self) -> PathKey:
        """The path of the value under the cursor (the container plus the line's key)."""
        return self.container + ((self.key,) if self.key is not None else ())


_LINE = re.compile(r"^(?P<indent> *)(?P<dashes>(?:- +)*)(?P<rest>.*)$")
_KEY = re.compile(r"""^(?P<key>"[^"]*"|'[^']*'|[^\s#:{}\[\],'"][^:#]*?)\s*:(?:\s|$)""")
_WORD = re.compile(r"[A-Za-z0-9_.\-/]")
_BLOCK_SCALAR = re.compile(r"\s*[|>][-+0-9]*\s*(#.*)?$")


@dataclass
class _Frame:
    column: int
    element: str | int
    is_item: bool


def _unquote(key: str) -> str:
    return key[1:-1] if len(key) >= 2 and key[0] == key[-1] and key[0] in "\"'" else key


def _push_line(stack: list[_Frame], line_text: str) -> tuple[int, str | None, int]:
    """Feed one block-style line to ``stack``; returns the column of its content, its key (if
    any) and where the text after the key starts."""
    match = _LINE.match(line_text)
    assert match is not None  # the pattern matches every line
    column = len(match["indent"])
    for dash in re.finditer(r"-( +)", match["dashes"]):
        at = column + dash.start()
        index = 0
        while stack and (stack[-1].column > at or (stack[-1].column == at and stack[-1].is_item)):
            popped = stack.pop()
            if popped.is_item and popped.column == at:
                index = int(popped.element) + 1
        stack.append(_Frame(at, index, True))
    content = column + len(match["dashes"])
    key_match = _KEY.match(match["rest"])
    if key_match is None:
        return content, None, content
    while stack and stack[-1].column >= content:  # siblings and their children end here
        stack.pop()
    key = _unquote(key_match["key"].strip())
    stack.append(_Frame(content, key, False))
    return content, key, content + key_match.end()


def cursor_at(text: str, line: int, column: int) -> Cursor:
    """The YAML cursor at ``line`` and character ``column`` (both 0-based) of ``text``."""
    lines = text.split("\n")
    stack: list[_Frame] = []
    block_at: int | None = None  # the column of a key whose value is a block scalar ('|' or '>')
    for previous in lines[:line]:
        stripped = previous.strip()
        indent = len(previous) - len(previous.lstrip(" "))
        if block_at is not None and (not stripped or indent > block_at):
            continue  # a line of a block scalar's text: prose, not keys
        block_at = None
        if not stripped or stripped.startswith(("#", "---")):
            continue
        content, key, value_start = _push_line(stack, previous)
        if key is not None and _BLOCK_SCALAR.match(previous[value_start:]):
            block_at = content
    current = lines[line] if line < len(lines) else ""
    start, end = _word_bounds(current, column)
    word = current[start:end]
    shape = _LINE.match(current if current.strip() else current[:column])
    assert shape is not None  # the pattern matches every line
    if _KEY.match(shape["rest"]) is None:
        # no key on the line (a blank line, a key being typed, a list item's scalar): its
        # indentation and dashes say which mapping or list the cursor is in
        _push_line(stack, shape["indent"] + shape["dashes"] + "x: ")
        stack.pop()  # the probe's own key is not part of the path
        return Cursor(tuple(f.element for f in stack), True, None, word, start, end)
    content, key, value_start = _push_line(stack, current)
    elements = tuple(f.element for f in stack)
    if key is not None and column < value_start:
        return Cursor(elements[:-1], True, key, word, start, end)
    flow = _flow_context(current, value_start, column)
    if flow is not None:
        flow_path, flow_key, on_key = flow
        container = elements + flow_path
        return Cursor(container, on_key, flow_key, word, start, end)
    return Cursor(elements[:-1], False, key, word, start, end)


def _flow_context(line_text: str, value_start: int, column: int) -> tuple[PathKey, str | None, bool] | None:
    """The path inside a one-line flow mapping or list (``{field: x, truthy: true}``) up to ``column``."""
    value = line_text[value_start:column]
    if "{" not in value and "[" not in value:
        return None
    path: list[str | int] = []
    keys: list[str | None] = []
    counts: list[int] = []
    kinds: list[str] = []
    token = ""
    for ch in value:
        if ch in "{[":
            if kinds and kinds[-1] == "{" and keys[-1] is not None:
                path.append(keys[-1])
            elif kinds and kinds[-1] == "[":
                path.append(counts[-1])
            kinds.append(ch)
            keys.append(None)
            counts.append(0)
            token = ""
        elif ch in "}]":
            if kinds:
                kinds.pop()
                keys.pop()
                counts.pop()
                if path and len(path) > len(kinds):
                    path.pop()
            token = ""
        elif ch == ",":
            if kinds:
                keys[-1] = None
                counts[-1] += 1
            token = ""
        elif ch == ":" and kinds and kinds[-1] == "{":
            keys[-1] = _unquote(token.strip())
            token = ""
        else:
            token += ch
    if not kinds:
        return None
    if kinds[-1] == "[":
        return (tuple(path) + (counts[-1],), None, False)
    return (tuple(path), keys[-1], keys[-1] is None)


def _word_bounds(line_text: str, column: int) -> tuple[int, int]:
    column = min(column, len(line_text))
    start = column
    while start > 0 and _WORD.match(line_text[start - 1]):
        start -= 1
    end = column
    while end < len(line_text) and _WORD.match(line_text[end]):
        end += 1
    return start, end


def placeholder_at(line_text: str, column: int) -> tuple[str, int, int] | None:
    """The ``{{NAME}}`` placeholder around ``column``: its name and the columns of the name."""
    for match in re.finditer(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)?\s*(\}\})?", line_text):
        if match.start() <= column <= match.end():
            name = match.group(1) or ""
            start = match.start(1) if match.group(1) else match.start() + 2
            return name, start, start + len(name)
    return None
