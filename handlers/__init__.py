"""Reference handlers for Cline's web tools (web_fetch, web_search).

The generated dispatch coordinator builds them with ``Cls()`` and calls
``execute(config, block)`` / ``handle_partial_block(config, block)``; ``config`` must
satisfy :class:`handlers.config.WebToolsConfig`. Requires ``httpx`` (extra: handlers).

The classes below answer for the generated package importable as ``generated``; for a package
vendored under another name, use ``bind``::

    from myapp import _tools
    coordinator = _tools.dispatch.Coordinator.from_namespace(handlers.bind(_tools))
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from types import ModuleType

from .binding import package_name
from .config import TaskState, WebToolsConfig, WebToolsTaskConfig
from .web_fetch import WebFetchToolHandler
from .web_search import WebSearchToolHandler

__all__ = [
    "BoundHandlers",
    "TaskState",
    "WebFetchToolHandler",
    "WebSearchToolHandler",
    "WebToolsConfig",
    "WebToolsTaskConfig",
    "bind",
]


@dataclass(frozen=True)
class BoundHandlers:
    """The handler classes of one generated package: a namespace for ``Coordinator.from_namespace``."""

    package: str
    WebFetchToolHandler: type[WebFetchToolHandler]
    WebSearchToolHandler: type[WebSearchToolHandler]


def bind(package: ModuleType | str) -> BoundHandlers:
    """The handler classes answering for the generated ``package`` (its module or import name).

    The package is imported when a handler is made; the same name always gives the same classes.
    """
    return _bind(package_name(package))


@cache
def _bind(package: str) -> BoundHandlers:
    def bound(cls: type[WebFetchToolHandler] | type[WebSearchToolHandler]) -> type:
        return type(
            cls.__name__,
            (cls,),
            {"package": package, "__module__": __name__, "__qualname__": cls.__name__},
        )

    return BoundHandlers(
        package, bound(WebFetchToolHandler), bound(WebSearchToolHandler)
    )
