"""The task configuration the web tool handlers read.

Handlers keep no per-task state: every call receives the host's task-config object, which
must provide the members of :class:`WebToolsConfig`. :class:`WebToolsTaskConfig` is a
ready-made implementation for tests and simple hosts.
"""

from __future__ import annotations

import ssl
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

__all__ = [
    "DEFAULT_API_BASE",
    "DEFAULT_TIMEOUT_SECONDS",
    "TaskState",
    "TaskStateLike",
    "VerifySetting",
    "WebToolsConfig",
    "WebToolsTaskConfig",
]

DEFAULT_API_BASE = "https://api.cline.bot"
DEFAULT_TIMEOUT_SECONDS = 15.0

# httpx's ``verify``: True/False, a path to a CA bundle file or directory, or an SSLContext.
VerifySetting = bool | str | ssl.SSLContext


@runtime_checkable
class TaskStateLike(Protocol):
    """Mutable per-task counters. Handlers only touch ``consecutive_mistake_count``."""

    consecutive_mistake_count: int


@runtime_checkable
class WebToolsConfig(Protocol):
    """What web_fetch / web_search need from the host's task config.

    Gates (all three must hold, or the call is refused as "disabled"):
      ``provider_id`` must be exactly ``"cline"``; ``web_tools_enabled`` is the user's setting;
      ``web_tools_feature_flag`` is the remote feature flag.

    Request settings:
      ``api_base`` (no trailing slash needed), ``task_id`` (sent as X-Task-ID),
      ``extra_headers`` (added to every request; cannot replace Authorization,
      Content-Type or X-Task-ID), ``request_timeout`` in seconds, ``proxy`` (URL or None),
      ``verify`` (see :data:`VerifySetting`), ``trust_env`` (honour HTTP(S)_PROXY,
      NO_PROXY, SSL_CERT_FILE ... from the environment).

    Callbacks:
      ``get_auth_token()`` returns the Cline account token, or None when signed out.
      ``should_auto_approve(tool)`` decides whether the call runs without asking.
      ``ask_approval(tool, message)`` asks the user; False means denied.
      ``say(kind, text, partial)`` shows a UI message (kind is "tool" for previews).
      ``run_pre_tool_use_hook(tool, params)`` runs the PreToolUse hook; False cancels.
    """

    provider_id: str
    web_tools_enabled: bool
    web_tools_feature_flag: bool
    api_base: str
    task_id: str
    extra_headers: Mapping[str, str]
    request_timeout: float
    proxy: str | None
    verify: VerifySetting
    trust_env: bool
    task_state: TaskStateLike

    def get_auth_token(self) -> str | None: ...

    def should_auto_approve(self, tool: str) -> bool: ...

    def ask_approval(self, tool: str, message: str) -> bool: ...

    def say(self, kind: str, text: str, partial: bool) -> None: ...

    def run_pre_tool_use_hook(self, tool: str, params: Mapping[str, str]) -> bool: ...


@dataclass
class TaskState:
    consecutive_mistake_count: int = 0


@dataclass
class WebToolsTaskConfig:
    """A plain implementation of :class:`WebToolsConfig`.

    Callbacks are optional plain callables; without them: the token is ``auth_token``,
    auto-approval is ``auto_approve``, approval is refused (safe default), the hook allows
    everything, and ``say`` only records. Every ``say`` and approval question is recorded in
    ``said`` / ``asked`` so tests and simple hosts can inspect them.
    """

    provider_id: str = "cline"
    web_tools_enabled: bool = True
    web_tools_feature_flag: bool = True
    api_base: str = DEFAULT_API_BASE
    task_id: str = ""
    extra_headers: Mapping[str, str] = field(default_factory=dict)
    request_timeout: float = DEFAULT_TIMEOUT_SECONDS
    proxy: str | None = None
    verify: VerifySetting = True
    trust_env: bool = True
    task_state: TaskState = field(default_factory=TaskState)

    auth_token: str | None = None
    auth_token_provider: Callable[[], str | None] | None = None
    auto_approve: bool = False
    approval_callback: Callable[[str, str], bool] | None = None
    say_callback: Callable[[str, str, bool], None] | None = None
    pre_tool_use_hook: Callable[[str, Mapping[str, str]], bool] | None = None

    said: list[tuple[str, str, bool]] = field(default_factory=list)
    asked: list[tuple[str, str]] = field(default_factory=list)

    def get_auth_token(self) -> str | None:
        if self.auth_token_provider is not None:
            return self.auth_token_provider()
        return self.auth_token

    def should_auto_approve(self, tool: str) -> bool:
        return self.auto_approve

    def ask_approval(self, tool: str, message: str) -> bool:
        self.asked.append((tool, message))
        if self.approval_callback is None:
            return False
        return bool(self.approval_callback(tool, message))

    def say(self, kind: str, text: str, partial: bool) -> None:
        self.said.append((kind, text, partial))
        if self.say_callback is not None:
            self.say_callback(kind, text, partial)

    def run_pre_tool_use_hook(self, tool: str, params: Mapping[str, str]) -> bool:
        if self.pre_tool_use_hook is None:
            return True
        return bool(self.pre_tool_use_hook(tool, params))
