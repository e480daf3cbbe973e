"""Context requirements: which tools, parameters and text pieces a context enables."""

from __future__ import annotations

import pytest

import generated
from generated import Context, ContextError, enabled_tools, resolve_text
from generated.catalog import SPECS, visible_parameters

BASE = {"provider_id": "anthropic", "model_id": "claude-sonnet-4-5-20250929"}


def tools(family: str, **context) -> tuple[str, ...]:
    return enabled_tools(family, {**BASE, **context})


@pytest.mark.parametrize(
    "family,tool,field,on,off",
    [
        ("generic", "use_mcp_tool", "has_mcp_hub", True, False),
        ("generic", "access_mcp_resource", "has_mcp_hub", True, False),
        ("generic", "ask_followup_question", "yolo_mode", False, True),
        ("generic", "browser_action", "supports_browser_use", True, False),
        ("generic", "focus_chain", "focus_chain_enabled", True, False),
        ("generic", "generate_explanation", "is_cli", False, True),
        ("generic", "use_skill", "skills", ["pdf"], []),
    ],
)
def test_tool_level_requirements(family: str, tool: str, field: str, on, off) -> None:
    assert tool in tools(family, **{field: on})
    assert tool not in tools(family, **{field: off})


def test_subagents_need_enabled_and_not_a_subagent_run() -> None:
    assert "use_subagents" in tools("generic", subagents_enabled=True, is_subagent_run=False)
    assert "use_subagents" not in tools("generic", subagents_enabled=True, is_subagent_run=True)
    assert "use_subagents" not in tools("generic", subagents_enabled=False)


def test_web_tools_need_cline_provider_and_flag() -> None:
    for tool in ("web_fetch", "web_search"):
        assert tool in enabled_tools(
            "next-gen", {"provider_id": "cline", "model_id": "x", "cline_web_tools_enabled": True}
        )
        assert tool not in enabled_tools(
            "next-gen", {"provider_id": "cline", "model_id": "x", "cline_web_tools_enabled": False}
        )
        assert tool not in enabled_tools(
            "next-gen", {"provider_id": "openai", "model_id": "x", "cline_web_tools_enabled": True}
        )


def test_apply_patch_depends_on_model_id() -> None:
    requirement = [v["requires"] for k, v in SPECS.items() if v["id"] == "apply_patch" and v["requires"]]
    assert requirement, "apply_patch carries a model_id requirement"
    fams = [
        f for f in generated.catalog.VARIANTS if any(v["id"] == "apply_patch" for v in generated.catalog.VARIANTS[f])
    ]
    results = {
        model: any("apply_patch" in enabled_tools(f, {"provider_id": "openai", "model_id": model}) for f in fams)
        for model in ("gpt-5", "gpt-5-codex", "claude-sonnet-4-5-20250929", "gpt-oss-120b")
    }
    assert len(set(results.values())) == 2, results


def test_execute_command_parameter_requires_yolo() -> None:
    variant = SPECS["generic/execute_command"]
    gated = [p["name"] for p in variant["parameters"] if p["requires"]]
    assert gated
    on = [p["name"] for p in visible_parameters(variant, {**BASE, "yolo_mode": True})]
    off = [p["name"] for p in visible_parameters(variant, {**BASE, "yolo_mode": False})]
    assert set(gated) <= set(on) and not set(gated) & set(off)


def test_task_progress_depends_on_focus_chain() -> None:
    variant = SPECS["generic/read_file"]
    context = {**BASE, "focus_chain_enabled": True}
    names = [p["name"] for p in visible_parameters(variant, context, enabled_tools("generic", context))]
    assert "task_progress" in names
    context = {**BASE, "focus_chain_enabled": False}
    names = [p["name"] for p in visible_parameters(variant, context, enabled_tools("generic", context))]
    assert "task_progress" not in names


def test_notebook_text_needs_ipynb_tab() -> None:
    diff = next(p for p in SPECS["generic/replace_in_file"]["parameters"] if p["name"] == "diff")
    plain = resolve_text(diff["instruction"], {**BASE, "editor_tabs": ["src/a.py"]})
    notebook = resolve_text(diff["instruction"], {**BASE, "editor_tabs": ["src/a.py", "nb/x.ipynb"]})
    assert notebook.startswith(plain) and "Jupyter notebooks" in notebook[len(plain):]
    assert "Jupyter" not in plain
    assert resolve_text(diff["instruction"], None) == plain  # no context: unconditional text only
    assert "Jupyter" not in resolve_text(diff["instruction"], {**BASE, "editor_tabs": ["x.IPYNB"]})


def test_placeholders_resolve_from_context() -> None:
    path = SPECS["generic/read_file"]["parameters"][0]
    assert "{{CWD}}" in resolve_text(path["instruction"], None)
    text = resolve_text(path["instruction"], {**BASE, "cwd": "/work/x", "is_multi_root_enabled": True})
    assert "/work/x" in text and "@workspace:path" in text and "{{" not in text
    text = resolve_text(path["instruction"], Context(cwd="/w"))
    assert "/w." in text and "@workspace" not in text


def test_context_from_mapping_reports_every_problem() -> None:
    with pytest.raises(ContextError) as info:
        Context.from_mapping(
            {"nope": 1, "yolo_mode": "yes", "skills": ["a", 2], "cwd": None, "browser_viewport_width": True}
        )
    problems = info.value.problems
    assert len(problems) == 5
    assert "unknown key 'nope'" in problems
    assert "yolo_mode: expected boolean, got string" in problems
    assert any(p.startswith("skills: expected string_list") for p in problems)
    assert "cwd: expected string, got null" in problems
    assert "browser_viewport_width: expected integer, got boolean" in problems
    ctx = Context.from_mapping({"skills": ["a"], "provider_id": None, "yolo_mode": True})
    assert ctx.skills == ("a",) and ctx.yolo_mode is True
    with pytest.raises(ContextError):
        Context.from_mapping(["not", "a", "mapping"])


def test_enabled_variants_hands_out_copies() -> None:
    """Changing what enabled_variants returned changes nothing later calls return."""
    from generated import Context, enabled_variants, prompt_section

    before = prompt_section("generic", Context(cwd="/copies"))
    variant = enabled_variants("generic", Context())[0]
    variant["parameters"][0]["instruction"] = ["CHANGED BY A CALLER"]
    assert "CHANGED BY A CALLER" not in prompt_section("generic", Context(cwd="/copies-2"))
    assert prompt_section("generic", Context(cwd="/copies")) == before
    assert enabled_variants("generic", Context())[0] != variant


def test_prompt_cache_keeps_values_of_different_types_apart() -> None:
    """True == 1 and both hash alike, but the prompt reads "true" for one and "1" for the other,
    whichever comes first (a Context built directly is not type-checked)."""
    from generated import Context, prompt_section

    flag = Context(supports_browser_use=True, browser_viewport_width=True)  # type: ignore[arg-type]
    number = Context(supports_browser_use=True, browser_viewport_width=1)
    assert "truex600" in prompt_section("generic", flag)
    assert "1x600" in prompt_section("generic", number)
    assert "truex600" in prompt_section("generic", flag)
