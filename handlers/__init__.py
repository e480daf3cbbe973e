"""Reference handlers for Cline's web tools (web_fetch, web_search).

The generated dispatch coordinator builds them with ``Cls()`` and calls
``execute(config, block)`` / ``handle_partial_block(config, block)``; ``config`` must
satisfy :class:`handlers.config.WebToolsConfig`. Requires ``httpx`` (extra: handlers).
"""

from .config import TaskState, WebToolsConfig, WebToolsTaskConfig
from .web_fetch import WebFetchToolHandler
from .web_search import WebSearchToolHandler

__all__ = [
    "TaskState",
    "WebFetchToolHandler",
    "WebSearchToolHandler",
    "WebToolsConfig",
    "WebToolsTaskConfig",
]
