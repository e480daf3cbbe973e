"""Checks added after the code review: values and names that used to slip through to run time."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import edit, run_cli


def _errors(err: str) -> list[tuple[str, int, int, str]]:
    return [
        (m[1], int(m[2]), int(m[3]), m[4])
        for m in re.finditer(r"^(\S+?):(\d+):(\d+): error\[(E\d{3})\]", err, re.M)
    ]


def _validate(capsys, specs: Path) -> tuple[int, str]:
    code, _, err = run_cli(capsys, "validate", "--specs", specs)
    assert "Traceback" not in err and "internal error" not in err
    return code, err


def _line_of(path: Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text("utf-8").splitlines(), 1) if needle in line)


@pytest.mark.parametrize("value", [".inf", "-.inf", ".nan"])
def test_non_finite_numbers_are_located_errors(capsys, specs: Path, value: str) -> None:
    project = specs / "toolgen.yaml"
    edit(
        project, "  todo_enabled:\n", f"  ratio:\n    type: number\n    default: {value}\n    doc: x\n  todo_enabled:\n"
    )
    code, err = _validate(capsys, specs)
    assert code == 2
    assert ("specs/toolgen.yaml", _line_of(project, f"default: {value}"), 14, "E311") in _errors(err)


@pytest.mark.parametrize("name", ["__init__", "str", "float", "Any", "get", "Camel", "with-dash"])
def test_context_field_names_must_be_safe_attributes(capsys, specs: Path, name: str) -> None:
    project = specs / "toolgen.yaml"
    edit(
        project, "  todo_enabled:\n", f"  {name}:\n    type: boolean\n    default: false\n    doc: x\n  todo_enabled:\n"
    )
    code, err = _validate(capsys, specs)
    assert code == 2
    assert ("specs/toolgen.yaml", _line_of(project, f"  {name}:"), 3, "E303") in _errors(err)


def test_equals_on_a_list_field_is_refused(capsys, specs: Path) -> None:
    family = specs / "variants/compact.yaml"
    edit(family, "{field: custom_prompt, equals: compact}", "{field: editor_tabs, equals: compact}")
    code, err = _validate(capsys, specs)
    assert code == 2
    assert "'equals' compares a whole value, but context field 'editor_tabs' is a list" in err


def test_routing_format_must_be_generated(capsys, specs: Path) -> None:
    project = specs / "toolgen.yaml"
    edit(project, "name: fixture\n", "name: fixture\nformats: [gemini]\n")
    code, err = _validate(capsys, specs)
    assert code == 2
    found = _errors(err)
    assert ("specs/toolgen.yaml", _line_of(project, "default: openai-chat"), 12, "E310") in found
    assert "routing sends requests to format 'anthropic', which 'formats' leaves out" in err


def test_routing_predicates_read_provider_and_model_only(capsys, specs: Path) -> None:
    project = specs / "toolgen.yaml"
    edit(
        project,
        "    - {providers: [anthropic], format: anthropic}",
        "    - {providers: [anthropic], when: {field: yolo_mode, truthy: true}, format: anthropic}",
    )
    code, err = _validate(capsys, specs)
    assert code == 2
    assert "routing sees only provider_id and model_id, not 'yolo_mode'" in err


def test_placeholder_default_and_map_must_fit_the_field(capsys, specs: Path) -> None:
    project = specs / "toolgen.yaml"
    edit(
        project,
        'CWD: {field: cwd, default: "/"}',
        "CWD: {field: cwd, default: {a: 1}}\n  YOLO: {field: yolo_mode, default: '', map: [{when: 3, text: x}]}",
    )
    code, err = _validate(capsys, specs)
    assert code == 2
    assert "default {'a': 1} of placeholder CWD is neither text nor a string value" in err
    assert "map value 3 can never equal field 'yolo_mode' of type boolean" in err


def test_tool_names_must_not_contain_the_mcp_separator(capsys, specs: Path) -> None:
    project = specs / "toolgen.yaml"
    edit(project, "name: fixture\n", "name: fixture\nmcp: {separator: _file}\n")
    code, err = _validate(capsys, specs)
    assert code == 2
    assert "tool name 'read_file' contains the MCP separator '_file'" in err


def test_subagent_prefix_must_not_contain_the_mcp_separator(capsys, specs: Path) -> None:
    project = specs / "toolgen.yaml"
    edit(project, "name: fixture\n", "name: fixture\nmcp: {separator: sub}\nsubagents: {name_prefix: use_sub_}\n")
    code, err = _validate(capsys, specs)
    assert code == 2
    assert "the subagent prefix contains the MCP separator 'sub'" in err


def test_subagent_names_never_carry_the_separator() -> None:
    from generated._runtime import dynamic_tools
    from generated.catalog import MCP, SUBAGENTS, dynamic_variants
    from generated.dispatch import Coordinator

    sep = MCP["separator"]
    names = dynamic_tools.subagent_names([{"name": f"Report {sep} Writer"}], separator=sep)
    assert sep not in names[0] and names[0].startswith(SUBAGENTS["name_prefix"])
    extra, _ = dynamic_variants(
        "generic", {"subagents_enabled": True}, subagents=[{"name": f"x{sep}y", "description": "d"}]
    )
    assert extra and all(sep not in v["name"] for v in extra)

    class Subagents:
        name = "use_subagents"

        def execute(self, config, block):  # pragma: no cover - not called
            raise AssertionError

    class Mcp:
        name = "use_mcp_tool"

        def execute(self, config, block):  # pragma: no cover - not called
            raise AssertionError

    coordinator = Coordinator()
    coordinator.register(Subagents())
    coordinator.register(Mcp())
    handler = coordinator.get_handler(extra[0]["name"])
    assert getattr(handler, "inner", handler).__class__ is Subagents


def test_mapping_contexts_get_the_declared_defaults() -> None:
    from generated import Context, ContextError, enabled_tools
    from generated.catalog import holds, resolve_placeholders

    assert holds({"field": "browser_viewport_width", "equals": 900}, {}) is True
    assert holds({"field": "browser_viewport_width", "equals": 900}, Context()) is True
    assert resolve_placeholders("{{BROWSER_VIEWPORT_WIDTH}}", {}) == "900"
    assert enabled_tools("generic", {}) == enabled_tools("generic", Context())
    with pytest.raises(ContextError):
        enabled_tools("generic", {"no_such_field": 1})


def test_placeholders_read_like_the_modelled_system() -> None:
    from generator.runtime.catalog import _as_text

    assert [_as_text(v) for v in (True, False, 900, 1.0, 1.5, ("a", "b"), "x")] == [
        "true",
        "false",
        "900",
        "1",
        "1.5",
        "a,b",
        "x",
    ]


def test_shared_parameter_errors_point_at_their_definition(capsys, specs: Path) -> None:
    shared = specs / "parameters.yaml"
    text = shared.read_text("utf-8")
    assert "  task_progress:\n" in text
    shared.write_text(text.replace("  task_progress:\n", "  task_progress:\n    default: 5\n", 1), "utf-8")
    code, err = _validate(capsys, specs)
    assert code == 2
    found = [e for e in _errors(err) if e[3] == "E311"]
    assert found == [("specs/parameters.yaml", _line_of(shared, "default: 5"), 14, "E311")]


def test_control_characters_and_empty_families_warn(capsys, specs: Path) -> None:
    edit(
        specs / "tools/ask.yaml", "description: Ask the user a question.", 'description: "Ask the user a question.\\a"'
    )
    family = specs / "variants/compact.yaml"
    text = family.read_text("utf-8")
    start = text.index("tools:\n")
    end = text.index("selection:")
    family.write_text(text[:start] + "tools: []\n" + text[end:], "utf-8")
    code, _, err = run_cli(capsys, "validate", "--specs", specs)
    assert code == 0
    assert "warning[W305]: text holds control characters U+0007" in err
    assert "warning[W303]: family 'compact' lists no tools" in err


def test_e500_a_format_that_cannot_express_a_parameter(capsys, specs: Path) -> None:
    tool = specs / "tools/read_file.yaml"
    edit(
        tool,
        "      - use: task_progress\n",
        "      - name: options\n        type: object\n        instruction: Free-form options.\n"
        "      - use: task_progress\n",
    )
    code, err = _validate(capsys, specs)
    assert code == 2
    # Gemini objects need properties; the error points at the variant, for each variant that has it.
    assert ("specs/tools/read_file.yaml", _line_of(tool, "  generic:"), 3, "E500") in _errors(err)
    assert "generic/read_file cannot be expressed for gemini" in err


def test_e501_two_tools_with_one_name_in_a_native_family(capsys, specs: Path) -> None:
    tool = specs / "tools/write_file.yaml"
    text = tool.read_text("utf-8")
    assert "  generic:\n" in text
    tool.write_text(text.replace("  generic:\n", "  generic:\n    name: read_file\n", 1), "utf-8")
    code, err = _validate(capsys, specs)
    assert code == 2
    assert "error[E501]: family 'native' breaks a" in err
    assert any(e[0] == "specs/tools/write_file.yaml" and e[3] == "E501" for e in _errors(err))


def test_w501_long_openai_description_is_a_located_warning(capsys, specs: Path) -> None:
    tool = specs / "tools/read_file.yaml"
    edit(tool, "    description: Reads a file.", "    description: " + "Reads a file. " * 80)
    code, _, err = run_cli(capsys, "validate", "--specs", specs)
    assert code == 0
    line = _line_of(tool, "  native:")
    assert f"specs/tools/read_file.yaml:{line}:3: warning[W501]: OpenAI: description of 'read_file'" in err
    assert err.count("W501") == 1  # one warning for both OpenAI formats


def test_w304_family_lists_a_tool_without_variants(capsys, specs: Path) -> None:
    project = specs / "toolgen.yaml"
    edit(project, "  - todo\nfamilies:", "  - todo\n  - only_dispatch\nfamilies:")
    (specs / "tools/only_dispatch.yaml").write_text(
        "# yaml-language-server: $schema=../../generator/schemas/tool.schema.json\n"
        "id: only_dispatch\nhandler: {class: OnlyDispatch}\nvariants: {}\n",
        "utf-8",
    )
    family = specs / "variants/native.yaml"
    edit(family, "- ask\n", "- ask\n- only_dispatch\n")
    code, _, err = run_cli(capsys, "validate", "--specs", specs)
    assert code == 0
    line = _line_of(family, "- only_dispatch")
    assert (
        f"specs/variants/native.yaml:{line}:3: warning[W304]: tool 'only_dispatch' has no spec variant" in err
    )
