"""Snapshots of the text-path prompt: prompt_section per family in one representative context,
and the committed review files generated/prompts/*.xml.

One plain-text file per snapshot in tests/__snapshots__/test_prompt_snapshots/, so a change to
a prompt reads as an ordinary diff. Update with `pytest tests/test_prompt_snapshots.py
--snapshot-update` and review the diff before committing it.
"""

from __future__ import annotations

import pytest
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

from conftest import ROOT
from generated import catalog, prompt
from generated.context import Context

FAMILIES = tuple(catalog.VARIANTS)
REVIEW_FILES = sorted(p.name for p in (ROOT / "generated" / "prompts").glob("*.xml"))

#: Every feature on. yolo_mode stays off (it is a permission mode that removes tools), and
#: is_cli / is_subagent_run stay off (they remove tools too).
REPRESENTATIVE = Context(
    provider_id="cline",
    model_id="openai/gpt-5",
    cwd="/home/dev/project",
    supports_browser_use=True,
    browser_viewport_width=1280,
    browser_viewport_height=800,
    is_multi_root_enabled=True,
    enable_native_tool_calls=True,
    cline_web_tools_enabled=True,
    subagents_enabled=True,
    focus_chain_enabled=True,
    has_mcp_hub=True,
    skills=("release-notes", "db-migrations"),
    editor_tabs=("src/app.py", "notebooks/explore.ipynb"),
)


class TextSnapshot(SingleFileSnapshotExtension):
    _write_mode = WriteMode.TEXT
    file_extension = "txt"


@pytest.fixture
def snapshot_text(snapshot):
    return snapshot.use_extension(TextSnapshot)


@pytest.mark.parametrize("family", FAMILIES)
def test_prompt_section(snapshot_text, family):
    assert prompt.prompt_section(family, REPRESENTATIVE) == snapshot_text


def test_review_files_exist():
    assert sorted(f"{family}.xml" for family in FAMILIES) == REVIEW_FILES


@pytest.mark.parametrize("name", REVIEW_FILES)
def test_review_file(snapshot_text, name):
    assert (ROOT / "generated" / "prompts" / name).read_text("utf-8") == snapshot_text
