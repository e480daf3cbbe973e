"""The workspace (generator/workspace.py): an edit re-reads only its file, and what it reports after
any sequence of edits is what a fresh full run reports, on every hostile spec case the suite has."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import BUNDLED_SPECS, FIXTURE_SPECS, copy_specs, edit, run_cli
from generator import pipeline, workspace
from generator.workspace import Workspace
from test_hostile_specs import CASES, Case

ASK = "tools/ask.yaml"
TODO = "tools/todo.yaml"

# One-line edits with a semantic finding (references across files, the outputs' checks), as
# (file, text replaced, replacement, code expected).
SEMANTIC_EDITS = [
    (ASK, "- use: task_progress", "- use: task_progres", "E3"),
    (ASK, "id: ask", "id: asks", "E316"),
    (ASK, "  generic:", "  generik:", "E310"),
    (ASK, "description: Ask the user a question.", "description: Ask {{NO_SUCH_PLACEHOLDER}}.", "E3"),
    (ASK, "description: Ask the user a question.", "description: " + "Ask. " * 300, "W501"),
    (ASK, "        required: true", "        required: maybe", "E212"),
    (TODO, "id: todo", "id: todo\nid: again", "E101"),
]


def _full_run(specs: Path) -> str:
    """What the rendering pipeline reports (the outputs' checks made while rendering)."""
    return pipeline.run(specs).diagnostics.render("json")


def _workspace_run(ws: Workspace) -> str:
    return ws.diagnostics().render("json")


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
def test_refreshed_workspace_equals_a_fresh_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: Case
) -> None:
    specs = copy_specs(FIXTURE_SPECS, tmp_path)
    ws = Workspace(specs)
    assert not ws.diagnostics().has_errors
    case.build(specs, monkeypatch)
    ws.refresh()
    found = _workspace_run(ws)
    assert case.code in found
    assert found == _workspace_run(Workspace(specs)) == _full_run(specs)


@pytest.mark.parametrize(("rel", "old", "new", "code"), SEMANTIC_EDITS, ids=lambda v: str(v)[:20])
def test_unsaved_edit_reports_what_a_full_run_of_the_saved_file_does(
    tmp_path: Path, rel: str, old: str, new: str, code: str
) -> None:
    specs = copy_specs(FIXTURE_SPECS, tmp_path)
    ws = Workspace(specs)
    clean = _workspace_run(ws)
    text = (specs / rel).read_text("utf-8")
    assert old in text
    changed = ws.set_text(specs / rel, text.replace(old, new, 1))
    edited = _workspace_run(ws)
    assert code in edited
    assert f"specs/{rel}" in changed or code.startswith("W")
    (specs / rel).write_text(text.replace(old, new, 1), "utf-8")
    assert edited == _full_run(specs) == _workspace_run(Workspace(specs))
    # Fixing it (back to the disk's text, here the original again) clears what it caused.
    (specs / rel).write_text(text, "utf-8")
    cleared = ws.set_text(specs / rel, None)
    assert _workspace_run(ws) == clean
    assert changed == cleared


def test_an_edit_reads_and_checks_only_its_own_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    specs = copy_specs(FIXTURE_SPECS, tmp_path)
    ws = Workspace(specs)
    ws.diagnostics()
    checked: list[str] = []
    real = workspace.check_file
    monkeypatch.setattr(
        workspace, "check_file", lambda raw, name, *rest: checked.append(name) or real(raw, name, *rest)
    )
    text = (specs / ASK).read_text("utf-8")
    ws.set_text(specs / ASK, text.replace("The question to ask.", "The question."))
    assert checked == ["specs/tools/ask.yaml"]
    ws.set_text(specs / ASK, text.replace("The question to ask.", "The question."))  # same content again
    (specs / TODO).touch()  # a new mtime, same bytes: read, but not parsed again
    assert ws.refresh() == set()
    assert checked == ["specs/tools/ask.yaml"]


def test_an_unchanged_tool_keeps_its_variants_across_an_edit(tmp_path: Path) -> None:
    """Tool-level fields every variant carries (a deprecation note, the MCP title and annotations)
    were added after the remembered build, so such a tool got new variant objects on every edit
    and every output check keyed on them ran again (the bundled tools all have a title)."""
    specs = copy_specs(FIXTURE_SPECS, tmp_path)
    edit(
        specs / TODO,
        "id: todo\n",
        "id: todo\ntitle: Todo list\nannotations: {readOnlyHint: false}\ndeprecated: {note: Use the plan.}\n",
    )
    ws = Workspace(specs)
    ws.diagnostics()
    catalog = ws.catalog
    assert catalog is not None
    before = catalog.tool("todo").variants
    assert before[0].title == "Todo list" and "Use the plan." in str(before[0].description)
    text = (specs / ASK).read_text("utf-8")
    ws.set_text(specs / ASK, text.replace("The question to ask.", "The question."))
    ws.diagnostics()
    after = ws.catalog
    assert after is not None and after is not catalog
    assert all(a is b for a, b in zip(after.tool("todo").variants, before, strict=True))


def test_files_appear_and_disappear(tmp_path: Path) -> None:
    specs = copy_specs(FIXTURE_SPECS, tmp_path)
    ws = Workspace(specs)
    new = specs / "tools" / "extra.yaml"
    changed = ws.set_text(new, "id: extra\n")  # unsaved, not yet on disk
    assert "specs/tools/extra.yaml" in changed
    assert "specs/tools/extra.yaml" in ws.sources
    assert any(d.location.path == "specs/tools/extra.yaml" for d in ws.diagnostics().items)
    ws.set_text(new, None)  # closed without saving
    assert "specs/tools/extra.yaml" not in ws.sources
    (specs / ASK).unlink()
    assert ws.refresh() == {"specs/tools/ask.yaml"}
    assert "E301" in _workspace_run(ws)


def test_sources_map_positions_for_a_cursor(tmp_path: Path) -> None:
    ws = Workspace(copy_specs(FIXTURE_SPECS, tmp_path))
    source = ws.source("specs/tools/ask.yaml")
    assert source is not None
    assert source.key_positions[("variants", "generic", "description")] == (6, 5)
    assert ws.path_at("specs/tools/ask.yaml", 6, 20) == ("variants", "generic", "description")
    assert ws.path_at("specs/tools/ask.yaml", 10, 12) == ("variants", "generic", "parameters", 0, "required")
    assert ws.name_of(ws.path_of("specs/tools/ask.yaml")) == "specs/tools/ask.yaml"
    assert ws.name_of(tmp_path / "elsewhere.yaml") is None


def test_validate_prints_the_workspace_diagnostics(capsys: pytest.CaptureFixture[str]) -> None:
    """The bundled specs: the checks-only validate equals the rendering run, TypeScript checks included."""
    rc, out, _ = run_cli(capsys, "validate", "--specs", BUNDLED_SPECS, "--error-format", "json")
    assert rc == 0
    rendered = pipeline.run(BUNDLED_SPECS, targets={"typescript": True}).diagnostics.render("json")
    assert out.strip() == rendered.strip()
    assert Workspace(BUNDLED_SPECS, typescript=True).diagnostics().render("json") == rendered
    assert "W501" in rendered
