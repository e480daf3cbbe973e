"""The rules of ``toolgen breaking``: one record per kind of change, with a stable id.

Ids never change meaning once released (exceptions in toolgen.yaml name them); docs/breaking.md
has a section with an example for every id here, and tests/test_breaking_docs.py keeps the two
in step. ``breaking`` says whether the change can break one of the two parties that depend on
the specs: the models (which learned the tools from prompts and few-shot histories) and the
downstream code (handlers written against a parameter set, callers reading the context).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Rule:
    id: str
    breaking: bool
    summary: str
    audience: str = "both"
    """Whom a change of this kind reaches: "model" (what is sent: prompts, schemas, names on the
    wire), "host" (the generated code a host program calls and binds) or "both". The project's
    ``breaking.protect`` preset turns off the rules of an audience it does not protect."""

    @property
    def level(self) -> str:
        """The default level: a breaking kind of change is an error, any other information."""
        return "error" if self.breaking else "info"


_RULES = (
    # Tools and families.
    Rule("TOOL_REMOVED", True, "a tool id is gone from the specs", "both"),
    Rule("TOOL_RENAMED", True, "a tool is sent under another wire name, or its id changed with the same shape", "both"),
    Rule("TOOL_REMOVED_FROM_FAMILY", True, "a family no longer offers a tool that still exists", "model"),
    Rule("TOOL_ADDED", False, "a tool is new, or newly offered by a family", "both"),
    Rule("FAMILY_REMOVED", True, "a prompt family (specs/variants/<family>.yaml) is gone", "both"),
    Rule("FAMILY_ADDED", False, "a prompt family is new", "host"),
    Rule("FAMILY_SELECTION_CHANGED", True, "a context that selected a family now selects another one", "model"),
    Rule("ROUTING_CHANGED", True, "a provider's requests are now sent in another native format", "both"),
    Rule(
        "FORMAT_REMOVED",
        True,
        "a native format is no longer sent (dropped from formats:, or a family left native calling)", "both"),
    # Parameters.
    Rule("PARAMETER_REMOVED", True, "a parameter (or a property of an object parameter) is gone", "both"),
    Rule("PARAMETER_RENAMED", True, "a parameter was replaced by one of another name with the same shape", "both"),
    Rule("PARAMETER_REQUIRED_ADDED", True, "a new parameter is required", "both"),
    Rule("PARAMETER_MADE_REQUIRED", True, "an optional parameter became required", "both"),
    Rule("PARAMETER_ADDED", False, "a new optional parameter", "both"),
    Rule("PARAMETER_MADE_OPTIONAL", False, "a required parameter became optional", "both"),
    # Values a parameter accepts.
    Rule(
        "TYPE_CHANGED",
        True,
        "a value's type changed or was narrowed (or a keyword of unknown direction changed)",
        "both",
    ),
    Rule("TYPE_WIDENED", False, "a value's type now accepts more (integer to number, a type added to a list)", "both"),
    Rule("ENUM_VALUE_REMOVED", True, "an enum lost values", "both"),
    Rule("ENUM_VALUE_ADDED", False, "an enum gained values", "both"),
    Rule(
        "BOUND_TIGHTENED",
        True,
        "a bound is new or stricter (minimum, maximum, lengths, items, enum, closed objects)",
        "both",
    ),
    Rule("BOUND_LOOSENED", False, "a bound was relaxed or removed", "both"),
    Rule("PATTERN_CHANGED", True, "a pattern or format was added or changed", "both"),
    Rule("STRICT_CHANGED", True, "the OpenAI strict flag of a tool changed", "model"),
    Rule("DEFAULT_CHANGED", False, "a default value changed (of a parameter or a context field)", "both"),
    Rule("DESCRIPTION_CHANGED", False, "a description, instruction or usage example changed", "model"),
    Rule("DEPRECATED", False, "a tool, parameter or enum value is now deprecated (a removal may follow)", "both"),
    # Conditions on the context.
    Rule(
        "REQUIREMENT_ADDED",
        True,
        "a tool or parameter gained or changed a context requirement or dependency",
        "model",
    ),
    Rule("REQUIREMENT_REMOVED", False, "a tool or parameter lost its context requirement or a dependency", "model"),
    # Handlers, MCP and the context.
    Rule("HANDLER_CHANGED", True, "a tool's handler binding changed (class, shared handler, validator)", "host"),
    Rule("HANDLER_REMOVED", True, "a tool no longer has a handler", "host"),
    Rule("HANDLER_ADDED", False, "a tool gained a handler of a class the host already provides", "host"),
    Rule(
        "HANDLER_CLASS_ADDED",
        True,
        "a handler class is new (a tool gained it, or a new tool brought it): binding a namespace without it fails",
        "host",
    ),
    Rule("MCP_SEPARATOR_CHANGED", True, "MCP tool names are built with another separator", "model"),
    Rule(
        "MCP_NAME_LIMIT_LOWERED",
        True,
        "MCP tool names may be shorter: tools with longer names leave the lists",
        "model",
    ),
    Rule("MCP_NAME_LIMIT_RAISED", False, "MCP tool names may be longer: tools left out before join the lists", "model"),
    Rule(
        "SUBAGENT_NAMES_CHANGED",
        True,
        "dynamic subagent tools are named with another prefix or length limit",
        "model",
    ),
    Rule(
        "PLACEHOLDER_CHANGED",
        False,
        "a placeholder's field, default or texts changed: so does every text using it",
        "model",
    ),
    Rule(
        "FAMILY_VERSION_NOT_BUMPED",
        True,
        "a family that breaking changes reach kept its version: (a check, not a change) raise version:",
        "both",
    ),
    Rule("NPM_PACKAGE_RENAMED", True, "the TypeScript package has another npm name: hosts import it by name", "host"),
    Rule("CONTEXT_FIELD_REMOVED", True, "a context field is gone", "host"),
    Rule("CONTEXT_FIELD_TYPE_CHANGED", True, "a context field's type changed, or it is no longer nullable", "host"),
    Rule("CONTEXT_FIELD_ADDED", False, "a context field is new", "host"),
)

RULES: dict[str, Rule] = {rule.id: rule for rule in _RULES}
