"""Validation plus dispatch per call through ``Offer.execute`` (issue 13's target: at most 20 µs).

``python benchmarks/validation.py [ROOT]`` imports ``generated`` from ROOT (default: this
repository) and prints one JSON object of median microseconds per call:

* ``dispatch_only``: ``Coordinator.execute`` with a handler that returns at once (no checks);
* ``offer_*``: ``Offer.execute`` (permission check, argument validation, dispatch) for a typical
  tool: ``read_file`` on the text path (strings coerced), ``execute_command`` native with a
  boolean, an MCP tool with an enum, bounds and ``additionalProperties: false``, and the same
  MCP call with three problems (the error result path);
* ``jsonschema_*``: the same MCP arguments checked by the ``jsonschema`` package (a validator
  built once, ``iter_errors`` per call) plus the same dispatch, when jsonschema is installed.
"""

from __future__ import annotations

import json
import statistics
import sys
import timeit
from collections.abc import Callable
from pathlib import Path
from typing import Any

NATIVE = {"provider_id": "openai", "model_id": "gpt-5", "enable_native_tool_calls": True}
WEATHER = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "minLength": 1},
        "units": {"type": "string", "enum": ["metric", "imperial"]},
        "days": {"type": "integer", "minimum": 1, "maximum": 14},
    },
    "required": ["city"],
    "additionalProperties": False,
}
SERVERS = [{"uid": "wx", "name": "weather", "tools": [{"name": "get_weather", "inputSchema": WEATHER}]}]


def _micros(func: Callable[[], Any], repeats: int = 7) -> float:
    """Median microseconds per call over ``repeats`` batches of about 0.2 s."""
    func()
    timer = timeit.Timer(func)
    number, elapsed = timer.autorange()
    number = max(1, int(number * 0.2 / max(elapsed, 1e-9)))
    return round(statistics.median(t / number for t in timer.repeat(repeats, number)) * 1e6, 2)


def main(root: Path) -> dict[str, float]:
    sys.path.insert(0, str(root))
    import generated
    from generated import Offer, ToolResult, ToolUse

    class Quick:
        def __init__(self, name: str) -> None:
            self.name = name

        def execute(self, config: Any, block: Any) -> Any:
            return ToolResult.ok("ok")

    coordinator = generated.Coordinator()
    for tool_id in generated.Coordinator.bindings.handlers:
        coordinator.register(Quick(tool_id))
    separator = generated.catalog.CATALOG.mcp["separator"]
    weather = f"wx{separator}get_weather"
    text = Offer("generic", {}, mcp_servers=SERVERS)
    native = Offer("native-next-gen", NATIVE, format="openai-chat", mcp_servers=SERVERS)
    read = ToolUse("read_file", {"path": "src/app.ts", "task_progress": "- [x] one"})
    command = ToolUse("execute_command", {"command": "ls", "requires_approval": False}, id="c")
    good = ToolUse(weather, {"city": "Oslo", "units": "metric", "days": 3}, id="c")
    bad = ToolUse(weather, {"units": "kelvin", "days": 99, "x": 1}, id="c")
    out = {
        "dispatch_only": _micros(lambda: coordinator.execute(None, read)),
        "offer_text_read_file": _micros(lambda: text.execute(coordinator, None, read)),
        "offer_native_execute_command": _micros(lambda: native.execute(coordinator, None, command)),
        "offer_native_mcp_valid": _micros(lambda: native.execute(coordinator, None, good)),
        "offer_native_mcp_three_problems": _micros(lambda: native.execute(coordinator, None, bad)),
    }
    try:
        import jsonschema
    except ImportError:
        return out
    validator = jsonschema.Draft202012Validator(WEATHER)

    def with_jsonschema(use: Any) -> Any:
        errors = list(validator.iter_errors(dict(use.params)))
        if errors:
            return ToolResult.error("\n".join(e.message for e in errors))
        return coordinator.execute(None, use)

    out["jsonschema_mcp_valid"] = _micros(lambda: with_jsonschema(good))
    out["jsonschema_mcp_three_problems"] = _micros(lambda: with_jsonschema(bad))
    return out


if __name__ == "__main__":
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent
    print(json.dumps(main(root), indent=1))
