"""Request-ready native tool lists from precomputed per-dialect entries (standard library only).

Generated provider modules hold each spec variant's tool entry already converted for their
dialect, with placeholders unresolved. At request time this module copies the entries a family
enables, drops parameters whose context requirements fail, fills conditional text and
placeholders, and converts run-time tools (subagents, MCP) with the same converter the generator
used, so build-time and run-time output can never differ.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .copies import fast_copy
from .formats import DESCRIPTION, FORMATS, JSON_SCHEMA, NAME, PARAMETERS, STRICT
from .schema_common import (
    MAX_NESTING,
    DialectError,
    _ordered,
    extras_lead,
    nesting_depth,
)
from .schema_dialects import convert_with, lay_out, tool_entry

__all__ = [
    "DESCRIPTION_PATH",
    "PROPERTIES_PATH",
    "NativeToolsUnavailable",
    "adapt",
    "fast_copy",
    "json_schema_entry",
    "materialize",
    "parameters_schema",
    "placeholder_paths",
    "runtime_entry",
    "spec_entry",
    "spec_meta",
]

# Where each dialect keeps the tool description and the parameter properties (from the records).
DESCRIPTION_PATH: dict[str, tuple[str, ...]] = {
    name: rec.description_path for name, rec in FORMATS.items()
}
PROPERTIES_PATH: dict[str, tuple[str, ...]] = {
    name: rec.properties_path for name, rec in FORMATS.items()
}


_COMBINATORS = ("anyOf", "oneOf", "allOf")


class NativeToolsUnavailable(Exception):
    """The family or the context does not use native tool calling: send the text-path prompt instead.

    Raised instead of returning an empty list, which would mean 'native calling with no tools'.
    """


def parameters_schema(params: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The canonical JSON Schema of a tool's parameters.

    Each param mapping has name, required, instruction (resolved text) and schema (keywords:
    type first, then the rest in spec order). The instruction becomes the property description.
    A schema without a type is a string, unless it is a union or intersection (anyOf, oneOf,
    allOf), which says its types itself.
    """
    properties: dict[str, Any] = {}
    required: list[str] = []
    for param in params:
        schema = dict(param["schema"])
        prop: dict[str, Any] = {}
        if "type" in schema or not any(k in schema for k in _COMBINATORS):
            prop["type"] = schema.pop("type", "string")
        if param["instruction"]:
            prop["description"] = param["instruction"]
        prop.update(schema)
        properties[param["name"]] = prop
        if param["required"]:
            required.append(param["name"])
    return {"type": "object", "properties": properties, "required": required}


def _at(entry: Any, path: Sequence[str]) -> Any:
    for key in path:
        entry = entry[key]
    return entry


def _fill(value: Any, resolve: Callable[[str], str]) -> Any:
    if isinstance(value, str):
        return resolve(value) if "{{" in value else value
    if isinstance(value, dict):
        return {k: _fill(v, resolve) for k, v in value.items()}
    if isinstance(value, list):
        return [_fill(v, resolve) for v in value]
    return value


def placeholder_paths(entry: Mapping[str, Any]) -> tuple[tuple[str, ...], ...]:
    """Paths (dict keys only) to every value of ``entry`` holding a ``{{`` string.

    A path ends at a string, or at the first list on the way (the whole list is filled then),
    so removing a gated name from a ``required`` list cannot shift a path. Computed at
    generation time (META ``paths``) so that filling placeholders touches only these values.
    """
    found: list[tuple[str, ...]] = []
    pending: list[tuple[Mapping[str, Any], tuple[str, ...]]] = [(entry, ())]
    while pending:
        holder, path = pending.pop()
        for key, value in holder.items():
            if isinstance(value, Mapping):
                pending.append((value, (*path, key)))
            elif _has_braces(value):
                found.append((*path, key))
    return tuple(sorted(found))


def _has_braces(value: Any) -> bool:
    if isinstance(value, str):
        return "{{" in value
    if isinstance(value, (list, tuple)):
        return any(_has_braces(v) for v in value)
    if isinstance(value, Mapping):
        return any(_has_braces(v) for v in value.values())
    return False


def _plain(pieces: Sequence[Any]) -> str:
    """The unconditional part of spec text held as data (plain strings and (text, when) pairs)."""
    return "".join(p for p in pieces if isinstance(p, str))


def _conditional(pieces: Sequence[Any]) -> bool:
    return any(not isinstance(p, str) for p in pieces)


def spec_entry(dialect: str, spec: Mapping[str, Any]) -> dict[str, Any] | None:
    """A spec variant's entry in ``dialect``, placeholders unresolved; None without a description.

    ``spec`` is the variant as catalog data holds it (``catalog_data.SPECS``). The rules of the
    static entries live here alone: the generator bakes their results into
    generated/<format>.py (``TOOLS``), and the TypeScript runtime applies the same rules to its
    catalog data at first use.
    """
    description = _plain(spec["description"])
    if not description and not _conditional(spec["description"]):
        return None
    schema = parameters_schema(
        [
            {
                "name": p["name"],
                "required": p["required"],
                "instruction": _plain(p["instruction"]),
                "schema": fast_copy(p["schema"]),
            }
            for p in spec["parameters"]
        ]
    )
    # Formats without a strict mode take the same tool without it.
    strict = bool(spec["strict"]) and FORMATS[dialect].strict is not None
    return tool_entry(dialect, spec["name"], description, schema, strict=strict)


def spec_meta(
    spec: Mapping[str, Any], built: Mapping[str, Any] | None
) -> dict[str, Any] | None:
    """What of ``spec``'s entry ``built`` depends on the context (None: nothing): ``META``.

    Parameter gates, the conditional texts (parameter name or None for the tool, the
    unconditional text, every piece) and, where a text holds a placeholder, the paths of the
    values to fill (``placeholder_paths``).
    """
    params = spec["parameters"]
    gates = tuple(
        (p["name"], p["requires"]) for p in params if p["requires"] is not None
    )
    texts: list[tuple[Any, ...]] = []
    if _conditional(spec["description"]):
        texts.append((None, _plain(spec["description"]), tuple(spec["description"])))
    for p in params:
        if _conditional(p["instruction"]):
            texts.append((p["name"], _plain(p["instruction"]), tuple(p["instruction"])))
    pieces = [*spec["description"], *(x for p in params for x in p["instruction"])]
    braces = any("{{" in (x if isinstance(x, str) else x[0]) for x in pieces)
    if not gates and not texts and not braces:
        return None
    paths = placeholder_paths(built) if braces and built is not None else ()
    return {
        "gates": gates,
        "texts": tuple(texts),
        "placeholders": braces,
        "paths": paths,
    }


def materialize(
    dialect: str,
    entry: Mapping[str, Any],
    meta: Mapping[str, Any] | None,
    holds: Callable[[Any], bool],
    text: Callable[[Sequence[Any]], str],
    placeholders: Callable[[str], str],
) -> dict[str, Any]:
    """A fresh copy of ``entry`` adapted to the context (see ``adapt``)."""
    result: dict[str, Any] = fast_copy(entry)
    if meta is None:
        return result
    return adapt(dialect, result, meta, holds, text, placeholders)


def adapt(
    dialect: str,
    result: dict[str, Any],
    meta: Mapping[str, Any],
    holds: Callable[[Any], bool],
    text: Callable[[Sequence[Any]], str],
    placeholders: Callable[[str], str],
) -> dict[str, Any]:
    """Adapt ``result``, a private copy of an entry, to the context in place, and return it.

    ``meta`` lists parameter ``gates`` (name, requirement), conditional ``texts`` (parameter
    name or None for the tool, unconditional text, all pieces), whether any text holds a
    placeholder and, when it does, the ``paths`` of the values to fill (``placeholder_paths``;
    without them every string is searched).
    """
    properties = _at(result, PROPERTIES_PATH[dialect])
    parent = _at(result, PROPERTIES_PATH[dialect][:-1])
    for name, requirement in meta["gates"]:
        if name in properties and not holds(requirement):
            del properties[name]
            if name in parent.get("required", ()):
                parent["required"].remove(name)
    swapped: list[tuple[dict[str, Any], str]] = []
    for name, plain, pieces in meta["texts"]:
        if name is None:
            holder, key = (
                _at(result, DESCRIPTION_PATH[dialect][:-1]),
                DESCRIPTION_PATH[dialect][-1],
            )
        elif name in properties:
            holder, key = properties[name], "description"
        else:
            continue
        _swap_text(holder, key, plain, text(pieces), name is not None)
        swapped.append((holder, key))
    if not meta["placeholders"]:
        return result
    paths = meta.get("paths")
    if paths is None:
        filled: dict[str, Any] = _fill(result, placeholders)
        return filled
    # Each value once, as a fill over the whole entry would: swapped texts and stored paths.
    done: set[tuple[int, str]] = set()
    for path in paths:
        holder = _find(result, path[:-1])
        if holder is not None and path[-1] in holder:
            swapped.append((holder, path[-1]))
    for holder, key in swapped:
        if (id(holder), key) not in done and key in holder:
            done.add((id(holder), key))
            holder[key] = _fill(holder[key], placeholders)
    return result


def _find(entry: Any, path: Sequence[str]) -> Any:
    """The dict at ``path`` in ``entry``, or None where a gate removed part of the path."""
    for key in path:
        if not isinstance(entry, dict) or key not in entry:
            return None
        entry = entry[key]
    return entry if isinstance(entry, dict) else None


def _swap_text(
    holder: dict[str, Any], key: str, plain: str, resolved: str, optional: bool
) -> None:
    """Put the context's text where the converter put the unconditional text ``plain``.

    The converter may have appended sentences for keywords the dialect cannot take
    (schema_common._with_extras); they are kept after the new text exactly as a conversion of
    it would place them. An ``optional`` (parameter) description that resolves to nothing is
    left out, as parameters_schema leaves it out; a new one goes where the converter puts it.
    """
    current = holder.get(key)
    if current is not None and current != plain:
        tail = current[len(extras_lead(plain)) :]
        holder[key] = extras_lead(resolved) + tail
    elif resolved or not optional:
        holder[key] = resolved
        if current is None:
            reordered = _ordered(holder)
            holder.clear()
            holder.update(reordered)
    else:
        holder.pop(key, None)


def runtime_entry(
    dialect: str, variant: Mapping[str, Any], text: Callable[[Sequence[Any]], str]
) -> dict[str, Any] | None:
    """Convert a run-time tool (subagent or MCP variant) exactly as the generator converts static ones.

    MCP variants carry their server's raw ``input_schema``; others are built from their parameters.
    Returns None for a tool without a description (it is not offered). Raises DialectError
    for a tool the dialect cannot take (the caller leaves it out and reports it): a schema
    nested deeper than MAX_NESTING, one the converter refuses, or output that is not JSON.

    For gemini, a schema the Gemini ``Schema`` subset cannot express, or expresses only with a
    notice (e.g. oneOf read as anyOf), goes out as full JSON Schema in ``parametersJsonSchema``
    instead of ``parameters``.
    """
    description = text(variant["description"])
    if not description:
        return None
    schema = variant.get("input_schema")
    if schema is None:
        schema = parameters_schema(
            [
                {**p, "instruction": text(p["instruction"])}
                for p in variant["parameters"]
            ]
        )
    elif nesting_depth(schema) > MAX_NESTING:
        raise DialectError((), f"input schema nests deeper than {MAX_NESTING} levels")
    rec = FORMATS[dialect]
    # Strict is asked of every format; those without a strict mode take the tool without it.
    strict = bool(variant.get("strict")) and rec.strict is not None
    notices: list[Any] = []
    try:
        entry = tool_entry(
            dialect,
            variant["name"],
            description,
            schema,
            strict=strict,
            notices=notices,
        )
    except DialectError as exc:
        if rec.json_schema_key is None or exc.path in (("name",), ("description",)):
            raise
        notices.append(exc)
    if rec.json_schema_key is not None and notices:
        # The format's schema subset refused or bent the schema: send full JSON Schema instead.
        entry = json_schema_entry(dialect, variant["name"], description, schema)
    try:
        json.dumps(entry, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise DialectError((), f"the converted tool is not valid JSON: {exc}") from None
    return entry


def json_schema_entry(
    dialect: str, name: str, description: str, schema: Mapping[str, Any]
) -> dict[str, Any]:
    """A tool entry whose parameters are full JSON Schema, under the record's ``json_schema_key``
    (Gemini: ``parametersJsonSchema``) instead of its subset's parameters key.

    The schema is converted as for the JSON-Schema dialects (refs inlined, recursion kept in
    ``$defs``); the name is checked against the format's rules by ``tool_entry``.
    """
    rec = FORMATS[dialect]
    if rec.json_schema_key is None:
        raise ValueError(f"{dialect} has no full JSON Schema key")
    tool_entry(dialect, name, description, {"type": "object", "properties": {}})
    label = f"{dialect} {rec.json_schema_key}"
    converted = convert_with(schema, rec, JSON_SCHEMA, label).schema
    values = {NAME: name, DESCRIPTION: description, PARAMETERS: converted}
    entry = lay_out(rec.envelope, {**values, STRICT: False})
    *above, key = rec.path_to(PARAMETERS)
    holder = _at(entry, above)
    renamed = {rec.json_schema_key if k == key else k: v for k, v in holder.items()}
    holder.clear()
    holder.update(renamed)
    return entry
