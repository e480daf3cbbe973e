"""Shared pieces of the schema converters: dialect names and limits, errors, text helpers.

Standard library only: this module is copied verbatim into the generated package (relative
imports only) and is also imported by the generator at build time. The public names are
re-exported by ``schema_dialects``, whose docstring states the conversion rules.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

Path = tuple[Any, ...]
"""Keys and indices into a schema or a tool list."""
Schema = dict[str, Any]
Origins = dict[str, Path]
"""Per key of a merged node: the input path it came from."""

# Names derived from the format records, kept importable from here. They are looked up on
# first use so that this module imports on its own (the generated context module needs
# only it, and tests copy it alone).
_FROM_RECORDS: dict[str, Callable[[Any], Any]] = {
    "DIALECTS": lambda f: tuple(f.FORMATS),
    "NAME_PATTERNS": lambda f: {n: r.tool_name for n, r in f.FORMATS.items()},
    "OPENAI_MAX_TOOLS": lambda f: f.FORMATS["openai-chat"].max_tools,
    "OPENAI_MAX_DESCRIPTION": lambda f: f.FORMATS["openai-chat"].max_description,
}


def __getattr__(name: str) -> Any:
    if name not in _FROM_RECORDS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from . import formats

    return _FROM_RECORDS[name](formats)


#: The one nesting limit for every input toolgen reads (spec files, contexts, MCP schemas):
#: JSON containers (objects and arrays) nested deeper than this are refused before they reach
#: json.loads, deepcopy, the schema walkers or the meta-schema check, all of which recurse.
MAX_NESTING = 100


def nesting_depth(value: Any, limit: int = MAX_NESTING) -> int:
    """How deeply dicts and lists nest in ``value``, counted without recursion; stops past ``limit``.

    Returns ``limit + 1`` as soon as the limit is passed, so hostile input costs at most the
    containers above the limit, never a RecursionError.
    """
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, (list, tuple)):
            children = item
        else:
            continue
        if level > limit:
            return limit + 1
        deepest = max(deepest, level)
        stack.extend((child, level + 1) for child in children)
    return deepest


# json.loads turns "\\ud800" into a lone surrogate: a str that cannot be written as UTF-8.
_SURROGATE = re.compile("[\ud800-\udfff]")


def has_lone_surrogate(value: Any) -> bool:
    """Whether a string (or key) anywhere in ``value`` holds a lone surrogate (checked without
    recursion), so that UTF-8 output of it would fail."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                return True
        elif isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return False


#: The skip reason for a run-time tool whose text holds a lone surrogate.
UNENCODABLE = "text holds a lone surrogate (U+D800..U+DFFF), which UTF-8 cannot encode"


def printable(text: str) -> str:
    """``text`` with any lone surrogate spelled as an escape, safe to write as UTF-8."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def json_text_depth(text: str | bytes, limit: int = MAX_NESTING) -> int:
    """Bracket nesting of JSON text, counted before ``json.loads`` (which recurses) sees it.

    Brackets inside strings are skipped; the text need not be valid JSON. Linear in the text.
    """
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    deepest = 0
    for _, depth in json_brackets(text):
        if depth > limit:
            return limit + 1
        deepest = max(deepest, depth)
    return deepest


def json_text_too_deep(text: str, limit: int = MAX_NESTING) -> bool:
    """Whether JSON text nests deeper than ``limit`` (``json_text_depth(text) > limit``).

    Only an opening bracket deepens the nesting, so text with at most ``limit`` of them cannot
    be too deep: two counts (C speed) answer for almost every text. Past that, the string
    literals are cut out (the same spans ``json_brackets`` skips: one regex, C speed) and the
    openers outside them counted; only text with more than ``limit`` of those is walked, one
    bracket at a time.
    """
    if text.count("{") + text.count("[") <= limit:
        return False
    outside = _STRING_LITERALS.sub("", text)
    if outside.count("{") + outside.count("[") <= limit:
        return False
    depth = 0
    for char in _NOT_BRACKETS.sub("", outside):
        if char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif depth:
            depth -= 1
    return False


def json_brackets(text: str) -> Iterator[tuple[re.Match[str], int]]:
    """Each bracket outside strings with its nesting level (an opener and its closer share one).

    The level of a closer without an opener stays at 0; the text need not be valid JSON.
    """
    depth = 0
    for match in _BRACKETS_OUTSIDE_STRINGS.finditer(text):
        char = match.group(1)
        if char is None:
            continue
        if char in "[{":
            depth += 1
            yield match, depth
        else:
            yield match, depth
            depth = max(depth - 1, 0)


# A string literal (skipped) or one bracket (group 1); an unterminated string runs to the end.
_BRACKETS_OUTSIDE_STRINGS = re.compile(
    r'"(?:[^"\\]|\\.)*(?:"|\Z)|([\[\]{}])', re.DOTALL
)
_STRING_LITERALS = re.compile(r'"(?:[^"\\]|\\.)*(?:"|\Z)', re.DOTALL)
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")

_JSON_TYPES = ("string", "number", "integer", "boolean", "array", "object", "null")

_METADATA = ("$schema", "$id", "$comment", "$anchor", "$dynamicAnchor", "$vocabulary")
_DEF_CONTAINERS = ("$defs", "definitions")
# Keywords whose value is one schema / a list of schemas / a name->schema map.
_SCHEMA_ONE = (
    "items",
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "propertyNames",
    "contains",
    "unevaluatedItems",
    "unevaluatedProperties",
    "additionalItems",
)
_SCHEMA_LIST = ("anyOf", "oneOf", "allOf", "prefixItems")
_SCHEMA_MAP = ("properties", "patternProperties", "dependentSchemas")


class DialectError(Exception):
    """A schema (or tool) the dialect cannot take.

    ``path`` locates the problem: a tuple of keys/indices into the *input* parameters schema
    (for :func:`convert_parameters`), ``("name",)``/``("description",)`` for tool fields given
    to :func:`tool_entry`, or ``(tool index, ...)`` into the list given to :func:`check_limits`.
    """

    def __init__(self, path: Path, message: str, hint: str = "") -> None:
        self.path = tuple(path)
        self.message = message
        self.hint = hint
        where = "/".join(str(p) for p in self.path) or "<root>"
        text = f"{where}: {message}"
        if hint:
            text += f" (hint: {hint})"
        super().__init__(text)


@dataclass(frozen=True)
class Notice:
    """A non-fatal warning; ``path`` is located like :class:`DialectError`'s."""

    path: Path
    message: str


@dataclass(frozen=True)
class Conversion:
    """Result of :func:`convert`: the converted parameters schema and the notices raised."""

    schema: Schema
    notices: tuple[Notice, ...] = field(default_factory=tuple)
    described: tuple[tuple[Path, str], ...] = ()
    """Input paths and names of the keywords moved into description text: not sent, not checked."""
    dropped: tuple[tuple[Path, str], ...] = ()
    """Input paths and names of the keywords the format cannot express at all (Gemini's
    ``additionalProperties: false``): not sent, not checked, not in the text either."""


# --------------------------------------------------------------------------------------------
# small helpers


def _render(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _render_list(values: list[Any]) -> str:
    return ", ".join(_render(v) for v in values)


def _with_extras(description: str | None, extras: list[str]) -> str | None:
    """Append the moved-keyword sentences to a description."""
    if not extras:
        return description
    return extras_lead(description) + " ".join(extras)


def extras_lead(description: str | None) -> str:
    """What precedes the moved-keyword sentences in a converted description.

    runtime/native.py needs it to swap the spec text in front of those sentences.
    """
    if not description:
        return ""
    body = description.rstrip()
    return body + ("\n\n" if "\n" in body else " ")


def _join_descriptions(outer: Any, inner: Any) -> Any:
    if not isinstance(inner, str) or not inner:
        return outer
    if not isinstance(outer, str) or not outer:
        return inner
    if inner in outer:
        return outer
    return outer.rstrip() + "\n\n" + inner


_ORDER_FIRST = ("type", "description", "properties", "required", "additionalProperties")


def _ordered(d: Schema) -> Schema:
    out = {k: d[k] for k in _ORDER_FIRST if k in d}
    for k, v in d.items():
        if k not in out and k != "$defs":
            out[k] = v
    if "$defs" in d:
        out["$defs"] = d["$defs"]
    return out


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _json_type_of(value: Any) -> str | None:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return None


#: Description text for a moved keyword: a template for the rendered value ...
_SENTENCE = {
    "default": "Default: {}.",
    "minLength": "Minimum length: {}.",
    "maxLength": "Maximum length: {}.",
    "exclusiveMinimum": "Must be greater than {}.",
    "exclusiveMaximum": "Must be less than {}.",
    "multipleOf": "Must be a multiple of {}.",
    "minProperties": "At least {} properties.",
    "maxProperties": "At most {} properties.",
    "propertyNames": "Property names must match the schema {}.",
}
#: ... or, for a flag, the sentences for true and for false.
_FLAG_SENTENCES = {
    "uniqueItems": ("Items must be unique.", "Items need not be unique."),
    "deprecated": ("Deprecated.", "Not deprecated."),
    "readOnly": ("Read-only.", "Not read-only."),
    "writeOnly": ("Write-only.", "Not write-only."),
}


def _extra_sentence(key: str, value: Any) -> str:
    """The description text standing in for a keyword the dialect cannot take."""
    if key in _SENTENCE:
        return _SENTENCE[key].format(_render(value))
    if key in _FLAG_SENTENCES:
        return _FLAG_SENTENCES[key][0 if value else 1]
    if key in ("enum", "const"):
        return f"Allowed values: {_render_list(value if key == 'enum' else [value])}."
    if key == "examples":
        shown = _render_list(value) if isinstance(value, list) else _render(value)
        return f"Examples: {shown}."
    if key == "format":
        return f"Format: {value}."
    return f"{key}: {_render(value)}."
