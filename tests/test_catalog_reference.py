"""The bundled specs/ model Cline v4.0.10 as recorded in tests/data/reference/ (vendored facts)."""

from __future__ import annotations

import json
import re
from functools import lru_cache

import pytest

from conftest import BUNDLED_SPECS, reference_file
from generator.diagnostics import Diagnostics
from generator.model import Catalog, Text
from generator.pipeline import load_catalog
from generator.resolve import resolve_family

PLACEHOLDER = re.compile(r"\{\{([A-Z][A-Z0-9_]*)\}\}")


@lru_cache(maxsize=1)
def catalog() -> Catalog:
    diags = Diagnostics()
    model = load_catalog(BUNDLED_SPECS, diags)
    assert model is not None and not diags.has_errors, diags.render()
    return model


@pytest.fixture(scope="module")
def ref() -> dict:
    return json.loads(reference_file("catalog").read_text("utf-8"))


def placeholders(text: Text) -> list[str]:
    return sorted(set(PLACEHOLDER.findall("".join(p.text for p in text))))


def test_enums(ref: dict) -> None:
    assert catalog().project.tool_order == tuple(ref["tool_ids"].values())
    assert catalog().project.family_enum == tuple(ref["model_families"].values())
    assert [t.id for t in catalog().tools] == list(ref["tool_ids"].values())
    assert sorted(t.id for t in catalog().tools if not t.variants) == sorted(ref["tool_ids_without_any_spec"])


def test_counts(ref: dict) -> None:
    variants = [v for t in catalog().tools for v in t.variants]
    assert len(variants) == ref["counts"]["tool_spec_variants"] == len(ref["tools"])
    assert sum(len(v.parameters) for v in variants) == ref["counts"]["parameters_total"]
    assert len(catalog().families) == ref["counts"]["prompt_variants"]


def test_every_spec_variant(ref: dict) -> None:
    model_keys = {(v.tool_id, v.family) for t in catalog().tools for v in t.variants}
    assert model_keys == {(t["id"], t["variant"]) for t in ref["tools"]}
    problems = []
    for entry in ref["tools"]:
        variant = catalog().tool(entry["id"]).variant(entry["variant"])
        key = f"{entry['variant']}/{entry['id']}"

        def check(what: str, got, want, key: str = key) -> None:
            if got != want:
                problems.append(f"{key} {what}: model {got!r} != reference {want!r}")

        check("name", variant.name, entry["name"])
        check("has_context_requirements", variant.requires is not None, entry["has_context_requirements"])
        check(
            "description placeholders", placeholders(variant.description), sorted(entry["description"]["placeholders"])
        )
        check("parameter order", [p.name for p in variant.parameters], [p["name"] for p in entry["parameters"]])
        # not strict: a length mismatch is already one collected problem (parameter order) above
        for param, want in zip(variant.parameters, entry["parameters"], strict=False):
            where = f"parameter {param.name}"
            check(f"{where} required", param.required, want["required"])
            check(f"{where} type", param.type, want["type"])
            check(f"{where} dependencies", list(param.dependencies), want["dependencies"])
            check(f"{where} has_usage", param.usage is not None, want["has_usage"])
            check(f"{where} has_description", bool(param.description), want["has_description"])
            check(f"{where} has_context_requirements", param.requires is not None, want["has_context_requirements"])
            check(
                f"{where} instruction placeholders",
                placeholders(param.instruction),
                sorted(want["instruction"]["placeholders"]),
            )
            check(
                f"{where} conditional instruction",
                any(p.when is not None for p in param.instruction),
                want["instruction"]["kind"] == "function",
            )
            check(
                f"{where} shared task_progress",
                param.shared == "task_progress",
                want["is_shared_TASK_PROGRESS_PARAMETER"],
            )
    assert not problems, "\n".join(problems)


def test_handlers(ref: dict) -> None:
    problems = []
    for tool_id, want in ref["handlers"].items():
        handler = catalog().tool(tool_id).handler
        got = {
            "handler_class": handler.class_name,
            "shared_alias": handler.kind == "shares",
            "uses_validator": handler.validator,
            "returns_undefined": handler.kind == "none",
        }
        expected = {k: want[k] for k in got}
        if got != expected:
            problems.append(f"{tool_id}: {got} != {expected}")
    assert not problems, "\n".join(problems)
    assert sorted(ref["handlers"]) == sorted(t.id for t in catalog().tools)


def test_families(ref: dict) -> None:
    by_order = sorted(ref["variants"], key=lambda v: v["selection_order"])
    assert [f.name for f in catalog().families] == [v["family"] for v in by_order]
    assert [f.name for f in catalog().families] == ref["variant_selection_rules"]["order"]
    assert catalog().project.fallback == ref["variant_selection_rules"]["fallback"]
    for want in ref["variants"]:
        family = catalog().family(want["family"])
        assert list(family.tools) == want["tools"], family.name
        assert dict(family.labels) == want["labels"], family.name
        assert list(family.tags) == want["tags"], family.name
        assert family.version == want["version"], family.name
        assert family.use_native_tools == want["use_native_tools"], family.name


def test_tool_spec_resolution(ref: dict) -> None:
    for want in ref["variants"]:
        resolved = resolve_family(catalog(), catalog().family(want["family"]))
        got = [{"id": v.tool_id, "spec_variant": v.family} for v in resolved.variants]
        assert got == want["tool_spec_resolution"], want["family"]


def test_unselected_spec_variants(ref: dict) -> None:
    used = {v.key for f in catalog().families for v in resolve_family(catalog(), f).variants}
    unused = {v.key for t in catalog().tools for v in t.variants} - used
    assert unused == set(ref["spec_variants_not_selected_by_any_variant_config"])


def test_mcp_and_subagent_naming(ref: dict) -> None:
    project = catalog().project
    assert project.mcp_separator == ref["mcp"]["identifier_value"]
    assert project.mcp_name_max_length == ref["mcp"]["name_max_length"]
    assert project.subagent_prefix == ref["dispatch"]["dynamic_subagent_tools"]["name_prefix"]
    assert project.subagent_max_length == ref["dispatch"]["dynamic_subagent_tools"]["max_length"]


#: Our wording may be shorter or longer than the modelled system's, by at most this share.
LENGTH_TOLERANCE = 0.15


def text_lengths(text: Text) -> tuple[int, int]:
    """Length without conditional pieces, and with all of them (the notebook section of `diff`)."""
    return len("".join(p.text for p in text if p.when is None)), len("".join(p.text for p in text))


def test_text_lengths_close_to_reference(ref: dict) -> None:
    """Texts in our own words stay about as long as the texts they stand for (within ±15%)."""
    problems = []

    def check(what: str, got: int, want: int) -> None:
        low, high = want * (1 - LENGTH_TOLERANCE), want * (1 + LENGTH_TOLERANCE)
        if not low <= got <= high:
            problems.append(f"{what}: {got} characters, reference {want} (allowed {low:.0f}-{high:.0f})")

    for entry in ref["tools"]:
        variant = catalog().tool(entry["id"]).variant(entry["variant"])
        key = f"{entry['variant']}/{entry['id']}"
        check(f"{key} description", text_lengths(variant.description)[0], entry["description"]["length"])
        for param, want in zip(variant.parameters, entry["parameters"], strict=False):
            default, full = text_lengths(param.instruction)
            info = want["instruction"]
            if info["kind"] == "function":
                check(f"{key} {param.name} instruction", default, info["length_default"])
                check(f"{key} {param.name} instruction (notebook tab open)", full, info["length_when_ipynb_tab_open"])
            else:
                check(f"{key} {param.name} instruction", default, info["length"])
    assert not problems, "\n".join(problems)
