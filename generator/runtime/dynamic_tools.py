"""Run-time (dynamic) tools: MCP server tools here, and the API for subagent tools too.

Standard library only: this module is copied verbatim (under a generated header) into the
generated package. Every function returns spec-variant dicts in the shape of ``catalog.SPECS``
values (see variants.py); subagent tools are built in subagents.py and re-exported here, so
this module is the one place to import run-time tools from.

Text from MCP servers and subagent configs is data, not spec text: it is never parsed for
conditions, but whoever renders it with ``catalog.resolve_text`` also fills ``{{NAME}}``
placeholders in it unless ``placeholders=False`` is passed.

One bad run-time tool never costs the others: ``mcp_tools`` leaves out (and reports) a tool it
cannot offer, and rewrites or notes what it must change. MCP tool names outside
``[A-Za-z0-9_-]`` are rewritten by a reversible rule (see ``encode_mcp_tool_name``), so a call
routed by the MCP separator still names its server's original tool (``parse_mcp_name``).
"""

from __future__ import annotations

import copy
import json
import math
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from .formats import NAME_SAFE_CHARS
from .schema_common import (
    MAX_NESTING,
    UNENCODABLE,
    _json_type_of,
    has_lone_surrogate,
    json_brackets,
    nesting_depth,
    printable,
)
from .subagents import (
    split_subagents,
    subagent_name,
    subagent_names,
    subagent_tools,
    subagents_active,
)
from .unchecked import drop_unchecked
from .variants import (
    MCP_TOOL_ID,
    SUBAGENTS_TOOL_ID,
    make_parameter,
    make_variant,
    merge_tools,
    skip_record,
)

__all__ = [
    "MCP_TOOL_ID",
    "SUBAGENTS_TOOL_ID",
    "decode_mcp_tool_name",
    "encode_mcp_tool_name",
    "load_servers_json",
    "mcp_tools",
    "merge_tools",
    "parse_mcp_name",
    "skip_record",
    "split_subagents",
    "subagent_name",
    "subagent_names",
    "subagent_tools",
    "subagents_active",
    "validate_servers",
    "validate_subagents",
]

#: Characters every provider takes in a tool name (the common subset of their name rules).
_NAME_SAFE = re.compile(f"[{NAME_SAFE_CHARS}]+")
#: Starts every rewritten MCP tool name; a tool name that itself starts so is rewritten too.
ESCAPE_MARK = "_x_"
# Stands in for a subtree that ``load_servers_json`` cut off past MAX_NESTING. A NUL character
# cannot come from a real schema key written by hand, and ``mcp_tools`` skips any tool holding it.
_TOO_DEEP_KEY = "\u0000toolgen: nested too deeply"


class _TooLong:
    """Stands in for an integer ``load_servers_json`` could not read (too many digits)."""

    def __repr__(self) -> str:
        return "<integer with too many digits>"


_TOO_LONG = _TooLong()


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
            make_parameter(
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
        "tool": printable(tool) if tool is not None else None,
        "name": name,
        "reason": reason,
    }


def encode_mcp_tool_name(tool: str) -> str:
    """``tool`` as it may appear in a provider tool name; ``decode_mcp_tool_name`` reverses it.

    A name of ASCII letters, digits, ``_`` and ``-`` that does not start with ``_x_`` is kept.
    Any other name becomes ``_x_`` followed by the name with ASCII letters, digits and ``-``
    kept, ``_`` doubled, and every other character written as ``_<hex code point>_``
    (``"files/read"`` -> ``"_x_files_2f_read"``, ``"my_tool v2"`` -> ``"_x_my__tool_20_v2"``).
    Distinct tool names stay distinct.
    """
    if _NAME_SAFE.fullmatch(tool) and not tool.startswith(ESCAPE_MARK):
        return tool
    out = [ESCAPE_MARK]
    for char in tool:
        if char == "_":
            out.append("__")
        elif char == "-" or (char.isascii() and char.isalnum()):
            out.append(char)
        else:
            out.append(f"_{ord(char):x}_")
    return "".join(out)


def decode_mcp_tool_name(text: str) -> str | None:
    """The original tool name behind ``encode_mcp_tool_name(text)``; None if ``text`` is malformed.

    Only what ``encode_mcp_tool_name`` writes is accepted (``encode(decode(text)) == text``),
    so each tool has exactly one spelling; a surrogate code point is refused as well.
    """
    decoded = _decode_escapes(text)
    if decoded is None or encode_mcp_tool_name(decoded) != text:
        return None
    return decoded


def _decode_escapes(text: str) -> str | None:
    if not text.startswith(ESCAPE_MARK):
        return text
    body, out, i = text[len(ESCAPE_MARK) :], [], 0
    while i < len(body):
        char = body[i]
        if char != "_":
            out.append(char)
            i += 1
        elif body[i + 1 : i + 2] == "_":
            out.append("_")
            i += 2
        else:
            end = body.find("_", i + 1)
            digits = body[i + 1 : end]
            if end < 0 or not re.fullmatch(r"[0-9a-f]{1,6}", digits):
                return None
            if int(digits, 16) > 0x10FFFF or 0xD800 <= int(digits, 16) <= 0xDFFF:
                return None
            out.append(chr(int(digits, 16)))
            i = end + 1
    return "".join(out)


def load_servers_json(text: str) -> Any:
    """Parse an MCP servers file without letting one deep schema sink the whole file.

    ``json.loads`` recurses, so each container nested deeper than ``MAX_NESTING`` levels of the
    file is cut off in the text first (found by a linear bracket scan, as ``json_text_depth``
    does) and replaced by a marker that makes ``mcp_tools`` skip the tool holding it. An
    integer too long for Python to read becomes a marker too. Raises ValueError for text that
    is not JSON.
    """
    cuts: list[tuple[int, int]] = []
    start = -1
    for match, depth in json_brackets(text):
        if depth != MAX_NESTING + 1:
            continue
        if match.group(1) in "[{":
            start = match.start()
        elif start >= 0:
            cuts.append((start, match.end()))
            start = -1
    if start >= 0:
        cuts.append((start, len(text)))
    if cuts:
        marker = json.dumps({_TOO_DEEP_KEY: True})
        pieces, last = [], 0
        for begin, end in cuts:
            pieces += [text[last:begin], marker]
            last = end
        pieces.append(text[last:])
        text = "".join(pieces)
    return json.loads(text, parse_int=_parse_int)


def _parse_int(digits: str) -> Any:
    """An integer, or the ``_TOO_LONG`` marker for one Python will not read from text
    (over ``sys.get_int_max_str_digits()`` digits), so that it costs only its tool."""
    try:
        return int(digits)
    except ValueError:
        return _TOO_LONG


def _nodes(value: Any) -> Iterator[Any]:
    """Every value inside ``value`` (itself included), walked without recursion."""
    stack = [value]
    while stack:
        item = stack.pop()
        yield item
        if isinstance(item, Mapping):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)


def _too_deep(value: Any) -> bool:
    """Deeper than MAX_NESTING, or holding a subtree ``load_servers_json`` cut off."""
    if nesting_depth(value) > MAX_NESTING:
        return True
    return any(isinstance(i, Mapping) and _TOO_DEEP_KEY in i for i in _nodes(value))


def _drop_non_finite(schema: dict[str, Any]) -> list[str]:
    """Remove NaN and ±Infinity (not valid JSON) from ``schema`` in place; return their paths.

    A number inside a list (an enum, say) is removed from the list; one under a key removes the key.
    """
    dropped: list[str] = []
    stack: list[tuple[Any, str]] = [(schema, "")]
    while stack:
        item, path = stack.pop()
        if isinstance(item, dict):
            for key in list(item):
                value = item[key]
                where = f"{path}/{key}"
                if isinstance(value, float) and not math.isfinite(value):
                    del item[key]
                    dropped.append(f"{where} ({json.dumps(value)})")
                else:
                    stack.append((value, where))
        elif isinstance(item, list):
            kept = []
            for i, value in enumerate(item):
                if isinstance(value, float) and not math.isfinite(value):
                    dropped.append(f"{path}/{i} ({json.dumps(value)})")
                else:
                    kept.append(value)
                    stack.append((value, f"{path}/{i}"))
            item[:] = kept
    return sorted(dropped)


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

    Only the server level is checked: a malformed tool (no name, a bad schema) costs that tool
    only, and ``mcp_tools`` reports it.
    """
    _check_items(servers, {"uid": str, "name": str, "tools": list}, {"disabled": bool})


def validate_subagents(configs: Any) -> None:
    """Raise ValueError unless ``configs`` is a list of ``{name, description}`` objects."""
    _check_items(configs, {"name": str}, {"description": str})


def mcp_tools(
    servers: Sequence[Mapping[str, Any]], *, separator: str, max_length: int = 64
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Spec variants for the tools of every enabled MCP server, and the tools left out.

    ``servers`` is a list of ``{uid, name, disabled, tools}`` with MCP ``tools/list`` entries
    (``name``, ``description``, ``inputSchema``). Each tool becomes a ``use_mcp_tool`` variant named
    ``<uid><separator><encode_mcp_tool_name(tool)>`` described as
    ``"<server name>: <tool description or tool name>"``; ``input_schema`` is a deep copy of the
    tool's inputSchema with every keyword kept, except NaN/Infinity numbers (not JSON), which are
    dropped with a note appended to the description. ``origin`` names the server and tool.

    Nothing is dropped silently: each left-out tool is reported in the second list as
    ``{server, uid, tool, name, reason}`` (disabled server, name over ``max_length``, a uid that
    contains the separator or ends with a start of it, a missing tool name, a name already
    taken, an inputSchema that is not an object or nests deeper than MAX_NESTING, text with a
    lone surrogate).
    """
    if not separator:
        raise ValueError("the MCP separator must not be empty")
    variants: list[dict[str, Any]] = []
    skipped: list[dict[str, Any]] = []
    taken: set[str] = set()
    for server in servers:
        if not isinstance(server, Mapping):
            skipped.append(_skip({}, None, None, "server entry is not an object"))
            continue
        tools = server.get("tools")
        for tool in tools if isinstance(tools, (list, tuple)) else ():
            variant, reason, name = _mcp_variant(server, tool, separator, max_length)
            if variant is not None and variant["name"] in taken:
                variant, reason = None, "duplicate name"
            if variant is None:
                tool_name = tool.get("name") if isinstance(tool, Mapping) else None
                tool_name = (
                    tool_name if isinstance(tool_name, str) and tool_name else None
                )
                skipped.append(_skip(server, tool_name, name, reason))
                continue
            taken.add(variant["name"])
            variants.append(variant)
    return variants, skipped


def _mcp_variant(
    server: Mapping[str, Any], tool: Any, separator: str, max_length: int
) -> tuple[dict[str, Any] | None, str, str | None]:
    """``(variant, "", name)`` for one MCP tool, or ``(None, reason, name or None)``."""
    uid = str(server.get("uid") or "")
    server_name = str(server.get("name") or uid)
    tool_name = tool.get("name") if isinstance(tool, Mapping) else None
    if not isinstance(tool_name, str) or not tool_name:
        return None, "tool has no name", None
    encoded = encode_mcp_tool_name(tool_name)
    name = f"{uid}{separator}{encoded}"
    raw = tool.get("inputSchema")
    if server.get("disabled"):
        return None, "server disabled", name
    if not uid:
        return None, "server has no uid", name
    if separator in uid:
        return None, f"server uid contains the separator {separator!r}", name
    if (uid + separator).find(separator) != len(uid):
        # "a0mcp" + "0mcp0": its names would split at the wrong place, maybe onto another server.
        reason = f"server uid ends with a start of the separator {separator!r}"
        return None, reason, name
    if not _NAME_SAFE.fullmatch(uid):
        return None, "server uid has characters outside [A-Za-z0-9_-]", name
    if has_lone_surrogate((tool_name, tool.get("description"), raw, server_name)):
        return None, UNENCODABLE, name
    if len(name) > max_length:
        rewritten = " (tool name rewritten)" if encoded != tool_name else ""
        reason = f"name is {len(name)} characters, over the limit of {max_length}"
        return None, reason + rewritten, name
    if raw is not None and not isinstance(raw, Mapping):
        return (
            None,
            f"inputSchema is not a JSON object (got {_json_type_of(raw) or type(raw).__name__})",
            name,
        )
    if raw is not None and _too_deep(raw):
        return None, f"inputSchema nests deeper than {MAX_NESTING} levels", name
    if any(item is _TOO_LONG for item in _nodes(tool)):
        return None, "tool holds an integer with too many digits to read", name
    schema = (
        copy.deepcopy(dict(raw))
        if raw is not None
        else {"type": "object", "properties": {}}
    )
    dropped = _drop_non_finite(schema)
    unchecked, left = drop_unchecked(schema)
    if left:
        return None, "its inputSchema cannot be checked: " + "; ".join(left), name
    text = tool.get("description")
    description = (
        f"{server_name}: {text if isinstance(text, str) and text else tool_name}"
    )
    degraded: list[dict[str, Any]] = []
    for lead, found in (
        ("as NaN/Infinity is not JSON", dropped),
        ("as its arguments could not be checked against them", unchecked),
    ):
        if found:
            note = f"toolgen dropped from the input schema, {lead}: " + ", ".join(found)
            description += f"\n\n({note})"
            degraded.append(_skip(server, tool_name, name, note))
    origin = {"server": server.get("name"), "uid": uid, "tool": tool_name}
    variant = make_variant(
        MCP_TOOL_ID, name, description, _mcp_parameters(schema), schema, origin
    )
    if degraded:  # offered all the same; Offer.degraded and toolgen show report it
        variant["degraded"] = degraded
    return variant, "", name


def parse_mcp_name(name: str, separator: str) -> tuple[str, str] | None:
    """``(server uid, original tool name)`` for a name built by ``mcp_tools``, else None.

    Splits at the first separator (uids never contain it nor end with a start of it, tool
    names may contain it) and undoes
    ``encode_mcp_tool_name``, so a rewritten name gives back the server's own tool name.
    """
    if not separator or separator not in name:
        return None
    uid, tool = name.split(separator, 1)
    decoded = decode_mcp_tool_name(tool) if tool else None
    if not uid or not decoded:
        return None
    return uid, decoded
