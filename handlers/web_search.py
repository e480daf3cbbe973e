"""web_search: run a web search through the Cline API."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ._base import (
    RequestPlan,
    WebRequestError,
    WebToolHandler,
    complete_domains,
    data_object,
    domains_so_far,
    missing_param,
    text_param,
)

__all__ = ["WebSearchToolHandler", "format_search_results"]


class WebSearchToolHandler(WebToolHandler):
    name: ClassVar[str] = "web_search"
    endpoint: ClassVar[str] = "/api/v1/search/websearch"
    error_prefix: ClassVar[str] = "Error performing web search"

    def _plan(self, params: Mapping[str, Any]) -> RequestPlan | str:
        query = text_param(params, "query")
        if not query:
            return missing_param(self.name, "query")
        allowed = complete_domains(
            self.runtime, params.get("allowed_domains"), "allowed_domains"
        )
        if isinstance(allowed, str):
            return allowed
        blocked = complete_domains(
            self.runtime, params.get("blocked_domains"), "blocked_domains"
        )
        if isinstance(blocked, str):
            return blocked
        if allowed and blocked:
            return (
                "Invalid parameters for web_search: give either allowed_domains or "
                "blocked_domains, not both. Please retry with only one of them."
            )
        body: dict[str, Any] = {"query": query}
        if allowed:
            body["allowed_domains"] = allowed
        if blocked:
            body["blocked_domains"] = blocked
        return RequestPlan(message=_search_message(query, allowed, blocked), body=body)

    def _preview(self, params: Mapping[str, Any]) -> str:
        return _search_message(
            text_param(params, "query"),
            domains_so_far(self.runtime, params.get("allowed_domains")),
            domains_so_far(self.runtime, params.get("blocked_domains")),
        )

    def _format(self, payload: Any) -> str:
        results = data_object(payload).get("results")
        if results is None:
            results = []
        if not isinstance(results, list):
            raise WebRequestError(
                "the server response field 'data.results' is not a list"
            )
        return format_search_results(results)


def _search_message(query: str, allowed: list[str], blocked: list[str]) -> str:
    message = f"Searching: {query}"
    if allowed:
        message += f" (allowed domains: {', '.join(allowed)})"
    if blocked:
        message += f" (blocked domains: {', '.join(blocked)})"
    return message


def format_search_results(results: list[Any]) -> str:
    """'Search completed (N results found)' then, when N > 0, ':', a blank line and the list."""
    items = [r for r in results if isinstance(r, dict)]
    text = f"Search completed ({len(items)} results found)"
    if not items:
        return text
    text += ":\n\n"
    for number, item in enumerate(items, start=1):
        title = str(item.get("title") or "").strip() or "(untitled)"
        url = str(item.get("url") or "").strip()
        text += f"{number}. {title}\n   {url}\n\n"
    return text
