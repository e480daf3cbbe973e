"""The project file's part of ``toolgen breaking``: what a change of toolgen.yaml means.

Formats, the MCP and subagent naming rules, the family and context enums, placeholders and the
npm package name are compared here; selection and routing are compared on a grid of contexts
(selection.py), tools and handlers in compare.py. Each finding sits at the changed key of the
new toolgen.yaml, or for what is gone at the old one's.
"""

from __future__ import annotations

import json

from ..model import Placeholder, ToolVariant
from .findings import Collector
from .side import Side


def compare_project(old: Side, new: Side, out: Collector) -> None:
    """Every change of toolgen.yaml that reaches a model, a host's code or the wire."""
    before, after = old.catalog.project, new.catalog.project
    _names(old, new, out)
    _placeholders(old, new, out)
    for fmt in before.formats:
        if fmt not in after.formats:
            out.add(
                "FORMAT_REMOVED",
                new.at(after.source, ("formats",)),
                f"format {fmt!r} is no longer generated",
                formats=(fmt,),
            )
    if before.mcp_separator != after.mcp_separator:
        out.add(
            "MCP_SEPARATOR_CHANGED",
            new.at(after.source, ("mcp", "separator")),
            f"MCP tool names change: separator {before.mcp_separator!r} is now {after.mcp_separator!r}",
        )
    old_fields = {f.name: f for f in before.context}
    new_fields = {f.name: f for f in after.context}
    for name, was in old_fields.items():
        if name not in new_fields:
            out.add(
                "CONTEXT_FIELD_REMOVED", new.at(after.source, ("context",)), f"context field {name!r} removed"
            )
            continue
        now = new_fields[name]
        where = new.at(after.source, ("context", name))
        if was.type != now.type or (was.nullable and not now.nullable):
            old_type = was.type + (" or null" if was.nullable else "")
            new_type = now.type + (" or null" if now.nullable else "")
            out.add("CONTEXT_FIELD_TYPE_CHANGED", where, f"context field {name!r}: type {old_type} is now {new_type}")
        elif was.nullable != now.nullable:
            out.add("TYPE_WIDENED", where, f"context field {name!r} may now be null")
        if was.default != now.default:
            out.add("DEFAULT_CHANGED", where, f"context field {name!r}: default {was.default!r} is now {now.default!r}")
    for name in new_fields:
        if name not in old_fields:
            out.add("CONTEXT_FIELD_ADDED", new.at(after.source, ("context", name)), f"context field {name!r} added")


def _names(old: Side, new: Side, out: Collector) -> None:
    """Names a host or the wire depends on: the Family enum, dynamic tool names, the npm package."""
    before, after = old.catalog.project, new.catalog.project
    variant_families = {family.name for family in old.catalog.families}
    for name in before.family_enum:
        # a family with a variant file is reported there (compare.py, FAMILY_REMOVED)
        if name not in after.family_enum and name not in variant_families:
            out.add(
                "FAMILY_REMOVED",
                new.at(after.source, ("families",)),
                f"family {name!r} removed from the families enum (the generated Family loses it)",
                family=name,
            )
    if (before.subagent_prefix, before.subagent_max_length) != (after.subagent_prefix, after.subagent_max_length):
        key = "name_prefix" if before.subagent_prefix != after.subagent_prefix else "max_length"
        out.add(
            "SUBAGENT_NAMES_CHANGED",
            new.at(after.source, ("subagents", key)),
            "dynamic subagent tool names change: "
            f"prefix {before.subagent_prefix!r} and at most {before.subagent_max_length} characters are now "
            f"{after.subagent_prefix!r} and {after.subagent_max_length}",
        )
    if after.mcp_name_max_length != before.mcp_name_max_length:
        lowered = after.mcp_name_max_length < before.mcp_name_max_length
        out.add(
            "MCP_NAME_LIMIT_LOWERED" if lowered else "MCP_NAME_LIMIT_RAISED",
            new.at(after.source, ("mcp", "name_max_length")),
            f"MCP tool names may have at most {after.mcp_name_max_length} characters, not "
            f"{before.mcp_name_max_length}: "
            + ("tools with longer names leave the lists" if lowered else "tools with longer names join the lists"),
        )
    if after.npm_name != before.npm_name:
        source = new.sources.get(after.source)
        spelled: tuple[str, ...] = (
            ("npm", "name") if source is not None and ("npm", "name") in source.key_positions else ("name",)
        )
        out.add(
            "NPM_PACKAGE_RENAMED",
            new.at(after.source, spelled),
            f"the TypeScript package is now {after.npm_name!r}, not {before.npm_name!r}: hosts import it by name",
        )


def _placeholders(old: Side, new: Side, out: Collector) -> None:
    """A placeholder's field, default or mapped texts changed: the text of every tool using it does."""
    before = {p.name: p for p in old.catalog.project.placeholders}
    after = new.catalog.project
    for now in after.placeholders:
        was = before.get(now.name)
        if was is None or was == now:
            continue
        users = _users(new, "{{" + now.name + "}}")
        out.add(
            "PLACEHOLDER_CHANGED",
            new.at(after.source, ("placeholders", now.name)),
            f"placeholder {now.name!r}: {_changes(was, now)}; "
            f"the text of {', '.join(users) if users else 'no tool'} changes",
            formats=_formats(new, users),
        )


def _users(side: Side, token: str) -> list[str]:
    """The wire names of the tools whose text holds ``token``, in declared order, once each."""
    names: list[str] = []
    for _, variants in side.families.values():
        for variant in variants:
            if variant.name not in names and _holds(variant, token):
                names.append(variant.name)
    return names


def _holds(variant: ToolVariant, token: str) -> bool:
    texts = [str(variant.description)]
    for param in variant.parameters:
        texts += [str(param.description), str(param.instruction), str(param.usage or "")]
    return any(token in text for text in texts)


def _formats(side: Side, users: list[str]) -> tuple[str, ...]:
    found: list[str] = []
    for family, variants in side.families.values():
        if any(v.name in users for v in variants):
            found.extend(f for f in side.formats(family) if f not in found)
    return tuple(found)


def _changes(was: Placeholder, now: Placeholder) -> str:
    """What changed in a placeholder, as ``default "/" is now "/work"``."""
    parts = []
    for name in ("field", "default", "mapping"):
        before, after = getattr(was, name), getattr(now, name)
        if before != after:
            parts.append(f"{name} {_json(before)} is now {_json(after)}")
    return ", ".join(parts)


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, default=list)
