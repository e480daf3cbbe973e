"""What an Offer works out from its inputs, kept per inputs and shared by equal Offers.

Standard library only. offer.py's ``Offer`` asks ``Catalog.offers`` for the ``Plan`` of its
inputs (``plan_key``) and makes one when there is none: the run-time tools, then the tools list
(or the prompt section), then the names sent, exactly as an Offer always made them. A Plan hands
nothing out to be changed: every Offer gets its own copies of what it gives its caller, and the
argument checks are made on first use and kept in the Plan. ts_runtime/offer_plan.ts is the same.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .cache import fingerprint
from .catalog import Catalog, Variant
from .formats import FORMATS, NAME
from .prompt import TextPath
from .sent_schema import ArgumentsChecker
from .tool_lists import _Copy

__all__ = ["Plan", "entry_name", "plan_key"]

_NAME_PATHS = {name: rec.path_to(NAME) for name, rec in FORMATS.items()}


def entry_name(format_name: str, entry: Any) -> str | None:
    """The name a tool entry of format ``format_name`` sends (None when it has none)."""
    node = entry
    for key in _NAME_PATHS[format_name]:
        node = node.get(key) if isinstance(node, Mapping) else None
    return node if isinstance(node, str) else None


def plan_key(
    formats: Mapping[str, Any],
    text_path: TextPath,
    family: str,
    context: Any,
    format: str | None,
    mcp_servers: Sequence[Mapping[str, Any]],
    subagents: Sequence[Mapping[str, Any]],
) -> tuple[Any, ...] | None:
    """Everything an Offer's plan is made from, or None when that cannot key a cache (a
    context without ``vars``, data marshal cannot hold).

    The module (or text path) that makes what is sent, the context's class, and one
    fingerprint of the format, the family, the context's values and the run-time tools:
    marshal tells 1, 1.0 and True apart, as the text must ("1" is not "true").
    """
    try:
        made_by = text_path if format is None else formats.get(format)
        values = tuple(vars(context).values())
    except TypeError:  # the Offer then says what is wrong, if anything is
        return None
    data = fingerprint((format, family, values, mcp_servers, subagents))
    return None if data is None else (made_by, type(context), data)


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
