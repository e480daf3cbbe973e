"""Every case of the JSON Schema Test Suite through both validators, judged by the keyword table.

tests/schema_suite.py holds the runner and the rules (which cases must pass, the deviations on
purpose); here they are applied: a keyword marked enforced with a failing case fails, a refused
keyword that is not refused fails, and docs/validation.md and the generated keyword tables must
be what their scripts write. The TypeScript verdicts come from one node process for the whole
suite (tests/ts_scripts/schema_suite.ts, reading the suite's JSON losslessly).
"""

from __future__ import annotations

import importlib.util
from functools import cache
from typing import Any

import schema_suite
import ts_bridge
from conftest import ROOT


@cache
def _python() -> list[schema_suite.Verdict]:
    return schema_suite.python_verdicts()


@cache
def _typescript() -> list[schema_suite.Verdict]:
    return schema_suite.typescript_verdicts()


def test_the_suite_is_all_there() -> None:
    groups = list(schema_suite.groups())
    cases = sum(len(g.tests) for g in groups)
    assert cases > 3900, cases
    assert {g.dialect for g in groups} == {"2020-12", "draft7"}


def test_python_decides_every_required_case_as_the_suite() -> None:
    found = schema_suite.failures(_python())
    assert not found, f"{len(found)} cases:\n" + "\n".join(found[:40])


def test_typescript_decides_every_required_case_as_the_suite() -> None:
    ts_bridge.require()
    found = schema_suite.failures(_typescript())
    assert not found, f"{len(found)} cases:\n" + "\n".join(found[:40])


def test_refused_keywords_are_refused_not_passed() -> None:
    pairs = zip(schema_suite.groups(), _python(), strict=True)
    refused = [(g, v) for g, v in pairs if schema_suite.status(g) == "refused"]
    assert refused, "the suite has groups using refused keywords (custom meta-schemas)"
    for group, verdict in refused:
        assert verdict["refused"] is not None, group.description


def test_docs_table_is_current() -> None:
    ts_bridge.require()
    expected = schema_suite.render(_python(), _typescript())
    assert (
        schema_suite.DOC.read_text("utf-8") == expected
    ), "docs/validation.md is stale: run `.venv/bin/python tests/schema_suite.py` and commit it"


def _tables_script() -> Any:
    spec = importlib.util.spec_from_file_location(
        "make_validation_tables", ROOT / "tools" / "make_validation_tables.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_keyword_tables_are_what_the_script_writes() -> None:
    for path, text in _tables_script().outputs().items():
        assert path.read_text("utf-8") == text, f"{path.name} is stale: run tools/make_validation_tables.py"
