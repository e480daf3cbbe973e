"""JavaScript literals from Python values, for the TypeScript lowering (ts.py, ts_dispatch.py).

A value JavaScript cannot hold as Python does (an integer past 2**53, keys that read as array
indexes) is recorded as a problem with its path, for the caller to report as a located error.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from json.encoder import encode_basestring
from typing import Any

from ..pyfmt import Code

__all__ = ["MAX_SAFE_INTEGER", "RUNTIME_FOLDER", "Call", "JsWriter", "shared_values", "string"]

#: The folder of the generated TS package that holds generator/ts_runtime/*.ts.
RUNTIME_FOLDER = "_runtime"
MAX_SAFE_INTEGER = 2**53 - 1
_UNSAFE_TEXT = re.compile("[\u2028\u2029\ud800-\udfff]")
_ARRAY_INDEX = re.compile(r"0|[1-9][0-9]{0,9}")


def string(text: str) -> str:
    """A JS string literal: JSON's, with line separators and lone surrogates escaped (valid UTF-8 out)."""
    return _UNSAFE_TEXT.sub(lambda m: f"\\u{ord(m.group()):04x}", encode_basestring(text))


_CODE_MARK = "\x00toolgen-code:"  # stands in for a Code or Call value while json.dumps writes the literal
_CODE_TEXT = re.compile(r'"\\u0000toolgen-code:([^"\\]*)"')
#: A key "__proto__" in a literal json.dumps wrote with indent=2 (every key starts a line).
_PROTO_KEY = re.compile(r'(?m)^( *)"__proto__":')
#: The same in a one-line literal: after "{" or ", " (a string's own text holds no bare quote).
_PROTO_INLINE = re.compile(r'([{,] ?)"__proto__":')


@dataclass(frozen=True)
class Call:
    """A call of a function of the emitted module, written ``name(arg, ...)``: a record built from
    its fields in declared order (catalog_data.ts's ``_p``, ``_s``) instead of spelling every key."""

    name: str
    args: tuple[Any, ...]


class JsWriter:
    """Writes values as JSON literals (json.dumps, two-space indent) and records what JavaScript
    could not hold as Python does. ``Code`` values (references such as ``_PARAMS[3]``) are written
    as they are, ``Call`` values as calls."""

    def __init__(self) -> None:
        self.out = io.StringIO(newline="")
        self.problems: list[tuple[tuple[Any, ...], str]] = []  # (path: root name, keys and indexes), what
        self._inline: list[str] = []  # the text of each Call, by the index its mark holds

    def value(self, value: Any, where: str, *at: int, compact: bool = False) -> None:
        """Append ``value``'s literal (``where`` and the indexes ``at`` name it in problems); one
        line with ``compact``."""
        self.out.write(self._literal(value, [where, *at], compact))

    def check(self, value: Any, where: str, *at: int) -> None:
        """Record the problems of ``value`` without writing it."""
        self._prepare(value, [where, *at])

    def _literal(self, value: Any, path: list[Any], compact: bool) -> str:
        layout: dict[str, Any] = {"separators": (", ", ": ")} if compact else {"indent": 2}
        text = json.dumps(self._prepare(value, path), ensure_ascii=False, **layout)
        text = _CODE_TEXT.sub(self._code, text)
        # A literal's "__proto__": sets the prototype; the computed key makes it an own key, as in Python.
        text = (_PROTO_INLINE if compact else _PROTO_KEY).sub(r'\1["__proto__"]:', text)
        return _UNSAFE_TEXT.sub(lambda m: f"\\u{ord(m.group()):04x}", text)

    def _code(self, match: re.Match[str]) -> str:
        code = match.group(1)
        return self._inline[int(code[1:])] if code.startswith("@") else code

    def _prepare(self, value: Any, path: list[Any]) -> Any:
        """``value`` with Code and Call values replaced by marked strings; problems recorded on the way."""
        if isinstance(value, Code):
            return _CODE_MARK + str(value)
        if isinstance(value, Call):  # its arguments are written as a one-line list, brackets cut off
            args = self._literal(list(value.args), [*path, value.name], True)
            self._inline.append(f"{value.name}({args[1:-1]})")
            return f"{_CODE_MARK}@{len(self._inline) - 1}"
        if isinstance(value, str):
            if _CODE_MARK in value:
                self.problems.append((tuple(path), "the text holds a NUL character followed by 'toolgen-code:'"))
            return value
        if isinstance(value, bool) or value is None or isinstance(value, float):
            return value  # the loader refuses NaN and infinities
        if isinstance(value, int):
            if abs(value) > MAX_SAFE_INTEGER:
                self.problems.append((tuple(path), f"the integer {value} is beyond JavaScript's safe range"))
            return value
        if isinstance(value, Mapping):
            self._check_keys(value, path)
            out = {}
            for key, item in value.items():
                path.append(key)
                out[key] = self._prepare(item, path)
                path.pop()
            return out
        items = []
        for index, item in enumerate(value):
            path.append(index)
            items.append(self._prepare(item, path))
            path.pop()
        return items

    def _check_keys(self, data: Mapping[Any, Any], path: list[Any]) -> None:
        indexes = [key for key in data if isinstance(key, str) and _ARRAY_INDEX.fullmatch(key) and int(key) < 2**32 - 1]
        if indexes and (indexes != sorted(indexes, key=int) or list(data)[: len(indexes)] != indexes):
            self.problems.append(
                (
                    tuple(path),
                    f"the keys {', '.join(map(repr, indexes))} read as array indexes, which JavaScript "
                    "iterates first and in ascending order, not in the declared order",
                )
            )


class JsChecker(JsWriter):
    """A JsWriter that records the same problems and writes no literal: what a check needs (the
    workspace runs one after every edit), without the cost of formatting the whole catalog."""

    def value(self, value: Any, where: str, *at: int, compact: bool = False) -> None:
        self._prepare(value, [where, *at])


#: Texts at least this long that the data holds more than once are written once (``shared_values``).
SHARED_TEXT_LENGTH = 32
#: Lists, objects and calls whose one-line literal is at least this long, likewise.
SHARED_VALUE_LENGTH = 16


@dataclass(frozen=True)
class Shared:
    """What ``shared_values`` found: the texts (``_T<i>``) and the other values (``_V<i>``, each
    holding only earlier ones), and the values given with every repeat replaced by its name."""

    texts: list[str]
    values: list[Any]
    out: list[Any]


def shared_values(values: list[Any]) -> Shared:
    """Every value that ``values`` hold more than once, written once: a text of at least
    SHARED_TEXT_LENGTH characters as ``Code("_T<i>")``, a list, object or Call whose literal is at
    least SHARED_VALUE_LENGTH characters as ``Code("_V<i>")``.

    Spec text and structure repeat across families (the same tool description, parameter or
    requirement in several prompt variants): the catalog data a bundle and an import pay for
    shrinks by about a third. A value is counted once per place it is written: inside a repeat
    that is itself written once, it counts once. Mapping keys and Code values are left as they
    are; so is a text holding the Code mark (written where it stands, for the writer to report),
    and whatever holds one. The data is read-only, so one object for equal values is the same data.
    """
    table = _Table()
    roots = [table.node(value) for value in values]
    seen: set[int] = set()
    counts = [0] * len(table.sizes)
    pending = list(reversed(roots))
    while pending:  # count per place written: what a repeat holds, once
        node = pending.pop()
        counts[node] += 1
        if node in seen:
            continue
        if table.worth(node):
            seen.add(node)  # if it comes again it is written once, its insides with it
        pending.extend(reversed(table.children[node]))
    shared = {node for node, count in enumerate(counts) if count > 1 and table.worth(node)}
    holds = [False] * len(table.sizes)  # whether a shared value is inside (parts come before the whole)
    for node, children in enumerate(table.children):
        holds[node] = any(child in shared or holds[child] for child in children)
    names: dict[int, Code] = {}
    texts: list[str] = []
    others: list[Any] = []

    def parts(value: Any) -> Any:
        if isinstance(value, Mapping):
            return {key: rebuilt(item) for key, item in value.items()}
        if isinstance(value, Call):
            return Call(value.name, tuple(rebuilt(arg) for arg in value.args))
        return [rebuilt(item) for item in value]

    def rebuilt(value: Any) -> Any:
        kind = type(value)
        if kind in _SCALARS:
            return value
        if kind is str or kind is Code:
            node = table.ids.get(("s", value)) if kind is str else None
            if node not in shared:
                return value
            if node not in names:
                names[node] = Code(f"_T{len(texts)}")
                texts.append(value)
            return names[node]
        node = table.objects[id(value)]
        if node in shared:
            if node not in names:
                made = parts(value)  # its parts are named first
                names[node] = Code(f"_V{len(others)}")
                others.append(made)
            return names[node]
        return parts(value) if holds[node] else value

    out = [rebuilt(value) for value in values]
    return Shared(texts, others, out)


_SCALARS = frozenset({bool, int, float, type(None)})


class _Table:
    """Equal values as one node each (an index): a scalar by its type and value, a container by
    its kind and its parts' nodes, so that comparing and hashing a node costs its own size."""

    def __init__(self) -> None:
        self.ids: dict[tuple[Any, ...], int] = {}
        self.sizes: list[int] = []  # length of the one-line literal, about
        self.children: list[tuple[int, ...]] = []
        self.objects: dict[int, int] = {}  # id() of a list, object or Call the values hold -> its node
        self.kinds: list[str] = []  # "s" text, "m", "l", "f" containers, "x" scalar, "t" Code or holding one

    def node(self, value: Any) -> int:
        kind = type(value)  # exact types first: this runs for every value of the catalog
        if kind is str:
            found = self.ids.get(("s", value))
            if found is not None:
                return found
            return self._add(("s", value), "t" if _CODE_MARK in value else "s", len(value) + 2, ())
        if kind in _SCALARS:
            key = ("j", kind, repr(value) if kind is float else value)  # 0.0 == -0.0, written apart
            found = self.ids.get(key)
            return self._add(key, "x", len(repr(value)), ()) if found is None else found
        if isinstance(value, str):  # a Code
            return self._add(("c", str(value)), "t", len(value), ())
        found = self.objects.get(id(value))  # the same object again (the values are alive throughout)
        if found is not None:
            return found
        if kind is Call:
            nodes = tuple([self.node(arg) for arg in value.args])
            size = len(value.name) + 2 + sum([self.sizes[node] + 2 for node in nodes])
            node = self._add(("f", value.name, nodes), "f", size, nodes)
        elif kind is list or kind is tuple or not isinstance(value, Mapping):
            nodes = tuple([self.node(item) for item in value])
            node = self._add(("l", nodes), "l", 2 + sum([self.sizes[node] + 2 for node in nodes]), nodes)
        else:
            keys = tuple(value)
            nodes = tuple([self.node(item) for item in value.values()])
            size = 2 + sum([len(key) + 4 for key in keys]) + sum([self.sizes[node] for node in nodes])
            node = self._add(("m", keys, nodes), "m", size, nodes)
        self.objects[id(value)] = node
        return node

    def _add(self, key: tuple[Any, ...], kind: str, size: int, children: tuple[int, ...]) -> int:
        node = self.ids.get(key)
        if node is None:
            node = self.ids[key] = len(self.sizes)
            if any(self.kinds[child] == "t" for child in children):
                kind = "t"
            self.sizes.append(size)
            self.children.append(children)
            self.kinds.append(kind)
        return node

    def worth(self, node: int) -> bool:
        """Whether writing the node once pays (long enough, and nothing in it stays where it stands)."""
        kind = self.kinds[node]
        if kind == "s":
            return self.sizes[node] - 2 >= SHARED_TEXT_LENGTH
        return kind in ("m", "l", "f") and self.sizes[node] >= SHARED_VALUE_LENGTH
