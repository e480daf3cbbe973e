"""Every field of the spec language has a decision in generator/breaking/fields.py, and
docs/breaking.md's field table is the one that module writes."""

from __future__ import annotations

import sys

import pytest

from conftest import ROOT
from generator.breaking import fields

sys.path.insert(0, str(ROOT / "tools"))

import make_breaking_fields


def test_every_field_of_the_meta_schemas_has_a_decision() -> None:
    assert fields.undecided() == [], "add a Decision for each (generator/breaking/fields.py)"


def test_no_decision_for_a_field_that_is_gone_or_a_rule_that_does_not_exist() -> None:
    assert fields.stale() == []


def test_the_walk_sees_fields_of_every_file_and_definition() -> None:
    places = fields.places()
    for place in (
        "toolgen.yaml:mcp.name_max_length",
        "toolgen.yaml:placeholders.<name>.map[].text",
        "tools/<tool>.yaml:handler.class",
        "<variant>.strict",
        "<parameter>.member_required",
        "<schema>.additionalProperties",
        "<predicate>.model_raw_contains",
        "variants/<family>.yaml:selection.rule",
        "parameters.yaml:parameters.<name>.required",
    ):
        assert place in places, place


def test_a_new_field_without_a_decision_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check is real: a place the decisions do not know is reported."""
    monkeypatch.setattr(fields, "places", lambda: ["toolgen.yaml:brand_new_field", "toolgen.yaml:mcp.separator"])
    assert fields.undecided() == ["toolgen.yaml:brand_new_field"]


def test_the_documented_table_is_current() -> None:
    doc = (ROOT / "docs" / "breaking.md").read_text("utf-8")
    for marker in (make_breaking_fields.START, make_breaking_fields.END, make_breaking_fields.RULES_START):
        assert marker in doc
    assert make_breaking_fields.updated(doc) == doc, "run python tools/make_breaking_fields.py"
