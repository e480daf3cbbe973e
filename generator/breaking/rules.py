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


_RULES = (
    # Tools and families.
    Rule("TOOL_REMOVED", True, "a tool id is gone from the specs"),
    Rule("TOOL_RENAMED", True, "a tool is sent under another wire name, or its id changed with the same shape"),
    Rule("TOOL_REMOVED_FROM_FAMILY", True, "a family no longer offers a tool that still exists"),
    Rule("TOOL_ADDED", False, "a tool is new, or newly offered by a family"),
    Rule("FAMILY_REMOVED", True, "a prompt family (specs/variants/<family>.yaml) is gone"),
    Rule("FAMILY_ADDED", False, "a prompt family is new"),
    Rule("FAMILY_SELECTION_CHANGED", True, "a context that selected a family now selects another one"),
    Rule("ROUTING_CHANGED", True, "a provider's requests are now sent in another native format"),
    Rule(
        "FORMAT_REMOVED",
        True,
        "a native format is no longer sent (dropped from formats:, or a family left native calling)",
    ),
    # Parameters.
    Rule("PARAMETER_REMOVED", True, "a parameter (or a property of an object parameter) is gone"),
    Rule("PARAMETER_RENAMED", True, "a parameter was replaced by one of another name with the same shape"),
    Rule("PARAMETER_REQUIRED_ADDED", True, "a new parameter is required"),
    Rule("PARAMETER_MADE_REQUIRED", True, "an optional parameter became required"),
    Rule("PARAMETER_ADDED", False, "a new optional parameter"),
    Rule("PARAMETER_MADE_OPTIONAL", False, "a required parameter became optional"),
    # Values a parameter accepts.
    Rule("TYPE_CHANGED", True, "a value's type changed or was narrowed (or a keyword of unknown direction changed)"),
    Rule("TYPE_WIDENED", False, "a value's type now accepts more (integer to number, a type added to a list)"),
    Rule("ENUM_VALUE_REMOVED", True, "an enum lost values"),
    Rule("ENUM_VALUE_ADDED", False, "an enum gained values"),
    Rule(
        "BOUND_TIGHTENED", True, "a bound is new or stricter (minimum, maximum, lengths, items, enum, closed objects)"
    ),
    Rule("BOUND_LOOSENED", False, "a bound was relaxed or removed"),
    Rule("PATTERN_CHANGED", True, "a pattern or format was added or changed"),
    Rule("STRICT_CHANGED", True, "the OpenAI strict flag of a tool changed"),
    Rule("DEFAULT_CHANGED", False, "a default value changed (of a parameter or a context field)"),
    Rule("DESCRIPTION_CHANGED", False, "a description, instruction, usage example or title changed"),
    # Conditions on the context.
    Rule("REQUIREMENT_ADDED", True, "a tool or parameter gained or changed a context requirement or dependency"),
    Rule("REQUIREMENT_REMOVED", False, "a tool or parameter lost its context requirement or a dependency"),
    # Handlers, MCP and the context.
    Rule(
        "ANNOTATION_WEAKENED",
        True,
        "an MCP hint promises less: read-only to writing, non-destructive to destructive, idempotent to not, "
        "closed world to open",
    ),
    Rule("ANNOTATION_STRENGTHENED", False, "an MCP hint promises more (the reverse of ANNOTATION_WEAKENED)"),
    Rule("OUTPUT_SCHEMA_CHANGED", True, "a tool's output schema changed shape or was removed"),
    Rule("OUTPUT_SCHEMA_ADDED", False, "a tool declares an output schema it did not have"),
    Rule("HANDLER_CHANGED", True, "a tool's handler binding changed (class, shared handler, validator)"),
    Rule("HANDLER_REMOVED", True, "a tool no longer has a handler"),
    Rule("HANDLER_ADDED", False, "a tool gained a handler"),
    Rule("MCP_SEPARATOR_CHANGED", True, "MCP tool names are built with another separator"),
    Rule("CONTEXT_FIELD_REMOVED", True, "a context field is gone"),
    Rule("CONTEXT_FIELD_TYPE_CHANGED", True, "a context field's type changed, or it is no longer nullable"),
    Rule("CONTEXT_FIELD_ADDED", False, "a context field is new"),
)

RULES: dict[str, Rule] = {rule.id: rule for rule in _RULES}
