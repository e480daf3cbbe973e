"""The model: the project, its families and tools, as one Catalog; and the family files' checks.

Runs the checks in a fixed order, so the same specs always give the same diagnostics in the same order.
"""

from __future__ import annotations

from functools import partial

from ..diagnostics import Diagnostics
from ..load import SourceFile
from ..memo import Memo, remembered
from ..model import Catalog, Family, Project, Tool
from ..validate import suggest
from .common import Scope, file_stem, freeze, non_finite
from .predicates import check_predicate
from .project import build_project
from .schemas import check_shared_parameters
from .tools import build_tools


def build_catalog(
    project: SourceFile,
    shared: SourceFile | None,
    tools: list[SourceFile],
    families: list[SourceFile],
    diags: Diagnostics,
    memo: Memo | None = None,
) -> Catalog | None:
    """Check references across files and build the model; None when any error was found.

    ``memo`` (the workspace's) lets an unchanged tool file's variants be reused (tools.build_tools).
    """
    scope = Scope.read(project, shared, diags)
    for src in [project, *tools, *families] + ([shared] if shared else []):
        remembered(memo, (src,), partial(_finite, src), diags, "finite")
    if diags.has_errors:
        return None
    built_project = build_project(scope)
    built_families = _families(scope, built_project, families)
    check_shared_parameters(scope)
    built_tools = build_tools(scope, tools, memo)
    _check_family_offers(scope, built_families, built_tools, families)
    sources = {built_project.source, *(t.source for t in built_tools), *(f.source for f in built_families)}
    if shared:
        sources.add(shared.path)
    if diags.has_errors:
        return None
    return Catalog(built_project, tuple(built_tools), tuple(built_families), tuple(sorted(sources)))


def _finite(src: SourceFile, diags: Diagnostics) -> None:
    for at in non_finite(src.data, ()):
        diags.error(
            src.loc(at),
            "E311",
            "NaN and infinite numbers are not allowed",
            "use a finite number or leave the keyword out",
        )


def _check_family_offers(scope: Scope, families: list[Family], tools: list[Tool], srcs: list[SourceFile]) -> None:
    """Warn about families that can offer nothing, or list tools that have no spec variant at all."""
    with_variants = {t.id for t in tools if t.variants}
    family_files = {src.path: src for src in srcs}
    for family in families:
        src = family_files[family.source]
        if not family.tools:
            scope.diags.warning(
                src.loc(("tools",)), "W303", f"family {family.name!r} lists no tools", "list the tool ids it offers"
            )
        for i, tool_id in enumerate(family.tools):
            if tool_id in scope.known_tools and tool_id not in with_variants:
                scope.diags.warning(
                    src.loc(("tools", i)),
                    "W304",
                    f"tool {tool_id!r} has no spec variant, so family {family.name!r} cannot offer it",
                    "add a variant to its tool file, or remove it from this list",
                )


def _families(scope: Scope, project: Project, srcs: list[SourceFile]) -> list[Family]:
    """Family files in selection order: listed in toolgen.yaml, known tools, distinct orders, a fallback."""
    diags = scope.diags
    result = []
    orders: dict[int, str] = {}
    for src in srcs:
        data = src.data
        name = data["family"]
        stem = file_stem(src)
        if name != stem:
            diags.error(
                src.loc(("family",)),
                "E316",
                f"family {name!r} is in a file named {stem}.yaml",
                f"rename the file to {name}.yaml or the family to {stem!r}",
            )
        if name not in scope.family_enum:
            diags.error(
                src.loc(("family",)),
                "E310",
                f"family {name!r} is not listed under families: in toolgen.yaml",
                "add it there",
            )
        seen: set[str] = set()
        for i, tool_id in enumerate(data["tools"]):
            if tool_id not in scope.known_tools:
                diags.error(
                    src.loc(("tools", i)),
                    "E301",
                    f"unknown tool id {tool_id!r}",
                    suggest(tool_id, scope.tool_ids)
                    or "add specs/tools/<id>.yaml and list it under tools: in toolgen.yaml",
                )
            elif tool_id in seen:
                diags.warning(
                    src.loc(("tools", i)),
                    "W302",
                    f"tool {tool_id!r} is listed twice; the second entry is dropped",
                    "remove the duplicate",
                )
            seen.add(tool_id)
        selection = data["selection"]
        order = selection["order"]
        if order in orders:
            diags.error(
                src.loc(("selection", "order")),
                "E315",
                f"selection order {order} is also used by family {orders[order]!r}",
                "give every family a distinct order",
            )
        orders.setdefault(order, name)
        check_predicate(scope, src, selection["rule"], ("selection", "rule"))
        labels = tuple((k, int(v)) for k, v in (data.get("labels") or {}).items())
        result.append(
            Family(
                name=name,
                description=data["description"],
                version=int(data.get("version", 1)),
                tags=tuple(data.get("tags") or ()),
                labels=labels,
                tools=tuple(data["tools"]),
                order=order,
                rule=freeze(selection["rule"]),
                source=src.path,
            )
        )
    result.sort(key=lambda f: f.order)
    names = {f.name for f in result}
    if project.fallback not in names:
        diags.error(
            scope.project_src.loc(("selection", "fallback")),
            "E310",
            f"fallback family {project.fallback!r} has no file specs/variants/{project.fallback}.yaml",
            suggest(project.fallback, names) or "add the family file",
        )
    return result
