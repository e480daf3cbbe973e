"""JavaScript literals from Python values, for the TypeScript lowering (ts.py, ts_dispatch.py).

A value JavaScript cannot hold as Python does (an integer past 2**53, keys that read as array
indexes) is recorded as a problem with its path, for the caller to report as a located error.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Mapping
from json.encoder import encode_basestring
from typing import Any

from ..pyfmt import Code

__all__ = ["MAX_SAFE_INTEGER", "RUNTIME_FOLDER", "JsWriter", "string"]

#: The folder of the generated TS package that holds generator/ts_runtime/*.ts.
RUNTIME_FOLDER = "_runtime"
MAX_SAFE_INTEGER = 2**53 - 1
_UNSAFE_TEXT = re.compile("[\u2028\u2029\ud800-\udfff]")
_ARRAY_INDEX = re.compile(r"0|[1-9][0-9]{0,9}")


def string(text: str) -> str:
    """A JS string literal: JSON's, with line separators and lone surrogates escaped (valid UTF-8 out)."""
    return _UNSAFE_TEXT.sub(lambda m: f"\\u{ord(m.group()):04x}", encode_basestring(text))


_CODE_MARK = "\x00toolgen-code:"  # stands in for a Code value while json.dumps writes the literal
_CODE_TEXT = re.compile(r'"\\u0000toolgen-code:([^"\\]*)"')
#: A key "__proto__" in a literal json.dumps wrote with indent=2 (every key starts a line).
_PROTO_KEY = re.compile(r'(?m)^( *)"__proto__":')


class JsWriter:
    """Writes values as JSON literals (json.dumps, two-space indent) and records what JavaScript
    could not hold as Python does. ``Code`` values (references such as ``_PARAMS[3]``) are written
    as they are."""

    def __init__(self) -> None:
        self.out = io.StringIO(newline="")
        self.problems: list[tuple[tuple[Any, ...], str]] = []  # (path: root name, keys and indexes), what

    def value(self, value: Any, where: str, *at: int) -> None:
        """Append ``value``'s literal (``where`` and the indexes ``at`` name it in problems)."""
        text = json.dumps(self._prepare(value, [where, *at]), ensure_ascii=False, indent=2)
        text = _CODE_TEXT.sub(lambda m: m.group(1), text)
        # A literal's "__proto__": sets the prototype; the computed key makes it an own key, as in Python.
        text = _PROTO_KEY.sub(r'\1["__proto__"]:', text)
        self.out.write(_UNSAFE_TEXT.sub(lambda m: f"\\u{ord(m.group()):04x}", text))

    def _prepare(self, value: Any, path: list[Any]) -> Any:
        """``value`` with Code values replaced by marked strings; problems recorded on the way."""
        if isinstance(value, Code):
            return _CODE_MARK + str(value)
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

    def value(self, value: Any, where: str, *at: int) -> None:
        self._prepare(value, [where, *at])


#: Texts at least this long that the data holds more than once are written once (``shared_texts``).
SHARED_TEXT_LENGTH = 64


def shared_texts(values: list[Any]) -> tuple[list[str], list[Any]]:
    """Texts that ``values`` hold more than once (each at least SHARED_TEXT_LENGTH characters), in
    the order they first occur, and ``values`` with each of them replaced by ``Code("_T<i>")``.

    Spec text repeats across families (the same tool description in several prompt variants):
    written once as ``const _T<i>``, the catalog data shrinks by about a fifth, which a bundle and
    an import both pay for. Mapping keys and Code values are left as they are; so is a text
    holding the Code mark (written where it stands, so that the writer reports it there).
    """
    counts: dict[str, int] = {}
    pending: list[Any] = list(values)
    while pending:
        value = pending.pop()
        if isinstance(value, str):
            if len(value) >= SHARED_TEXT_LENGTH and not isinstance(value, Code) and _CODE_MARK not in value:
                counts[value] = counts.get(value, 0) + 1
        elif isinstance(value, Mapping):
            pending.extend(value.values())
        elif isinstance(value, (list, tuple)):
            pending.extend(value)
    order: dict[str, Code] = {}

    def replaced(value: Any) -> Any:
        if isinstance(value, str):
            if counts.get(value, 0) > 1 and not isinstance(value, Code):
                if value not in order:
                    order[value] = Code(f"_T{len(order)}")
                return order[value]
            return value
        if isinstance(value, Mapping):
            return {key: replaced(item) for key, item in value.items()}
        if isinstance(value, (list, tuple)):
            return [replaced(item) for item in value]
        return value

    out = [replaced(value) for value in values]
    return list(order), out
