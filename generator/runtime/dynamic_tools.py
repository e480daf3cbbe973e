"""Run-time (dynamic) tools: MCP server tools and subagent tools as spec variants.

Standard library only: this module is copied verbatim (under a generated header) into the
generated package. Every function returns spec-variant dicts in the shape of ``catalog.SPECS``
values (``id``, ``spec``, ``name``, ``description``, ``requires``, ``strict``, ``parameters``)
plus ``input_schema``: the tool's raw JSON Schema for MCP tools, None for the others. ``spec``
(the family a static variant comes from) is None: dynamic tools belong to no family.

Text from MCP servers and subagent configs is data, not spec text: it is never parsed for
conditions, but whoever renders it with ``catalog.resolve_text`` also fills ``{{NAME}}``
placeholders in it unless ``placeholders=False`` is passed.
"""

from __future__ import annotations

import copy
import hashlib
import re
from typing import Any, Iterable, Mapping, Sequence

from .predicates import field_value

__all__ = [
    "MCP_TOOL_ID",
    "SUBAGENTS_TOOL_ID",
    "mcp_tools",
    "parse_mcp_name",
    "subagent_name",
    "subagent_names",
    "subagent_tools",
    "subagents_active",
    "merge_tools",
    "validate_servers",
    "validate_subagents",
]

MCP_TOOL_ID = "use_mcp_tool"
"""The tool id every MCP tool variant carries (calls are dispatched to its handler)."""
SUBAGENTS_TOOL_ID = "use_subagents"
"""The static tool the dynamic subagent tools replace."""

_HASH_HEX = 8
_UNSAFE = re.compile(r"[^a-z0-9_]+")


def _variant(
    tool_id: str,
    name: str,
    description: str,
    parameters: Iterable[dict[str, Any]],
    input_schema: Any,
) -> dict[str, Any]:
    return {
        "id": tool_id,
        "spec": None,
        "name": name,
        "description": (description,),
        "requires": None,
        "strict": False,
        "parameters": tuple(parameters),
        "input_schema": input_schema,
    }


def _parameter(
    name: str,
    required: bool,
    instruction: str,
    schema: Mapping[str, Any],
    usage: str | None,
) -> dict[str, Any]:
    return {
        "name": name,
        "required": required,
        "instruction": (instruction,),
        "description": (),
        "usage": usage,
        "schema": schema,
        "dependencies": (),
        "requires": None,
    }


# ---- MCP ----------------------------------------------------------------------------------


def _mcp_parameters(input_schema: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One parameter per root property.

    ``required`` comes from the ROOT ``required`` list only. (Cline v4.0.10 copied every key of a
    property over its parameter, so an object property's own ``required`` list replaced the flag.)
    """
    properties = input_schema.get("properties")
    if not isinstance(properties, Mapping):
        return []
    root_required = input_schema.get("required")
    required = (
        {r for r in root_required if isinstance(r, str)}
        if isinstance(root_required, list)
        else set()
    )
    params = []
    for prop_name, prop in properties.items():
        schema = copy.deepcopy(dict(prop)) if isinstance(prop, Mapping) else {}
        text = schema.get("description")
        params.append(
            _parameter(
                str(prop_name),
                prop_name in required,
                text if isinstance(text, str) else "",
                schema,
                None,
            )
        )
    return params


def _skip(
    server: Mapping[str, Any], tool: str | None, name: str | None, reason: str
) -> dict[str, Any]:
    return {
        "server": server.get("name"),
        "uid": server.get("uid"),
        "tool": tool,
        "name": name,
        "reason": reason,
    }


def _check_items(
    data: Any, required: Mapping[str, type], optional: Mapping[str, type]
) -> None:
    if not isinstance(data, (list, tuple)):
        raise ValueError("expected a JSON list of objects")
    for i, item in enumerate(data):
        if not isinstance(item, Mapping):
            raise ValueError(f"item {i} is not an object")
        for key, kind in required.items():
            if not isinstance(item.get(key), kind):
                raise ValueError(f"item {i} needs {key!r} ({kind.__name__})")
        for key, kind in optional.items():
            if key in item and not isinstance(item[key], kind):
                raise ValueError(f"item {i}: {key!r} must be {kind.__name__}")


def validate_servers(servers: Any) -> None:
    """Raise ValueError unless ``servers`` has the ``{uid, name, disabled, tools}`` list shape.

    ``mcp_tools`` itself is lenient (it skips, and reports, tools it cannot use); callers reading
    server lists from files use this to reject malformed input up front.
    """
    _check_items(servers, {"uid": str, "name": str, "tools": list}, {"disabled": bool})
    for server in servers:
        for i, tool in enumerate(server["tools"]):
            if not isinstance(tool, Mapping) or not isinstance(tool.get("name"), str):
                raise ValueError(
                    f"server {server['uid']!r} tool {i} needs a string 'name'"
                )


def validate_subagents(configs: Any) -> None:
    """Raise ValueError unless ``configs`` is a list of ``{name, description}`` objects."""
    _check_items(configs, {"name": str}, {"description": str})


def mcp_tools(
    servers: Sequence[Mapping[str, Any]], *, separator: str, max_length: int = 64
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Spec variants for the tools of every enabled MCP server, and the tools left out.

    ``servers`` is a list of ``{uid, name, disabled, tools}`` with MCP ``tools/list`` entries
    (``name``, ``description``, ``inputSchema``). Each tool becomes a ``use_mcp_tool`` variant named
    ``<uid><separator><tool>`` described as ``"<server name>: <tool description or tool name>"``;
    ``input_schema`` is a deep copy of the tool's inputSchema with every keyword kept.

    Nothing is dropped silently: each left-out tool is reported in the second list as
    ``{server, uid, tool, name, reason}`` (disabled server, name over ``max_length``, a uid that
    contains the separator, a missing tool name, or a name already taken).
    """
    if not separator:
        raise ValueError("the MCP separator must not be empty")
    variants: list[dict[str, Any]] = []
    skipped: list[dict[str, Any]] = []
    taken: set[str] = set()
    for server in servers:
        uid = str(server.get("uid") or "")
        server_name = str(server.get("name") or uid)
        tools = server.get("tools") or ()
        for tool in tools:
            tool_name = tool.get("name") if isinstance(tool, Mapping) else None
            if not isinstance(tool_name, str) or not tool_name:
                skipped.append(_skip(server, None, None, "tool has no name"))
                continue
            name = f"{uid}{separator}{tool_name}"
            if server.get("disabled"):
                reason = "server disabled"
            elif not uid:
                reason = "server has no uid"
            elif separator in uid:
                reason = f"server uid contains the separator {separator!r}"
            elif len(name) > max_length:
                reason = (
                    f"name is {len(name)} characters, over the limit of {max_length}"
                )
            elif name in taken:
                reason = "duplicate name"
            else:
                reason = ""
            if reason:
                skipped.append(_skip(server, tool_name, name, reason))
                continue
            taken.add(name)
            raw = tool.get("inputSchema")
            schema = (
                copy.deepcopy(dict(raw))
                if isinstance(raw, Mapping)
                else {"type": "object", "properties": {}}
            )
            text = tool.get("description")
            description = f"{server_name}: {text if isinstance(text, str) and text else tool_name}"
            variants.append(
                _variant(
                    MCP_TOOL_ID, name, description, _mcp_parameters(schema), schema
                )
            )
    return variants, skipped


def parse_mcp_name(name: str, separator: str) -> tuple[str, str] | None:
    """``(server uid, tool name)`` for a name built by ``mcp_tools``, else None.

    Splits at the first separator: uids never contain it (``mcp_tools`` skips such servers),
    tool names may.
    """
    if not separator or separator not in name:
        return None
    uid, tool = name.split(separator, 1)
    if not uid or not tool:
        return None
    return uid, tool


# ---- subagents ------------------------------------------------------------------------------


def _short_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:_HASH_HEX]


def _fit(prefix: str, base: str, suffix: str, max_length: int) -> str:
    room = max_length - len(prefix) - len(suffix)
    if room < 1:
        raise ValueError(
            f"prefix {prefix!r} leaves no room for a name within {max_length} characters"
        )
    return prefix + (base[:room].rstrip("_") or base[:room]) + suffix


def subagent_name(
    name: str,
    *,
    prefix: str = "use_subagent_",
    max_length: int = 64,
    separator: str = "",
) -> str:
    """The tool name for one subagent: ``prefix`` + the name sanitized, within ``max_length``.

    Sanitizing lower-cases, turns each run of characters outside ``[a-z0-9_]`` into ``_`` and
    strips ``_`` from both ends. A name that must be trimmed keeps ``_`` + the first 8 hex digits
    of the SHA-256 of the original name, so distinct long names stay distinct. The MCP
    ``separator`` never survives into the name (dispatch would route it to the MCP handler):
    its occurrences become ``_`` and the hash suffix keeps the name distinct.
    """
    base = _UNSAFE.sub("_", name.lower()).strip("_") or "subagent"
    mangled = bool(separator) and separator in prefix + base
    while separator and separator in prefix + base:
        base = base.replace(separator.lower(), "_").replace(separator, "_")
        if separator in prefix:
            raise ValueError(
                f"subagent prefix {prefix!r} contains the MCP separator {separator!r}"
            )
    if not mangled and len(prefix) + len(base) <= max_length:
        return prefix + base
    return _fit(prefix, base, "_" + _short_hash(name), max_length)


def subagent_names(
    configs: Sequence[Mapping[str, Any]],
    *,
    prefix: str = "use_subagent_",
    max_length: int = 64,
    separator: str = "",
) -> list[str]:
    """Tool names for ``configs``, in order, all distinct.

    A name already taken gets ``_2``, ``_3``, ... (trimmed to fit), so the result depends only on
    the configs and their order.
    """
    names: list[str] = []
    taken: set[str] = set()
    for config in configs:
        original = str(config.get("name") or "")
        name = subagent_name(
            original, prefix=prefix, max_length=max_length, separator=separator
        )
        candidate, n = name, 1
        while candidate in taken:
            n += 1
            candidate = _fit(prefix, name[len(prefix) :], f"_{n}", max_length)
        taken.add(candidate)
        names.append(candidate)
    return names


def subagent_tools(
    configs: Sequence[Mapping[str, Any]],
    *,
    prefix: str = "use_subagent_",
    max_length: int = 64,
    separator: str = "",
) -> list[dict[str, Any]]:
    """One variant per subagent config ``{name, description}``, named by ``subagent_names``.

    Each takes one required string parameter, ``prompt``. The variants carry ``id`` =
    ``"use_subagents"``: their calls are served by the subagents handler.
    """
    variants = []
    for config, name in zip(
        configs,
        subagent_names(
            configs, prefix=prefix, max_length=max_length, separator=separator
        ),
    ):
        label = str(config.get("name") or "") or name[len(prefix) :]
        text = config.get("description")
        description = (
            text
            if isinstance(text, str) and text
            else f"Delegate a task to the {label} subagent."
        )
        prompt = _parameter(
            "prompt",
            True,
            "The task for the subagent. It cannot see this conversation, so make the prompt self-contained.",
            {"type": "string"},
            "Task for the subagent",
        )
        variants.append(_variant(SUBAGENTS_TOOL_ID, name, description, (prompt,), None))
    return variants


def subagents_active(context: Any, family_tools: Sequence[str] | None) -> bool:
    """Whether subagent tools are offered: subagents are enabled, this is not itself a subagent
    run, and the family lists ``use_subagents`` (or lists no tools at all)."""
    if not field_value(context, "subagents_enabled") or field_value(
        context, "is_subagent_run"
    ):
        return False
    tools = [str(getattr(t, "value", t)) for t in family_tools or ()]
    return not tools or SUBAGENTS_TOOL_ID in tools


def merge_tools(
    static_variants: Iterable[Mapping[str, Any]],
    subagent_variants: Iterable[Mapping[str, Any]],
    mcp_variants: Iterable[Mapping[str, Any]],
) -> list[Mapping[str, Any]]:
    """Static tools, then subagent tools, then MCP tools (the modelled system's order).

    When there are subagent tools, the static ``use_subagents`` is left out: they replace it.
    The dicts themselves are passed through, not copied.
    """
    subagents = list(subagent_variants)
    static = [
        v
        for v in static_variants
        if not (subagents and v.get("id") == SUBAGENTS_TOOL_ID)
    ]
    return static + subagents + list(mcp_variants)
