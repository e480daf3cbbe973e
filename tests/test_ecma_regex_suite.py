"""The JSON Schema Test Suite's pattern cases, answered by the pattern runtime in both languages.

From tests/data/json-schema-test-suite (a copy, see SOURCE.md there), drafts 2020-12 and 7:
optional/ecmascript-regex.json, optional/non-bmp-regex.json, pattern.json, patternProperties.json.
Every group is taken (a test checks it); their schemas are ``pattern`` (with ``type``), or
``patternProperties`` (with ``type`` and ``additionalProperties: false``) whose sub-schemas are
``true``, ``false``, ``{"type": T}`` or ``{"maximum": N}``. The tiny evaluator below applies those
keywords; every pattern question goes to ``compile_pattern`` (Python) or ``compilePattern`` (TS).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import ts_bridge
from generator.runtime.ecma_regex import compile_pattern

SUITE = Path(__file__).parent / "data" / "json-schema-test-suite" / "tests"
FILES = ["optional/ecmascript-regex.json", "optional/non-bmp-regex.json", "pattern.json", "patternProperties.json"]
DRAFTS = ["draft2020-12", "draft7"]
TYPES: dict[str, Callable[[Any], bool]] = {
    "string": lambda v: isinstance(v, str),
    "object": lambda v: isinstance(v, dict),
    "integer": lambda v: (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, float) and v.is_integer()),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}
Matches = Callable[[str, str], bool]


def _taken(schema: Any) -> bool:
    keys = set(schema) - {"$schema", "type"}
    if keys == {"pattern"}:
        return True
    if not keys or not keys <= {"patternProperties", "additionalProperties"}:
        return False
    subs = [*schema["patternProperties"].values(), schema.get("additionalProperties", True)]
    return all(isinstance(s, bool) or set(s) <= {"type", "maximum"} for s in subs)


def _sub_valid(schema: Any, value: Any) -> bool:
    if isinstance(schema, bool):
        return schema
    if "type" in schema and not TYPES[schema["type"]](value):
        return False
    maximum = schema.get("maximum")
    return maximum is None or not TYPES["number"](value) or value <= maximum


def valid(schema: dict[str, Any], data: Any, matches: Matches) -> bool:
    if "type" in schema and not TYPES[schema["type"]](data):
        return False
    if "pattern" in schema:
        return not isinstance(data, str) or matches(schema["pattern"], data)
    if not isinstance(data, dict):
        return True
    for key, value in data.items():
        hits = [sub for pattern, sub in schema["patternProperties"].items() if matches(pattern, key)]
        if not hits:
            hits = [schema.get("additionalProperties", True)]
        if not all(_sub_valid(sub, value) for sub in hits):
            return False
    return True


def cases() -> list[tuple[str, dict[str, Any], Any, bool]]:
    found = []
    for draft in DRAFTS:
        for name in FILES:
            for group in json.loads((SUITE / draft / name).read_text("utf-8")):
                if _taken(group["schema"]):
                    for test in group["tests"]:
                        where = f"{draft}/{name}: {group['description']}: {test['description']}"
                        found.append((where, group["schema"], test["data"], test["valid"]))
    return found


def _questions(schema: dict[str, Any], data: Any) -> list[tuple[str, str]]:
    """Every (pattern, text) the evaluator may ask for this case."""
    patterns = [schema["pattern"]] if "pattern" in schema else list(schema["patternProperties"])
    texts = [data] if isinstance(data, str) else list(data) if isinstance(data, dict) else []
    return [(pattern, text) for pattern in patterns for text in texts]


def test_every_case_of_the_copied_files_is_taken() -> None:
    groups = [g for d in DRAFTS for n in FILES for g in json.loads((SUITE / d / n).read_text("utf-8"))]
    assert len(cases()) == sum(len(group["tests"]) for group in groups) == 241


@pytest.mark.parametrize("where, schema, data, expected", cases(), ids=lambda v: v if isinstance(v, str) else "")
def test_python_answers_the_suite(where: str, schema: dict[str, Any], data: Any, expected: bool) -> None:
    assert valid(schema, data, lambda pattern, text: compile_pattern(pattern)(text)) is expected


def test_typescript_answers_the_suite() -> None:
    taken = cases()
    questions = sorted({q for _, schema, data, _ in taken for q in _questions(schema, data)})
    inputs = [{"pattern": pattern, "texts": [text]} for pattern, text in questions]
    results = ts_bridge.run("ecma_regex", inputs)
    answers = {q: r["ok"]["ours"]["verdicts"][0] for q, r in zip(questions, results, strict=True)}

    def matches(pattern: str, text: str) -> bool:
        return bool(answers[(pattern, text)])

    wrong = [where for where, schema, data, expected in taken if valid(schema, data, matches) is not expected]
    assert not wrong
