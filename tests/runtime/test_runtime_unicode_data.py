"""The Unicode tables of the pattern runtime (generator/runtime/unicode_data.py and
generator/ts_runtime/unicode_data.ts): what tools/make_unicode_tables.py writes, the same data in
both languages, and the same categories as this Python's own unicodedata wherever Unicode has not
changed them since its version (14.0.0 for Python 3.11)."""

from __future__ import annotations

import importlib.util
import itertools
import re
import sys
import unicodedata
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from generator.runtime import unicode_data
from generator.runtime.ecma_regex_sets import _categories

ROOT = Path(__file__).resolve().parents[2]
TS_DATA = ROOT / "generator" / "ts_runtime" / "unicode_data.ts"

# Assigned before Unicode 15 and given another General_Category since (both checked against
# unicodedata2's Unicode 17 data): every other difference is a code point unassigned in 14.
RECATEGORIZED = {0x0295: ("Ll", "Lo"), 0x1171E: ("Mn", "Mc")}


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_unicode_tables", ROOT / "tools" / "make_unicode_tables.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_tables_are_what_the_script_writes() -> None:
    pytest.importorskip("unicodedata2", reason="unicodedata2 is in the test extra (make venv)")
    for path, text in _script().outputs().items():
        assert path.read_text("utf-8") == text, f"{path.name} is stale: run tools/make_unicode_tables.py"


def _ts_constants() -> dict[str, Any]:
    """The constants of unicode_data.ts, read as data (strings joined, arrays of pairs listed)."""
    source = TS_DATA.read_text("utf-8")
    found: dict[str, Any] = {}
    for name, body in re.findall(r"^export const (\w+)(?:: [^=]+)? =\s*(.*?);$", source, re.MULTILINE | re.DOTALL):
        if body.startswith("["):
            found[name] = tuple(re.findall(r'\["([^"]*)", "([^"]*)"\]', body))
        else:
            found[name] = "".join(re.findall(r'"([^"]*)"', body))
    return found


def test_both_languages_hold_the_same_data() -> None:
    ts = _ts_constants()
    python = {name: getattr(unicode_data, name) for name in ts}
    assert ts == python
    assert set(ts) == {name for name in vars(unicode_data) if name.isupper()}
    assert len(ts["GENERAL_CATEGORY_VALUES"]) == 80  # 38 values, each with its aliases


def test_the_runs_cover_every_code_point_once() -> None:
    ranges = sorted(r for found in _categories().values() for r in found)
    assert ranges[0][0] == 0 and ranges[-1][1] == sys.maxunicode
    assert all(last + 1 == first for (_, last), (first, _) in itertools.pairwise(ranges))


def test_the_table_agrees_with_this_pythons_unicodedata_where_unicode_did_not_change() -> None:
    table = [""] * (sys.maxunicode + 1)
    for category, ranges in _categories().items():
        for first, last in ranges:
            table[first : last + 1] = [category] * (last + 1 - first)
    changed = {}
    for code in range(sys.maxunicode + 1):
        old = unicodedata.category(chr(code))
        if old != table[code] and old != "Cn":
            changed[code] = (old, table[code])
    assert changed.items() <= RECATEGORIZED.items()
    if unicodedata.unidata_version == "14.0.0":  # Python 3.11
        assert changed == RECATEGORIZED


def test_the_table_stays_small() -> None:
    """The TS runtime ships it: about 6.5 KB of runs (docs/patterns.md gives the number)."""
    assert len(unicode_data.CATEGORY_RUNS) < 7000
    assert TS_DATA.stat().st_size < 12_000
