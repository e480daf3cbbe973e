"""Stage 3b: cross-file checks and construction of the typed model.

Runs only on files that passed the meta-schema, so shapes can be trusted; what is checked here
is what a schema cannot see: references between files, names, types against values.
"""

from __future__ import annotations

import dataclasses
import keyword
import math
import re
from types import MappingProxyType
from typing import Any

from .diagnostics import Diagnostics, Location
from .load import SourceFile
from .model import (
    FORMATS,
    SCHEMA_KEYWORD_ORDER,
    Catalog,
    ContextField,
    Family,
    Handler,
    Parameter,
    Placeholder,
    Project,
    RoutingRule,
    TextPiece,
    Tool,
    ToolVariant,
)
from .runtime.predicates import JS_WHITESPACE, normalize
from .runtime.prompt_blocks import PromptParam, usage_example
from .runtime.xml_calls import parse_tool_calls
from .validate import PLACEHOLDER_RE, suggest, walk_predicates

# Names the generated context module (templates/context.py.j2) uses. A field becomes a class
# attribute of the Context dataclass, so one of these names would shadow a method, a decorator
# evaluated in the class body (``classmethod``), or a name annotations resolve to
# (typing.get_type_hints reads the class namespace first). tests/test_hostile_values.py checks
# this list against every name the generated module uses.
RESERVED_CONTEXT_NAMES = frozenset(
    {"from_mapping", "from_json", "to_dict", "get", "classmethod", "staticmethod", "property"}
    | {"str", "int", "bool", "float", "tuple", "dict", "list", "type", "object", "super"}
    | {"isinstance", "getattr", "abs", "math", "json", "fields", "field", "dataclass"}
    | {"bytes", "json_text_depth", "as_context", "annotations"}
)
# Context fields the shipped runtime reads by name, with the type it expects and what happens
# without them (the runtime then sees None). Read in runtime/catalog.py and providers.py.j2
# (routing), runtime/predicates.py (provider_in, model tests), runtime/tool_lists.py (the native
# switch) and runtime/dynamic_tools.py (subagents); tests/test_hostile_values.py keeps it in sync.
RUNTIME_FIELDS: dict[str, tuple[str, str]] = {
    "provider_id": ("string", "every request routes to the default format and 'provider_in' rules never hold"),
    "model_id": ("string", "model tests in selection and routing rules never hold"),
    "enable_native_tool_calls": (
        "boolean",
        "native tool lists are built whenever a family's labels ask for native tools; no context can switch them off",
    ),
    "subagents_enabled": ("boolean", "subagent tools are never offered"),
    "is_subagent_run": ("boolean", "subagent tools are offered in subagent runs too"),
}
CONTEXT_NAME_RE = re.compile(r"[a-z][a-z0-9_]{0,63}")
FIELD_OPS = ("truthy", "equals", "in", "contains", "ends_with")
TOP_OPS = ("all", "any", "not", "field", "provider_in", "model_matches", "model_raw_contains")
STRING_OPS = ("contains", "ends_with")
ROUTING_FIELDS = ("provider_id", "model_id")
PY_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "boolean": (bool,),
    "integer": (int,),
    "number": (int, float),
    "array": (list,),
    "object": (dict,),
}


def member_name(name: str) -> str:
    """The Python enum member for an id: upper snake case, never a reserved ``_sunder_`` name."""
    member = re.sub(r"[^A-Za-z0-9]+", "_", name).upper()
    return member if not member.startswith("_") else "X" + member


def _is_control(ch: str) -> bool:
    """C0/C1 control characters other than tab and line breaks."""
    code = ord(ch)
    return (code < 0x20 and ch not in "\t\n\r") or 0x7F <= code < 0xA0


def _article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


def _fits(value: Any, type_name: str) -> bool:
    if isinstance(value, bool) and type_name in ("integer", "number"):
        return False
    return isinstance(value, PY_TYPES[type_name])


def _non_finite(value: Any, path: tuple[str | int, ...]) -> list[tuple[str | int, ...]]:
    """Paths of NaN/Infinity numbers: JSON, Python literals and the providers have no place for them."""
    if isinstance(value, float) and not math.isfinite(value):
        return [path]
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _non_finite(v, path + (k,))]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _non_finite(v, path + (i,))]
    return []


class _Builder:
    def __init__(
        self,
        project: SourceFile,
        shared: SourceFile | None,
        tools: list[SourceFile],
        families: list[SourceFile],
        diags: Diagnostics,
    ) -> None:
        self.project_src = project
        self.shared_src = shared
        self.tool_srcs = tools
        self.family_srcs = families
        self.diags = diags
        data = project.data
        self.context_types = {
            name: spec["type"] for name, spec in (data.get("context") or {}).items()
        }
        self.placeholders = set((data.get("placeholders") or {}).keys())
        selection = data.get("selection") or {}
        self.provider_sets = selection.get("provider_sets") or {}
        self.model_sets = selection.get("model_sets") or {}
        self.model_predicates = selection.get("model_predicates") or {}
        self.tool_ids = list(data.get("tools") or [])
        self.family_enum = list(data.get("families") or [])
        self.shared_params = (shared.data or {}).get("parameters", {}) if shared else {}
        self.mcp_separator = (data.get("mcp") or {}).get("separator", "__mcp__")

    # -- predicates and text ------------------------------------------------------------------

    def check_predicate(self, src: SourceFile, node: Any, path: tuple[str | int, ...]) -> None:
        for pred, at in walk_predicates(node, path):
            ops = [k for k in TOP_OPS if k in pred]
            if len(ops) != 1:
                self.diags.error(
                    src.loc(at),
                    "E312",
                    f"a predicate needs exactly one operator, found {len(ops)} ({', '.join(ops) or 'none'})",
                    "split it with 'all:' / 'any:', or keep one of " + ", ".join(TOP_OPS),
                )
                continue
            op = ops[0]
            if op == "field":
                self._check_field_predicate(src, pred, at)
            elif op == "provider_in" and pred[op] not in self.provider_sets:
                self.diags.error(
                    src.loc(at + (op,)),
                    "E313",
                    f"unknown provider set {pred[op]!r}",
                    suggest(pred[op], self.provider_sets) or "declare it under selection.provider_sets in toolgen.yaml",
                )
            elif op == "model_matches" and pred[op] not in self.model_predicates:
                self.diags.error(
                    src.loc(at + (op,)),
                    "E313",
                    f"unknown model predicate {pred[op]!r}",
                    suggest(pred[op], self.model_predicates)
                    or "declare it under selection.model_predicates in toolgen.yaml",
                )
            for key in pred:
                if key not in TOP_OPS and key not in FIELD_OPS:
                    continue
                if op != "field" and key in FIELD_OPS:
                    self.diags.error(src.loc(at + (key,), key=True), "E312", f"{key!r} only goes with 'field'", "add 'field: <name>'")

    def _check_field_predicate(self, src: SourceFile, pred: dict[str, Any], at: tuple[str | int, ...]) -> None:
        name = pred["field"]
        comparisons = [k for k in FIELD_OPS if k in pred]
        if len(comparisons) != 1:
            self.diags.error(
                src.loc(at),
                "E312",
                f"'field: {name}' needs exactly one comparison, found {len(comparisons)}",
                "use one of " + ", ".join(FIELD_OPS),
            )
        if name not in self.context_types:
            self.diags.error(
                src.loc(at + ("field",)),
                "E305",
                f"unknown context field {name!r}",
                suggest(name, self.context_types) or "declare it under context: in toolgen.yaml",
            )
            return
        ftype = self.context_types[name]
        for op in comparisons:
            if op in STRING_OPS and ftype not in ("string", "string_list"):
                self.diags.error(
                    src.loc(at + (op,)),
                    "E311",
                    f"{op!r} compares text but context field {name!r} is {ftype}",
                    "use 'equals' or 'truthy' for non-text fields",
                )
            if op in ("equals", "in") and ftype == "string_list":
                self.diags.error(
                    src.loc(at + (op,)),
                    "E311",
                    f"{op!r} compares a whole value, but context field {name!r} is a list",
                    "use 'contains' or 'ends_with' (true when any element matches), or 'truthy'",
                )
                continue
            values = pred["in"] if op == "in" else [pred[op]] if op == "equals" else []
            for value in values:
                base = ftype
                if value is not None and not _fits(value, base):
                    self.diags.error(
                        src.loc(at + (op,)),
                        "E311",
                        f"{value!r} can never equal context field {name!r} of type {ftype}",
                        f"compare with {_article(ftype)} {ftype} value",
                    )

    def check_text(self, src: SourceFile, node: Any, path: tuple[str | int, ...]) -> tuple[TextPiece, ...]:
        if node is None:
            return ()
        pieces = [{"text": node}] if isinstance(node, str) else node
        result = []
        for i, piece in enumerate(pieces):
            at = path if isinstance(node, str) else path + (i, "text")
            for name in PLACEHOLDER_RE.findall(piece["text"]):
                if name not in self.placeholders:
                    self.diags.error(
                        src.loc(at),
                        "E306",
                        f"unknown placeholder {{{{{name}}}}}",
                        suggest(name, self.placeholders) or "declare it under placeholders: in toolgen.yaml",
                    )
            odd = sorted({ch for ch in piece["text"] if _is_control(ch)})
            if odd:
                self.diags.warning(
                    src.loc(at),
                    "W305",
                    "text holds control characters " + ", ".join(f"U+{ord(ch):04X}" for ch in odd),
                    "remove them: models, terminals and XML readers handle them badly",
                )
            when = piece.get("when")
            if when is not None:
                self.check_predicate(src, when, path + (i, "when"))
            result.append(TextPiece(piece["text"], _freeze(when)))
        return tuple(result)

    # -- project -------------------------------------------------------------------------------

    def project(self) -> Project:
        src = self.project_src
        data = src.data
        context = []
        for name, spec in (data.get("context") or {}).items():
            if name in RESERVED_CONTEXT_NAMES:
                self.diags.error(
                    src.loc(("context", name), key=True),
                    "E303",
                    f"context field {name!r} would shadow a name the generated Context class uses",
                    f"rename the field (e.g. {name}_value); reserved: " + ", ".join(sorted(RESERVED_CONTEXT_NAMES)),
                )
            elif not CONTEXT_NAME_RE.fullmatch(name) or keyword.iskeyword(name):
                self.diags.error(
                    src.loc(("context", name), key=True),
                    "E303",
                    f"context field {name!r} cannot be a Context attribute",
                    "use lower_snake_case starting with a letter, at most 64 characters, not a Python keyword",
                )
            ftype = spec["type"]
            nullable = bool(spec.get("nullable", False))
            default = spec.get("default", [] if ftype == "string_list" else None)
            ok = (default is None and nullable) or (
                _fits(default, "array") and all(isinstance(x, str) for x in default)
                if ftype == "string_list"
                else default is not None and _fits(default, ftype)
            )
            if not ok:
                self.diags.error(
                    src.loc(("context", name, "default") if "default" in spec else ("context", name)),
                    "E311",
                    f"default {default!r} of context field {name!r} does not fit type {ftype}"
                    + ("" if nullable else " (not nullable)"),
                    "give a default of the declared type, or add 'nullable: true'",
                )
            context.append(ContextField(name, ftype, nullable, default, spec["doc"]))
        self._check_runtime_fields(src)
        self._check_provider_spelling(src, data)
        placeholders = []
        for name, spec in (data.get("placeholders") or {}).items():
            if spec["field"] not in self.context_types:
                self.diags.error(
                    src.loc(("placeholders", name, "field")),
                    "E305",
                    f"placeholder {name} reads unknown context field {spec['field']!r}",
                    suggest(spec["field"], self.context_types) or "declare the field under context:",
                )
            ftype = self.context_types.get(spec["field"])
            if ftype is not None:
                self._check_placeholder_values(src, name, spec, ftype)
            mapping = tuple((m["when"], m["text"]) for m in spec.get("map") or ())
            placeholders.append(Placeholder(name, spec["field"], spec["default"], mapping))
        self._unique(src, ("tools",), self.tool_ids, "tool id")
        self._unique(src, ("families",), self.family_enum, "family")
        self._check_idents(src, ("tools",), self.tool_ids)
        self._check_idents(src, ("families",), self.family_enum)
        selection = data.get("selection") or {}
        fallback = selection.get("fallback", "generic")
        precondition = selection.get("precondition")
        if precondition is not None:
            self.check_predicate(src, precondition, ("selection", "precondition"))
        self._check_model_predicates(src)
        routing = data.get("routing") or {"default": "openai-chat", "rules": []}
        formats = tuple(data["formats"]) if "formats" in data else FORMATS
        if not formats:
            self.diags.error(src.loc(("formats",)), "E311", "'formats' is empty", "list at least one format, or remove the key for all")
        rules = []
        for i, rule in enumerate(routing["rules"]):
            if rule.get("when") is not None:
                self.check_predicate(src, rule["when"], ("routing", "rules", i, "when"))
                for pred, at in walk_predicates(rule["when"], ("routing", "rules", i, "when")):
                    if "field" in pred and pred["field"] not in ROUTING_FIELDS:
                        self.diags.error(
                            src.loc(at + ("field",)),
                            "E305",
                            f"routing sees only {' and '.join(ROUTING_FIELDS)}, not {pred['field']!r}",
                            "route on the provider and model only; other settings belong in selection rules",
                        )
            rules.append(RoutingRule(tuple(rule["providers"]), rule["format"], _freeze(rule.get("when"))))
        targets = [(("routing", "default"), routing["default"])]
        targets += [(("routing", "rules", i, "format"), r["format"]) for i, r in enumerate(routing["rules"])]
        for at, target in targets:
            if formats and target not in formats:
                self.diags.error(
                    src.loc(at),
                    "E310",
                    f"routing sends requests to format {target!r}, which 'formats' leaves out",
                    f"add {target!r} to 'formats' or route to one of {', '.join(formats)}",
                )
        mcp = data.get("mcp") or {}
        sub = data.get("subagents") or {}
        if self.mcp_separator in sub.get("name_prefix", "use_subagent_"):
            self.diags.error(
                src.loc(("subagents", "name_prefix")),
                "E303",
                f"the subagent prefix contains the MCP separator {self.mcp_separator!r}",
                "dispatch would send every subagent call to the MCP handler: change one of them",
            )
        return Project(
            name=str(data.get("name", "")),
            formats=formats,
            tool_order=tuple(self.tool_ids),
            family_enum=tuple(self.family_enum),
            context=tuple(context),
            placeholders=tuple(placeholders),
            mcp_separator=mcp.get("separator", "__mcp__"),
            mcp_name_max_length=mcp.get("name_max_length", 64),
            subagent_prefix=sub.get("name_prefix", "use_subagent_"),
            subagent_max_length=sub.get("max_length", 64),
            fallback=fallback,
            precondition=_freeze(precondition),
            provider_sets=MappingProxyType({k: tuple(v) for k, v in self.provider_sets.items()}),
            model_sets=MappingProxyType({k: tuple(v) for k, v in self.model_sets.items()}),
            model_predicates=MappingProxyType({k: _freeze(v) for k, v in self.model_predicates.items()}),
            routing_default=routing["default"],
            routing_rules=tuple(rules),
            source=src.path,
        )

    def _check_runtime_fields(self, src: SourceFile) -> None:
        """Warn about context fields the runtime reads but the project leaves out (or types differently)."""
        for name, (ftype, without) in RUNTIME_FIELDS.items():
            declared = self.context_types.get(name)
            if declared is None:
                self.diags.warning(
                    src.loc(("context",), key=True),
                    "W306",
                    f"the context has no field {name!r}, which the generated runtime reads: {without}",
                    f"declare '{name}' (type: {ftype}) under context: in toolgen.yaml, or accept the above",
                )
            elif declared != ftype:
                self.diags.warning(
                    src.loc(("context", name, "type")),
                    "W306",
                    f"the generated runtime reads context field {name!r} as {_article(ftype)} {ftype}, not {declared}",
                    f"declare it with 'type: {ftype}'",
                )

    def _check_provider_spelling(self, src: SourceFile, data: dict[str, Any]) -> None:
        """Provider ids are compared after normalization (trim, lower case): others never match."""
        selection = data.get("selection") or {}
        lists = [(("selection", "provider_sets", name), ids) for name, ids in (selection.get("provider_sets") or {}).items()]
        rules = (data.get("routing") or {}).get("rules") or []
        lists += [(("routing", "rules", i, "providers"), rule["providers"]) for i, rule in enumerate(rules)]
        for path, ids in lists:
            for i, provider in enumerate(ids):
                if isinstance(provider, str) and normalize(provider) != provider:
                    self.diags.warning(
                        src.loc(path + (i,)),
                        "W307",
                        f"provider id {provider!r} can never match: contexts' provider ids are trimmed and lower-cased first",
                        f"write it as {normalize(provider)!r}",
                    )

    def _check_placeholder_values(self, src: SourceFile, name: str, spec: dict[str, Any], ftype: str) -> None:
        """A placeholder's default must be text or a scalar of its field's type; map keys must fit the field."""
        default = spec["default"]
        if not isinstance(default, str) and not (ftype != "string_list" and _fits(default, ftype)):
            self.diags.error(
                src.loc(("placeholders", name, "default")),
                "E311",
                f"default {default!r} of placeholder {name} is neither text nor {_article(ftype)} {ftype} value",
                "give the text to show when the field is null, e.g. default: \"\"",
            )
        base = "string" if ftype == "string_list" else ftype
        for i, entry in enumerate(spec.get("map") or ()):
            if not _fits(entry["when"], base):
                self.diags.error(
                    src.loc(("placeholders", name, "map", i, "when")),
                    "E311",
                    f"map value {entry['when']!r} can never equal field {spec['field']!r} of type {ftype}",
                    f"use {base} values in 'when'",
                )

    def _check_model_predicates(self, src: SourceFile) -> None:
        def visit(node: dict[str, Any], path: tuple[str | int, ...]) -> None:
            if "in_set" in node and node["in_set"] not in self.model_sets:
                self.diags.error(src.loc(path + ("in_set",)), "E313", f"unknown model set {node['in_set']!r}", "declare it under selection.model_sets")
            if "model_matches" in node and node["model_matches"] not in self.model_predicates:
                self.diags.error(src.loc(path + ("model_matches",)), "E313", f"unknown model predicate {node['model_matches']!r}", "declare it under selection.model_predicates")
            if "regex_first_match" in node:
                try:
                    compiled = re.compile(node["regex_first_match"]["pattern"])
                    if node["regex_first_match"]["group"] > compiled.groups:
                        self.diags.error(src.loc(path + ("regex_first_match", "group")), "E320", "regex group number is larger than the number of groups", "count the parentheses")
                except re.error as exc:
                    self.diags.error(src.loc(path + ("regex_first_match", "pattern")), "E320", f"invalid regular expression: {exc}", "fix the pattern")
            for key in ("any", "all"):
                for i, child in enumerate(node.get(key) or []):
                    visit(child, path + (key, i))

        for name, node in self.model_predicates.items():
            visit(node, ("selection", "model_predicates", name))
        # Cycles between named model predicates would loop forever at run time.
        def refs(node: dict[str, Any]) -> set[str]:
            found = {node["model_matches"]} if "model_matches" in node else set()
            for key in ("any", "all"):
                for child in node.get(key) or []:
                    found |= refs(child)
            return found

        graph = {name: refs(node) for name, node in self.model_predicates.items()}
        state: dict[str, int] = {}

        def dfs(name: str) -> bool:
            state[name] = 1
            for nxt in sorted(graph.get(name, ())):
                if state.get(nxt) == 1 or (state.get(nxt) is None and nxt in graph and dfs(nxt)):
                    return True
            state[name] = 2
            return False

        for name in graph:
            if state.get(name) is None and dfs(name):
                self.diags.error(src.loc(("selection", "model_predicates", name)), "E313", f"model predicate {name!r} refers to itself through model_matches", "break the cycle")

    def _unique(self, src: SourceFile, path: tuple[str | int, ...], names: list[str], what: str) -> None:
        seen: set[str] = set()
        for i, name in enumerate(names):
            if name in seen:
                self.diags.error(src.loc(path + (i,)), "E302", f"duplicate {what} {name!r}", "list each only once")
            seen.add(name)

    def _check_idents(self, src: SourceFile, path: tuple[str | int, ...], names: list[str]) -> None:
        members: dict[str, str] = {}
        for i, name in enumerate(names):
            member = member_name(name)
            if member in members and members[member] != name:
                self.diags.error(
                    src.loc(path + (i,)),
                    "E303",
                    f"{name!r} and {members[member]!r} both become the Python name {member}",
                    "rename one so they differ in more than '-' vs '_' or case",
                )
            members.setdefault(member, name)

    # -- families ------------------------------------------------------------------------------

    def families(self, project: Project) -> list[Family]:
        result = []
        orders: dict[int, str] = {}
        for src in self.family_srcs:
            data = src.data
            name = data["family"]
            stem = src.path.rsplit("/", 1)[-1].removesuffix(".yaml")
            if name != stem:
                self.diags.error(src.loc(("family",)), "E316", f"family {name!r} is in a file named {stem}.yaml", f"rename the file to {name}.yaml or the family to {stem!r}")
            if name not in self.family_enum:
                self.diags.error(src.loc(("family",)), "E310", f"family {name!r} is not listed under families: in toolgen.yaml", "add it there")
            seen: set[str] = set()
            for i, tool_id in enumerate(data["tools"]):
                if tool_id not in self.tool_ids:
                    self.diags.error(src.loc(("tools", i)), "E301", f"unknown tool id {tool_id!r}", suggest(tool_id, self.tool_ids) or "add specs/tools/<id>.yaml and list it under tools: in toolgen.yaml")
                elif tool_id in seen:
                    self.diags.warning(src.loc(("tools", i)), "W302", f"tool {tool_id!r} is listed twice; the second entry is dropped", "remove the duplicate")
                seen.add(tool_id)
            selection = data["selection"]
            order = selection["order"]
            if order in orders:
                self.diags.error(src.loc(("selection", "order")), "E315", f"selection order {order} is also used by family {orders[order]!r}", "give every family a distinct order")
            orders.setdefault(order, name)
            self.check_predicate(src, selection["rule"], ("selection", "rule"))
            labels = tuple((k, int(v)) for k, v in (data.get("labels") or {}).items())
            result.append(
                Family(name, data["description"], int(data.get("version", 1)), tuple(data.get("tags") or ()), labels,
                       tuple(data["tools"]), order, _freeze(selection["rule"]), src.path)
            )
        result.sort(key=lambda f: f.order)
        names = {f.name for f in result}
        if project.fallback not in names:
            self.diags.error(self.project_src.loc(("selection", "fallback")), "E310", f"fallback family {project.fallback!r} has no file specs/variants/{project.fallback}.yaml", suggest(project.fallback, names) or "add the family file")
        return result

    # -- tools ---------------------------------------------------------------------------------

    def tools(self) -> list[Tool]:
        by_id: dict[str, tuple[SourceFile, dict[str, Any]]] = {}
        for src in self.tool_srcs:
            data = src.data
            tool_id = data["id"]
            stem = src.path.rsplit("/", 1)[-1].removesuffix(".yaml")
            if tool_id != stem:
                self.diags.error(src.loc(("id",)), "E316", f"tool {tool_id!r} is in a file named {stem}.yaml", f"rename the file to {tool_id}.yaml")
            if tool_id in by_id:
                self.diags.error(src.loc(("id",)), "E302", f"duplicate tool id {tool_id!r} (also in {by_id[tool_id][0].path})", "keep one file per tool id")
                continue
            if tool_id not in self.tool_ids:
                self.diags.error(src.loc(("id",)), "E301", f"tool {tool_id!r} is not listed under tools: in toolgen.yaml", "add it there so it gets a place in the enum order")
            by_id[tool_id] = (src, data)
        for i, tool_id in enumerate(self.tool_ids):
            if tool_id not in by_id:
                self.diags.error(self.project_src.loc(("tools", i)), "E301", f"tool {tool_id!r} has no spec file", f"add specs/tools/{tool_id}.yaml")
        result = []
        for tool_id in self.tool_ids:
            if tool_id not in by_id:
                continue
            src, data = by_id[tool_id]
            result.append(Tool(tool_id, self._handler(src, data, by_id), self._variants(src, data), src.path))
        return result

    def _handler(self, src: SourceFile, data: dict[str, Any], by_id: dict[str, Any]) -> Handler:
        handler = data["handler"]
        if handler is None:
            return Handler("none")
        if "class" in handler:
            return Handler("class", handler["class"], bool(handler.get("validator", False)))
        target = handler["shares"]
        target_data = by_id.get(target, (None, {}))[1]
        target_handler = target_data.get("handler") if target_data else None
        if not target_data or not isinstance(target_handler, dict) or "class" not in target_handler:
            self.diags.error(
                src.loc(("handler", "shares")),
                "E309",
                f"handler shares {target!r}, which is not a tool with a handler class",
                suggest(target, by_id) or "name a tool whose handler has 'class:'",
            )
            return Handler("shares", None, False, target)
        return Handler("shares", target_handler["class"], bool(target_handler.get("validator", False)), target)

    def _variants(self, src: SourceFile, data: dict[str, Any]) -> tuple[ToolVariant, ...]:
        raw = data["variants"]
        built: dict[str, ToolVariant] = {}
        visiting: set[str] = set()

        def build(family: str) -> ToolVariant | None:
            if family in built:
                return built[family]
            if family in visiting:
                self.diags.error(src.loc(("variants", family, "extends")), "E314", f"variant {family!r} extends itself through a cycle", "break the extends chain")
                return None
            visiting.add(family)
            spec = raw[family]
            base = None
            if "extends" in spec:
                parent = spec["extends"]
                if parent not in raw:
                    self.diags.error(src.loc(("variants", family, "extends")), "E314", f"variant {family!r} extends {parent!r}, which this tool does not define", suggest(parent, raw) or "extend a variant defined in this file")
                else:
                    base = build(parent)
            visiting.discard(family)
            variant = self._variant(src, data["id"], family, spec, base)
            built[family] = variant
            return variant

        for family in raw:
            if family not in self.family_enum:
                self.diags.error(src.loc(("variants", family), key=True), "E310", f"unknown family {family!r}", suggest(family, self.family_enum) or "list it under families: in toolgen.yaml")
            build(family)
        return tuple(built[f] for f in raw if f in built)

    def _variant(self, src: SourceFile, tool_id: str, family: str, spec: dict[str, Any], base: ToolVariant | None) -> ToolVariant:
        at = ("variants", family)
        description = self.check_text(src, spec["description"], at + ("description",)) if "description" in spec else (base.description if base else ())
        requires = spec.get("requires", base.requires if base else None)
        if "requires" in spec:
            self.check_predicate(src, spec["requires"], at + ("requires",))
        if "parameters" in spec:
            params = tuple(self._parameter(src, p, at + ("parameters", i)) for i, p in enumerate(spec["parameters"]))
            seen: dict[str, int] = {}
            for i, p in enumerate(params):
                if p.name in seen:
                    self.diags.error(src.loc(at + ("parameters", i)), "E304", f"duplicate parameter {p.name!r} (also parameter {seen[p.name] + 1})", "rename or remove one")
                seen.setdefault(p.name, i)
        else:
            params = base.parameters if base else ()
        name = spec.get("name", base.name if base else tool_id)
        # An inherited name was checked on the variant that declares it: report it there only.
        if self.mcp_separator in name and ("name" in spec or base is None):
            self.diags.error(
                src.loc(at + ("name",) if "name" in spec else ("id",)),
                "E303",
                f"tool name {name!r} contains the MCP separator {self.mcp_separator!r}",
                "dispatch routes such names to the MCP handler: rename the tool or change mcp.separator",
            )
        # Duplicate parameter names are E304 already; their example cannot read back as declared.
        unique = len({p.name for p in params}) == len(params)
        if unique and ("parameters" in spec or ("name" in spec and params)):
            self._check_usage(src, name, params, spec, at)
        return ToolVariant(
            tool_id=tool_id,
            family=family,
            name=name,
            description=description,
            parameters=params,
            requires=_freeze(requires),
            strict=bool(spec.get("strict", base.strict if base else False)),
            extends=spec.get("extends"),
            location=src.loc(at, key=True),
        )

    def _check_usage(
        self, src: SourceFile, name: str, params: tuple[Parameter, ...], spec: dict[str, Any], at: tuple[str | int, ...]
    ) -> None:
        """The Usage example of the prompt must read back, through the shipped XML parser, as declared.

        A value holding its own closing tag (or, in a content parameter, the tool's) would end
        early, so the model would be shown one call and the parser would read another.
        """
        example = usage_example(name, [PromptParam(p.name, p.required, "", "", p.usage or "") for p in params])
        calls = parse_tool_calls(example, {name: [p.name for p in params]})
        got = dict(calls[0].params) if len(calls) == 1 and not calls[0].partial else {}
        wrong = [i for i, p in enumerate(params) if got.get(p.name) != (p.usage or "").strip(JS_WHITESPACE)]
        tagged = {i: self._tags_in_usage(name, params[i]) for i in wrong}
        # Report the examples holding tags (the causes), else the first value that reads wrong.
        for i in [i for i in wrong if tagged[i]] or wrong[:1]:
            value = got.get(params[i].name)
            why = f"it holds the tag {tagged[i][0]}" if tagged[i] else f"the example of tool {name!r} reads as other markup"
            self.diags.error(
                self._usage_location(src, spec, at, i),
                "E321",
                f"the usage example of parameter {params[i].name!r} reads back as "
                f"{'nothing' if value is None else repr(value)}: {why}",
                "remove the tag from the example: the XML parser ends the value (or the call) there,"
                " so the prompt would show a call other than the one declared",
            )

    @staticmethod
    def _tags_in_usage(name: str, param: Parameter) -> list[str]:
        usage = param.usage or ""
        return [t for t in (f"</{param.name}>", f"</{name}>", f"<{name}>") if t in usage]

    def _usage_location(self, src: SourceFile, spec: dict[str, Any], at: tuple[str | int, ...], i: int) -> Location:
        """Where parameter ``i``'s usage text is written: the variant, its parameter, or the shared definition."""
        if "parameters" not in spec:
            return src.loc(at + ("name",))
        raw = spec["parameters"][i]
        if "usage" not in raw and raw.get("use") in self.shared_params and self.shared_src is not None:
            return self.shared_src.loc(("parameters", raw["use"], "usage"))
        return src.loc(at + ("parameters", i, "usage"))

    def check_shared_parameters(self) -> None:
        """Check each shared parameter once, where it is defined (not at every 'use:')."""
        if self.shared_src is None:
            return
        for name, spec in self.shared_params.items():
            self._parameter(self.shared_src, {"name": name, **spec}, ("parameters", name))

    def _parameter(self, src: SourceFile, spec: dict[str, Any], at: tuple[str | int, ...]) -> Parameter:
        shared_name = spec.get("use")
        merged = dict(spec)
        if shared_name is not None:
            if shared_name not in self.shared_params:
                self.diags.error(src.loc(at + ("use",)), "E308", f"unknown shared parameter {shared_name!r}", suggest(shared_name, self.shared_params) or "define it in specs/parameters.yaml")
            else:
                overrides = {k: v for k, v in spec.items() if k != "use"}
                merged = {"name": shared_name, **self.shared_params[shared_name], **overrides}
                if not overrides:
                    # A plain 'use:' adds nothing to check: the definition was checked where it lives.
                    real, self.diags = self.diags, Diagnostics()
                    try:
                        return dataclasses.replace(self._parameter(src, merged, at), shared=shared_name)
                    finally:
                        self.diags = real
        name = merged.get("name", shared_name or "?")
        for i, dep in enumerate(merged.get("dependencies") or []):
            if dep not in self.tool_ids:
                self.diags.error(src.loc(at + ("dependencies", i)), "E307", f"parameter {name!r} depends on unknown tool id {dep!r}", suggest(dep, self.tool_ids) or "name a tool id listed in toolgen.yaml")
        if merged.get("requires") is not None:
            self.check_predicate(src, merged["requires"], at + ("requires",))
        instruction = self.check_text(src, merged.get("instruction"), at + ("instruction",))
        description = self.check_text(src, merged.get("description"), at + ("description",))
        schema = self._schema(src, merged, at, top=True)
        return Parameter(
            name=name,
            required=bool(merged.get("required", False)),
            instruction=instruction,
            description=description,
            usage=merged.get("usage"),
            schema=schema,
            dependencies=tuple(merged.get("dependencies") or ()),
            requires=_freeze(merged.get("requires")),
            shared=shared_name,
            location=src.loc(at),
        )

    def _schema(self, src: SourceFile, spec: dict[str, Any], at: tuple[str | int, ...], top: bool) -> MappingProxyType:
        """Canonical JSON-Schema keywords of a parameter or nested schema, in emission order."""
        type_name = spec.get("type", "string")
        out: dict[str, Any] = {"type": type_name}
        if spec.get("nullable"):
            out["nullable"] = True
        if not top and "description" in spec:
            out["description"] = spec["description"]
        for key in SCHEMA_KEYWORD_ORDER:
            source_key = "member_required" if (top and key == "required") else key
            if source_key not in spec:
                continue
            value = spec[source_key]
            if key == "items":
                if type_name != "array":
                    self.diags.error(src.loc(at + ("items",), key=True), "E311", f"'items' needs type array, not {type_name}", "set 'type: array' or remove 'items'")
                value = self._schema(src, value, at + ("items",), top=False)
            elif key == "properties":
                if type_name != "object":
                    self.diags.error(src.loc(at + ("properties",), key=True), "E311", f"'properties' needs type object, not {type_name}", "set 'type: object' or remove 'properties'")
                value = MappingProxyType({n: self._schema(src, s, at + ("properties", n), top=False) for n, s in value.items()})
            elif key == "required":
                members = spec.get("properties") or {}
                for i, member in enumerate(value):
                    if member not in members:
                        self.diags.error(src.loc(at + (source_key, i)), "E311", f"required member {member!r} is not among the properties", suggest(member, members) or "add it under properties:")
                value = tuple(value)
            elif key == "enum":
                for i, item in enumerate(value):
                    if not (item is None and spec.get("nullable")) and not _fits(item, type_name):
                        self.diags.error(src.loc(at + ("enum", i)), "E311", f"enum value {item!r} does not fit type {type_name}", f"use {type_name} values or change the type")
                value = tuple(value)
            elif key == "default" and not (value is None and spec.get("nullable")) and not _fits(value, type_name):
                self.diags.error(src.loc(at + ("default",)), "E311", f"default {value!r} does not fit type {type_name}", f"give {_article(type_name)} {type_name} default")
            elif key == "pattern":
                try:
                    re.compile(value)
                except re.error as exc:
                    self.diags.error(src.loc(at + ("pattern",)), "E320", f"invalid regular expression: {exc}", "fix the pattern")
            elif key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum") and type_name not in ("integer", "number"):
                self.diags.error(src.loc(at + (key,), key=True), "E311", f"{key!r} needs a numeric type, not {type_name}", "set 'type: integer' or 'type: number'")
            elif key in ("minLength", "maxLength", "pattern", "format") and type_name != "string":
                self.diags.error(src.loc(at + (key,), key=True), "E311", f"{key!r} needs type string, not {type_name}", "remove it or change the type")
            out[key] = value
        return MappingProxyType(out)

    def catalog(self) -> Catalog | None:
        sources = [self.project_src, *self.tool_srcs, *self.family_srcs]
        for src in sources + ([self.shared_src] if self.shared_src else []):
            for at in _non_finite(src.data, ()):
                self.diags.error(src.loc(at), "E311", "NaN and infinite numbers are not allowed", "use a finite number or leave the keyword out")
        if self.diags.has_errors:
            return None
        project = self.project()
        families = self.families(project)
        self.check_shared_parameters()
        tools = self.tools()
        with_variants = {t.id for t in tools if t.variants}
        family_files = {src.path: src for src in self.family_srcs}
        for family in families:
            src = family_files[family.source]
            if not family.tools:
                self.diags.warning(src.loc(("tools",)), "W303", f"family {family.name!r} lists no tools", "list the tool ids it offers")
            for i, tool_id in enumerate(family.tools):
                if tool_id in self.tool_ids and tool_id not in with_variants:
                    self.diags.warning(
                        src.loc(("tools", i)),
                        "W304",
                        f"tool {tool_id!r} has no spec variant, so family {family.name!r} cannot offer it",
                        "add a variant to its tool file, or remove it from this list",
                    )
        sources = tuple(sorted({project.source, *(t.source for t in tools), *(f.source for f in families)} | ({self.shared_src.path} if self.shared_src else set())))
        if self.diags.has_errors:
            return None
        return Catalog(project, tuple(tools), tuple(families), sources)


def _freeze(value: Any) -> Any:
    """Read-only deep copy of predicate data (mappings become MappingProxyType, lists tuples)."""
    if isinstance(value, dict):
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


def build_catalog(
    project: SourceFile,
    shared: SourceFile | None,
    tools: list[SourceFile],
    families: list[SourceFile],
    diags: Diagnostics,
) -> Catalog | None:
    """Check references across files and build the model; None when any error was found."""
    return _Builder(project, shared, tools, families, diags).catalog()
