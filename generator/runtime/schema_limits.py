"""``check_limits``: checks request-ready tool dicts against a provider's limits.

Standard library only: this module is copied verbatim into the generated package (relative
imports only) and is also imported by the generator at build time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .formats import DESCRIPTION, NAME, PARAMETERS, STRICT, FormatRecord, Slot
from .formats import record as _record
from .schema_common import _SCHEMA_ONE, DialectError, Notice, Path, Schema


def _read(rec: FormatRecord, tool: Schema, slot: Slot, strict: bool) -> Any:
    """The value at ``slot`` of ``tool``'s envelope; None when its own key is missing.

    A missing level above it raises KeyError (a malformed entry), as does a missing name.
    """
    *above, last = rec.path_to(slot)
    holder: Any = tool
    for key in above:
        holder = holder[key]
    return holder[last] if strict else holder.get(last)


def _unpack(rec: FormatRecord, tool: Any, i: int) -> tuple[Any, Any, Any, Any]:
    """(name, description, parameters, strict) of a tool dict, read through the envelope."""
    if not isinstance(tool, dict):
        raise DialectError((i,), "tool entry is not an object")
    try:
        return (
            _read(rec, tool, NAME, True),
            _read(rec, tool, DESCRIPTION, False) or "",
            _read(rec, tool, PARAMETERS, False),
            rec.strict is not None and _read(rec, tool, STRICT, False),
        )
    except (KeyError, TypeError, AttributeError) as exc:
        raise DialectError(
            (i,), f"{rec.name}: malformed tool entry (missing {exc})"
        ) from None


def _walk_schemas(
    schema: Any, path: Path, visit: Callable[[Schema, Path], None]
) -> None:
    if not isinstance(schema, dict):
        return
    visit(schema, path)
    for k, v in schema.items():
        if k in (
            "properties",
            "$defs",
            "patternProperties",
            "dependentSchemas",
        ) and isinstance(v, dict):
            for name, s in v.items():
                _walk_schemas(s, path + (k, name), visit)
        elif k in ("anyOf", "oneOf", "allOf", "prefixItems") and isinstance(v, list):
            for j, s in enumerate(v):
                _walk_schemas(s, path + (k, j), visit)
        elif k in _SCHEMA_ONE and isinstance(v, dict):
            _walk_schemas(v, path + (k,), visit)


def check_name(rec: FormatRecord, name: Any, at: Path) -> None:
    """Refuses a tool name outside the format's rules (``at``: path of the name)."""
    if not isinstance(name, str) or not rec.tool_name.fullmatch(name):
        raise DialectError(
            at,
            f"{rec.name}: tool name {name!r} is not allowed",
            f"names must match {rec.tool_name.pattern}",
        )


def refuse_empty_description(rec: FormatRecord, description: Any, at: Path) -> None:
    """Refuses an empty description where the format requires one."""
    if rec.description_required and not description:
        raise DialectError(
            at,
            f"{rec.name}: the tool description must not be empty",
            "write a one-line description of what the tool does",
        )


def check_property_keys(rec: FormatRecord, schema: Schema, at: Path) -> None:
    """Refuses property names of ``schema`` outside the format's rule (``at``: its path)."""
    properties = schema.get("properties")
    if rec.property_key is None or not isinstance(properties, dict):
        return  # properties that are not a map are refused where they are converted
    for key in properties:
        if not isinstance(key, str) or not rec.property_key.fullmatch(key):
            raise DialectError(
                at + ("properties", key),
                f"{rec.name}: " + rec.property_key_message.format(name=key),
                rec.property_key_hint,
            )


def check_limits(dialect: str, tools: list[Schema]) -> list[Notice]:
    """Checks request-ready tool dicts (as :func:`tool_entry` builds them) against ``dialect``.

    Raises :class:`DialectError` (path ``(index, ...)``) for hard errors: a tool name outside
    the dialect's rules, duplicate names, a parameters root that is not an object, property
    keys outside the format's rule (anthropic: top level, gemini: every level), gemini
    non-string enums, strict tools breaking strict invariants, an empty description where the
    format requires one. Returns notices for the soft limits of the record (OpenAI: more than
    128 tools in one request, descriptions longer than 1024 characters).
    """
    rec = _record(dialect)
    notices: list[Notice] = []
    seen: dict[str, int] = {}
    root_type = rec.schema.root_type
    for i, tool in enumerate(tools):
        name, description, params, strict = _unpack(rec, tool, i)
        npath = (i,) + rec.path_to(NAME)
        check_name(rec, name, npath)
        if name in seen:
            raise DialectError(
                npath,
                f"{dialect}: tool name {name!r} is used twice (also tool {seen[name]})",
                "give every tool a distinct name",
            )
        seen[name] = i
        dpath = (i,) + rec.path_to(DESCRIPTION)
        refuse_empty_description(rec, description, dpath)
        limit = rec.max_description
        if (
            limit is not None
            and isinstance(description, str)
            and len(description) > limit
        ):
            notices.append(
                Notice(
                    dpath,
                    f"{dialect}: description of {name!r} has {len(description)} "
                    f"characters (more than {limit})",
                )
            )
        if params is None and rec.parameters_optional:
            continue
        ppath = (i,) + rec.path_to(PARAMETERS)
        if not isinstance(params, dict) or params.get("type") != root_type:
            raise DialectError(
                ppath,
                f"{dialect}: parameters of {name!r} must be an object schema "
                f"(type {root_type!r})",
                "wrap the value in an object property",
            )
        if rec.property_key_everywhere or rec.schema.types:
            _walk_schemas(params, ppath, _node_check(rec))
        else:
            check_property_keys(rec, params, ppath)
        if strict is True:
            _walk_schemas(params, ppath, _check_strict_node)
    if rec.max_tools is not None and len(tools) > rec.max_tools:
        notices.append(
            Notice(
                (),
                f"{dialect}: {len(tools)} tools in one request "
                f"(more than {rec.max_tools})",
            )
        )
    return notices


def _node_check(rec: FormatRecord) -> Callable[[Schema, Path], None]:
    """Checks every schema node: property keys, and for a format with its own type names
    (Gemini) those types and string-only enums."""
    types = tuple(rec.schema.types.values())

    def check(schema: Schema, path: Path) -> None:
        check_property_keys(rec, schema, path)
        if not types:
            return
        enum = schema.get("enum")
        if enum is not None and not all(isinstance(e, str) for e in enum):
            raise DialectError(
                path + ("enum",),
                f"{rec.name}: enum values must be strings",
                "convert_parameters moves non-string enums into the description",
            )
        t = schema.get("type")
        if t is not None and t not in types:
            raise DialectError(
                path + ("type",),
                f"{rec.name}: type {t!r} is not one of its types",
                "use one of " + ", ".join(types),
            )

    return check


def _check_strict_node(schema: Schema, path: Path) -> None:
    t = schema.get("type")
    types = t if isinstance(t, list) else [t]
    if "object" in types:
        props = schema.get("properties")
        if not isinstance(props, dict):
            raise DialectError(path, "strict: an object needs declared properties")
        if schema.get("additionalProperties") is not False:
            raise DialectError(
                path, "strict: an object needs additionalProperties false"
            )
        if list(schema.get("required", [])) != list(props) and set(
            schema.get("required", [])
        ) != set(props):
            raise DialectError(
                path + ("required",),
                "strict: every property must be required",
                "make optional properties nullable instead",
            )
    if "array" in types and "items" not in schema:
        raise DialectError(path, "strict: an array needs 'items'")
