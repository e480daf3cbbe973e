"""Handler classes for the MCP server's end-to-end tests (tests/test_mcp_server.py).

The server imports this module by name (``--handlers mcp_handlers``) with the generated fixture
package importable as ``mcpfixture``; there is no OrphanHandler, on purpose. Set
MCP_TEST_MARKS to a folder and the slow handler leaves a file there when it is cancelled.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

from mcpfixture import ToolResult, ToolUse
from mcpfixture.mcp_server import report_progress


class LookupHandler:
    """Answers JSON for the output schema; two cities answer what the schema must reject."""

    name = "lookup"

    def execute(self, config: Any, block: ToolUse) -> ToolResult:
        city = block.params["city"]
        if city == "Nowhere":
            return ToolResult.ok(json.dumps({"city": city, "population": -1}))
        if city == "Prose":
            return ToolResult.ok("a sentence, not JSON")
        population = len(city) * 1000 + int(block.params.get("limit", 0))
        return ToolResult.ok(json.dumps({"city": city, "population": population}))


class SlowHandler:
    """Reports progress twice, then sleeps; records its cancellation."""

    name = "slow"

    async def execute(self, config: Any, block: ToolUse) -> ToolResult:
        seconds = float(block.params["seconds"])
        report_progress(1, 2, "started")
        try:
            await asyncio.sleep(seconds / 2)
            report_progress(2, 2, "halfway")
            await asyncio.sleep(seconds / 2)
        except asyncio.CancelledError:
            marks = os.environ.get("MCP_TEST_MARKS")
            if marks:
                (Path(marks) / "slow-cancelled").write_text("cancelled")
            raise
        return ToolResult.ok(f"slept {seconds:g} s")


class NoisyHandler:
    """A sync handler that writes to stdout, as careless handlers do."""

    name = "noisy"

    def execute(self, config: Any, block: ToolUse) -> ToolResult:
        print(block.params["text"])
        sys.stdout.write("{not json-rpc}\n")
        sys.stdout.flush()
        return ToolResult.ok("printed")


class BrokenHandler:
    name = "broken"

    def execute(self, config: Any, block: ToolUse) -> ToolResult:
        raise RuntimeError("kaboom")


class GatedHandler:
    name = "gated"

    def execute(self, config: Any, block: ToolUse) -> ToolResult:
        return ToolResult.ok("gated ran")


class RanHandlerProbe:
    """Not bound to a tool: tests read it to be sure a handler never ran."""
