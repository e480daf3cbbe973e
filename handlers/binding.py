"""Which generated package the handlers answer with, so they work wherever it is vendored.

A handler returns the generated package's own ``ToolResult`` (the coordinator of that package
checks and converts it) and reads partial JSON with that package's runtime. Nothing here
imports a generated package at import time: ``import handlers`` works from an installed wheel.

* ``handlers.WebFetchToolHandler`` and ``handlers.WebSearchToolHandler`` answer for the package
  importable as ``generated`` (this repository's layout), looked up when an instance is made.
* ``handlers.bind(package)`` gives the same classes bound to any other generated package, given
  as its module or its import name (``bind("myapp._tools")``); pass the result to
  ``Coordinator.from_namespace``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the in-repo package stands for every generated package's types
    from generated import ToolResult

__all__ = ["DEFAULT_PACKAGE", "Runtime", "package_name", "runtime_of"]

#: The import name the unbound handler classes answer for.
DEFAULT_PACKAGE = "generated"


@dataclass(frozen=True)
class Runtime:
    """What the handlers use of one generated package."""

    package: str
    tool_result: type[ToolResult]
    parse_partial_json_array: Callable[[str], list[Any]]


def package_name(package: ModuleType | str) -> str:
    """The import name of a generated package given as a module or a name."""
    return package if isinstance(package, str) else package.__name__


@cache
def runtime_of(package: str) -> Runtime:
    """The runtime pieces of the generated package ``package`` (an import name), imported once."""
    try:
        tool_types = importlib.import_module(f"{package}._runtime.tool_types")
        xml_calls = importlib.import_module(f"{package}._runtime.xml_calls")
    except ImportError as exc:
        raise ImportError(
            f"the web tool handlers answer for the generated package {package!r}, which cannot be"
            f" imported ({exc}); bind them to yours with handlers.bind('your.package')",
            name=exc.name,
        ) from exc
    return Runtime(package, tool_types.ToolResult, xml_calls.parse_partial_json_array)
