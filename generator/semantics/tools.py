"""Tool files: one per listed id, each with a handler and its variants (a variant may extend another)."""

from __future__ import annotations

import dataclasses
from functools import partial
from typing import Any

from ..diagnostics import Diagnostics
from ..load import SourceFile
from ..memo import Memo, remembered
from ..model import Handler, Tool, ToolVariant
from ..runtime.labels import LabelSyntaxError, label_names
from ..validate import suggest
from .common import Scope, file_stem, freeze
from .deprecation import marked, read_deprecation
from .host_fields import host_fields
from .predicates import check_predicate
from .schemas import parameter
from .text import check_text, check_usage

ById = dict[str, tuple[SourceFile, dict[str, Any]]]


def build_tools(scope: Scope, srcs: list[SourceFile], memo: Memo | None = None) -> list[Tool]:
    """Tool files in enum order (toolgen.yaml's list): one file per listed id, named after it.

    With a ``memo`` (the workspace's), a tool file whose loaded source and scope files are the same
    objects as in an earlier build gets that build's variants back, findings included.
    """
    diags = scope.diags
    by_id: ById = {}
    for src in srcs:
        data = src.data
        tool_id = data["id"]
        stem = file_stem(src)
        if tool_id != stem:
            diags.error(
                src.loc(("id",)),
                "E316",
                f"tool {tool_id!r} is in a file named {stem}.yaml",
                f"rename the file to {tool_id}.yaml",
            )
        if tool_id in by_id:
            diags.error(
                src.loc(("id",)),
                "E302",
                f"duplicate tool id {tool_id!r} (also in {by_id[tool_id][0].path})",
                "keep one file per tool id",
            )
            continue
        if tool_id not in scope.known_tools:
            diags.error(
                src.loc(("id",)),
                "E301",
                f"tool {tool_id!r} is not listed under tools: in toolgen.yaml",
                "add it there so it gets a place in the enum order",
            )
        by_id[tool_id] = (src, data)
    for i, tool_id in enumerate(scope.tool_ids):
        if tool_id not in by_id:
            diags.error(
                scope.project_src.loc(("tools", i)),
                "E301",
                f"tool {tool_id!r} has no spec file",
                f"add specs/tools/{tool_id}.yaml",
            )
    result = []
    for tool_id in scope.tool_ids:
        if tool_id not in by_id:
            continue
        src, data = by_id[tool_id]
        reported = len(diags.items)
        variants = remembered(
            memo,
            (src, scope.project_src, scope.shared_src),
            partial(_variants_into, scope, src, data),
            diags,
            "variants",
        )
        # A variant that failed may lack parameters: then the label's names are not checked.
        complete = not any(d.severity == "error" for d in diags.items[reported:])
        handler = _handler(scope, src, data, by_id)
        label = _label(scope, src, data, variants if complete else None)
        # read again without reporting: _variants_into reported it (and marked the variants)
        deprecated = read_deprecation(scope.silent(), src, data.get("deprecated"), ("deprecated",))
        renamed_from = data.get("renamed_from")
        if renamed_from is not None and renamed_from in scope.known_tools:
            diags.error(
                src.loc(("renamed_from",)),
                "E317",
                f"tool {tool_id!r} says it was renamed from {renamed_from!r}, which is still a tool id",
                "name the id the tool had in an earlier version, or remove renamed_from",
            )
            renamed_from = None
        result.append(Tool(tool_id, handler, variants, src.path, label, renamed_from, deprecated))
    return result


def _variants_into(scope: Scope, src: SourceFile, data: dict[str, Any], diags: Diagnostics) -> tuple[ToolVariant, ...]:
    """:func:`_variants`, then the tool-level fields every variant carries (a deprecation note in
    its description; the MCP host fields), its findings reported to ``diags``. All of it inside
    what the workspace remembers per tool file, so an unchanged tool keeps its variant objects
    (and the output checks keyed on them) from one edit to the next."""
    scope = dataclasses.replace(scope, diags=diags)
    variants = _variants(scope, src, data)
    deprecated = read_deprecation(scope, src, data.get("deprecated"), ("deprecated",))
    if deprecated is not None:  # every variant tells the model, in the tool's own description
        sentence = deprecated.text("tool")
        variants = tuple(dataclasses.replace(v, description=marked(v.description, sentence, "\n\n")) for v in variants)
    return host_fields(scope, src, data, variants)


def _label(
    scope: Scope, src: SourceFile, data: dict[str, Any], variants: tuple[ToolVariant, ...] | None
) -> str | None:
    """The tool's label template, when it parses and names only parameters some variant declares
    (not checked when ``variants`` is None: they had errors of their own)."""
    template = data.get("label")
    if not isinstance(template, str):
        return None
    where = src.loc(("label",))
    try:
        names = label_names(template)
    except LabelSyntaxError as exc:
        scope.diags.error(
            where,
            "E331",
            f"label {template!r}: {exc.message} (at character {exc.offset + 1})",
            "write a placeholder as {name} or {name|other}, and a literal brace as {{ or }}",
        )
        return None
    if variants is None:
        return template
    declared = list(dict.fromkeys(p.name for v in variants for p in v.parameters))
    unknown = [name for name in names if name not in declared]
    for name in unknown:
        scope.diags.error(
            where,
            "E330",
            f"label {template!r} names {{{name}}}, which no variant of tool {data['id']!r} declares",
            suggest(name, declared) or _name_one_of(declared),
        )
    return None if unknown else template


def _name_one_of(declared: list[str]) -> str:
    if not declared:
        return "this tool has no parameters: keep the label plain text"
    return f"name one of its parameters: {', '.join(declared)}"


def _handler(scope: Scope, src: SourceFile, data: dict[str, Any], by_id: ById) -> Handler:
    """A tool's handler: its own class, none, or the class of the tool it shares."""
    handler = data["handler"]
    if handler is None:
        return Handler("none")
    if "class" in handler:
        return Handler("class", handler["class"], bool(handler.get("validator", False)))
    target = handler["shares"]
    target_data = by_id[target][1] if target in by_id else {}
    target_handler = target_data.get("handler") if target_data else None
    if not target_data or not isinstance(target_handler, dict) or "class" not in target_handler:
        scope.diags.error(
            src.loc(("handler", "shares")),
            "E309",
            f"handler shares {target!r}, which is not a tool with a handler class",
            suggest(target, by_id) or "name a tool whose handler has 'class:'",
        )
        return Handler("shares", None, False, target)
    return Handler("shares", target_handler["class"], bool(target_handler.get("validator", False)), target)


def _variants(scope: Scope, src: SourceFile, data: dict[str, Any]) -> tuple[ToolVariant, ...]:
    """A tool's variants in file order; a variant that 'extends' another inherits what it leaves out."""
    raw = data["variants"]
    built: dict[str, ToolVariant] = {}
    visiting: set[str] = set()

    def build(family: str) -> ToolVariant | None:
        if family in built:
            return built[family]
        if family in visiting:
            scope.diags.error(
                src.loc(("variants", family, "extends")),
                "E314",
                f"variant {family!r} extends itself through a cycle",
                "break the extends chain",
            )
            return None
        visiting.add(family)
        spec = raw[family]
        base = None
        if "extends" in spec:
            parent = spec["extends"]
            if parent not in raw:
                scope.diags.error(
                    src.loc(("variants", family, "extends")),
                    "E314",
                    f"variant {family!r} extends {parent!r}, which this tool does not define",
                    suggest(parent, raw) or "extend a variant defined in this file",
                )
            else:
                base = build(parent)
        visiting.discard(family)
        variant = _variant(scope, src, data["id"], family, spec, base)
        built[family] = variant
        return variant

    for family in raw:
        if family not in scope.family_enum:
            scope.diags.error(
                src.loc(("variants", family), key=True),
                "E310",
                f"unknown family {family!r}",
                suggest(family, scope.family_enum) or "list it under families: in toolgen.yaml",
            )
        build(family)
    return tuple(built[f] for f in raw if f in built)


def _variant(
    scope: Scope, src: SourceFile, tool_id: str, family: str, spec: dict[str, Any], base: ToolVariant | None
) -> ToolVariant:
    """One variant: its own keys, else its base's (or the defaults); the name must not look like an MCP tool."""
    at = ("variants", family)
    description = (
        check_text(scope, src, spec["description"], at + ("description",))
        if "description" in spec
        else (base.description if base else ())
    )
    requires = spec.get("requires", base.requires if base else None)
    if "requires" in spec:
        check_predicate(scope, src, spec["requires"], at + ("requires",))
    if "parameters" in spec:
        params = tuple(parameter(scope, src, p, at + ("parameters", i)) for i, p in enumerate(spec["parameters"]))
        seen: dict[str, int] = {}
        for i, p in enumerate(params):
            if p.name in seen:
                scope.diags.error(
                    src.loc(at + ("parameters", i)),
                    "E304",
                    f"duplicate parameter {p.name!r} (also parameter {seen[p.name] + 1})",
                    "rename or remove one",
                )
            seen.setdefault(p.name, i)
        for i, p in enumerate(params):
            if p.renamed_from is not None and p.renamed_from in seen:
                scope.diags.error(
                    src.loc(at + ("parameters", i)),
                    "E317",
                    f"parameter {p.name!r} says it was renamed from {p.renamed_from!r}, which is still a parameter",
                    "name the parameter's name in an earlier version, or remove renamed_from",
                )
                params = tuple(dataclasses.replace(q, renamed_from=None) if q is p else q for q in params)
    else:
        params = base.parameters if base else ()
    name = spec.get("name", base.name if base else tool_id)
    # An inherited name was checked on the variant that declares it: report it there only.
    if scope.mcp_separator in name and ("name" in spec or base is None):
        scope.diags.error(
            src.loc(at + ("name",) if "name" in spec else ("id",)),
            "E303",
            f"tool name {name!r} contains the MCP separator {scope.mcp_separator!r}",
            "dispatch routes such names to the MCP handler: rename the tool or change mcp.separator",
        )
    # Duplicate parameter names are E304 already; their example cannot read back as declared.
    unique = len({p.name for p in params}) == len(params)
    if unique and ("parameters" in spec or ("name" in spec and params)):
        check_usage(scope, src, name, params, spec, at)
    return ToolVariant(
        tool_id=tool_id,
        family=family,
        name=name,
        description=description,
        parameters=params,
        requires=freeze(requires),
        strict=bool(spec.get("strict", base.strict if base else False)),
        location=src.loc(at, key=True),
    )
