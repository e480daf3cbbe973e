"""The parameters schema a request sent for one tool, and the check compiled from it.

Standard library only. A native request sends each tool's parameters in its format's own
schema (OpenAI's closed root and strict mode's nullable required members, Gemini's UPPERCASE
subset or its ``parametersJsonSchema`` fallback, keywords a format drops or describes): the
arguments of a call are checked against exactly that schema, read back from the tool entry
that went out (``sent_parameters``). Checks are compiled once per process for each sent schema
(``sent_checker``), so an Offer for a context already seen compiles nothing.

A ``null`` for a parameter the tool's own schema (the spec's, an MCP server's) does not require
is removed after the check, before the handler sees it: OpenAI strict sends optional parameters
as required and nullable, and the model fills them with ``null``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Mapping
from typing import Any

from .formats import FORMATS, PARAMETERS
from .validation import compile_schema

__all__ = [
    "CACHE_LIMIT",
    "GEMINI",
    "JSON",
    "ArgumentsChecker",
    "gemini_as_json_schema",
    "sent_checker",
    "sent_parameters",
]

JSON = "json"
"""The dialect of standard JSON Schema (draft 2020-12 and draft 7 keywords)."""
GEMINI = "gemini"
"""The dialect of Gemini's ``Schema``: an OpenAPI subset with UPPERCASE type names."""
CACHE_LIMIT = 1024
"""Compiled checks kept per process; the table is emptied when it would pass this."""

ArgumentsChecker = Callable[[Mapping[str, Any], bool], tuple[dict[str, Any], list[str]]]

_CHECKERS: dict[Any, ArgumentsChecker] = {}
# Per format: the keys above the parameters slot, its key, and the dialect of that slot.
_SLOTS = {
    name: (
        rec.path_to(PARAMETERS)[:-1],
        rec.path_to(PARAMETERS)[-1],
        GEMINI if rec.schema.hooks == GEMINI else JSON,
        rec.json_schema_key,
    )
    for name, rec in FORMATS.items()
}
_EMPTY: dict[str, Any] = {}


def sent_parameters(format_name: str, entry: Any) -> tuple[Any, str]:
    """``(schema, dialect)``: the parameters ``entry``, a tool of format ``format_name``, sent.

    The record's PARAMETERS slot in the format's dialect, else its ``json_schema_key`` slot
    (full JSON Schema); an entry with neither (a format whose parameters are optional) sent
    no schema, which accepts any arguments.
    """
    above, key, dialect, json_schema_key = _SLOTS[format_name]
    holder = entry
    for step in above:
        holder = holder.get(step) if isinstance(holder, Mapping) else None
    if not isinstance(holder, Mapping):
        return _EMPTY, JSON
    if key in holder:
        return holder[key], dialect
    if json_schema_key is not None and json_schema_key in holder:
        return holder[json_schema_key], JSON
    return _EMPTY, JSON


def sent_checker(
    schema: Any,
    dialect: str,
    required: frozenset[str],
    identity: tuple[Any, Hashable] | None = None,
) -> ArgumentsChecker:
    """The check of one sent schema: ``(params, coerce) -> (typed arguments, problems)``.

    ``required`` names the parameters the tool's own schema requires: after a check without
    problems, a ``None`` for any other parameter is removed. Cached per (dialect, schema text,
    required), so the same sent schema is compiled once per process. A caller that knows the
    schema is fixed by an object and a key (a catalog variant, the format and the names it
    sent) passes them as ``identity``: the cache is then keyed on those, without reading the
    schema's text again.
    """
    if identity is not None:
        anchor, key = identity
        known = _CHECKERS.get(("id", id(anchor), key))
        if isinstance(known, _Anchored) and known.anchor is anchor:
            return known.check
    try:
        text = json.dumps(schema, allow_nan=False)
    except (TypeError, ValueError):  # not JSON (a hand-made catalog): compile, no cache
        return _checker(schema, dialect, required)
    found = _CHECKERS.get((dialect, text, required))
    if found is None:
        if len(_CHECKERS) >= CACHE_LIMIT:
            _CHECKERS.clear()
        found = _CHECKERS[(dialect, text, required)] = _checker(
            schema, dialect, required
        )
    if identity is not None:
        anchor, key = identity
        _CHECKERS[("id", id(anchor), key)] = _Anchored(anchor, found)
    return found


class _Anchored:
    """A check cached under an object's id; the object is kept, so the id stays its own."""

    __slots__ = ("anchor", "check")

    def __init__(self, anchor: Any, check: ArgumentsChecker) -> None:
        self.anchor = anchor
        self.check = check

    def __call__(
        self, params: Mapping[str, Any], coerce: bool
    ) -> tuple[dict[str, Any], list[str]]:
        return self.check(params, coerce)


def _checker(schema: Any, dialect: str, required: frozenset[str]) -> ArgumentsChecker:
    # The validator takes Gemini's subset itself once it has dialects (compile_schema(...,
    # dialect="gemini")); until then the subset is read as the JSON Schema it stands for.
    check = compile_schema(
        gemini_as_json_schema(schema) if dialect == GEMINI else schema
    )

    def run(
        params: Mapping[str, Any], coerce: bool
    ) -> tuple[dict[str, Any], list[str]]:
        problems: list[str] = []
        # The check never changes what it is given (it copies where it types a value), so a
        # dict is checked as it is; the caller still gets a dict of its own.
        given = params if type(params) is dict else dict(params)
        value = check(given, "", problems, False)
        typed = value if isinstance(value, dict) else given
        if not problems and None in typed.values():
            typed = {k: v for k, v in typed.items() if v is not None or k in required}
        elif typed is params:
            typed = dict(typed)
        return typed, problems

    return run


_GEMINI_SCHEMA_ONE = ("items",)
_GEMINI_SCHEMA_LISTS = ("anyOf",)


def gemini_as_json_schema(schema: Any) -> Any:
    """The JSON Schema that a Gemini ``Schema`` stands for.

    Type names are lower-cased; ``nullable: true`` adds ``"null"`` to the type (and ``None`` to
    an enum, a null branch to a bare anyOf); ``format: enum`` only marks a string enum. Every
    other keyword of the subset means what it means in JSON Schema.
    """
    if not isinstance(schema, Mapping):
        return schema
    out: dict[str, Any] = {}
    nullable = schema.get("nullable") is True
    for key, value in schema.items():
        if key == "nullable":
            continue
        if key == "type" and isinstance(value, str):
            out[key] = [value.lower(), "null"] if nullable else value.lower()
        elif key == "enum" and isinstance(value, list):
            out[key] = value + [None] if nullable and None not in value else value
        elif key in _GEMINI_SCHEMA_ONE:
            out[key] = gemini_as_json_schema(value)
        elif key in _GEMINI_SCHEMA_LISTS and isinstance(value, list):
            branches = [gemini_as_json_schema(v) for v in value]
            if nullable and "type" not in schema:
                branches.append({"type": "null"})
            out[key] = branches
        elif key == "properties" and isinstance(value, Mapping):
            out[key] = {k: gemini_as_json_schema(v) for k, v in value.items()}
        else:
            out[key] = value
    return out
