"""toolgen breaking: one pair of spec trees per rule (rule id, location, exit code), and renames.

The pairs are in breaking_cases.py. The old tree is passed as a folder (``--against old/specs``);
test_breaking_git.py covers git revisions.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from breaking_cases import CASES, breaking, rename_tool_todo
from conftest import edit, run_cli
from generator.breaking.rules import RULES


def test_every_rule_has_a_case() -> None:
    assert sorted(CASES) == sorted(RULES)


def test_unchanged_specs_report_nothing(breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    code, report, _ = breaking(capsys)
    assert (code, report["findings"], report["breaking"]) == (0, [], 0)


@pytest.mark.parametrize("rule", sorted(CASES))
def test_rule(rule: str, breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    mutate, where, exit_code = CASES[rule]
    mutate(*breaking_trees)
    code, report, err = breaking(capsys)
    found = [f for f in report.get("findings", ()) if f["rule"] == rule]
    assert found, f"no {rule} in {report} / {err}"
    assert f"{found[0]['path']}:{found[0]['line']}:{found[0]['col']}" == where
    assert found[0]["breaking"] is RULES[rule].breaking
    assert code == exit_code, report


def test_tool_id_renamed_with_the_same_shape(
    breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    rename_tool_todo(*breaking_trees)
    code, report, _ = breaking(capsys)
    rules = {(f["rule"], f["tool"]) for f in report["findings"]}
    assert ("TOOL_RENAMED", "tasks") in rules
    assert not any(rule in ("TOOL_REMOVED", "TOOL_ADDED") for rule, _ in rules)
    renamed = next(f for f in report["findings"] if f["rule"] == "TOOL_RENAMED")
    assert renamed["message"] == "tasks: tool 'todo' is now sent as 'tasks'"
    assert (renamed["path"], renamed["families"]) == ("specs/tools/tasks.yaml", ["compact", "native", "generic"])
    assert code == 1


@pytest.mark.parametrize(
    ("old", "new"),
    [("name: items", "name: entries"), ("class: TodoHandler", "class: TasksHandler")],
    ids=["another-parameter", "another-handler"],
)
def test_a_changed_tool_is_no_rename(
    old: str, new: str, breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """Other parameters, or another handler: the old id is removed and the new one added."""
    rename_tool_todo(*breaking_trees)
    edit(breaking_trees[1] / "tools" / "tasks.yaml", old, new)
    _, report, _ = breaking(capsys)
    rules = sorted({f["rule"] for f in report["findings"] if f["rule"].startswith("TOOL_")})
    assert rules == ["TOOL_ADDED", "TOOL_REMOVED"]


def test_moving_a_parameter_to_parameters_yaml_changes_nothing(
    breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """The resolved models are compared, not the YAML."""
    new = breaking_trees[1]
    edit(
        new / "tools" / "ask.yaml",
        "      - name: question\n        required: true\n"
        "        instruction: The question to ask.\n        usage: Your question\n",
        "      - use: question\n",
    )
    edit(
        new / "parameters.yaml",
        "parameters:\n",
        "parameters:\n  question:\n    required: true\n"
        "    instruction: The question to ask.\n    usage: Your question\n",
    )
    code, report, err = breaking(capsys)
    assert (code, report["findings"]) == (0, []), err


OPTIONS = (
    "      - name: options\n        type: object\n        member_required: [depth]\n        instruction: Options.\n"
    "        properties:\n          depth: {type: integer, maximum: 5}\n          hidden: {type: boolean}\n"
)


def test_object_members_are_compared(breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    old, new = breaking_trees
    for tree in (old, new):
        edit(
            tree / "tools" / "read_file.yaml", "      - use: task_progress\n", OPTIONS + "      - use: task_progress\n"
        )
    edit(new / "tools" / "read_file.yaml", "          hidden: {type: boolean}\n", "")
    edit(new / "tools" / "read_file.yaml", "maximum: 5", "maximum: 3")
    edit(new / "tools" / "read_file.yaml", "member_required: [depth]", "member_required: []")
    code, report, err = breaking(capsys)
    found = {(f["rule"], f["message"], f["line"]) for f in report["findings"]}
    assert found == {
        ("PARAMETER_REMOVED", "read_file: parameter 'options': property 'hidden' removed", 19),
        ("BOUND_TIGHTENED", "read_file: parameter 'options.depth': maximum lowered from 5 to 3", 19),
        ("PARAMETER_MADE_OPTIONAL", "read_file: parameter 'options.depth': now optional", 19),
    }, err
    assert code == 1


def test_a_family_removed_from_the_enum_only(
    breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """A family in toolgen.yaml's enum without a variant file: the generated Family still loses it."""
    old, _ = breaking_trees
    edit(old / "toolgen.yaml", "  - native\ncontext:", "  - native\n  - spare\ncontext:")
    code, report, _ = breaking(capsys)
    found = [(f["rule"], f["path"], f["line"], f["families"]) for f in report["findings"]]
    assert found == [("FAMILY_REMOVED", "specs/toolgen.yaml", 9, ["spare"])]
    assert code == 1


def test_a_new_tool_that_brings_a_new_handler_class(
    breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """The host's namespace lacks the class: one break, at the new tool's handler line."""
    _, new = breaking_trees
    text = (new / "tools" / "ask.yaml").read_text().replace("id: ask", "id: ask_twice")
    (new / "tools" / "ask_twice.yaml").write_text(text.replace("handler: null", "handler: {class: AskTwiceHandler}"))
    edit(new / "toolgen.yaml", "  - todo\n", "  - todo\n  - ask_twice\n")
    code, report, _ = breaking(capsys)
    found = [(f["rule"], f["path"], f["line"]) for f in report["findings"] if f["rule"].startswith("HANDLER")]
    assert found == [("HANDLER_CLASS_ADDED", "specs/tools/ask_twice.yaml", 3)]
    assert code == 1


def test_a_changed_handler_to_a_new_class_is_one_finding(
    breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    _, new = breaking_trees
    edit(new / "tools" / "read_file.yaml", "class: ReadFileHandler", "class: ReadHandler")
    _, report, _ = breaking(capsys)
    assert [f["rule"] for f in report["findings"]] == ["HANDLER_CHANGED"]


def test_a_placeholder_change_names_the_tools_using_it(
    breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    _, new = breaking_trees
    edit(new / "toolgen.yaml", 'CWD: {field: cwd, default: "/"}', 'CWD: {field: cwd, default: "/work"}')
    code, report, _ = breaking(capsys)
    (finding,) = report["findings"]
    assert finding["rule"] == "PLACEHOLDER_CHANGED" and code == 0
    assert "the text of read_file changes" in finding["message"]


def test_a_declared_tool_rename_pairs_even_when_parameters_changed(
    breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """Shape alone would call this a removal plus an addition; renamed_from says what it is."""
    _, new = breaking_trees
    rename_tool_todo(*breaking_trees)
    path = new / "tools" / "tasks.yaml"
    path.write_text(path.read_text().replace("id: tasks\n", "id: tasks\nrenamed_from: todo\n"))
    edit(path, "instruction: The todo items.", "instruction: The todo items.\n        type: integer")  # was text
    code, report, _ = breaking(capsys)
    found = {f["rule"] for f in report["findings"]}
    assert "TOOL_RENAMED" in found and "TYPE_CHANGED" in found
    assert not found & {"TOOL_REMOVED", "TOOL_ADDED"}
    assert code == 1


def test_a_declared_parameter_rename_is_compared_with_its_old_self(
    breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    _, new = breaking_trees
    edit(new / "tools" / "read_file.yaml", "name: start_line", "name: first_line\n        renamed_from: start_line")
    edit(new / "tools" / "read_file.yaml", "minimum: 1", "minimum: 2")
    _, report, _ = breaking(capsys)
    rules = sorted(f["rule"] for f in report["findings"])
    assert rules == ["BOUND_TIGHTENED", "PARAMETER_RENAMED"]
    assert all(f["parameter"] == "first_line" for f in report["findings"])


def test_renamed_from_an_id_that_still_exists_is_e317(
    breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    _, new = breaking_trees
    edit(new / "tools" / "todo.yaml", "id: todo\n", "id: todo\nrenamed_from: ask\n")
    code, _, err = run_cli(capsys, "validate", "--specs", "specs")
    assert code == 2
    expected = (
        "specs/tools/todo.yaml:3:15: error[E317]: tool 'todo' says it was renamed from 'ask', which is still a tool id"
    )
    assert expected in err


def test_a_shared_parameter_edit_is_one_finding_in_parameters_yaml(
    breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """Was one finding per use: line in every tool file, and none in the file that changed."""
    _, new = breaking_trees
    edit(new / "parameters.yaml", "dependencies: [todo]\n", "dependencies: [todo, ask]\n")
    _, report, _ = breaking(capsys)
    (finding,) = report["findings"]
    assert (finding["rule"], finding["path"], finding["line"], finding["tool"]) == (
        "REQUIREMENT_ADDED",
        "specs/parameters.yaml",
        3,
        None,
    )
    assert finding["message"].startswith("shared parameter 'task_progress' (used by read_file, ask, write_file)")


def test_a_shared_parameter_overridden_at_its_use_stays_at_the_tool(
    breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    _, new = breaking_trees
    use = "      - use: task_progress\n"
    edit(new / "tools" / "ask.yaml", use, use + "        required: true\n")
    _, report, _ = breaking(capsys)
    assert [(f["rule"], f["path"], f["tool"]) for f in report["findings"]] == [
        ("PARAMETER_MADE_REQUIRED", "specs/tools/ask.yaml", "ask")
    ]


def test_a_selection_edit_in_toolgen_yaml_is_placed_there(
    breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """Was placed at each family's rule:, several files away from the line that changed."""
    _, new = breaking_trees
    edit(new / "toolgen.yaml", "native_models: [big-model-1, big-model-2]", "native_models: [big-model-1]")
    _, report, _ = breaking(capsys)
    places = {(f["rule"], f["path"], f["line"]) for f in report["findings"]}
    assert places == {("FAMILY_SELECTION_CHANGED", "specs/toolgen.yaml", 66)}


@pytest.mark.parametrize(
    ("old_text", "new_text"),
    [
        ("native_models: [big-model-1, big-model-2]", "native_models: [big-model-1, other-model]"),
        ("local_providers: [ollama, lmstudio]", "local_providers: [ollama]"),
        ("native_family: {in_set: native_models}", "native_family: {any_contains: [big]}"),
        ("fallback: generic", "fallback: compact"),  # not a set: every context is run
    ],
)
def test_the_grid_skips_only_contexts_that_cannot_change(
    breaking_trees: tuple[Path, Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    old_text: str,
    new_text: str,
) -> None:
    """Skipping ids whose set and predicate answers are unchanged finds what the whole grid finds."""
    from generator.breaking import selection

    _, new = breaking_trees
    edit(new / "toolgen.yaml", old_text, new_text)
    _, quick, _ = breaking(capsys)
    monkeypatch.setattr(selection, "_unchanged_ids", lambda before, after: lambda context: False)
    _, whole, _ = breaking(capsys)
    assert quick["findings"] == whole["findings"]
    assert any(f["rule"] in ("FAMILY_SELECTION_CHANGED", "ROUTING_CHANGED") for f in whole["findings"])
