"""Value types shared by the parser, the dispatch table and handlers.

Standard library only: this module is copied verbatim (under a generated header) into the
generated package, so the generator and vendoring projects use the same definitions.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic

# Type checkers only: TypeVar defaults (PEP 696) need Python 3.13 at run time.
if TYPE_CHECKING:
    from typing_extensions import TypeVar

    ParamsT = TypeVar(
        "ParamsT",
        bound=Mapping[str, Any],
        default=Mapping[str, Any],
        covariant=True,
    )
else:
    from typing import TypeVar

    ParamsT = TypeVar("ParamsT", bound=Mapping[str, Any], covariant=True)

__all__ = ["ParamsT", "ToolResult", "ToolUse", "tool_use"]


@dataclass(frozen=True)
class ToolUse(Generic[ParamsT]):
    """One tool call read from a model's reply (text path) or built from a native call.

    Generic in its ``params`` for typed handlers: ``ToolUse[ReadFileArgs]`` (the generated args
    module) is a call whose arguments an ``Offer`` has checked against read_file's schema; a bare
    ``ToolUse`` is ``ToolUse[Mapping[str, Any]]``.

    ``partial`` is true while the call is still streaming: its closing tag (or the end of its
    native content block) has not arrived, so parameter values may still grow.

    Native calls (``_runtime.replies.read_calls``) also carry ``id``, the provider's call id that
    the tool-result message must quote, and JSON values in ``params``; text-path values are
    strings until an ``Offer`` types them. ``error`` is set when the call cannot be run (its
    arguments are not a JSON object, are too large, it has no name, or the reply was cut off
    inside it): ``params`` is then empty, no handler must run, and the caller answers the call
    id with ``ToolResult.error(use.error)``.
    """

    name: str
    params: ParamsT = field(default_factory=dict)  # type: ignore[assignment]
    partial: bool = False
    id: str = ""
    error: str | None = None


_new = object.__new__


def tool_use(
    name: str, params: Any, partial: bool, id: str, error: str | None
) -> ToolUse:
    """``ToolUse(name, params, partial, id, error)``, made for the return path's hot loop.

    A frozen dataclass sets each field through ``object.__setattr__``, which costs more than
    the rest of reading a call; this fills the same ``__dict__`` in the same order directly
    (ToolUse has no ``__post_init__``: tests/runtime check that both ways make equal calls).
    """
    use: ToolUse = _new(ToolUse)
    fields = use.__dict__  # item by item: cheaper than update() with keywords
    fields["name"] = name
    fields["params"] = params
    fields["partial"] = partial
    fields["id"] = id
    fields["error"] = error
    return use


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
        return _result(content, False, False) if cls is ToolResult else cls(content)

    @classmethod
    def error(cls, message: str) -> ToolResult:
        if cls is ToolResult:
            return _result(message, True, False)
        return cls(message, is_error=True)

    @classmethod
    def deny(cls, message: str = "The user denied this operation.") -> ToolResult:
        return cls(message, denied=True)


def _result(content: str, is_error: bool, denied: bool) -> ToolResult:
    """``ToolResult(content, is_error, denied)`` made as ``tool_use`` makes a call (every
    handler answers with one; ToolResult has no ``__post_init__`` either)."""
    result: ToolResult = _new(ToolResult)
    fields = result.__dict__
    fields["content"] = content
    fields["is_error"] = is_error
    fields["denied"] = denied
    return result
