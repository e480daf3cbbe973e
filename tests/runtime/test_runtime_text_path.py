"""generator/runtime/prompt.py and tool_lists.py on a hand-made catalog (nothing generated)."""

from __future__ import annotations

import pytest
from small_catalog import Ctx, make_catalog

from generator.runtime.native import NativeToolsUnavailable
from generator.runtime.prompt import TextPath
from generator.runtime.tool_lists import build_tools


def test_prompt_section_lists_enabled_tools_with_resolved_text() -> None:
    text = TextPath(make_catalog())
    section = text.prompt_section("plain", {"browser": True})
    assert section.startswith("# Tools")
    assert "## read\nDescription: Read a file in /work. Screenshots too." in section
    assert "## browse" in section and "<session>" in section
    assert "## browse" not in text.prompt_section("plain", {})


def test_prompt_sections_are_cached_per_context() -> None:
    catalog = make_catalog()
    text = TextPath(catalog)
    first = text.prompt_section("plain", Ctx())
    assert text.prompt_section("plain", {}) is first and len(catalog.sections) == 1
    text.prompt_section("plain", Ctx(tags=["x"]))  # unhashable context: computed, not cached
    assert len(catalog.sections) == 1


def test_parse_calls_knows_the_family_tools() -> None:
    text = TextPath(make_catalog())
    calls = text.parse_calls("<read>\n<path>a.txt</path>\n</read>", "plain")
    assert [(c.name, dict(c.params), c.partial) for c in calls] == [("read", {"path": "a.txt"}, False)]
    assert text.known_tools("smart") == {"read": ("path",)}


def test_a_bad_runtime_tool_is_skipped_and_reported() -> None:
    text = TextPath(make_catalog())
    bad = {"id": "use_mcp_tool", "spec": None, "name": "bad", "description": None, "parameters": ()}
    skipped: list[dict] = []
    section = text.prompt_section("plain", {}, [bad], skipped)
    assert "## read" in section and "## bad" not in section
    assert len(skipped) == 1 and skipped[0]["name"] == "bad"


def test_build_tools_refuses_a_family_without_native_tools() -> None:
    catalog = make_catalog()
    with pytest.raises(NativeToolsUnavailable, match="family 'smart'"):
        build_tools(catalog, "anthropic", {}, {}, "smart", {})
    with pytest.raises(NativeToolsUnavailable, match="enable_native_tool_calls"):
        build_tools(catalog, "anthropic", {}, {}, "plain", {"enable_native_tool_calls": False})
    with pytest.raises(ValueError, match="Anthropic option"):
        build_tools(catalog, "gemini", {}, {}, "plain", {}, cache_control=True)

