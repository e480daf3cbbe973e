"""What an Offer works out from its inputs, kept per inputs and shared by equal Offers.

Standard library only. offer.py's ``Offer`` asks ``Catalog.offers`` for the ``Plan`` of its
inputs (``plan_key``) and makes one when there is none: the run-time tools, then the tools list
(or the prompt section), then the names sent, exactly as an Offer always made them. A Plan hands
nothing out to be changed: every Offer gets its own copies of what it gives its caller, and the
argument checks are made on first use and kept in the Plan. ts_runtime/offer_plan.ts is the same.
"""

from __future__ import annotations

import marshal
from collections.abc import Mapping, Sequence
from typing import Any

from .cache import fingerprint
from .catalog import Catalog, Variant
from .formats import FORMATS, NAME
from .prompt import TextPath
from .sent_schema import ArgumentsChecker
from .tool_lists import _Copy

__all__ = ["McpServers", "Plan", "entry_name", "plan_key", "servers_given"]

_NAME_PATHS = {name: rec.path_to(NAME) for name, rec in FORMATS.items()}


def entry_name(format_name: str, entry: Any) -> str | None:
    """The name a tool entry of format ``format_name`` sends (None when it has none)."""
    node = entry
    for key in _NAME_PATHS[format_name]:
        node = node.get(key) if isinstance(node, Mapping) else None
    return node if isinstance(node, str) else None


class McpServers:
    """A request's MCP server list, prepared once and passed to every Offer in its place.

    An Offer keys its plan on the exact data of the server list (cache.py's ``fingerprint``),
    which costs a pass over every tool schema of every server on each new Offer. Servers that
    stay the same from request to request can be prepared once: ``McpServers(servers)`` keeps an
    exact copy of them (read back from that fingerprint) and the fingerprint, and an Offer made
    with it reads neither again. The copy is private, so what the prepared object says cannot
    change: a change to ``servers`` afterwards is not seen (prepare again). Data the fingerprint
    cannot hold (an object that is not JSON-like) is kept as given, and Offers made with it are
    not kept, as with the plain list. ts_runtime/offer_plan.ts has the same class.
    """

    __slots__ = ("_fingerprint", "_servers")
    _fingerprint: bytes | None
    _servers: Sequence[Mapping[str, Any]]

    def __init__(self, servers: Sequence[Mapping[str, Any]]) -> None:
        known = fingerprint(servers)
        copy = tuple(servers) if known is None else marshal.loads(known)
        object.__setattr__(self, "_fingerprint", known)
        object.__setattr__(self, "_servers", copy)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("McpServers is read-only: prepare the changed list again")

    def __len__(self) -> int:
        return len(self._servers)

    def __repr__(self) -> str:
        return f"McpServers(<{len(self._servers)} server(s)>)"


_UNKNOWN = b""
"""No fingerprint worked out yet (marshal never writes empty bytes)."""


def servers_given(
    mcp_servers: Sequence[Mapping[str, Any]] | McpServers,
) -> tuple[Sequence[Mapping[str, Any]], bytes | None]:
    """The server list an Offer reads, and its fingerprint when prepared (else _UNKNOWN)."""
    if isinstance(mcp_servers, McpServers):
        return mcp_servers._servers, mcp_servers._fingerprint
    return mcp_servers, _UNKNOWN


def plan_key(
    formats: Mapping[str, Any],
    text_path: TextPath,
    family: str,
    context: Any,
    format: str | None,
    mcp_servers: Sequence[Mapping[str, Any]],
    subagents: Sequence[Mapping[str, Any]],
    servers_key: bytes | None = _UNKNOWN,
) -> tuple[Any, ...] | None:
    """Everything an Offer's plan is made from, or None when that cannot key a cache (a
    context without ``vars``, data marshal cannot hold).

    The module (or text path) that makes what is sent, the context's class, one fingerprint
    of the format, the family, the context's values and the subagents, and the fingerprint of
    the MCP servers (``servers_key`` when a ``McpServers`` brought it): marshal tells 1, 1.0
    and True apart, as the text must ("1" is not "true").
    """
    try:
        made_by = text_path if format is None else formats.get(format)
        values = tuple(vars(context).values())
    except TypeError:  # the Offer then says what is wrong, if anything is
        return None
    data = fingerprint((format, family, values, subagents))
    servers = fingerprint(mcp_servers) if servers_key == _UNKNOWN else servers_key
    if data is None or servers is None:
        return None
    return (made_by, type(context), data, servers)


class Plan:
    """What an Offer works out from its inputs, kept per inputs (``Catalog.offers``) and
    shared by every Offer made from equal ones: nothing in it is handed out to be changed.

    Made as the Offer always made it: the run-time tools, then the tools list (or the prompt
    section), then the offered names. Every Offer gets its own copies of what it hands out
    (``tools()``, ``skipped``, ``variants``); the checks are made on first use and kept here.
    """

    __slots__ = (
        "_first",
        "checkers",
        "enabled_ids",
        "entries",
        "extra",
        "section",
        "skipped",
        "tools",
        "variants",
    )

    def __init__(
        self,
        catalog: Catalog,
        text_path: TextPath,
        formats: Mapping[str, Any],
        family: str,
        context: Any,
        format: str | None,
        mcp_servers: Sequence[Mapping[str, Any]],
        subagents: Sequence[Mapping[str, Any]],
    ) -> None:
        extra, skipped = catalog._dynamic_variants(
            family, context, mcp_servers, subagents, shared=True
        )
        self.extra: tuple[Variant, ...] = tuple(extra)
        self.section = ""
        tools: list[dict[str, Any]] = []
        if format is None:
            self.section = text_path.prompt_section(
                family, context, self.extra, skipped
            )
        else:
            if format not in formats:
                raise KeyError(
                    f"unknown format {format!r}; known: {', '.join(formats)}"
                )
            tools = formats[format].tools(
                family, context, extra_variants=self.extra, skipped=skipped
            )
        self.skipped = tuple(dict(r) for r in skipped)
        # The first Offer hands out the list just made; the plan keeps a copy of its own.
        self._first: list[dict[str, Any]] | None = tools
        self.tools = _Copy(tools)
        self.entries: dict[str | None, Any] = {}
        if format is not None:
            self.entries = {entry_name(format, e): e for e in self.tools()}
        variants = catalog.assemble(family, context, self.extra)
        if format is None:
            refused = {r.get("name") for r in self.skipped}
            sent = {v["name"] for v in variants} - refused
        else:
            sent = set(self.entries)
        self.variants: dict[str, Variant] = {
            v["name"]: v for v in variants if v["name"] in sent
        }
        self.enabled_ids = tuple(v["id"] for v in variants)
        self.checkers: dict[str, ArgumentsChecker] = {}

    def first_tools(self) -> list[dict[str, Any]] | None:
        """The list made with the plan, for the Offer that made it (None afterwards)."""
        first, self._first = self._first, None
        return first

    def fresh_tools(self) -> list[dict[str, Any]]:
        made: list[dict[str, Any]] = self.tools()
        return made
