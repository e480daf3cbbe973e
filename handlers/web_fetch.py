"""web_fetch: ask the Cline API to fetch a URL and answer a prompt about its content."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, ClassVar

from ._base import (
    RequestPlan,
    WebRequestError,
    WebToolHandler,
    data_object,
    missing_param,
    text_param,
)

__all__ = ["WebFetchToolHandler"]


class WebFetchToolHandler(WebToolHandler):
    name: ClassVar[str] = "web_fetch"
    endpoint: ClassVar[str] = "/api/v1/search/webfetch"
    error_prefix: ClassVar[str] = "Error fetching web content"

    def _plan(self, params: Mapping[str, Any]) -> RequestPlan | str:
        url = text_param(params, "url")
        if not url:
            return missing_param(self.name, "url")
        prompt = text_param(params, "prompt")
        if not prompt:
            return missing_param(self.name, "prompt")
        return RequestPlan(
            message=f"Fetching URL: {url}", body={"Url": url, "Prompt": prompt}
        )

    def _preview(self, params: Mapping[str, Any]) -> str:
        return f"Fetching URL: {text_param(params, 'url')}"

    def _format(self, payload: Any) -> str:
        result = data_object(payload).get("result")
        if result is None:
            raise WebRequestError("the server response has no 'data.result' field")
        if isinstance(result, str):
            return result
        return json.dumps(result, ensure_ascii=False)
