"""One JSON-Schema walker with per-provider hooks: tool parameter schemas for each LLM API.

Standard library only: this module is copied verbatim into the generated package and is also
imported by the generator at build time.

Public API
----------
``convert_parameters(schema, dialect, *, strict=False) -> dict``
    Turns the JSON Schema of a tool's parameters into the parameter schema ``dialect`` takes.
``convert(schema, dialect, *, strict=False) -> Conversion``
    The same, plus the non-fatal :class:`Notice` list the conversion produced.
``tool_entry(dialect, name, description, parameters, *, strict=False, cache_control=False)``
    The request-ready tool dict. ``parameters`` is the *input* JSON Schema: ``tool_entry``
    converts it itself (do not pass an already converted schema).
``check_limits(dialect, tools) -> list[Notice]``
    Checks a list of request-ready tool dicts against the provider's limits. Hard errors
    raise :class:`DialectError` (path starts with the tool's index in ``tools``); soft limits
    come back as notices.

Every function is pure and deterministic: inputs are never mutated and dict key order is part
of the output contract. Nothing is dropped silently: a keyword a dialect cannot take is either
moved into the description text ("Allowed values: 1, 2, 3.") or refused with a
:class:`DialectError` that names the path into the *input* schema and carries a hint.

Rules common to every dialect
-----------------------------
* Non-recursive ``$ref`` (into ``$defs``, ``definitions``, ``#/properties/...``, any local JSON
  pointer) are inlined; keywords next to the ``$ref`` override the target's, and two different
  descriptions are joined (outer first). ``$defs``/``definitions`` themselves are not emitted.
* Recursive refs are kept as ``$ref`` into the output root's ``$defs`` (``#`` stays ``#``) for
  the JSON-Schema dialects; Gemini refuses them. Refs that are not local pointers are refused.
* ``$schema``, ``$id``, ``$comment``, ``$anchor`` (metadata that constrains no value) are removed.
* The root must be an object schema (``type`` "object", or untyped with ``properties``);
  a root union or any other type is refused. The root always gets ``properties`` and
  ``required`` (empty if absent), in that order after ``type``.
* The OpenAPI-style ``nullable: true`` (toolgen's canonical form may use it) becomes a type list
  with ``"null"`` (and ``null`` in ``enum``) on the JSON-Schema dialects; ``nullable: false`` is
  the default and is removed. Draft-4 boolean ``exclusiveMinimum``/``exclusiveMaximum`` become
  the numeric form. Draft-4 tuple ``items: [...]`` becomes ``prefixItems`` (JSON dialects).
* Key order of each emitted schema: ``type``, ``description``, ``properties``, ``required``,
  ``additionalProperties``, then the other keywords in input order, ``$defs`` last.

Per format, ``formats.FORMATS`` holds the record: the tool-entry envelope, name rules, limits
and the keyword table of each policy (plain and strict). The implementation is split over
``schema_common`` (errors, text helpers, the nesting limit), ``schema_walk`` (ref resolution,
``allOf`` merging, the one table-driven walker), ``schema_json`` (hooks of the JSON-Schema
policies and OpenAI strict mode), ``schema_gemini`` (hooks of the Gemini policy) and
``schema_limits`` (``check_limits``). This module keeps the entry points.
"""

from __future__ import annotations

from typing import Any

# Some of these are only re-exported: every public name stays importable from this module.
from .formats import (
    DESCRIPTION,
    FORMATS,
    NAME,
    PARAMETERS,
    STRICT,
    Envelope,
    FormatRecord,
    SchemaPolicy,
)
from .formats import record as _record
from .schema_common import (
    DIALECTS,
    NAME_PATTERNS,
    OPENAI_MAX_DESCRIPTION,
    OPENAI_MAX_TOOLS,
    Conversion,
    DialectError,
    Notice,
    Schema,
)
from .schema_gemini import GeminiHooks
from .schema_json import JsonHooks, StrictHooks
from .schema_limits import (
    check_limits,
    check_name,
    check_property_keys,
    refuse_empty_description,
)
from .schema_walk import Hooks, _Walker

__all__ = [
    "DIALECTS",
    "NAME_PATTERNS",
    "OPENAI_MAX_DESCRIPTION",
    "OPENAI_MAX_TOOLS",
    "Conversion",
    "DialectError",
    "Notice",
    "check_limits",
    "convert",
    "convert_parameters",
    "convert_with",
    "tool_entry",
]

#: The code behind each policy's CUSTOM keywords (``SchemaPolicy.hooks``).
HOOKS: dict[str, Hooks] = {
    "json": JsonHooks(),
    "openai-strict": StrictHooks(),
    "gemini": GeminiHooks(),
}


def _policy(rec: FormatRecord, strict: bool) -> SchemaPolicy:
    if not strict:
        return rec.schema
    if rec.strict is None:
        modelled = ", ".join(name for name, r in FORMATS.items() if r.strict)
        raise DialectError(
            (),
            f"{rec.name}: strict mode is only modelled for {modelled}",
            "pass strict=False",
        )
    return rec.strict


def convert_with(
    schema: Any, rec: FormatRecord, policy: SchemaPolicy, label: str | None = None
) -> Conversion:
    """Converts ``schema`` with ``policy`` for the format ``rec`` (messages name ``label``)."""
    walker = _Walker(schema, rec, policy, HOOKS[policy.hooks], label)
    if not rec.property_key_everywhere and isinstance(schema, dict):
        check_property_keys(rec, schema, ())  # top level only; the walker sees the rest
    out = walker.finish(walker.node(schema, (), is_root=True))
    depth = _depth(out) if policy.max_depth is not None else 0
    if policy.max_depth is not None and depth > policy.max_depth:
        walker.notices.append(
            Notice(
                (),
                f"{walker.dialect}: {depth} levels of object nesting "
                f"(documented limit {policy.max_depth})",
            )
        )
    return Conversion(
        out, tuple(walker.notices), tuple(walker.described), tuple(walker.dropped)
    )


def convert(schema: Schema, dialect: str, *, strict: bool = False) -> Conversion:
    """Converts a parameters JSON Schema for ``dialect``; returns the schema and notices."""
    rec = _record(dialect)
    return convert_with(schema, rec, _policy(rec, strict))


def convert_parameters(schema: Schema, dialect: str, *, strict: bool = False) -> Schema:
    """The dialect's parameter schema for a tool whose parameters are the JSON Schema ``schema``.

    Raises :class:`DialectError` for what the dialect cannot express (see the module docstring
    and formats.py for the rules); use :func:`convert` to also get the notices.
    """
    return convert(schema, dialect, strict=strict).schema


def _depth(schema: Any, level: int = 0) -> int:
    if not isinstance(schema, dict):
        return level
    best = level
    for k, v in schema.items():
        if k in ("properties", "$defs") and isinstance(v, dict):
            best = max(best, *(_depth(s, level + 1) for s in v.values())) if v else best
        elif k in ("items",):
            best = max(best, _depth(v, level))
        elif k == "anyOf" and isinstance(v, list):
            best = max(best, *(_depth(s, level) for s in v)) if v else best
    return best


def lay_out(envelope: Envelope, values: dict[Any, Any]) -> dict[str, Any]:
    """A tool entry from its envelope: each Slot replaced by ``values[slot]``."""
    return {
        key: (
            lay_out(part, values) if isinstance(part, tuple) else values.get(part, part)
        )
        for key, part in envelope
    }


def tool_entry(
    dialect: str,
    name: str,
    description: str,
    parameters: Schema,
    *,
    strict: bool = False,
    cache_control: bool = False,
    notices: list[Any] | None = None,
) -> Schema:
    """The request-ready tool dict for ``dialect``.

    ``parameters`` is the input JSON Schema; this function converts it with
    :func:`convert_parameters`. Conversion notices are appended to ``notices`` when a list is
    given. ``strict`` is for the formats with a strict mode (OpenAI), ``cache_control`` (adds
    ``cache_control: {"type": "ephemeral"}`` as the last key) for anthropic only; asking either
    of another dialect raises :class:`DialectError`, as do a tool name outside the dialect's
    rules and (bedrock-converse) an empty description.
    """
    rec = _record(dialect)
    if cache_control and not rec.cache_control:
        raise DialectError(
            (),
            f"{dialect}: cache_control is only modelled for anthropic",
            "pass cache_control=False",
        )
    check_name(rec, name, ("name",))
    if not isinstance(description, str):
        raise DialectError(("description",), "description must be a string")
    refuse_empty_description(rec, description, ("description",))
    result = convert(parameters, dialect, strict=strict)
    if notices is not None:
        notices.extend(result.notices)
    entry = lay_out(
        rec.envelope,
        {
            NAME: name,
            DESCRIPTION: description,
            PARAMETERS: result.schema,
            STRICT: bool(strict),
        },
    )
    if cache_control:
        entry["cache_control"] = {"type": "ephemeral"}
    return entry
