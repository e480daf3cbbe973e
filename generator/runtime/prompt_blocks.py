"""Layout of the text-path tools section (standard library only; shipped in the generated package).

Formatting only: callers pass text that is already resolved for a context. The generator uses
the same functions for the review files in generated/prompts/, so both can never disagree.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

__all__ = [
    "PLACEHOLDER_RE",
    "PromptParam",
    "schema_note",
    "tool_block",
    "tools_section",
    "usage_example",
]

# The {{NAME}} placeholder syntax of spec text (checked by the generator, filled at run time).
PLACEHOLDER_RE = re.compile(r"\{\{([A-Z][A-Z0-9_]*)\}\}")


class PromptParam(NamedTuple):
    name: str
    required: bool
    instruction: str
    description: str = ""
    usage: str = ""
    note: str = ""
    """Shown after the instruction: what the schema says beyond its type (``schema_note``)."""


#: Keywords that say nothing a text-path model needs beyond the instruction: the type (values are
#: text there, coerced by the type), prose, and null (which the XML form cannot carry).
_PLAIN_KEYWORDS = frozenset({"type", "description", "title", "nullable"})


def schema_note(schema: Mapping[str, Any]) -> str:
    """The parameter's schema for the text prompt when it says more than a type: enums, bounds,
    patterns, unions, nested members (``(JSON Schema: {...})``, descriptions left out); else "".
    """
    if all(key in _PLAIN_KEYWORDS for key in schema):
        return ""
    shown = {k: v for k, v in schema.items() if k not in ("description", "title")}
    text = json.dumps(shown, ensure_ascii=False, separators=(",", ":"))
    return f"(JSON Schema: {text})"


def tool_block(
    name: str,
    description: str,
    params: Sequence[PromptParam],
    param_descriptions: Sequence[str] | None = None,
) -> str:
    """One tool: heading, description, parameter list and a Usage example.

    ``param_descriptions`` defaults to the descriptions of ``params``. The modelled system takes
    them from the parameters before dependency filtering, so callers pass those for parity.
    A tool with neither a description nor parameters has no block (empty string).
    """
    if not params and not description:
        return ""
    if param_descriptions is None:
        param_descriptions = [p.description for p in params]
    lines = [f"## {name}", f"Description: {description}"]
    lines.extend(text for text in param_descriptions if text)
    if params:
        lines.append("Parameters:")
        for p in params:
            line = f"- {p.name}: ({'required' if p.required else 'optional'}) {p.instruction}"
            if p.note:
                line += f" {p.note}" if p.instruction else p.note
            lines.append(line)
    else:
        lines.append("Parameters: None")
    lines.append("Usage:")
    lines.append(usage_example(name, params))
    return "\n".join(lines)


def usage_example(name: str, params: Sequence[PromptParam]) -> str:
    """The example call of a tool block (the generator parses it back to check it)."""
    lines = [f"<{name}>"]
    lines.extend(f"<{p.name}>{p.usage}</{p.name}>" for p in params)
    lines.append(f"</{name}>")
    return "\n".join(lines)


def tools_section(blocks: Sequence[str]) -> str:
    """'# Tools' followed by the non-empty blocks, separated by blank lines."""
    return "\n\n".join(["# Tools", *(b for b in blocks if b)])
