"""The per-format native entries the TypeScript runtime rebuilds at first use equal the generated ones."""

from __future__ import annotations

import json
from typing import Any


def test_static_entries_rebuilt_from_catalog_data_equal_the_generated_ones() -> None:
    """tool_lists.ts rebuilds each format's TOOLS and META from SPECS on first use, by the rules
    of generator/lower/native.py; the same rules, written here in Python, give the generated
    provider modules' data exactly (so the TS package needs no per-format data)."""
    import importlib

    from generated import catalog_data
    from generated._runtime.formats import FORMATS as RECORDS
    from generated._runtime.native import parameters_schema, placeholder_paths
    from generated._runtime.schema_dialects import tool_entry

    def plain(pieces: Any) -> str:
        return "".join(p for p in pieces if isinstance(p, str))

    def conditional(pieces: Any) -> bool:
        return any(not isinstance(p, str) for p in pieces)

    for name, rec in RECORDS.items():
        module = importlib.import_module(f"generated.{rec.module}")
        for key, v in catalog_data.SPECS.items():
            entry = None
            if plain(v["description"]) or conditional(v["description"]):
                params = [{**p, "instruction": plain(p["instruction"])} for p in v["parameters"]]
                strict = v["strict"] and rec.strict is not None
                entry = tool_entry(name, v["name"], plain(v["description"]), parameters_schema(params), strict=strict)
            assert json.dumps(entry) == json.dumps(module.TOOLS[key]), (name, key)
            gates = [(p["name"], p["requires"]) for p in v["parameters"] if p["requires"] is not None]
            texts = [(None, plain(v["description"]), v["description"])] if conditional(v["description"]) else []
            texts += [
                (p["name"], plain(p["instruction"]), p["instruction"])
                for p in v["parameters"]
                if conditional(p["instruction"])
            ]
            pieces = [*v["description"], *(x for p in v["parameters"] for x in p["instruction"])]
            braces = any("{{" in (x if isinstance(x, str) else x[0]) for x in pieces)
            meta = None
            if gates or texts or braces:
                paths = placeholder_paths(entry) if braces and entry is not None else ()
                meta = {"gates": gates, "texts": texts, "placeholders": braces, "paths": paths}
            assert json.dumps(meta) == json.dumps(module.META[key]), (name, key)
