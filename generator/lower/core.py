"""Lowering for the core modules: ids (enums), context, catalog data and its binding, __init__."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from functools import partial
from typing import Any

from ..memo import Memo, kept
from ..model import Catalog, Parameter, Project, Text, ToolVariant
from ..pyfmt import Code, Layouts
from ..render import header, render_python
from ..resolve import ResolvedFamily
from ..runtime.predicates import field_tests, read_fields
from ..semantics import member_name

ALL_SPECS = ("specs/toolgen.yaml", "specs/tools/*.yaml", "specs/variants/*.yaml")


def spec_sources(catalog: Catalog) -> tuple[str, ...]:
    root = catalog.project.source.split("/", 1)[0]
    return tuple(p.replace("specs/", root + "/", 1) for p in ALL_SPECS)


def selection_data(catalog: Catalog) -> dict[str, Any]:
    """What family selection and routing read in catalog_data.py (``toolgen breaking`` runs them on it too)."""
    project = catalog.project
    return {
        "selection": {
            "provider_sets": dict(project.provider_sets),
            "model_sets": dict(project.model_sets),
            "model_predicates": dict(project.model_predicates),
        },
        "rules": tuple((f.name, f.rule) for f in catalog.families),
        "precondition": project.precondition,
        "fallback": project.fallback,
        "routing": {
            "default": project.routing_default,
            "rules": tuple(
                {"providers": r.providers, "when": r.when, "format": r.format} for r in project.routing_rules
            ),
        },
    }


def text_data(text: Text) -> tuple[Any, ...]:
    """Text pieces as data: a plain string for unconditional pieces, (text, predicate) otherwise."""
    return tuple(p.text if p.when is None else (p.text, p.when) for p in text)


def family_key(
    variants: tuple[ToolVariant, ...], project: Project
) -> tuple[tuple[str, ...], tuple[Mapping[str, Any], ...]]:
    """What a family's native lists depend on: the key of their run-time cache.

    Fields read by requirements of variants and parameters and by conditions of text pieces,
    the fields behind placeholders (all of them when any text holds one: a filled value may
    hold another), and the switch the runtime reads itself. A list field read only by
    requirements (open editor tabs, which change as the user works) is keyed on the outcome
    of those tests instead of its value. Returns (fields, tests).
    """
    predicates: list[Any] = []
    held = False
    for variant in variants:
        predicates += [variant.requires, *(p.requires for p in variant.parameters)]
        for text in (variant.description, *(p.instruction for p in variant.parameters)):
            predicates += [piece.when for piece in text]
            held = held or any("{{" in piece.text for piece in text)
    fields = {"enable_native_tool_calls"}.union(*map(read_fields, predicates))
    filled = {p.field for p in project.placeholders} if held else set()
    lists = {f.name for f in project.context if f.type == "string_list"}
    tested = (fields & lists) - filled
    tests = {repr(t): t for pred in predicates for t in field_tests(pred) if t["field"] in tested}
    return tuple(sorted((fields | filled) - tested)), tuple(tests[k] for k in sorted(tests))


def param_data(param: Parameter) -> dict[str, Any]:
    return {
        "name": param.name,
        "required": param.required,
        "instruction": text_data(param.instruction),
        "description": text_data(param.description),
        "usage": param.usage,
        "schema": param.schema,
        "dependencies": param.dependencies,
        "requires": param.requires,
    }


def variant_data(variant: ToolVariant) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": variant.tool_id,
        "spec": variant.family,
        "name": variant.name,
        "description": text_data(variant.description),
        "requires": variant.requires,
        "strict": variant.strict,
        "parameters": tuple(param_data(p) for p in variant.parameters),
    }
    # The host-facing fields only when the spec sets them (MCP's tools/list reads them).
    if variant.title is not None:
        data["title"] = variant.title
    if variant.annotations:
        data["annotations"] = dict(variant.annotations)
    if variant.output_schema is not None:
        data["output_schema"] = variant.output_schema
    return data


def catalog_specs(catalog: Catalog, memo: Memo | None = None) -> dict[str, dict[str, Any]]:
    """Every variant as catalog data (``variant_data``) by key, computed once per run for every
    module that reads it; with a ``memo`` (``generate --watch``), an unchanged tool's are the same
    objects as last run. Nothing may change them: the memo and the layouts hold them."""
    specs: dict[str, dict[str, Any]] = {}
    for tool in catalog.tools:
        specs.update(kept(memo, (tool.variants,), partial(_tool_data, tool.variants), "data"))
    return specs


def _tool_data(variants: tuple[ToolVariant, ...]) -> dict[str, dict[str, Any]]:
    return {v.key: variant_data(v) for v in variants}


def _shared_parameters(
    variants: list[ToolVariant], specs: dict[str, dict[str, Any]], memo: Memo | None = None
) -> tuple[dict[str, Any], tuple[Any, ...]]:
    """SPECS data with identical parameter lists emitted once, as ``_PARAMS[i]`` (extends shares them)."""
    index: dict[str, int] = {}
    shared: list[Any] = []
    rows: dict[str, Any] = {}
    for variant in variants:
        data = specs[variant.key]
        params = data["parameters"]
        if params:
            key = kept(memo, (params,), partial(_digest, params), "digest")
            if key not in index:
                index[key] = len(shared)
                shared.append(params)
            ref = f"_PARAMS[{index[key]}]"
            data = kept(memo, (data,), partial(_with_parameters, data, Code(ref)), ("row", ref))
        rows[variant.key] = data
    return rows, tuple(shared)


def _digest(params: Any) -> str:
    return hashlib.sha256(repr(params).encode()).hexdigest()


def _with_parameters(data: dict[str, Any], ref: Code) -> dict[str, Any]:
    """``data`` with its parameter list replaced by a reference (a copy: ``data`` is shared)."""
    return {**data, "parameters": ref}


_LAST_VALUES: list[Any] = []  # [catalog, families, values] of the last call: both targets of a run share it


def catalog_values(
    catalog: Catalog,
    families: tuple[ResolvedFamily, ...],
    specs: dict[str, dict[str, Any]] | None = None,
    memo: Memo | None = None,
) -> dict[str, Any]:
    """The values of catalog_data (Python and TypeScript alike), by template variable, in emit order.

    ``specs`` refers to shared parameter lists as ``Code("_PARAMS[i]")``; ``shared`` holds them.
    Computed once per run: the TypeScript target reuses what the Python one computed (same objects).
    ``specs`` given are ``catalog_specs``'s; ``memo`` is ``generate --watch``'s (reuse.py).
    """
    if _LAST_VALUES and _LAST_VALUES[0] is catalog and _LAST_VALUES[1] is families:
        values: dict[str, Any] = _LAST_VALUES[2]
        return values
    values = _catalog_values(catalog, families, catalog_specs(catalog, memo) if specs is None else specs, memo)
    _LAST_VALUES[:] = [catalog, families, values]
    return values


def _catalog_values(
    catalog: Catalog, families: tuple[ResolvedFamily, ...], data: dict[str, dict[str, Any]], memo: Memo | None
) -> dict[str, Any]:
    project = catalog.project
    specs, shared = _shared_parameters([v for t in catalog.tools for v in t.variants], data, memo)
    # What family_key reads of the project besides the variants (the project object is new on each build).
    read = (
        tuple(p.field for p in project.placeholders),
        tuple(f.name for f in project.context if f.type == "string_list"),
    )
    keys = {
        r.family.name: kept(memo, tuple(r.variants), partial(family_key, r.variants, project), ("family-key", read))
        for r in families
    }
    return {
        **selection_data(catalog),
        "families": {
            r.family.name: {
                "description": r.family.description,
                "labels": dict(r.family.labels),
                "tools": r.family.tools,
                "use_native_tools": r.family.use_native_tools,
                "context_fields": keys[r.family.name][0],
                "context_tests": keys[r.family.name][1],
            }
            for r in families
        },
        "shared": shared,
        "specs": specs,
        "family_specs": {r.family.name: tuple(v.key for v in r.variants) for r in families},
        "placeholders": {
            p.name: {"field": p.field, "default": p.default, "map": p.mapping} for p in project.placeholders
        },
        "mcp": {"separator": project.mcp_separator, "name_max_length": project.mcp_name_max_length},
        "subagents": {"name_prefix": project.subagent_prefix, "max_length": project.subagent_max_length},
    }


def emit(
    catalog: Catalog,
    families: tuple[ResolvedFamily, ...],
    specs: dict[str, dict[str, Any]] | None = None,
    memo: Memo | None = None,
    layouts: Layouts | None = None,
) -> dict[str, str]:
    project = catalog.project
    head = header(spec_sources(catalog))
    tool_members = [(member_name(t), t) for t in project.tool_order]
    family_members = [(member_name(f), f) for f in project.family_enum]
    files = {
        "ids.py": render_python(
            "ids.py.j2",
            header((project.source,)),
            tools=tool_members,
            families=family_members,
            prompt_families=[(member_name(f.name), f.name) for f in catalog.families],
        ),
        "context.py": render_python(
            "context.py.j2",
            header((project.source,)),
            fields=project.context,
            fields_types={f.name: (f.type, f.nullable) for f in project.context},
            fields_docs={f.name: f.doc for f in project.context},
        ),
        "catalog_data.py": render_python(
            "catalog_data.py.j2", head, layouts, **catalog_values(catalog, families, specs, memo)
        ),
    }
    files["catalog.py"] = render_python("catalog.py.j2", head)
    files["__init__.py"] = render_python("__init__.py.j2", head)
    return files
