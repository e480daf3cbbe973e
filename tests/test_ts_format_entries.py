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


@pytest.mark.parametrize("name", list(FORMATS))
def test_entry_module_equals_index_with_the_format(name: str) -> None:
    ts_bridge.require()
    rec = FORMATS[name]
    case = {
        "module": rec.module,
        "format": name,
        "family": NATIVE,
        "context": {"provider_id": "anthropic", "enable_native_tool_calls": True},
        "response": reply(name),
        "cacheControl": rec.cache_control,
    }
    [result] = ts_bridge.run("format_entries", [case])
    assert "ok" in result, result
    via_entry, via_index = json.loads(result["ok"]["text"])
    assert via_entry == via_index
    assert via_entry["dialect"] == name and via_entry["tools"] and via_entry["calls"] and via_entry["results"]
