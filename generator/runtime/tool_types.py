"""Value types shared by the parser, the dispatch table and handlers.

Standard library only: this module is copied verbatim (under a generated header) into the
generated package, so the generator and vendoring projects use the same definitions.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = ["ToolResult", "ToolUse"]


@dataclass(frozen=True)
class ToolUse:
    """One tool call read from a model's reply (text path) or built from a native call.

    ``partial`` is true while the call is still streaming: its closing tag has not arrived,
    so parameter values may still grow.
    """

    name: str
    params: Mapping[str, str] = field(default_factory=dict)
    partial: bool = False


@dataclass(frozen=True)
class ToolResult:
    """What a handler gives back to the model.

    ``is_error`` marks a tool error (the model made a mistake or the tool failed);
    ``denied`` marks a call the user or a hook refused. Both still carry text for the model.
    """

    content: str
    is_error: bool = False
    denied: bool = False

    @classmethod
    def ok(cls, content: str) -> ToolResult:
        return cls(content)

    @classmethod
    def error(cls, message: str) -> ToolResult:
        return cls(message, is_error=True)

    @classmethod
    def deny(cls, message: str = "The user denied this operation.") -> ToolResult:
        return cls(message, denied=True)
