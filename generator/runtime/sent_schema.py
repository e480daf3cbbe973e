"""The parameters schema a request sent for one tool, and the check compiled from it.

Standard library only. A native request sends each tool's parameters in its format's own
schema (OpenAI's closed root and strict mode's nullable required members, Gemini's UPPERCASE
subset or its ``parametersJsonSchema`` fallback, keywords a format drops or describes): the
arguments of a call are checked against exactly that schema, read back from the tool entry
that went out (``sent_parameters``), by the validator in the slot's dialect (Gemini's subset:
``compile_schema(schema, dialect="gemini")``; a ``$schema`` in a JSON Schema slot selects its
draft as usual). Checks are compiled once per process for each sent schema
(``sent_checker``), so an Offer for a context already seen compiles nothing.

A ``null`` for a parameter the tool's own schema (the spec's, an MCP server's) does not require
is removed after the check, before the handler sees it: OpenAI strict sends optional parameters
as required and nullable, and the model fills them with ``null``. Where the schema sent does
not allow that null (a format without strict mode), the problem ends with NULL_HINT: the model
is told to leave the parameter out instead.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Mapping
from typing import Any

from .formats import FORMATS, PARAMETERS
from .validation import TOO_DEEP, enforced_run, problem_text

__all__ = [
    "CACHE_LIMIT",
    "GEMINI",
    "JSON",
    "NULL_HINT",
    "ArgumentsChecker",
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
    # compile_schema's run, called directly in ``run`` below (one call less per argument
    # object): the same refusal, the same problem texts.
    check = enforced_run(schema, "gemini" if dialect == GEMINI else "2020-12", None)

    def run(
        params: Mapping[str, Any], coerce: bool
    ) -> tuple[dict[str, Any], list[str]]:
        # The check never changes what it is given (it copies where it types a value), so a
        # dict is checked as it is; the caller still gets a dict of its own.
        given = params if type(params) is dict else dict(params)
        found: list[Any] = []
        value: Any = given
        try:
            value = check(given, found, False)
        except RecursionError:
            found.append([TOO_DEEP])
        problems = [problem_text(p, "") for p in found] if found else []
        typed = value if isinstance(value, dict) else given
        if not problems and None in typed.values():
            typed = {k: v for k, v in typed.items() if v is not None or k in required}
        elif problems and None in given.values():
            problems = _null_hints(problems, given, required)
        if typed is params:
            typed = dict(typed)
        return typed, problems

    return run


NULL_HINT = " (leave the parameter out instead of sending null)"
"""Ends a problem of an optional parameter sent as null that the schema sent does not allow."""


def _null_hints(
    problems: list[str], given: dict[str, Any], required: frozenset[str]
) -> list[str]:
    """``problems`` with NULL_HINT on those of optional parameters the model sent as null.

    Formats without strict mode send an optional parameter as it is, not nullable: the model
    that fills it with null is told to leave it out instead (a null has no parts, so every
    problem of that parameter is at its own place).
    """
    places = tuple(
        f"{k}: " for k, v in given.items() if v is None and k not in required
    )
    if not places:
        return problems
    return [p + NULL_HINT if p.startswith(places) else p for p in problems]
