"""What a change of each field of the spec language means to ``toolgen breaking``.

Every field the meta-schemas (generator/schemas/) let a spec file hold is a *place*, named by its
file and key path (``toolgen.yaml:mcp.separator``, ``tools/<tool>.yaml:handler.class``); a shared
definition (``<predicate>``, ``<parameter>``) is one place for all its uses. Each place has a
``Decision``: the rules a change there can raise, and what the change means to a model, to a
host's code and to the wire, or why it is not compared. tests/test_breaking_fields.py fails
when the meta-schemas hold a place with no decision or a decision names a place that is gone;
docs/breaking.md's field table is ``table()`` (tools/make_breaking_fields.py writes it).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from .rules import RULES


@dataclass(frozen=True)
class Decision:
    rules: tuple[str, ...]
    """The rules a change here can raise; empty when it is not compared."""
    meaning: str


_ROOTS = (
    ("project.schema.json", "toolgen.yaml"),
    ("tool.schema.json", "tools/<tool>.yaml"),
    ("family.schema.json", "variants/<family>.yaml"),
    ("parameters.schema.json", "parameters.yaml"),
)


def places() -> list[str]:
    """Every place of the meta-schemas, in document order, each once."""
    folder = resources.files("generator").joinpath("schemas")
    docs = {name: json.loads(folder.joinpath(name).read_text("utf-8")) for name, _ in _ROOTS}
    docs["common.schema.json"] = json.loads(folder.joinpath("common.schema.json").read_text("utf-8"))
    found: dict[str, None] = {}
    walked: set[tuple[str, str]] = set()

    def walk(doc: str, node: Any, prefix: str) -> None:
        if not isinstance(node, Mapping):
            return
        ref = node.get("$ref")
        if isinstance(ref, str):
            file, _, fragment = ref.partition("#")
            file = file or doc
            name = fragment.rsplit("/", 1)[-1]
            if (file, name) not in walked:  # a definition is one place however often it is used
                walked.add((file, name))
                walk(file, docs[file]["definitions"][name], f"<{name}>")
        for key in ("oneOf", "anyOf", "allOf"):
            for branch in node.get(key, ()):
                walk(doc, branch, prefix)
        for key in ("then", "else"):
            walk(doc, node.get(key), prefix)
        for name, sub in node.get("properties", {}).items():
            place = f"{prefix}{'' if prefix.endswith(':') else '.'}{name}"
            found[place] = None
            walk(doc, sub, place)
        others = [*node.get("patternProperties", {}).values(), node.get("additionalProperties")]
        for sub in others:
            if isinstance(sub, Mapping):
                found[f"{prefix}.<name>"] = None
                walk(doc, sub, f"{prefix}.<name>")
        walk(doc, node.get("items"), f"{prefix}[]")

    for name, label in _ROOTS:
        walk(name, docs[name], f"{label}:")
    return list(found)


# ---- the decisions -------------------------------------------------------------------------

_NONE = ()
_SCHEMA = ("TYPE_CHANGED", "TYPE_WIDENED")
_BOUND = ("BOUND_TIGHTENED", "BOUND_LOOSENED")
_TEXT = ("DESCRIPTION_CHANGED",)
_REQUIRES = ("REQUIREMENT_ADDED", "REQUIREMENT_REMOVED")
_SELECTION = ("FAMILY_SELECTION_CHANGED",)
_ROUTING = ("ROUTING_CHANGED",)

# JSON Schema keywords, wherever a parameter's schema holds them (<schema>, <schemaKeywords>,
# <parameter>): compared on the schema each format sends (schemadiff.py).
KEYWORDS: dict[str, Decision] = {
    "type": Decision(_SCHEMA, "narrowed: calls that passed are refused; widened: information"),
    "nullable": Decision(_SCHEMA, "null no longer accepted narrows; accepted widens"),
    "enum": Decision(("ENUM_VALUE_REMOVED", "ENUM_VALUE_ADDED"), "values removed break callers that send them"),
    "const": Decision(("ENUM_VALUE_REMOVED", "ENUM_VALUE_ADDED"), "a one-value enum"),
    "format": Decision(("PATTERN_CHANGED",), "a new or other format can refuse values that passed"),
    "pattern": Decision(("PATTERN_CHANGED",), "a new or other pattern can refuse values that passed"),
    "multipleOf": Decision(_BOUND, "a new or coarser step refuses values"),
    "uniqueItems": Decision(_BOUND, "turned on, arrays with repeats are refused"),
    "items": Decision(_BOUND + _SCHEMA, "the item schema is compared like a parameter's (name[])"),
    "properties": Decision(
        ("PARAMETER_REMOVED", "PARAMETER_ADDED", "PARAMETER_REQUIRED_ADDED", "PARAMETER_RENAMED"),
        "members are compared like parameters (name.member)",
    ),
    "required": Decision(("PARAMETER_MADE_REQUIRED", "PARAMETER_MADE_OPTIONAL"), "members newly required break"),
    "additionalProperties": Decision(_BOUND + _SCHEMA, "closing an object, or narrowing its other members, breaks"),
    "default": Decision(("DEFAULT_CHANGED",), "what a model leaving the value out gets"),
    "description": Decision(_TEXT, "prose a model reads"),
    "anyOf": Decision(_SCHEMA, "branches that go away narrow, new ones widen"),
    "oneOf": Decision(_SCHEMA, "branches that go away narrow, new ones widen"),
    "allOf": Decision(_SCHEMA, "branches that come narrow, ones that go widen"),
}
for _bound in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength"):
    KEYWORDS[_bound] = Decision(_BOUND, "stricter refuses values that passed; looser is information")
for _bound in ("minItems", "maxItems", "minProperties", "maxProperties"):
    KEYWORDS[_bound] = Decision(_BOUND, "stricter refuses values that passed; looser is information")

_PREDICATE = Decision(
    _REQUIRES + _SELECTION + _ROUTING,
    "a predicate is compared whole where it is used: a requirement, a selection rule, a routing rule",
)
_MODEL_PREDICATE = Decision(_SELECTION, "compared on the grid of contexts the selection sees (selection.py)")

DECISIONS: dict[str, Decision] = {
    # toolgen.yaml
    "toolgen.yaml:toolgen": Decision(_NONE, "the spec language version: a load error if unknown, nothing sent"),
    "toolgen.yaml:name": Decision(("NPM_PACKAGE_RENAMED",), "names the npm package when npm.name is absent"),
    "toolgen.yaml:outputs": Decision(_NONE, "where files are written: nothing a model, host or wire sees"),
    "toolgen.yaml:outputs.python": Decision(_NONE, "a folder of this repository"),
    "toolgen.yaml:outputs.docs": Decision(_NONE, "a file of this repository"),
    "toolgen.yaml:outputs.typescript": Decision(_NONE, "a folder of this repository"),
    "toolgen.yaml:outputs.outside_project": Decision(_NONE, "what may be written outside the project (E134)"),
    "toolgen.yaml:npm": Decision(("NPM_PACKAGE_RENAMED",), "see its members"),
    "toolgen.yaml:npm.name": Decision(("NPM_PACKAGE_RENAMED",), "hosts import the TypeScript package by it"),
    "toolgen.yaml:npm.version": Decision(_NONE, "a release number: what changed is what the other rules report"),
    "toolgen.yaml:formats": Decision(("FORMAT_REMOVED",), "a format no longer generated breaks its users"),
    "toolgen.yaml:tools": Decision(
        ("TOOL_REMOVED", "TOOL_RENAMED", "TOOL_ADDED"), "the ToolId enum: ids gone break host code"
    ),
    "toolgen.yaml:families": Decision(
        ("FAMILY_REMOVED", "FAMILY_ADDED"), "the Family enum: names gone break host code"
    ),
    "toolgen.yaml:context": Decision(("CONTEXT_FIELD_REMOVED", "CONTEXT_FIELD_ADDED"), "see its members"),
    "toolgen.yaml:context.<name>": Decision(
        ("CONTEXT_FIELD_REMOVED", "CONTEXT_FIELD_ADDED"), "a field gone breaks callers that pass it"
    ),
    "toolgen.yaml:context.<name>.type": Decision(("CONTEXT_FIELD_TYPE_CHANGED",), "callers pass the old type"),
    "toolgen.yaml:context.<name>.nullable": Decision(
        ("CONTEXT_FIELD_TYPE_CHANGED", "TYPE_WIDENED"), "no longer nullable breaks callers passing None"
    ),
    "toolgen.yaml:context.<name>.default": Decision(("DEFAULT_CHANGED",), "what callers that leave it out get"),
    "toolgen.yaml:context.<name>.doc": Decision(_NONE, "documentation of the generated Context only"),
    "toolgen.yaml:placeholders": Decision(("PLACEHOLDER_CHANGED",), "see its members"),
    "toolgen.yaml:placeholders.<name>": Decision(("PLACEHOLDER_CHANGED",), "the text of every tool using it"),
    "toolgen.yaml:placeholders.<name>.field": Decision(("PLACEHOLDER_CHANGED",), "where the text comes from"),
    "toolgen.yaml:placeholders.<name>.default": Decision(("PLACEHOLDER_CHANGED",), "the text without the field"),
    "toolgen.yaml:placeholders.<name>.map": Decision(("PLACEHOLDER_CHANGED",), "the texts per field value"),
    "toolgen.yaml:placeholders.<name>.map[].when": Decision(("PLACEHOLDER_CHANGED",), "which text a value picks"),
    "toolgen.yaml:placeholders.<name>.map[].text": Decision(("PLACEHOLDER_CHANGED",), "the text a model reads"),
    "toolgen.yaml:mcp": Decision(("MCP_SEPARATOR_CHANGED",), "see its members"),
    "toolgen.yaml:mcp.separator": Decision(("MCP_SEPARATOR_CHANGED",), "renames every MCP tool on the wire"),
    "toolgen.yaml:mcp.name_max_length": Decision(
        ("MCP_NAME_LIMIT_LOWERED", "MCP_NAME_LIMIT_RAISED"), "lowered, tools with long names leave the lists"
    ),
    "toolgen.yaml:subagents": Decision(("SUBAGENT_NAMES_CHANGED",), "see its members"),
    "toolgen.yaml:subagents.name_prefix": Decision(("SUBAGENT_NAMES_CHANGED",), "renames every subagent tool"),
    "toolgen.yaml:subagents.max_length": Decision(("SUBAGENT_NAMES_CHANGED",), "cuts subagent tool names"),
    "toolgen.yaml:selection": Decision(_SELECTION, "see its members"),
    "toolgen.yaml:selection.fallback": Decision(_SELECTION, "the family of contexts no rule selects"),
    "toolgen.yaml:selection.precondition": Decision(_SELECTION, "contexts failing it get the fallback"),
    "toolgen.yaml:selection.provider_sets": Decision(_SELECTION, "named sets the predicates test"),
    "toolgen.yaml:selection.provider_sets.<name>": Decision(_SELECTION, "compared on the grid of contexts"),
    "toolgen.yaml:selection.model_sets": Decision(_SELECTION, "named sets the predicates test"),
    "toolgen.yaml:selection.model_sets.<name>": Decision(_SELECTION, "compared on the grid of contexts"),
    "toolgen.yaml:selection.model_predicates": Decision(_SELECTION, "named predicates the rules use"),
    "toolgen.yaml:selection.model_predicates.<name>": Decision(_SELECTION, "compared on the grid of contexts"),
    "toolgen.yaml:breaking": Decision(_NONE, "this command's own policy"),
    "toolgen.yaml:breaking.exceptions": Decision(_NONE, "accepted changes: they mark findings, never add any"),
    "toolgen.yaml:breaking.exceptions[].rule": Decision(_NONE, "policy"),
    "toolgen.yaml:breaking.exceptions[].tool": Decision(_NONE, "policy"),
    "toolgen.yaml:breaking.exceptions[].reason": Decision(_NONE, "policy"),
    "toolgen.yaml:breaking.exceptions[].parameter": Decision(_NONE, "policy"),
    "toolgen.yaml:breaking.exceptions[].family": Decision(_NONE, "policy"),
    "toolgen.yaml:breaking.exceptions[].format": Decision(_NONE, "policy"),
    "toolgen.yaml:breaking.protect": Decision(_NONE, "policy: which audience's rules are on"),
    "toolgen.yaml:breaking.levels": Decision(_NONE, "policy: the level of each rule"),
    "toolgen.yaml:breaking.levels.<name>": Decision(_NONE, "policy"),
    "toolgen.yaml:routing": Decision(_ROUTING, "see its members"),
    "toolgen.yaml:routing.default": Decision(_ROUTING, "the format of providers no rule names"),
    "toolgen.yaml:routing.rules": Decision(_ROUTING, "compared on the grid of contexts"),
    "toolgen.yaml:routing.rules[].providers": Decision(_ROUTING, "compared on the grid of contexts"),
    "toolgen.yaml:routing.rules[].when": Decision(_ROUTING, "compared on the grid of contexts"),
    "toolgen.yaml:routing.rules[].format": Decision(_ROUTING, "compared on the grid of contexts"),
    # tools/<tool>.yaml
    "tools/<tool>.yaml:id": Decision(("TOOL_REMOVED", "TOOL_RENAMED", "TOOL_ADDED"), "the tool's id in host code"),
    "tools/<tool>.yaml:handler": Decision(
        ("HANDLER_CHANGED", "HANDLER_REMOVED", "HANDLER_ADDED", "HANDLER_CLASS_ADDED"), "see its members"
    ),
    "tools/<tool>.yaml:handler.class": Decision(
        ("HANDLER_CHANGED", "HANDLER_CLASS_ADDED"), "the class a host's namespace must provide"
    ),
    "tools/<tool>.yaml:handler.validator": Decision(("HANDLER_CHANGED",), "the handler's own check changes"),
    "tools/<tool>.yaml:handler.shares": Decision(("HANDLER_CHANGED",), "another tool's handler runs the calls"),
    "tools/<tool>.yaml:deprecated": Decision(
        ("DEPRECATED", "TOOL_REMOVED"), "announced: its removal is information from the removal date on"
    ),
    "<deprecation>.note": Decision(("DEPRECATED", "DESCRIPTION_CHANGED"), "the sentence the model reads"),
    "<deprecation>.removal": Decision(_NONE, "when removing it stops being a break"),
    "tools/<tool>.yaml:renamed_from": Decision(
        ("TOOL_RENAMED",), "declares a rename: the old and new ids are paired even when the shape changed"
    ),
    "tools/<tool>.yaml:label": Decision(_NONE, "a log label for people; never sent, never in host types"),
    "tools/<tool>.yaml:variants": Decision(("TOOL_REMOVED_FROM_FAMILY", "TOOL_ADDED"), "see its members"),
    "tools/<tool>.yaml:variants.<name>": Decision(
        ("TOOL_REMOVED_FROM_FAMILY", "TOOL_ADDED"), "the tool as one family sends it, compared resolved"
    ),
    "<variant>.extends": Decision(_NONE, "spelling only: the resolved variant is compared"),
    "<variant>.name": Decision(("TOOL_RENAMED",), "the name models call"),
    "<variant>.description": Decision(_TEXT, "prose a model reads"),
    "<variant>.requires": Decision(_REQUIRES, "contexts where the tool is offered"),
    "<variant>.strict": Decision(("STRICT_CHANGED",), "OpenAI strict mode rewrites the schema sent"),
    "<variant>.parameters": Decision(
        ("PARAMETER_REMOVED", "PARAMETER_ADDED", "PARAMETER_REQUIRED_ADDED", "PARAMETER_RENAMED"),
        "each parameter compared resolved",
    ),
    "<text>[].text": Decision(_TEXT, "prose a model reads"),
    "<text>[].when": Decision(_TEXT, "which prose a context gets"),
    # a parameter (inline, or shared in parameters.yaml)
    "<schemaKeywords>.properties.<name>": Decision(
        ("PARAMETER_REMOVED", "PARAMETER_ADDED", "PARAMETER_REQUIRED_ADDED", "PARAMETER_RENAMED"),
        "an object member, compared like a parameter (name.member)",
    ),
    "<parameter>.name": Decision(("PARAMETER_RENAMED", "PARAMETER_REMOVED"), "the argument name"),
    "<parameter>.deprecated": Decision(
        ("DEPRECATED", "PARAMETER_REMOVED"), "announced: its removal is information from the removal date on"
    ),
    "<parameter>.deprecated_values": Decision(
        ("DEPRECATED", "ENUM_VALUE_REMOVED"), "announced: their removal is information from the removal date on"
    ),
    "<parameterFields>.deprecated_values[].value": Decision(("DEPRECATED",), "the enum value announced"),
    "<parameterFields>.deprecated_values[].note": Decision(("DEPRECATED", "DESCRIPTION_CHANGED"), "the model reads it"),
    "<parameterFields>.deprecated_values[].removal": Decision(_NONE, "when removing it stops being a break"),
    "<parameter>.renamed_from": Decision(
        ("PARAMETER_RENAMED",), "declares a rename: the pair is compared, type changes included"
    ),
    "<parameter>.use": Decision(_NONE, "spelling only: the resolved parameter is compared"),
    "<parameter>.required": Decision(("PARAMETER_MADE_REQUIRED", "PARAMETER_MADE_OPTIONAL"), "made required breaks"),
    "<parameter>.instruction": Decision(_TEXT, "prose a model reads"),
    "<parameter>.usage": Decision(_TEXT, "the usage example a model reads"),
    "<parameter>.dependencies": Decision(_REQUIRES, "the tools the parameter needs offered"),
    "<parameter>.requires": Decision(_REQUIRES, "contexts where the parameter is sent"),
    "<parameter>.member_required": Decision(
        ("PARAMETER_MADE_REQUIRED", "PARAMETER_MADE_OPTIONAL"), "members of an object made required"
    ),
    # variants/<family>.yaml
    "variants/<family>.yaml:family": Decision(("FAMILY_REMOVED", "FAMILY_ADDED"), "the family's name"),
    "variants/<family>.yaml:description": Decision(_NONE, "documentation of the family"),
    "variants/<family>.yaml:version": Decision(_NONE, "a release number the family's author keeps"),
    "variants/<family>.yaml:tags": Decision(_NONE, "documentation of the family"),
    "variants/<family>.yaml:labels": Decision(("FORMAT_REMOVED",), "use_native_tools: the formats it sends"),
    "variants/<family>.yaml:labels.<name>": Decision(("FORMAT_REMOVED",), "use_native_tools: the formats it sends"),
    "variants/<family>.yaml:tools": Decision(("TOOL_REMOVED_FROM_FAMILY", "TOOL_ADDED"), "the tools it offers"),
    "variants/<family>.yaml:selection": Decision(_SELECTION, "see its members"),
    "variants/<family>.yaml:selection.order": Decision(_SELECTION, "compared on the grid of contexts"),
    "variants/<family>.yaml:selection.rule": Decision(_SELECTION, "compared on the grid of contexts"),
    # parameters.yaml
    "parameters.yaml:parameters": Decision(_NONE, "spelling only: every use is compared resolved"),
    "parameters.yaml:parameters.<name>": Decision(_NONE, "spelling only: every use is compared resolved"),
}


def decision(place: str) -> Decision | None:
    """The decision for ``place``: its own, a predicate's, a parameter field's or its JSON
    Schema keyword's."""
    if place in DECISIONS:
        return DECISIONS[place]
    definition, _, key = place.rpartition(".")
    if definition == "<predicate>":
        return _PREDICATE
    if definition == "<modelPredicate>" or definition.startswith("<modelPredicate>."):
        return _MODEL_PREDICATE
    if definition in ("<parameterFields>", "parameters.yaml:parameters.<name>") and f"<parameter>.{key}" in DECISIONS:
        return DECISIONS[f"<parameter>.{key}"]  # a parameter's own fields, in any spelling
    if definition in ("<schema>", "<schemaKeywords>", "<parameter>", "<parameterFields>") or definition.endswith(
        ".<name>"
    ):
        return KEYWORDS.get(key)
    return None


def undecided() -> list[str]:
    """Places of the meta-schemas with no decision."""
    return [place for place in places() if decision(place) is None]


def stale() -> list[str]:
    """Decisions for places the meta-schemas no longer have, or naming rules that do not exist."""
    present = set(places())
    gone = [place for place in DECISIONS if place not in present]
    unknown = [f"{place}: {rule}" for place, d in DECISIONS.items() for rule in d.rules if rule not in RULES]
    unknown += [f"{kw}: {rule}" for kw, d in KEYWORDS.items() for rule in d.rules if rule not in RULES]
    return gone + unknown


def table() -> str:
    """The field table of docs/breaking.md: one row per place, in meta-schema order."""
    rows = ["| field | rules | what a change means |", "| --- | --- | --- |"]
    for place, found in _decided():
        rules = ", ".join(f"`{r}`" for r in found.rules) or "not compared"
        rows.append(f"| `{place}` | {rules} | {found.meaning} |")
    return "\n".join(rows) + "\n"


def rules_table() -> str:
    """The rule table of docs/breaking.md: each rule's default level, audience and summary."""
    rows = ["| rule | default level | protects | what it reports |", "| --- | --- | --- | --- |"]
    for rule in RULES.values():
        rows.append(f"| [`{rule.id}`](#{rule.id.lower()}) | {rule.level} | {rule.audience} | {rule.summary} |")
    return "\n".join(rows) + "\n"


def _decided() -> Iterator[tuple[str, Decision]]:
    for place in places():
        found = decision(place)
        if found is not None:
            yield place, found
