"""``check_limits``: checks request-ready tool dicts against a provider's limits.

Standard library only: this module is copied verbatim into the generated package (relative
imports only) and is also imported by the generator at build time.
"""

from __future__ import annotations

from typing import Any, Callable

from .schema_common import (
    _SCHEMA_ONE,
    ANTHROPIC_PROPERTY_KEY,
    DIALECTS,
    NAME_PATTERNS,
    OPENAI_MAX_DESCRIPTION,
    OPENAI_MAX_TOOLS,
    DialectError,
    Notice,
    Path,
)
from .schema_gemini import _GEMINI_TYPES, GEMINI_PROPERTY_KEY


def _unpack(dialect: str, tool: Any, i: int) -> tuple[Any, Any, Any, Any, Path]:
    """(name, description, parameters, strict, path to parameters) of a tool dict."""
    if not isinstance(tool, dict):
        raise DialectError((i,), "tool entry is not an object")
    try:
        if dialect == "anthropic":
            return (
                tool["name"],
                tool.get("description", ""),
                tool["input_schema"],
                False,
                (i, "input_schema"),
            )
        if dialect == "openai-chat":
            f = tool["function"]
            return (
                f["name"],
                f.get("description", ""),
                f.get("parameters"),
                f.get("strict"),
                (i, "function", "parameters"),
            )
        if dialect == "openai-responses":
            return (
                tool["name"],
                tool.get("description", ""),
                tool.get("parameters"),
                tool.get("strict"),
                (i, "parameters"),
            )
        if dialect == "gemini":
            return (
                tool["name"],
                tool.get("description", ""),
                tool.get("parameters"),
                False,
                (i, "parameters"),
            )
        spec = tool["toolSpec"]
        return (
            spec["name"],
            spec.get("description"),
            spec["inputSchema"]["json"],
            False,
            (i, "toolSpec", "inputSchema", "json"),
        )
    except (KeyError, TypeError) as exc:
        raise DialectError(
            (i,), f"{dialect}: malformed tool entry (missing {exc})"
        ) from None


def _walk_schemas(schema: Any, path: Path, visit: Callable[[dict, Path], None]) -> None:
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


def check_limits(dialect: str, tools: list[dict]) -> list[Notice]:
    """Checks request-ready tool dicts (as :func:`tool_entry` builds them) against ``dialect``.

    Raises :class:`DialectError` (path ``(index, ...)``) for hard errors: a tool name outside
    the dialect's rules, duplicate names, a parameters root that is not an object, anthropic
    top-level property keys outside ``^[a-zA-Z0-9_.-]{1,64}$``, gemini property names and
    non-string enums, OpenAI strict tools breaking strict invariants, an empty bedrock
    description. Returns notices for soft limits: OpenAI more than 128 tools in one request
    and descriptions longer than 1024 characters.
    """
    if dialect not in DIALECTS:
        raise ValueError(
            f"unknown dialect {dialect!r}; expected one of {', '.join(DIALECTS)}"
        )
    notices: list[Notice] = []
    seen: dict = {}
    root_type = "OBJECT" if dialect == "gemini" else "object"
    for i, tool in enumerate(tools):
        name, description, params, strict, ppath = _unpack(dialect, tool, i)
        npath = {
            "openai-chat": (i, "function", "name"),
            "bedrock-converse": (i, "toolSpec", "name"),
        }.get(dialect, (i, "name"))
        if not isinstance(name, str) or not NAME_PATTERNS[dialect].fullmatch(name):
            raise DialectError(
                npath,
                f"{dialect}: tool name {name!r} is not allowed",
                f"names must match {NAME_PATTERNS[dialect].pattern}",
            )
        if name in seen:
            raise DialectError(
                npath,
                f"{dialect}: tool name {name!r} is used twice (also tool {seen[name]})",
                "give every tool a distinct name",
            )
        seen[name] = i
        dpath = npath[:-1] + ("description",)
        if dialect == "bedrock-converse" and not description:
            raise DialectError(
                dpath,
                "bedrock-converse: the tool description must not be empty",
                "write a one-line description of what the tool does",
            )
        if (
            dialect.startswith("openai")
            and isinstance(description, str)
            and len(description) > OPENAI_MAX_DESCRIPTION
        ):
            notices.append(
                Notice(
                    dpath,
                    f"{dialect}: description of {name!r} has {len(description)} "
                    f"characters (more than {OPENAI_MAX_DESCRIPTION})",
                )
            )
        if params is None and dialect.startswith("openai"):
            continue
        if not isinstance(params, dict) or params.get("type") != root_type:
            raise DialectError(
                ppath,
                f"{dialect}: parameters of {name!r} must be an object schema "
                f"(type {root_type!r})",
                "wrap the value in an object property",
            )
        if dialect == "anthropic":
            for key in params.get("properties", {}) or {}:
                if not ANTHROPIC_PROPERTY_KEY.fullmatch(str(key)):
                    raise DialectError(
                        ppath + ("properties", key),
                        f"anthropic: property key {key!r} is not allowed",
                        "top-level property keys must match ^[a-zA-Z0-9_.-]{1,64}$",
                    )
        if dialect == "gemini":
            _walk_schemas(params, ppath, _check_gemini_node)
        if strict is True:
            _walk_schemas(params, ppath, _check_strict_node)
    if dialect.startswith("openai") and len(tools) > OPENAI_MAX_TOOLS:
        notices.append(
            Notice(
                (),
                f"{dialect}: {len(tools)} tools in one request "
                f"(more than {OPENAI_MAX_TOOLS})",
            )
        )
    return notices


def _check_gemini_node(schema: dict, path: Path) -> None:
    for name in schema.get("properties", {}) or {}:
        if not GEMINI_PROPERTY_KEY.fullmatch(str(name)):
            raise DialectError(
                path + ("properties", name),
                f"gemini: property name {name!r} is not allowed",
                "property names must start with a letter or underscore and use only "
                "letters, digits, _ . - (at most 64 characters)",
            )
    enum = schema.get("enum")
    if enum is not None and not all(isinstance(e, str) for e in enum):
        raise DialectError(
            path + ("enum",),
            "gemini: enum values must be strings",
            "convert_parameters moves non-string enums into the description",
        )
    t = schema.get("type")
    if t is not None and t not in _GEMINI_TYPES.values():
        raise DialectError(
            path + ("type",),
            f"gemini: type {t!r} is not a Gemini type",
            "use STRING, NUMBER, INTEGER, BOOLEAN, ARRAY or OBJECT",
        )


def _check_strict_node(schema: dict, path: Path) -> None:
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
