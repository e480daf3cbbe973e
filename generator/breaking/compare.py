"""Compare two resolved spec sets as the wire sees them: what each family sends, in which formats.

Both sides went through the whole front end (load, validate, semantics, resolve), so only typed
models are compared, never YAML text: moving a parameter into parameters.yaml or a variant into
``extends:`` changes nothing here. Per prompt family, each resolved tool variant is paired with
the old one of the same tool id, and everything a model or a handler sees is compared: the wire
name, description, requirements, strict flag and each parameter's schema. Handlers, context
fields, formats and the MCP separator are compared once for the whole project.

Renames are guessed from shape: a tool id that disappeared and one that appeared are a rename
when they have the same handler binding and their variants the same parameters (names, types,
required flags) in the same families; a parameter that disappeared and one that appeared in the
same variant are a rename when they are equally required and their schemas are equal apart from
prose and default.
Candidates are paired in declared order, each used at most once.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from ..diagnostics import Location
from ..model import Deprecation, Handler, Parameter, Tool, ToolVariant
from ..runtime.formats import FORMATS as FORMAT_RECORDS
from .findings import Collector, Finding
from .projectdiff import compare_project
from .schemadiff import diff_schema, shape
from .side import Side

T = TypeVar("T")


def compare(old: Side, new: Side) -> list[Finding]:
    """Every change from ``old`` to ``new`` (without the selection grid: see selection.py)."""
    out = Collector()
    compare_project(old, new, out)
    renamed = _renamed_tools(old, new)
    _families(old, new, renamed, out)
    _handlers(old, new, renamed, out)
    _deprecated_tools(old, new, renamed, out)
    return out.findings()


def _deprecated_tools(old: Side, new: Side, renamed: dict[str, str], out: Collector) -> None:
    """DEPRECATED for each tool that has become deprecated (at its ``deprecated:`` key)."""
    before = {renamed.get(tool_id, tool_id): tool for tool_id, tool in old.tools.items()}
    for tool_id, tool in new.tools.items():
        was = before.get(tool_id)
        if tool.deprecated is not None and was is not None and was.deprecated is None:
            message = f"tool {tool_id!r} is now deprecated{_announced(tool.deprecated)}"
            out.add("DEPRECATED", new.at(tool.source, ("deprecated",)), message, tool=tool_id)


# ---- tools, per family ------------------------------------------------------------------------


def _tool_shape(tool: Tool) -> Any:
    """What a renamed tool keeps: its handler binding and each variant's parameter names, types and flags."""
    variants = tuple(
        (v.family, tuple((p.name, p.type, p.required) for p in v.parameters))
        for v in sorted(tool.variants, key=lambda v: v.family)
    )
    return _binding(tool.handler), variants


def _pair(removed: list[T], added: list[T], key: Callable[[T], Any]) -> list[tuple[T, T]]:
    """Pairs of (removed, added) items with equal keys, in order, each item used once."""
    free: dict[Any, list[T]] = {}
    for item in added:
        free.setdefault(key(item), []).append(item)
    pairs = []
    for item in removed:
        candidates = free.get(key(item))
        if candidates:
            pairs.append((item, candidates.pop(0)))
    return pairs


def _renamed_tools(old: Side, new: Side) -> dict[str, str]:
    """Old tool id -> new tool id: declared renames (``renamed_from:``), then ids that changed
    while the tool kept its shape."""
    before, after = old.tools, new.tools
    declared = {
        t.renamed_from: t.id
        for t in after.values()
        if t.renamed_from in before and t.renamed_from not in after and t.id not in before
    }
    removed = [t for i, t in before.items() if i not in after and i not in declared]
    added = [t for i, t in after.items() if i not in before and i not in declared.values()]
    return {**declared, **{a.id: b.id for a, b in _pair(removed, added, _tool_shape)}}


def _families(old: Side, new: Side, renamed: dict[str, str], out: Collector) -> None:
    old_families, new_families = old.families, new.families
    new_tools = new.tools
    reported: set[str] = set()  # old ids reported as removed or renamed in some family
    for name, (family, variants) in old_families.items():
        if name not in new_families:
            # placed where it was removed from, in the file that is still there
            where = new.at(new.catalog.project.source, ("families",))
            out.add("FAMILY_REMOVED", where, f"family {name!r} removed", family=name)
            continue
        now, new_variants = new_families[name]
        formats = new.formats(now)
        for fmt in old.formats(family):
            if fmt not in formats and fmt in new.catalog.project.formats:
                where = new.at(now.source, ("labels",))
                out.add(
                    "FORMAT_REMOVED", where, f"family {name!r} no longer uses native tools", family=name, formats=(fmt,)
                )
        by_id = {v.tool_id: v for v in new_variants}
        for variant in variants:
            tool_id = renamed.get(variant.tool_id, variant.tool_id)
            if tool_id in by_id:
                _variant(variant, by_id.pop(tool_id), name, formats, out, new)
                reported.add(variant.tool_id)
            elif tool_id in new_tools:
                where = new.at(now.source, ("tools",))
                message = f"family {name!r} no longer offers tool {variant.name!r}"
                out.add("TOOL_REMOVED_FROM_FAMILY", where, message, tool=variant.tool_id, family=name, formats=formats)
            else:
                where = new.at(new.catalog.project.source, ("tools",))
                out.add(
                    "TOOL_REMOVED",
                    where,
                    f"tool {variant.name!r} removed",
                    tool=variant.tool_id,
                    family=name,
                    formats=formats,
                    deprecation=old.tools[variant.tool_id].deprecated,
                )
                reported.add(variant.tool_id)
        for variant in by_id.values():
            message = (
                f"tool {variant.name!r} added"
                if variant.tool_id not in old.tools
                else f"family {name!r} now offers tool {variant.name!r}"
            )
            where = variant.location
            if variant.tool_id in old.tools and variant.tool_id in now.tools:  # the family's list changed
                where = new.at(now.source, ("tools", now.tools.index(variant.tool_id)))
            out.add("TOOL_ADDED", where, message, tool=variant.tool_id, family=name, formats=formats)
    for name, (family, _) in new_families.items():
        if name not in old_families:
            out.add("FAMILY_ADDED", new.at(family.source, ("family",)), f"family {name!r} added", family=name)
    _unlisted_tools(old, new, renamed, reported, out)


def _unlisted_tools(old: Side, new: Side, renamed: dict[str, str], reported: set[str], out: Collector) -> None:
    """Tool ids removed, renamed or added that no family offers (the ToolId enum still changes)."""
    before, after = old.tools, new.tools
    for tool_id in before:
        if tool_id in reported or tool_id in after:
            continue
        if tool_id in renamed:
            where = new.at(after[renamed[tool_id]].source, ("id",))
            out.add("TOOL_RENAMED", where, f"tool id {tool_id!r} is now {renamed[tool_id]!r}", tool=renamed[tool_id])
        else:
            where = new.at(new.catalog.project.source, ("tools",))
            marker = before[tool_id].deprecated
            out.add("TOOL_REMOVED", where, f"tool {tool_id!r} removed", tool=tool_id, deprecation=marker)
    offered = {v.tool_id for _, variants in new.families.values() for v in variants}
    for tool_id, tool in after.items():
        if tool_id not in before and tool_id not in offered and tool_id not in renamed.values():
            out.add("TOOL_ADDED", new.at(tool.source, ("id",)), f"tool {tool_id!r} added", tool=tool_id)


def _variant(
    old: ToolVariant, new: ToolVariant, family: str, formats: tuple[str, ...], out: Collector, side: Side
) -> None:
    """A tool as one family sends it, before and after (``side``: the new specs)."""

    def add(
        rule: str,
        message: str,
        where: Location = new.location,
        fmts: tuple[str, ...] = formats,
        parameter: str | None = None,
        shared: bool = False,
        deprecation: Deprecation | None = None,
    ) -> None:
        tool: str | None = None
        if not shared:  # shared: a change of parameters.yaml, one finding there for every tool using it
            message, tool = f"{new.name}: {message}", new.tool_id
        out.add(
            rule, where, message, tool=tool, family=family, formats=fmts, parameter=parameter, deprecation=deprecation
        )

    if old.name != new.name:
        add("TOOL_RENAMED", f"tool {old.name!r} is now sent as {new.name!r}")
    elif old.tool_id != new.tool_id:
        add("TOOL_RENAMED", f"tool id {old.tool_id!r} is now {new.tool_id!r} (same wire name)")
    if old.description != new.description:
        add("DESCRIPTION_CHANGED", "tool description changed")
    _requirement(old.requires, new.requires, "tool", add)
    if old.strict != new.strict:
        strict_formats = tuple(f for f in formats if f in FORMAT_RECORDS and FORMAT_RECORDS[f].strict is not None)
        if strict_formats:
            add("STRICT_CHANGED", f"strict mode turned {'on' if new.strict else 'off'}", fmts=strict_formats)
    _parameters(old.parameters, new.parameters, add, side)


Add = Callable[..., None]


def _requirement(before: Any, after: Any, what: str, add: Add, where: Location | None = None) -> None:
    extra = {} if where is None else {"where": where}
    if before == after:
        return
    if after is None:
        add("REQUIREMENT_REMOVED", f"{what} requirement {_predicate(before)} removed", **extra)
    elif before is None:
        add("REQUIREMENT_ADDED", f"{what} now requires {_predicate(after)}", **extra)
    else:
        add(
            "REQUIREMENT_ADDED", f"{what} requirement changed from {_predicate(before)} to {_predicate(after)}", **extra
        )


def _predicate(pred: Any) -> str:
    """A predicate in messages, written as in YAML flow style: {field: yolo_mode, truthy: false}."""
    if isinstance(pred, Mapping):
        return "{" + ", ".join(f"{k}: {_predicate(v)}" for k, v in pred.items()) + "}"
    if isinstance(pred, (list, tuple)):
        return "[" + ", ".join(_predicate(v) for v in pred) + "]"
    return json.dumps(pred, ensure_ascii=False)


def _parameters(before: tuple[Parameter, ...], after: tuple[Parameter, ...], add: Add, side: Side) -> None:
    old_names = {p.name for p in before}
    new_names = {p.name for p in after}
    removed = [p for p in before if p.name not in new_names]
    added = [p for p in after if p.name not in old_names]
    by_name = {p.name: p for p in removed}
    declared = [(by_name[p.renamed_from], p) for p in added if p.renamed_from in by_name]
    taken = {id(x) for pair in declared for x in pair}
    renames = declared + _pair(
        [p for p in removed if id(p) not in taken],
        [p for p in added if id(p) not in taken],
        lambda p: (p.required, shape(p.schema)),
    )
    for was, now in renames:
        message = f"parameter {was.name!r} renamed to {now.name!r}"
        add("PARAMETER_RENAMED", message, where=now.location, parameter=now.name)
    for was, now in declared:  # a declared rename may change more than the name: compare the rest
        _parameter(was, now, add, side)
    paired = {id(p) for pair in renames for p in pair}
    new_by_name = {p.name: p for p in after}
    for param in removed:
        if id(param) not in paired:
            # where it was removed from, in the new file: beside the parameter that preceded it
            # (else followed it) there; the variant when none is left
            index = before.index(param)
            neighbours = [*reversed(before[:index]), *before[index + 1 :]]
            kept = next((new_by_name[p.name] for p in neighbours if p.name in new_by_name), None)
            extra = {"where": kept.location} if kept is not None else {}
            message = f"parameter {param.name!r} removed"
            add("PARAMETER_REMOVED", message, parameter=param.name, deprecation=param.deprecated, **extra)
    for param in added:
        if id(param) not in paired:
            rule = "PARAMETER_REQUIRED_ADDED" if param.required else "PARAMETER_ADDED"
            add(
                rule,
                f"{'required' if param.required else 'optional'} parameter {param.name!r} added",
                where=param.location,
                parameter=param.name,
            )
    old_by_name = {p.name: p for p in before}
    for now in after:
        if now.name in old_by_name:
            _parameter(old_by_name[now.name], now, add, side)


def _parameter(was: Parameter, now: Parameter, add_any: Add, side: Side) -> None:
    where = now.location
    # Both sides a plain `use:` of the same shared parameter: what changed is its definition, so
    # the change is reported once, in parameters.yaml, naming the tools that use it.
    at_definition = (
        side.shared_at(now.shared)
        if now.shared is not None and was.shared == now.shared and not now.overrides and not was.overrides
        else None
    )

    def add(rule: str, message: str, **extra: Any) -> None:
        if at_definition is not None and now.shared is not None:
            users = ", ".join(side.users.get(now.shared, ()))
            message = message.replace(f"parameter {now.name!r}", f"shared parameter {now.name!r} (used by {users})", 1)
            extra.update(where=at_definition, shared=True)
        add_any(rule, message, parameter=now.name, **extra)

    name = f"parameter {now.name!r}"
    if now.required and not was.required:
        add("PARAMETER_MADE_REQUIRED", f"{name} is now required", where=where)
    elif was.required and not now.required:
        add("PARAMETER_MADE_OPTIONAL", f"{name} is now optional", where=where)
    if (was.instruction, was.description, was.usage) != (now.instruction, now.description, now.usage):
        add("DESCRIPTION_CHANGED", f"{name}: description changed", where=where)
    _requirement(was.requires, now.requires, name, add, where)
    for dep in now.dependencies:
        if dep not in was.dependencies:
            add("REQUIREMENT_ADDED", f"{name} now depends on tool {dep!r}", where=where)
    for dep in was.dependencies:
        if dep not in now.dependencies:
            add("REQUIREMENT_REMOVED", f"{name} no longer depends on tool {dep!r}", where=where)
    for rule, message in diff_schema(was.schema, now.schema, now.name):
        deprecation = _values_marker(was, now) if rule == "ENUM_VALUE_REMOVED" and _own(message, now) else None
        add(rule, message, where=where, deprecation=deprecation)
    if now.deprecated is not None and was.deprecated is None:
        add("DEPRECATED", f"{name} is now deprecated{_announced(now.deprecated)}", where=where)
    newly = [value for value, _ in now.deprecated_values if value not in {v for v, _ in was.deprecated_values}]
    if newly:
        shown = ", ".join(json.dumps(v, ensure_ascii=False) for v in newly)
        add("DEPRECATED", f"{name}: value(s) {shown} deprecated", where=where)


def _announced(marker: Deprecation) -> str:
    """What a DEPRECATED finding says after "is now deprecated": the note and the removal date."""
    note = f": {marker.note}" if marker.note else ""
    return note + (f" (removal allowed from {marker.removal})" if marker.removal else "")


def _own(message: str, param: Parameter) -> bool:
    """Is a schemadiff message about the parameter itself (not one of its members or items)?"""
    return message.startswith(f"parameter {param.name!r}:")


def _values_marker(was: Parameter, now: Parameter) -> Deprecation | None:
    """The deprecation that covers the enum values ``now`` dropped: None unless every one was
    deprecated; then the latest of their removal dates (None when one has none)."""
    before = {json.dumps(v, sort_keys=True): v for v in was.schema.get("enum", ())}
    after = {json.dumps(v, sort_keys=True) for v in now.schema.get("enum", ())}
    marks = {json.dumps(v, sort_keys=True): m for v, m in was.deprecated_values}
    gone = [key for key in before if key not in after]
    if not gone or any(key not in marks for key in gone):
        return None
    dates = [marks[key].removal for key in gone]
    return Deprecation(None, None if None in dates else max(d for d in dates if d is not None))


# ---- handlers -------------------------------------------------------------------------------


def _handlers(old: Side, new: Side, renamed: dict[str, str], out: Collector) -> None:
    """Handler bindings per tool; a class the old specs never bound is a break for the host
    (``Coordinator.from_namespace`` refuses a namespace without it), reported once, at the first
    tool that brings it, unless that tool's own change (HANDLER_CHANGED) already is one."""
    after = new.tools
    known = {t.handler.class_name for t in old.tools.values() if t.handler.kind == "class"}
    reported: set[str | None] = set(known)
    kept = {renamed.get(tool_id, tool_id) for tool_id in old.tools}
    before = {renamed.get(tool_id, tool_id): tool for tool_id, tool in old.tools.items()}
    for tool_id, now in after.items():
        binding = now.handler
        where = new.at(now.source, ("handler",))
        was = before[tool_id].handler if tool_id in kept else None
        if was is not None and _binding(was) == _binding(binding):
            continue
        if was is not None and was.kind != "none" and binding.kind == "none":
            out.add("HANDLER_REMOVED", where, f"tool {now.id!r} no longer has a handler ({_handler(was)})", tool=now.id)
        elif was is not None and was.kind != "none":
            message = f"tool {now.id!r}: handler {_handler(was)} is now {_handler(binding)}"
            out.add("HANDLER_CHANGED", where, message, tool=now.id)
            reported.add(binding.class_name)
        elif binding.kind == "class" and binding.class_name not in reported:
            reported.add(binding.class_name)
            message = (
                f"tool {now.id!r} {'is now handled by' if was is not None else 'brings'} class "
                f"{binding.class_name}, which a host's namespace must now provide"
            )
            out.add("HANDLER_CLASS_ADDED", where, message, tool=now.id)
        elif was is not None and binding.kind != "none":
            out.add("HANDLER_ADDED", where, f"tool {now.id!r} is now handled by {_handler(binding)}", tool=now.id)


def _binding(handler: Handler) -> tuple[object, ...]:
    """What a tool's spec binds it to: a shared handler is the other tool's, whatever its class is."""
    if handler.kind == "shares":
        return (handler.kind, handler.shares)
    return (handler.kind, handler.class_name, handler.validator)


def _handler(handler: Handler) -> str:
    if handler.kind == "class":
        return f"class {handler.class_name}" + (" with validator" if handler.validator else "")
    if handler.kind == "shares":
        return f"the handler of {handler.shares!r}"
    return "none"
