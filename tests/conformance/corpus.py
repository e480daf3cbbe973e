"""The conformance corpus's file format: how a case is written, so that any language can read it back.

A case is one JSON line: ``{"id", "module", "function", "input", "expect"}`` and, where a documented
difference (differences.json) makes another runtime answer otherwise, ``"differences": [ids]`` and
``"expect_ts"``. ``expect`` is what the Python runtime answered: the value, or
``{"error": "<ExceptionName>: <message>"}``.

Values JSON cannot carry as both languages read them are tagged objects with a ``$$`` key (no value
of the corpus has a key starting with ``$$``: ``encode`` refuses one):

- ``{"$$float": "nan" | "inf" | "-inf"}``: NaN and the infinities;
- ``{"$$int": "<digits>"}``: an integer beyond ±(2**53 - 1). A reader decodes it as its language
  reads that JSON number (JavaScript: the nearest double, what ``JSON.parse`` gives);
- ``{"$$text": [piece, ...]}``: a long text as its pieces joined, each piece a text or
  ``[char, count]`` (a run of one character); texts over ``SPLIT_AT`` characters are cut after each
  blank line, so that the paragraphs many prompt sections share are written once;
- ``{"$$ref": "<id>"}``: a value written once in ``shared.jsonl`` (``{"ref", "value"}`` lines), for
  the schemas, tool lists and texts many cases share (gzipped: ``shared.jsonl.gz``). The id is a
  hash of the value's encoding.

Text is written with every character outside ASCII as a ``\\uXXXX`` escape (``ensure_ascii``): a
lone surrogate is then a valid escape that Python's ``json`` and ``JSON.parse`` both read back as
that one code unit, and a non-BMP character is its surrogate pair. The files are pure ASCII. (A
Python text holding a high and a low surrogate as two code points is written as that same pair, so
Python reads it back as the one non-BMP character; JavaScript cannot tell the two apart anyway.)
"""

from __future__ import annotations

import gzip
import hashlib
import json
import math
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MAX_SAFE_INTEGER = 2**53 - 1
#: Values whose encoding is at least this long are written once, in shared.jsonl.
SHARE_AT = 160
#: Texts longer than this are written as pieces (``$$text``); runs of one character this long are counted.
SPLIT_AT = 1024
RUN_AT = 64
_MORE = RUN_AT - 1
# a run of one character, or text up to and with a blank line (or up to a run, or the end)
_PIECES = re.compile(rf"(.)\1{{{_MORE},}}|(?:(?!(.)\2{{{_MORE},}})[\s\S])+?(?:\n\n|(?=(.)\3{{{_MORE},}})|$)")
TAG = "$$"


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=True, separators=(",", ":"), allow_nan=False)


@dataclass
class Shared:
    """The values written once: id -> encoded text, in first-use order."""

    texts: dict[str, str] = field(default_factory=dict)

    def ref(self, encoded: Any) -> Any:
        text = _dumps(encoded)
        if len(text) < SHARE_AT:
            return encoded
        key = hashlib.sha256(text.encode("ascii")).hexdigest()[:16]
        self.texts.setdefault(key, text)
        return {TAG + "ref": key}

    def lines(self) -> Iterator[str]:
        for key, text in self.texts.items():
            yield '{"ref":"' + key + '","value":' + text + "}\n"


def encode(value: Any, shared: Shared | None) -> Any:
    """``value`` as corpus JSON: tagged specials, large parts shared (innermost first)."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return value if abs(value) <= MAX_SAFE_INTEGER else {TAG + "int": str(value)}
    if isinstance(value, float):
        if math.isnan(value):
            return {TAG + "float": "nan"}
        if math.isinf(value):
            return {TAG + "float": "inf" if value > 0 else "-inf"}
        return value
    if isinstance(value, str):
        if len(value) > SPLIT_AT:
            return _pieces(value, shared)
        return shared.ref(value) if shared is not None else value
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise TypeError(f"a corpus object key must be text, not {key!r}")
            if key.startswith(TAG):
                raise ValueError(f"a corpus value has the key {key!r}, which the tags {TAG}* own")
            out[key] = encode(item, shared)
        return shared.ref(out) if shared is not None else out
    if isinstance(value, (list, tuple)):
        items = [encode(item, shared) for item in value]
        return shared.ref(items) if shared is not None else items
    raise TypeError(f"a corpus value cannot be {type(value).__name__}: {value!r}")


def _pieces(text: str, shared: Shared | None) -> Any:
    pieces: list[Any] = []
    index = 0
    while index < len(text):
        match = _PIECES.match(text, index)
        assert match is not None and match.end() > index
        piece = match.group()
        if match.group(1) is not None:
            pieces.append([piece[0], len(piece)])
        else:
            pieces.append(shared.ref(piece) if shared is not None else piece)
        index = match.end()
    return {TAG + "text": pieces}


def decode(value: Any, shared: dict[str, Any]) -> Any:
    """The inverse of ``encode`` (Python keeps a ``$$int`` exact)."""
    if isinstance(value, list):
        return [decode(item, shared) for item in value]
    if isinstance(value, dict):
        if len(value) == 1:
            [(key, item)] = value.items()
            if key == TAG + "ref":
                return decode(shared[item], shared)
            if key == TAG + "int":
                return int(item)
            if key == TAG + "text":
                return "".join(
                    piece[0] * piece[1] if isinstance(piece, list) else decode(piece, shared) for piece in item
                )
            if key == TAG + "float":
                return {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}[item]
        return {key: decode(item, shared) for key, item in value.items()}
    return value


@dataclass(frozen=True)
class Case:
    module: str  # the adapter that runs it (tests/ts_scripts/<module>.ts in TypeScript)
    function: str  # the operation
    input: Any
    expect: Any  # Python's answer: the value, or {"error": "Name: message"}
    differences: tuple[str, ...] = ()
    expect_ts: Any = None  # TypeScript's answer where a difference applies


def write(folder: Path, files: dict[str, list[Case]]) -> dict[str, bytes]:
    """The corpus files' bytes: one ``<name>.jsonl`` per entry of ``files`` and ``shared.jsonl``."""
    shared = Shared()
    out: dict[str, bytes] = {}
    for name, cases in files.items():
        lines = []
        counters: dict[str, int] = {}
        for case in cases:
            number = counters[case.function] = counters.get(case.function, 0) + 1
            record: dict[str, Any] = {
                "id": f"{name}/{case.function}/{number}",
                "module": case.module,
                "function": case.function,
                "input": encode(case.input, shared),
                "expect": encode(case.expect, shared),
            }
            if case.differences:
                record["differences"] = list(case.differences)
                record["expect_ts"] = encode(case.expect_ts, shared)
            lines.append(_dumps(record) + "\n")
        out[f"{name}.jsonl"] = "".join(lines).encode("ascii")
    # gzip (no name, no time: the same bytes every run) keeps the shared values at a tenth
    out["shared.jsonl.gz"] = gzip.compress("".join(shared.lines()).encode("ascii"), compresslevel=9, mtime=0)
    return out


def read(folder: Path) -> Iterable[dict[str, Any]]:
    """Every record of the corpus in ``folder``, decoded (for Python-side checks)."""
    shared = {}
    for line in gzip.decompress((folder / "shared.jsonl.gz").read_bytes()).decode("ascii").splitlines():
        entry = json.loads(line)
        shared[entry["ref"]] = entry["value"]
    for path in sorted(folder.glob("*.jsonl")):
        for line in path.read_text("ascii").splitlines():
            record = json.loads(line)
            yield {
                key: decode(value, shared) if key in ("input", "expect", "expect_ts") else value
                for key, value in record.items()
            }
