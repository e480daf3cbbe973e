"""What the bundled catalog's package returns, over the reference contexts, as one JSON document.

Used by tests/test_behaviour_snapshot.py (digests per family and kind, so any change is a
reviewed snapshot diff) and by hand, to compare the package before and after a refactoring:

    python tests/behaviour.py before.json        # on the old commit
    python tests/behaviour.py after.json         # on the new one
    diff <(python -m json.tool before.json) <(python -m json.tool after.json)

The inputs: the 276 contexts of the vendored selection grid, the golden context with each
feature toggle flipped, every format, the MCP servers of tests/data/mcp/servers.json with two
subagents, replies parsed on the text path, and routing decisions of the dispatch table.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
GRID = HERE / "data" / "reference" / "cline-v4.0.10-variant-selection-grid.json"
SERVERS = HERE / "data" / "mcp" / "servers.json"
SUBAGENTS = [
    {"name": "Code Reviewer", "description": "Reviews a diff and lists problems."},
    {"name": "planner", "description": "Breaks a task into steps."},
]
FORMATS = ("anthropic", "openai-chat", "openai-responses", "gemini", "bedrock-converse")
TOGGLES = (
    "supports_browser_use",
    "enable_native_tool_calls",
    "cline_web_tools_enabled",
    "subagents_enabled",
    "focus_chain_enabled",
    "yolo_mode",
    "is_cli",
    "has_mcp_hub",
    "is_multi_root_enabled",
)
REPLIES = (
    "<read_file>\n<path>src/a.py</path>\n</read_file>",
    "Let me look.\n<execute_command>\n<command>ls -la</command>\n<requires_approval>false</requires_approval>\n"
    "</execute_command>\n<attempt_completion>\n<result>done</result>\n</attempt_completion>",
    "<write_to_file>\n<path>x.txt</path>\n<content>\na</path>b\n</content>\n</write_to_file>",
    "<replace_in_file>\n<path>f</path>\n<diff>\n------- SEARCH\nx\n=======\ny\n+++++++ REPLACE\n</diff>",
    "<unknown_tool><a>1</a></unknown_tool> plain text <ask_followup_question><question>Why?</question>",
)


def _contexts(package: Any) -> list[tuple[str, Any]]:
    from golden import GOLDEN_FIELDS

    cases = json.loads(GRID.read_text("utf-8"))["cases"]
    fields = set(package.context.FIELD_TYPES)
    out = [(f"grid{i:03d}", package.Context.from_mapping(case["context"])) for i, case in enumerate(cases)]
    golden = {k: v for k, v in GOLDEN_FIELDS.items() if k in fields}
    out.append(("golden", package.Context.from_mapping(golden)))
    for toggle in TOGGLES:
        if toggle in fields:
            flipped = {**golden, toggle: not golden.get(toggle, False)}
            out.append((f"golden-{toggle}", package.Context.from_mapping(flipped)))
    for model in ("claude-sonnet-4-5", "gpt-5.1", "gemini-3-pro", "devstral", "glm-4.6", "qwen3"):
        for native in (True, False):
            out.append(
                (
                    f"golden-{model}-{native}",
                    package.Context.from_mapping({**golden, "model_id": model, "enable_native_tool_calls": native}),
                )
            )
    return out


def _call(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """The result, or the exception's type name (an expected outcome, not a failure)."""
    try:
        return fn(*args, **kwargs)
    except Exception as exc:
        return {"raises": type(exc).__name__}


def capture(package: Any) -> dict[str, Any]:
    """Every observable answer of the package for the inputs above, keyed by a readable case name."""
    from importlib import import_module

    prompt = import_module(f"{package.__name__}.prompt")
    catalog = import_module(f"{package.__name__}.catalog")
    dispatch = import_module(f"{package.__name__}.dispatch")
    servers = json.loads(SERVERS.read_text("utf-8"))
    result: dict[str, Any] = {}
    for name, ctx in _contexts(package):
        family = str(package.select_family(ctx))
        case: dict[str, Any] = {"family": family, "enabled": list(package.enabled_tools(family, ctx))}
        for fmt in FORMATS:
            case[fmt] = _call(package.native_tools, family, ctx, format=fmt)
        case["prompt"] = _call(package.prompt_section, family, ctx)
        if name.startswith("golden"):
            extra, skipped = catalog.dynamic_variants(family, ctx, mcp_servers=servers, subagents=SUBAGENTS)
            case["dynamic"] = {"names": [v.get("name") for v in extra], "skipped": skipped}
            for fmt in FORMATS:
                case[f"dynamic-{fmt}"] = _call(package.native_tools, family, ctx, format=fmt, extra_variants=extra)
            case["dynamic-prompt"] = _call(prompt.prompt_section, family, ctx, extra_variants=extra)
        result[name] = case
    for family in sorted(str(f) for f in package.Family):
        for i, reply in enumerate(REPLIES):
            calls = _call(package.parse_calls, reply, family)
            result[f"parse/{family}/{i}"] = calls if isinstance(calls, dict) else [_use(c) for c in calls]
    result["dispatch"] = dispatch.dispatch_table()
    result["routing"] = {
        name: _route(dispatch, package, name)
        for name in [str(t) for t in package.ToolId]
        + ["cfetch0mcp0fetch", "x__mcp__y", "use_subagent_planner", "use_subagent_", "nope", ""]
    }
    return result


def _use(call: Any) -> dict[str, Any]:
    return {"name": call.name, "params": dict(call.params), "partial": call.partial}


def _route(dispatch: Any, package: Any, name: str) -> str | None:
    """Which handler class a tool-use name reaches when every bound class exists."""

    class Namespace:
        def __getattr__(self, attr: str) -> Any:
            return type(attr, (), {"__init__": lambda self, *a: None, "name": attr})

    coordinator = package.Coordinator.from_namespace(Namespace())
    handler = coordinator.get_handler(name)
    if handler is None:
        return None
    inner = getattr(handler, "inner", handler)
    return f"{type(handler).__name__}:{type(inner).__name__}"


def digests(document: dict[str, Any]) -> dict[str, str]:
    """A short digest per (kind, family): small enough to snapshot, precise enough to flag any change."""
    groups: dict[str, list[Any]] = {}
    for name, value in document.items():
        if isinstance(value, dict) and "family" in value:
            for kind, answer in value.items():
                if kind != "family":
                    groups.setdefault(f"{kind}/{value['family']}", []).append([name, answer])
        else:
            groups.setdefault(name.rsplit("/", 1)[0], []).append([name, value])
    return {
        key: hashlib.sha256(json.dumps(items, sort_keys=False, ensure_ascii=False).encode()).hexdigest()[:16]
        for key, items in sorted(groups.items())
    }


def main(argv: list[str]) -> int:
    sys.path[:0] = [str(HERE), str(HERE.parent)]  # conftest's golden context; the committed package
    import generated

    Path(argv[1]).write_text(json.dumps(capture(generated), indent=1, ensure_ascii=False) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
