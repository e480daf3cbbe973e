"""The native entries the Python package bakes are what the shared rules make from its catalog data.

runtime/native.py's ``spec_entry`` and ``spec_meta`` are the one set of rules: the generator bakes
each format's TOOLS and META with them, and the TypeScript runtime makes the same entries at first
use (the conformance corpus compares those with the baked ones: tests/conformance/cases_native.py).
"""

from __future__ import annotations

import importlib
import json


def test_baked_entries_are_what_the_rules_make_of_the_catalog_data() -> None:
    from generated import catalog_data
    from generated._runtime.formats import FORMATS as RECORDS
    from generated._runtime.native import spec_entry, spec_meta

    for name, rec in RECORDS.items():
        module = importlib.import_module(f"generated.{rec.module}")
        assert list(module.TOOLS) == list(catalog_data.SPECS)
        for key, spec in catalog_data.SPECS.items():
            expected = {"entry": module.TOOLS[key], "meta": module.META[key]}
            baked = spec_entry(name, spec)
            assert json.dumps({"entry": baked, "meta": spec_meta(spec, baked)}) == json.dumps(expected), (name, key)
