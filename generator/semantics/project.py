"""toolgen.yaml: context fields, placeholders, the tool and family lists, selection and routing.

These become the Project of the model; everything else the package checks refers back to them.
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Sequence
from types import MappingProxyType
from typing import Any

from ..load import PathKey, SourceFile
from ..model import FORMATS, ContextField, Placeholder, Project, RoutingRule
from ..runtime.predicates import normalize
from ..validate import suggest, walk_predicates
from .common import Scope, article, fits, freeze, member_name
from .predicates import check_model_predicates, check_predicate

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
ROUTING_FIELDS = ("provider_id", "model_id")


def build_project(scope: Scope) -> Project:
    """The Project of the model, reporting what is wrong in toolgen.yaml on the way."""
    src = scope.project_src
    data = src.data
    context = [_context_field(scope, src, name, spec) for name, spec in (data.get("context") or {}).items()]
    _check_runtime_fields(scope, src)
    _check_provider_spelling(scope, src, data)
    placeholders = [_placeholder(scope, src, name, spec) for name, spec in (data.get("placeholders") or {}).items()]
    _check_names(scope, src, ("tools",), scope.tool_ids, "tool id")
    _check_names(scope, src, ("families",), scope.family_enum, "family")
    _check_members(scope, src, ("tools",), scope.tool_ids)
    _check_members(scope, src, ("families",), scope.family_enum)
    selection = data.get("selection") or {}
    precondition = selection.get("precondition")
    if precondition is not None:
        check_predicate(scope, src, precondition, ("selection", "precondition"))
    check_model_predicates(scope, src)
    routing = data.get("routing") or {"default": "openai-chat", "rules": []}
    formats = tuple(data["formats"]) if "formats" in data else FORMATS
    if not formats:
        scope.diags.error(
            src.loc(("formats",)), "E311", "'formats' is empty", "list at least one format, or remove the key for all"
        )
    rules = _routing_rules(scope, src, routing, formats)
    mcp = data.get("mcp") or {}
    sub = data.get("subagents") or {}
    _check_subagent_prefix(scope, src, sub.get("name_prefix", "use_subagent_"))
    npm = data.get("npm") or {}
    return Project(
        name=str(data.get("name", "")),
        npm_name=npm.get("name") or npm_name(str(data.get("name", ""))),
        npm_version=npm.get("version", DEFAULT_NPM_VERSION),
        formats=formats,
        tool_order=scope.tool_ids,
        family_enum=scope.family_enum,
        context=tuple(context),
        placeholders=tuple(placeholders),
        mcp_separator=mcp.get("separator", "__mcp__"),
        mcp_name_max_length=mcp.get("name_max_length", 64),
        subagent_prefix=sub.get("name_prefix", "use_subagent_"),
        subagent_max_length=sub.get("max_length", 64),
        fallback=selection.get("fallback", "generic"),
        precondition=freeze(precondition),
        provider_sets=MappingProxyType({k: tuple(v) for k, v in scope.provider_sets.items()}),
        model_sets=MappingProxyType({k: tuple(v) for k, v in scope.model_sets.items()}),
        model_predicates=MappingProxyType({k: freeze(v) for k, v in scope.model_predicates.items()}),
        routing_default=routing["default"],
        routing_rules=rules,
        source=src.path,
    )


DEFAULT_NPM_VERSION = "0.0.0"
_NOT_NPM = re.compile(r"[^a-z0-9._~-]+")


def npm_name(name: str) -> str:
    """The npm name a project gets when toolgen.yaml's ``npm.name`` is absent: its ``name`` lower-cased,
    runs of characters npm does not take as one '-', no leading '.', '_', '~' or '-' (npm refuses
    those), at most 214 characters; "toolgen-package" when nothing is left."""
    cleaned = _NOT_NPM.sub("-", name.lower()).lstrip("._~-")[:214].rstrip("-")
    return cleaned or "toolgen-package"


# What a sanitized subagent name can be (runtime/subagents.py): it never starts with "_".
_SUBAGENT_NAME = re.compile(r"[a-z0-9][a-z0-9_]*")


def _check_subagent_prefix(scope: Scope, src: SourceFile, prefix: Any) -> None:
    """E303 when the MCP separator can appear in a subagent tool name: inside the prefix, or
    begun at its end (``run0mcp`` + ``0abc`` holds ``0mcp0``) and finished by some name."""
    separator = scope.mcp_separator
    if not isinstance(prefix, str) or not separator:
        return
    if separator in prefix:
        problem = f"the subagent prefix contains the MCP separator {separator!r}"
    else:
        starts = [
            separator[:k]
            for k in range(1, len(separator))
            if prefix.endswith(separator[:k]) and _SUBAGENT_NAME.fullmatch(separator[k:])
        ]
        if not starts:
            return
        problem = (
            f"the subagent prefix ends with {starts[-1]!r}, the start of the MCP separator "
            f"{separator!r}, so a subagent named {separator[len(starts[-1]) :]!r}... would hold it"
        )
    scope.diags.error(
        src.loc(("subagents", "name_prefix")),
        "E303",
        problem,
        "dispatch would send such subagent calls to the MCP handler: change the prefix or the separator",
    )


def _context_field(scope: Scope, src: SourceFile, name: str, spec: dict[str, Any]) -> ContextField:
    """A context field: a name the generated Context class can hold, and a default of its type."""
    if name in RESERVED_CONTEXT_NAMES:
        scope.diags.error(
            src.loc(("context", name), key=True),
            "E303",
            f"context field {name!r} would shadow a name the generated Context class uses",
            f"rename the field (e.g. {name}_value); reserved: " + ", ".join(sorted(RESERVED_CONTEXT_NAMES)),
        )
    elif not CONTEXT_NAME_RE.fullmatch(name) or keyword.iskeyword(name):
        scope.diags.error(
            src.loc(("context", name), key=True),
            "E303",
            f"context field {name!r} cannot be a Context attribute",
            "use lower_snake_case starting with a letter, at most 64 characters, not a Python keyword",
        )
    ftype = spec["type"]
    nullable = bool(spec.get("nullable", False))
    default: Any = spec.get("default", [] if ftype == "string_list" else None)
    ok = (default is None and nullable) or (
        fits(default, "array") and all(isinstance(x, str) for x in default)
        if ftype == "string_list"
        else default is not None and fits(default, ftype)
    )
    if not ok:
        scope.diags.error(
            src.loc(("context", name, "default") if "default" in spec else ("context", name)),
            "E311",
            f"default {default!r} of context field {name!r} does not fit type {ftype}"
            + ("" if nullable else " (not nullable)"),
            "give a default of the declared type, or add 'nullable: true'",
        )
    return ContextField(name, ftype, nullable, default, spec["doc"])


def _check_runtime_fields(scope: Scope, src: SourceFile) -> None:
    """Warn about context fields the runtime reads but the project leaves out (or types differently)."""
    for name, (ftype, without) in RUNTIME_FIELDS.items():
        declared = scope.context_types.get(name)
        if declared is None:
            scope.diags.warning(
                src.loc(("context",), key=True),
                "W306",
                f"the context has no field {name!r}, which the generated runtime reads: {without}",
                f"declare '{name}' (type: {ftype}) under context: in toolgen.yaml, or accept the above",
            )
        elif declared != ftype:
            scope.diags.warning(
                src.loc(("context", name, "type")),
                "W306",
                f"the generated runtime reads context field {name!r} as {article(ftype)} {ftype}, not {declared}",
                f"declare it with 'type: {ftype}'",
            )


def _check_provider_spelling(scope: Scope, src: SourceFile, data: dict[str, Any]) -> None:
    """Provider ids are compared after normalization (trim, lower case): others never match."""
    selection = data.get("selection") or {}
    lists: list[tuple[PathKey, Any]] = [
        (("selection", "provider_sets", name), ids) for name, ids in (selection.get("provider_sets") or {}).items()
    ]
    rules = (data.get("routing") or {}).get("rules") or []
    lists += [(("routing", "rules", i, "providers"), rule["providers"]) for i, rule in enumerate(rules)]
    for path, ids in lists:
        for i, provider in enumerate(ids):
            if isinstance(provider, str) and normalize(provider) != provider:
                scope.diags.warning(
                    src.loc(path + (i,)),
                    "W307",
                    f"provider id {provider!r} can never match:"
                    " contexts' provider ids are trimmed and lower-cased first",
                    f"write it as {normalize(provider)!r}",
                )


def _placeholder(scope: Scope, src: SourceFile, name: str, spec: dict[str, Any]) -> Placeholder:
    """A placeholder reads a declared field; its default and map keys must fit that field's type."""
    field = spec["field"]
    ftype = scope.context_types.get(field)
    if ftype is None:
        scope.diags.error(
            src.loc(("placeholders", name, "field")),
            "E305",
            f"placeholder {name} reads unknown context field {field!r}",
            suggest(field, scope.context_types) or "declare the field under context:",
        )
    else:
        _check_placeholder_values(scope, src, name, spec, ftype)
    mapping = tuple((m["when"], m["text"]) for m in spec.get("map") or ())
    return Placeholder(name, field, spec["default"], mapping)


def _check_placeholder_values(scope: Scope, src: SourceFile, name: str, spec: dict[str, Any], ftype: str) -> None:
    """A placeholder's default must be text or a scalar of its field's type; map keys must fit the field."""
    default = spec["default"]
    if not isinstance(default, str) and not (ftype != "string_list" and fits(default, ftype)):
        scope.diags.error(
            src.loc(("placeholders", name, "default")),
            "E311",
            f"default {default!r} of placeholder {name} is neither text nor {article(ftype)} {ftype} value",
            'give the text to show when the field is null, e.g. default: ""',
        )
    base = "string" if ftype == "string_list" else ftype
    for i, entry in enumerate(spec.get("map") or ()):
        if not fits(entry["when"], base):
            scope.diags.error(
                src.loc(("placeholders", name, "map", i, "when")),
                "E311",
                f"map value {entry['when']!r} can never equal field {spec['field']!r} of type {ftype}",
                f"use {base} values in 'when'",
            )


def _check_names(scope: Scope, src: SourceFile, path: PathKey, names: Sequence[str], what: str) -> None:
    """Each tool id or family listed once."""
    seen: set[str] = set()
    for i, name in enumerate(names):
        if name in seen:
            scope.diags.error(src.loc(path + (i,)), "E302", f"duplicate {what} {name!r}", "list each only once")
        seen.add(name)


def _check_members(scope: Scope, src: SourceFile, path: PathKey, names: Sequence[str]) -> None:
    """No two names that become the same Python enum member."""
    members: dict[str, str] = {}
    for i, name in enumerate(names):
        member = member_name(name)
        if member in members and members[member] != name:
            scope.diags.error(
                src.loc(path + (i,)),
                "E303",
                f"{name!r} and {members[member]!r} both become the Python name {member}",
                "rename one so they differ in more than '-' vs '_' or case",
            )
        members.setdefault(member, name)


def _routing_rules(
    scope: Scope, src: SourceFile, routing: dict[str, Any], formats: tuple[str, ...]
) -> tuple[RoutingRule, ...]:
    """Routing rules test only the provider and model, and send requests to formats the project emits."""
    rules = []
    for i, rule in enumerate(routing["rules"]):
        if rule.get("when") is not None:
            check_predicate(scope, src, rule["when"], ("routing", "rules", i, "when"))
            for pred, at in walk_predicates(rule["when"], ("routing", "rules", i, "when")):
                if "field" in pred and pred["field"] not in ROUTING_FIELDS:
                    scope.diags.error(
                        src.loc(at + ("field",)),
                        "E305",
                        f"routing sees only {' and '.join(ROUTING_FIELDS)}, not {pred['field']!r}",
                        "route on the provider and model only; other settings belong in selection rules",
                    )
        rules.append(RoutingRule(tuple(rule["providers"]), rule["format"], freeze(rule.get("when"))))
    targets: list[tuple[PathKey, Any]] = [(("routing", "default"), routing["default"])]
    targets += [(("routing", "rules", i, "format"), r["format"]) for i, r in enumerate(routing["rules"])]
    for at, target in targets:
        if formats and target not in formats:
            scope.diags.error(
                src.loc(at),
                "E310",
                f"routing sends requests to format {target!r}, which 'formats' leaves out",
                f"add {target!r} to 'formats' or route to one of {', '.join(formats)}",
            )
    return tuple(rules)
