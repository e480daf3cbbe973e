"""The resolved catalog at run time: selection, requirements, text and routing.

A ``Catalog`` is built from data (the generated catalog_data.py, or any hand-made data of the
same shape) and a Context class. ``select_family`` picks a family for a provider and model,
``enabled_tools`` lists the tools a family offers in a context, and ``resolve_text`` turns spec
text into what the model sees. The generated catalog.py binds one Catalog to the specs' data.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .cache import LRU, fingerprint
from .copies import copier
from .dynamic_tools import mcp_tools
from .predicates import (
    MatcherError,
    SelectionData,
    evaluate,
    family_name,
    normalize,
    select,
)
from .prompt_blocks import PLACEHOLDER_RE
from .subagents import subagent_tools, subagents_active
from .variants import merge_tools, skip_record

__all__ = ["Catalog", "Variant"]

Variant = Mapping[str, Any]
"""A spec variant: id, spec, name, description, requires, strict, parameters (see SPECS)."""


class Catalog:
    """Read-only queries over one resolved catalog; see the module docstring.

    Every method taking a context accepts a Context, a mapping (checked by ``as_context``) or,
    where documented, None.
    """

    def __init__(
        self,
        *,
        selection: Mapping[str, Any],
        rules: Sequence[tuple[str, Mapping[str, Any]]],
        precondition: Mapping[str, Any] | None,
        fallback: str,
        families: Mapping[str, Mapping[str, Any]],
        specs: Mapping[str, Variant],
        family_specs: Mapping[str, Sequence[str]],
        placeholders: Mapping[str, Mapping[str, Any]],
        routing: Mapping[str, Any],
        mcp: Mapping[str, Any],
        subagents: Mapping[str, Any],
        as_context: Callable[[Any], Any],
    ) -> None:
        self.rules = rules
        self.precondition = precondition
        self.fallback = fallback
        self.families = families
        self.specs = specs
        self.placeholders = placeholders
        self.routing = routing
        self.mcp = mcp
        self.subagents = subagents
        self.as_context = as_context
        self.selection = SelectionData(**selection)
        self.variants: dict[str, tuple[Variant, ...]] = {
            family: tuple(specs[key] for key in keys)
            for family, keys in family_specs.items()
        }
        """Each prompt family's resolved spec variants, in prompt order."""
        # Results per context, for tool_lists and prompt (see cache.LRU).
        self.tool_lists: LRU[Callable[[], list[dict[str, Any]]]] = LRU()
        self.sections: LRU[str] = LRU()
        # Per (format, family, entries, meta): the family's entries ready to copy (tool_lists).
        self.plans: dict[tuple[str, str, int, int], Any] = {}
        # Per MCP server list (its fingerprint): what mcp_tools made of it (dynamic_variants).
        self.runtime_tools: LRU[_RuntimeTools] = LRU()
        # Per request inputs: what an Offer works out from them (offer.py's plans).
        self.offers: LRU[Any] = LRU()

    def known_family(self, family: Any) -> str:
        """A known prompt family's name (enum members are accepted); raises KeyError."""
        name = family_name(family)
        if name not in self.variants:
            known = ", ".join(self.variants)
            raise KeyError(f"unknown family {name!r}; known: {known}")
        return name

    def select_family(self, context: Any) -> str:
        """The family whose selection rule holds first (in selection order), else the fallback."""
        context = self.as_context(context)
        return select(
            self.rules, context, self.selection, self.fallback, self.precondition
        )

    def holds(self, predicate: Mapping[str, Any] | None, context: Any) -> bool:
        """Whether a context requirement holds (None means no requirement).

        A requirement that cannot be evaluated (e.g. a model test with no model id) does not hold.
        """
        if predicate is None:
            return True
        try:
            return evaluate(predicate, self.as_context(context), self.selection)
        except MatcherError:
            return False

    def enabled_variants(self, family: Any, context: Any) -> tuple[Variant, ...]:
        """The family's resolved spec variants whose context requirements hold, in prompt order.

        Copies: a caller may change them without changing what later calls return.
        """
        copied: tuple[Variant, ...] = copier(self._enabled(family, context))()
        return copied

    def _enabled(self, family: Any, context: Any) -> tuple[Variant, ...]:
        """enabled_variants without the copy: the catalog's own data, for reading only."""
        context = self.as_context(context)
        variants = self.variants[self.known_family(family)]
        return tuple(v for v in variants if self.holds(v["requires"], context))

    def enabled_tools(self, family: Any, context: Any) -> tuple[str, ...]:
        """The tool ids a family offers in this context, in prompt order."""
        return tuple(v["id"] for v in self._enabled(family, context))

    def dynamic_variants(
        self,
        family: Any,
        context: Any,
        *,
        mcp_servers: Sequence[Mapping[str, Any]] = (),
        subagents: Sequence[Mapping[str, Any]] = (),
    ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """Run-time tools for a request: (subagent tools + MCP tools, tools left out with reasons).

        Subagent tools exist only when subagents are active for this family and context. What
        ``mcp_tools`` makes of a server list is kept per list (``cache.fingerprint``), so a list
        seen before costs a copy.
        """
        return self._dynamic_variants(family, context, mcp_servers, subagents, False)

    def _dynamic_variants(
        self,
        family: Any,
        context: Any,
        mcp_servers: Sequence[Mapping[str, Any]],
        subagents: Sequence[Mapping[str, Any]],
        shared: bool,
    ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """``dynamic_variants``; with ``shared`` (the Offer's plans), the kept MCP variants
        themselves, read only, instead of copies."""
        context = self.as_context(context)
        extra: list[dict[str, Any]] = []
        skipped: list[dict[str, Any]] = []
        tools = self.families[self.known_family(family)]["tools"]
        if subagents and subagents_active(context, tools):
            configs = [c for c in subagents if isinstance(c, Mapping)]
            skipped += [
                skip_record({}, "subagents", "config is not an object")
                for c in subagents
                if not isinstance(c, Mapping)
            ]
            extra += subagent_tools(
                configs,
                prefix=self.subagents["name_prefix"],
                max_length=self.subagents["max_length"],
                separator=self.mcp["separator"],
                skipped=skipped,
            )
        if mcp_servers:
            kept = self._mcp_tools(mcp_servers)
            found, left_out = (kept.variants, kept.skipped) if shared else kept.copy()
            extra += found
            skipped += [dict(record) for record in left_out]
        return extra, skipped

    def _mcp_tools(self, servers: Sequence[Mapping[str, Any]]) -> _RuntimeTools:
        key = fingerprint(servers)
        kept = self.runtime_tools.get(key) if key is not None else None
        if kept is None:
            found, left_out = mcp_tools(
                servers,
                separator=self.mcp["separator"],
                max_length=self.mcp["name_max_length"],
            )
            kept = _RuntimeTools(tuple(found), tuple(left_out))
            if key is not None:
                self.runtime_tools.put(key, kept)
        return kept

    def assemble(
        self, family: Any, context: Any, extra_variants: Sequence[Variant] = ()
    ) -> tuple[Variant, ...]:
        """Static enabled tools, then subagent tools, then MCP tools (the modelled system's order).

        When dynamic subagent tools are present, the static use_subagents tool is left out.
        The static variants are the catalog's own data, shared for speed: read them only
        (``enabled_variants`` hands out copies).
        """
        static = self._enabled(family, context)
        subagent = [v for v in extra_variants if v.get("input_schema") is None]
        mcp = [v for v in extra_variants if v.get("input_schema") is not None]
        return tuple(merge_tools(static, subagent, mcp))

    def visible_parameters(
        self,
        variant: Variant,
        context: Any,
        enabled_ids: Sequence[str] | None = None,
    ) -> tuple[dict[str, Any], ...]:
        """Parameters whose requirements hold and, with ``enabled_ids``, whose dependencies are enabled."""
        context = self.as_context(context)
        return tuple(
            p
            for p in variant["parameters"]
            if self.holds(p["requires"], context)
            and (
                enabled_ids is None
                or all(dep in enabled_ids for dep in p["dependencies"])
            )
        )

    def resolve_placeholders(self, text: str, context: Any) -> str:
        """Replace every {{NAME}} with its context value (or the placeholder's documented default)."""
        context = self.as_context(context)

        def value(match: re.Match[str]) -> str:
            spec = self.placeholders.get(match.group(1))
            if spec is None:
                return match.group(0)
            raw = getattr(context, spec["field"], None)
            if raw is None:
                raw = spec["default"]
            for when, shown in spec["map"]:
                if when == raw and type(when) is type(raw):
                    return str(shown)
            return _as_text(spec["default"] if spec["map"] else raw)

        return PLACEHOLDER_RE.sub(value, text)

    def resolve_text(
        self, pieces: Sequence[Any], context: Any, *, placeholders: bool = True
    ) -> str:
        """Join the text pieces whose conditions hold, then fill placeholders.

        With ``context=None`` only unconditional pieces are kept and placeholders stay as written.
        """
        if context is not None:
            context = self.as_context(context)
        parts = []
        for piece in pieces:
            if isinstance(piece, str):
                parts.append(piece)
            elif context is not None and self.holds(piece[1], context):
                parts.append(piece[0])
        text = "".join(parts)
        if context is None or not placeholders:
            return text
        return self.resolve_placeholders(text, context)

    def route(self, provider_id: str | None, model_id: str | None = None) -> str:
        """The native format a provider's requests use (specs/toolgen.yaml ``routing``).

        Provider ids are normalized exactly as selection's ``provider_in`` normalizes them, so a
        context routes to the format of the family it selects; anything but a string is no provider.
        """
        provider = normalize(provider_id) if isinstance(provider_id, str) else None
        # The predicates see the raw values, as selection rules do.
        context = {"provider_id": provider_id, "model_id": model_id}
        for rule in self.routing["rules"]:
            if provider is None or provider not in rule["providers"]:
                continue
            if rule["when"] is None:
                return str(rule["format"])
            try:
                if evaluate(rule["when"], context, self.selection):
                    return str(rule["format"])
            except MatcherError:
                continue
        return str(self.routing["default"])


class _RuntimeTools:
    """What ``mcp_tools`` made of one server list, kept read-only; ``copy()`` hands out copies."""

    __slots__ = ("copy", "skipped", "variants")

    def __init__(
        self, variants: tuple[dict[str, Any], ...], skipped: tuple[dict[str, Any], ...]
    ) -> None:
        self.variants = variants
        self.skipped = skipped
        self.copy: Callable[[], tuple[Any, Any]] = copier((variants, skipped))


def _as_text(value: Any) -> str:
    """How a value reads in prompt text: JavaScript-style (true, 1.5, a,b), as the modelled system shows it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(_as_text(v) for v in value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
