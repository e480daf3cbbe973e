"""The TS package's one-format entry modules (generated-ts/<module>.ts, as generated/<module>.py)
answer exactly as index.ts does with the format given."""

from __future__ import annotations

import json

import pytest

import ts_bridge
from generated._runtime.formats import FORMATS
from generated.catalog_data import FAMILIES
from replies_data import reply

NATIVE = next(name for name, family in FAMILIES.items() if family["use_native_tools"])
#: Contexts that switch native tools on and off and turn the tools' requirements both ways.
CONTEXTS = (
    {"provider_id": "anthropic", "enable_native_tool_calls": True},
    {"provider_id": "openai", "model_id": "gpt-5", "enable_native_tool_calls": True, "yolo_mode": True},
    {"provider_id": "cline", "cline_web_tools_enabled": True, "editor_tabs": ["a.ipynb"], "skills": ["s"]},
    {"enable_native_tool_calls": False},
    None,
)
#: A run-time MCP tool and a subagent tool (dynamicVariants' shapes): the static list with them.
_RUNTIME_TOOL = {"spec": None, "requires": None, "strict": False, "parameters": []}
MCP_TOOL = {
    **_RUNTIME_TOOL,
    "id": "use_mcp_tool",
    "name": "srv__t",
    "description": ["An MCP tool."],
    "input_schema": {"type": "object", "properties": {"q": {"type": "string"}}},
    "origin": {"server": "srv", "uid": "u1", "tool": "t"},
}
SUBAGENT = {
    **_RUNTIME_TOOL,
    "id": "subagent_x",
    "name": "subagent_x",
    "description": ["A subagent."],
    "input_schema": None,
}


@pytest.mark.parametrize("name", list(FORMATS))
def test_entry_module_equals_index_with_the_format(name: str) -> None:
    """Every family (those without native tool calling are refused alike), in several contexts:
    the entry module reads a catalog that holds only the native families' variants."""
    ts_bridge.require()
    rec = FORMATS[name]
    cases = [
        {
            "module": rec.module,
            "format": name,
            "family": family,
            "context": context,
            "response": reply(name),
            "cacheControl": rec.cache_control,
            "extraVariants": extra,
        }
        for family in [*FAMILIES, "no-such-family"]
        for context in CONTEXTS
        for extra in (None, [MCP_TOOL], [SUBAGENT])
    ]
    results = ts_bridge.run("format_entries", cases)
    refused = made = 0
    for case, result in zip(cases, results, strict=True):
        assert "ok" in result, (case["family"], result)
        via_entry, via_index = json.loads(result["ok"]["text"])
        assert via_entry == via_index, (case["family"], case["context"])
        assert via_entry["dialect"] == name and via_entry["calls"] and via_entry["results"]
        made += "ok" in via_entry["tools"] and bool(via_entry["tools"]["ok"])
        refused += "error" in via_entry["tools"]
        if case["family"] == NATIVE and case["context"] == CONTEXTS[0]:  # the run-time tools are in the list
            listed = json.dumps(via_entry["tools"]["ok"])
            for tool in (MCP_TOOL, SUBAGENT):
                assert (f'"{tool["name"]}"' in listed) == (tool in (case["extraVariants"] or ())), tool["name"]
    assert made and refused  # both outcomes are compared
