"""Predicates: selection rules, requirements and conditional text name context fields and selection sets.

The meta-schema sees each predicate's shape; these checks see its references (fields, provider
sets, model predicates) and whether a comparison can ever hold for the field's declared type.
"""

from __future__ import annotations

import re
from typing import Any

from ..load import PathKey, SourceFile
from ..validate import suggest, walk_predicates
from .common import Scope, article, fits

FIELD_OPS = ("truthy", "equals", "in", "contains", "ends_with")
TOP_OPS = ("all", "any", "not", "field", "provider_in", "model_matches", "model_raw_contains")
STRING_OPS = ("contains", "ends_with")


def check_predicate(scope: Scope, src: SourceFile, node: Any, path: PathKey) -> None:
    """Every predicate inside ``node``: one operator each, and references that exist."""
    diags = scope.diags
    for pred, at in walk_predicates(node, path):
        ops = [k for k in TOP_OPS if k in pred]
        if len(ops) != 1:
            diags.error(
                src.loc(at),
                "E312",
                f"a predicate needs exactly one operator, found {len(ops)} ({', '.join(ops) or 'none'})",
                "split it with 'all:' / 'any:', or keep one of " + ", ".join(TOP_OPS),
            )
            continue
        op = ops[0]
        if op == "field":
            _check_field_predicate(scope, src, pred, at)
        elif op == "provider_in" and pred[op] not in scope.provider_sets:
            diags.error(
                src.loc(at + (op,)),
                "E313",
                f"unknown provider set {pred[op]!r}",
                suggest(pred[op], scope.provider_sets) or "declare it under selection.provider_sets in toolgen.yaml",
            )
        elif op == "model_matches" and pred[op] not in scope.model_predicates:
            diags.error(
                src.loc(at + (op,)),
                "E313",
                f"unknown model predicate {pred[op]!r}",
                suggest(pred[op], scope.model_predicates)
                or "declare it under selection.model_predicates in toolgen.yaml",
            )
        for key in pred:
            if op != "field" and key in FIELD_OPS:
                diags.error(
                    src.loc(at + (key,), key=True), "E312", f"{key!r} only goes with 'field'", "add 'field: <name>'"
                )


def _check_field_predicate(scope: Scope, src: SourceFile, pred: dict[str, Any], at: PathKey) -> None:
    """A 'field:' test: one comparison, a declared field, and values the field's type can hold."""
    diags = scope.diags
    name = pred["field"]
    comparisons = [k for k in FIELD_OPS if k in pred]
    if len(comparisons) != 1:
        diags.error(
            src.loc(at),
            "E312",
            f"'field: {name}' needs exactly one comparison, found {len(comparisons)}",
            "use one of " + ", ".join(FIELD_OPS),
        )
    if name not in scope.context_types:
        diags.error(
            src.loc(at + ("field",)),
            "E305",
            f"unknown context field {name!r}",
            suggest(name, scope.context_types) or "declare it under context: in toolgen.yaml",
        )
        return
    ftype = scope.context_types[name]
    for op in comparisons:
        if op in STRING_OPS and ftype not in ("string", "string_list"):
            diags.error(
                src.loc(at + (op,)),
                "E311",
                f"{op!r} compares text but context field {name!r} is {ftype}",
                "use 'equals' or 'truthy' for non-text fields",
            )
        if op in ("equals", "in") and ftype == "string_list":
            diags.error(
                src.loc(at + (op,)),
                "E311",
                f"{op!r} compares a whole value, but context field {name!r} is a list",
                "use 'contains' or 'ends_with' (true when any element matches), or 'truthy'",
            )
            continue
        values = pred["in"] if op == "in" else [pred[op]] if op == "equals" else []
        for value in values:
            if value is not None and not fits(value, ftype):
                diags.error(
                    src.loc(at + (op,)),
                    "E311",
                    f"{value!r} can never equal context field {name!r} of type {ftype}",
                    f"compare with {article(ftype)} {ftype} value",
                )


def check_model_predicates(scope: Scope, src: SourceFile) -> None:
    """Named model predicates: known sets and names, valid regexes, and no cycles through model_matches."""
    diags = scope.diags

    def visit(node: dict[str, Any], path: PathKey) -> None:
        if "in_set" in node and node["in_set"] not in scope.model_sets:
            diags.error(
                src.loc(path + ("in_set",)),
                "E313",
                f"unknown model set {node['in_set']!r}",
                "declare it under selection.model_sets",
            )
        if "model_matches" in node and node["model_matches"] not in scope.model_predicates:
            diags.error(
                src.loc(path + ("model_matches",)),
                "E313",
                f"unknown model predicate {node['model_matches']!r}",
                "declare it under selection.model_predicates",
            )
        if "regex_first_match" in node:
            _check_first_match(scope, src, node["regex_first_match"], path + ("regex_first_match",))
        for key in ("any", "all"):
            for i, child in enumerate(node.get(key) or []):
                visit(child, path + (key, i))

    for name, node in scope.model_predicates.items():
        visit(node, ("selection", "model_predicates", name))
    for name in _cyclic(scope.model_predicates):
        diags.error(
            src.loc(("selection", "model_predicates", name)),
            "E313",
            f"model predicate {name!r} refers to itself through model_matches",
            "break the cycle",
        )


def _check_first_match(scope: Scope, src: SourceFile, spec: dict[str, Any], path: PathKey) -> None:
    try:
        compiled = re.compile(spec["pattern"])
        if spec["group"] > compiled.groups:
            scope.diags.error(
                src.loc(path + ("group",)),
                "E320",
                "regex group number is larger than the number of groups",
                "count the parentheses",
            )
    except re.error as exc:
        scope.diags.error(src.loc(path + ("pattern",)), "E320", f"invalid regular expression: {exc}", "fix the pattern")


def _cyclic(predicates: Any) -> list[str]:
    """Names whose depth-first walk over model_matches references meets a cycle (it would loop at run time)."""

    def refs(node: dict[str, Any]) -> set[str]:
        found = {node["model_matches"]} if "model_matches" in node else set()
        for key in ("any", "all"):
            for child in node.get(key) or []:
                found |= refs(child)
        return found

    graph = {name: refs(node) for name, node in predicates.items()}
    state: dict[str, int] = {}

    def dfs(name: str) -> bool:
        state[name] = 1
        for nxt in sorted(graph.get(name, ())):
            if state.get(nxt) == 1 or (state.get(nxt) is None and nxt in graph and dfs(nxt)):
                return True
        state[name] = 2
        return False

    return [name for name in graph if state.get(name) is None and dfs(name)]
