"""Checking a tool call's arguments against the schema that was sent, before its handler runs.

Standard library only; ts_runtime/validation.ts gives the same answers and the same texts.
``compile_schema`` turns a JSON Schema into closures once (validation_compile.py); running it is
then a few dict lookups per value. ``arguments_checker`` wraps a tool's parameter schema and
gives back ``(typed arguments, problems)``: every problem is reported, each named by its place
(``days``, ``items[2].name``) with what to do. docs/validation.md lists every keyword and
format with its status (from validation_keywords.py) and the JSON Schema Test Suite's counts.

Dialects: ``$schema`` selects draft 2020-12 (the default), 2019-09 or draft 7 (draft 6 and 4
read as 7); ``dialect="gemini"`` reads Gemini's Schema subset with OpenAPI semantics (UPPERCASE
types; ``nullable: true`` lets null through the node; ``format: enum``; objects are open, as the
subset has no ``additionalProperties``). A schema the validator cannot
enforce (a refused keyword, a pattern that is not ECMA-262, a malformed keyword value, a
``$ref`` to another document without ``retrieve``, an unknown dialect) raises
``SchemaRefused``, which lists every refused place; ``schema_refusals`` gives that list without
raising, for tool-list builders that leave such a tool out or report it.

Text-path coercion (``coerce=True``, only for the top-level argument values, which the XML
reader gives as strings), when the declared types do not include "string":
- integer: optional sign and digits, surrounding blanks ignored (``" 3"`` -> 3);
- number: a JSON-style number (``"2.5"``, ``"1e3"``, ``"-4"``), finite; integral text -> int;
- boolean: ``true`` or ``false`` in any letter case;
- array / object: JSON text (``'["a", "b"]'``, ``'{"k": 1}'``) of that JSON type, nesting at
  most MAX_NESTING; its values are then checked as native JSON, without further coercion;
- anything else stays a string, and the type check reports it.
With several declared types, the first rule (in the order above) that reads the text wins. A
parameter given by ``$ref`` is read as its target declares; branches of anyOf/oneOf/allOf get
native values only, as before.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .validation_compile import DIALECTS, Refusal, Retrieve, SchemaRefused, compile_root
from .validation_scope import Problem, coerce_text, place_text

__all__ = [
    "DIALECTS",
    "ArgumentsChecker",
    "Check",
    "Refusal",
    "SchemaRefused",
    "arguments_checker",
    "coerce_text",
    "compile_schema",
    "schema_refusals",
]

Check = Callable[[Any, str, list[str], bool], Any]
"""A compiled schema: ``check(value, path, problems, coerce)`` -> the (typed) value."""

ArgumentsChecker = Callable[[Mapping[str, Any], bool], tuple[dict[str, Any], list[str]]]
"""A tool's argument check: ``(params, coerce) -> (typed arguments, problems)``."""

TOO_DEEP = "nested too deeply to check"


def problem_text(problem: Problem, path: str) -> str:
    """One problem as the model reads it: its place (or ``arguments``), then what is wrong."""
    return f"{place_text(problem, path) or 'arguments'}: {problem[0]}"


def schema_refusals(
    schema: Any, *, dialect: str = "2020-12", retrieve: Retrieve | None = None
) -> list[Refusal]:
    """Every place of ``schema`` the validator cannot enforce (empty: it can), never raising.

    Each ``Refusal`` has ``pointer`` (the JSON pointer of the schema object), ``keyword`` and
    ``reason``; ``str(refusal)`` reads ``/properties/q/pattern: the pattern ... is not valid``.
    ``retrieve(uri)`` returns the schema of another document a ``$ref`` names (or raises);
    without it such a ``$ref`` is refused.
    """
    return compile_root(schema, dialect, retrieve)[1]


def enforced_run(schema: Any, dialect: str, retrieve: Retrieve | None) -> Any:
    """The compiled root check ``run(value, found, coerce)`` of a schema every keyword of which is
    enforced; raises SchemaRefused (listing every place) otherwise. The checks built on it add
    how a RecursionError and the problems found are reported (``problem_text``)."""
    root, refusals = compile_root(schema, dialect, retrieve)
    if refusals:
        raise SchemaRefused(refusals)
    return root.run


def compile_schema(
    schema: Any, *, dialect: str = "2020-12", retrieve: Retrieve | None = None
) -> Check:
    """The check for a schema; raises SchemaRefused (listing every place) when it cannot be enforced."""
    run = enforced_run(schema, dialect, retrieve)

    def check(value: Any, path: str, problems: list[str], coerce: bool) -> Any:
        found: list[Problem] = []
        try:
            value = run(value, found, coerce)
        except RecursionError:
            found.append([TOO_DEEP])
        if found:
            problems += [problem_text(p, path) for p in found]
        return value

    return check


def arguments_checker(
    schema: Mapping[str, Any],
    *,
    dialect: str = "2020-12",
    retrieve: Retrieve | None = None,
) -> ArgumentsChecker:
    """A tool's argument check: ``(params, coerce) -> (typed arguments, problems)``.

    Raises SchemaRefused when the schema cannot be enforced. ``None`` for a parameter the
    schema does not require is removed first: strict formats make optional parameters
    nullable and the model sends ``null`` for one it leaves out.
    """
    run = enforced_run(schema, dialect, retrieve)
    raw = schema.get("required") if isinstance(schema, Mapping) else None
    required = frozenset(
        r for r in (raw if isinstance(raw, (list, tuple)) else ()) if isinstance(r, str)
    )

    def check(
        params: Mapping[str, Any], coerce: bool
    ) -> tuple[dict[str, Any], list[str]]:
        found: list[Problem] = []
        if None in params.values():
            cleaned = {
                k: v for k, v in params.items() if v is not None or k in required
            }
        else:
            cleaned = dict(params)
        try:
            value = run(cleaned, found, coerce)
        except RecursionError:
            found.append([TOO_DEEP])
            value = cleaned
        if not found:
            return value if isinstance(value, dict) else cleaned, []
        return (value if isinstance(value, dict) else cleaned), [
            problem_text(p, "") for p in found
        ]

    return check
