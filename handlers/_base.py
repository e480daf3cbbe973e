"""Shared flow for the Cline-backed web tools (gates, approval, hook, HTTP, errors).

A subclass supplies the tool-specific parts: parameter validation, preview text, the
endpoint and the response formatting. Handlers hold no per-task state.
"""

from __future__ import annotations

import json
import logging
import os
import ssl
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import httpx

from .binding import DEFAULT_PACKAGE, Runtime, runtime_of
from .config import DEFAULT_TIMEOUT_SECONDS, WebToolsConfig

if TYPE_CHECKING:  # the in-repo package stands for every generated package's types
    from generated import ToolResult, ToolUse

__all__ = ["RequestPlan", "WebRequestError", "WebToolHandler"]

_log = logging.getLogger(__name__)

DISABLED_PHRASE = "web tools are currently disabled"
SIGN_IN_MESSAGE = (
    "You must be signed in to your Cline account to use web tools. "
    "Ask the user to sign in to Cline, then try again."
)
_BODY_SNIPPET_CHARS = 300


class WebRequestError(Exception):
    """A request failed; ``detail`` is the text shown to the model after the prefix."""

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


@dataclass(frozen=True)
class RequestPlan:
    """A validated call: what to show the user and what to POST."""

    message: str
    body: dict[str, Any]


class WebToolHandler:
    """Base class; see WebFetchToolHandler / WebSearchToolHandler."""

    name: ClassVar[str]
    endpoint: ClassVar[str]  # path under api_base
    error_prefix: ClassVar[str]  # e.g. "Error fetching web content"
    #: The generated package whose ToolResult this class answers with (handlers.bind sets it).
    package: ClassVar[str] = DEFAULT_PACKAGE

    def __init__(self) -> None:
        # Resolved when the coordinator builds the handler, so a package that cannot be
        # imported fails there, with a hint, instead of on the first call.
        self.runtime: Runtime = runtime_of(self.package)

    # ---- subclass hooks -------------------------------------------------------------

    def _plan(self, params: Mapping[str, Any]) -> RequestPlan | str:
        """Validate complete params; return the plan or a mistake message."""
        raise NotImplementedError

    def _preview(self, params: Mapping[str, Any]) -> str:
        raise NotImplementedError

    def _format(self, payload: Any) -> str:
        """Turn the decoded JSON response into the model-facing text (or raise WebRequestError)."""
        raise NotImplementedError

    # ---- entry points ---------------------------------------------------------------

    def handle_partial_block(self, config: WebToolsConfig, block: ToolUse) -> None:
        """Show a streaming preview. Never blocks, never returns a result, never raises."""
        try:
            if disabled_reason(config) is not None:
                return
            config.say("tool", self._preview(block.params), True)
        except Exception:  # a UI glitch must not break streaming
            _log.exception("%s: partial preview failed", self.name)

    def execute(self, config: WebToolsConfig, block: ToolUse) -> ToolResult:
        try:
            return self._execute(config, block)
        except Exception as exc:  # never raise into the coordinator
            _log.exception("%s: unexpected failure", self.name)
            return self.runtime.tool_result.error(
                f"{self.error_prefix}: unexpected error: {describe(exc)}"
            )

    # ---- the flow -------------------------------------------------------------------

    def _execute(self, config: WebToolsConfig, block: ToolUse) -> ToolResult:
        reason = disabled_reason(config)
        if reason is not None:
            return self.runtime.tool_result.error(
                f"{self.name} is unavailable: {DISABLED_PHRASE} ({reason})."
            )

        plan = self._plan(block.params)
        if isinstance(plan, str):
            config.task_state.consecutive_mistake_count += 1
            return self.runtime.tool_result.error(plan)
        config.task_state.consecutive_mistake_count = 0

        if config.should_auto_approve(self.name):
            config.say("tool", plan.message, False)
        elif not config.ask_approval(self.name, plan.message):
            return self.runtime.tool_result.deny()

        if not config.run_pre_tool_use_hook(self.name, dict(block.params)):
            return self.runtime.tool_result.deny(
                f"The PreToolUse hook cancelled this {self.name} call."
            )

        try:
            token = config.get_auth_token()
        except Exception as exc:
            return self.runtime.tool_result.error(
                f"{self.error_prefix}: could not read the Cline account token: {describe(exc)}"
            )
        if not token:
            # Same prefix as every other failure, as the seed's catch adds it to its throw.
            return self.runtime.tool_result.error(
                f"{self.error_prefix}: {SIGN_IN_MESSAGE}"
            )

        try:
            payload = post_json(config, self.endpoint, plan.body, token)
            return self.runtime.tool_result.ok(self._format(payload))
        except WebRequestError as exc:
            return self.runtime.tool_result.error(f"{self.error_prefix}: {exc.detail}")


# ---- helpers shared by both tools ---------------------------------------------------


def disabled_reason(config: WebToolsConfig) -> str | None:
    """None when all three gates pass, else a short reason.

    The provider id is compared exactly, as the seed does: ids are lower-case machine
    names, so ``"Cline"`` or ``" cline"`` is a misconfigured host, not the Cline provider.
    """
    provider = str(getattr(config, "provider_id", "") or "")
    if provider != "cline":
        return f"the API provider is {provider or 'unset'!r}, web tools need the Cline provider"
    if not getattr(config, "web_tools_enabled", False):
        return "the web tools setting is turned off"
    if not getattr(config, "web_tools_feature_flag", False):
        return "the web tools feature is not enabled for this account"
    return None


def text_param(params: Mapping[str, Any], key: str) -> str:
    value = params.get(key)
    if value is None:
        return ""
    return str(value).strip()


def missing_param(tool: str, key: str) -> str:
    return (
        f"Missing value for required parameter '{key}' of {tool}. "
        "Please retry with a complete response."
    )


def domains_so_far(runtime: Runtime, raw: Any) -> list[str]:
    """Domains readable from a possibly cut-off value (partial blocks). Never raises."""
    if isinstance(raw, (list, tuple)):
        return _clean(raw)
    if not isinstance(raw, str) or not raw.strip():
        return []
    try:
        return _clean(runtime.parse_partial_json_array(raw))
    except Exception:
        return []


def complete_domains(runtime: Runtime, raw: Any, key: str) -> list[str] | str:
    """Domains of a complete value, or a mistake message when it is not a JSON array."""
    if raw is None:
        return []
    if isinstance(raw, (list, tuple)):
        return _clean(raw)
    text = str(raw).strip()
    if not text:
        return []
    if not (text.startswith("[") and text.endswith("]")):
        return (
            f"Invalid value for parameter '{key}': expected a JSON array of domain "
            f'strings, e.g. ["example.com"], got {text[:100]!r}.'
        )
    return _clean(runtime.parse_partial_json_array(text))


def _clean(items: Any) -> list[str]:
    out: list[str] = []
    for item in items:
        if item is None:
            continue
        s = str(item).strip()
        if s:
            out.append(s)
    return out


def describe(exc: BaseException) -> str:
    text = str(exc).strip()
    return text or type(exc).__name__


def _verify_setting(value: Any) -> bool | ssl.SSLContext:
    if isinstance(value, str | os.PathLike):
        if os.path.isdir(value):
            return ssl.create_default_context(capath=value)
        return ssl.create_default_context(cafile=value)
    if value is None:
        return True
    if isinstance(value, ssl.SSLContext):
        return value
    return bool(value)


def post_json(
    config: WebToolsConfig, endpoint: str, body: dict[str, Any], token: str
) -> Any:
    """POST ``body`` to ``{api_base}{endpoint}``; return the decoded JSON or raise WebRequestError."""
    url = str(config.api_base).rstrip("/") + endpoint
    headers: dict[str, str] = {
        str(k): str(v)
        for k, v in (getattr(config, "extra_headers", None) or {}).items()
    }
    for k in [
        k
        for k in headers
        if k.lower() in ("authorization", "content-type", "x-task-id")
    ]:
        del headers[k]
    headers["Authorization"] = f"Bearer {token}"
    headers["Content-Type"] = "application/json"
    headers["X-Task-ID"] = str(getattr(config, "task_id", "") or "")

    timeout = getattr(config, "request_timeout", None)
    if not timeout or timeout <= 0:
        timeout = DEFAULT_TIMEOUT_SECONDS

    try:
        verify = _verify_setting(getattr(config, "verify", True))
    except (OSError, ssl.SSLError) as exc:
        raise WebRequestError(
            f"could not load the configured CA certificates: {describe(exc)}"
        ) from exc

    try:
        with httpx.Client(
            timeout=timeout,
            proxy=getattr(config, "proxy", None) or None,
            verify=verify,
            trust_env=bool(getattr(config, "trust_env", True)),
            follow_redirects=False,
        ) as client:
            response = client.post(
                url, content=json.dumps(body).encode("utf-8"), headers=headers
            )
    except httpx.TimeoutException:
        raise WebRequestError(
            f"the request timed out after {timeout:g} seconds"
        ) from None
    except httpx.ProxyError as exc:
        raise WebRequestError(f"proxy error: {describe(exc)}") from None
    except httpx.ConnectError as exc:
        raise WebRequestError(f"could not connect to {url}: {describe(exc)}") from None
    except httpx.HTTPError as exc:
        raise WebRequestError(f"request failed: {describe(exc)}") from None

    # Only 200 is a success: the endpoints answer nothing else when they work, and a
    # redirect is not followed (a 301/302 would turn the POST into a body-less GET).
    if response.status_code != 200:
        raise WebRequestError(_status_detail(response))
    try:
        return response.json()
    except ValueError:
        raise WebRequestError(
            "the server returned a response that is not valid JSON: "
            f"{_snippet(response.text)!r}"
        ) from None


def _status_detail(response: httpx.Response) -> str:
    detail = f"HTTP {response.status_code}"
    if response.reason_phrase:
        detail += f" {response.reason_phrase}"
    message = _server_message(response)
    if message:
        detail += f": {message}"
    if response.status_code in (401, 403):
        detail += " (the Cline account session may have expired; sign in again)"
    location = response.headers.get("location")
    if response.is_redirect and location:
        detail += f" (redirects to {_snippet(location)}, which is not followed; check api_base)"
    return detail


def _server_message(response: httpx.Response) -> str:
    try:
        text = response.text
    except Exception:
        return ""
    try:
        decoded = json.loads(text)
    except ValueError:
        return _snippet(text)
    if isinstance(decoded, dict):
        for key in ("error", "message", "detail"):
            value = decoded.get(key)
            if isinstance(value, dict):
                value = value.get("message")
            if isinstance(value, str) and value.strip():
                return _snippet(value)
    return _snippet(text)


def _snippet(text: str) -> str:
    text = " ".join(text.split())
    if len(text) > _BODY_SNIPPET_CHARS:
        return text[:_BODY_SNIPPET_CHARS] + "..."
    return text


def data_object(payload: Any) -> dict[str, Any]:
    """The ``data`` object of a response, or WebRequestError."""
    if not isinstance(payload, dict) or not isinstance(payload.get("data"), dict):
        raise WebRequestError("the server response has no 'data' object")
    data: dict[str, Any] = payload["data"]
    return data
