"""Extra targets are rows of outputs.OUTPUTTERS: the pipeline, its result and the CLI take a new
row without naming it anywhere else."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conftest import BUNDLED_SPECS, read_tree, run_cli
from generator import cli, outputs, pipeline


def _tool_list(catalog: Any, families: Any, diags: Any) -> dict[str, str]:
    return {"tools.txt": "".join(f"{tool.id}\n" for tool in catalog.tools)}


@pytest.fixture
def listing_target(monkeypatch: pytest.MonkeyPatch) -> outputs.Outputter:
    row = outputs.Outputter("listing", "--listing-out", "tool ids, one a line", _tool_list)
    table = (*outputs.OUTPUTTERS, row)
    for module in (outputs, pipeline, cli):
        monkeypatch.setattr(module, "OUTPUTTERS", table)
    return row


def test_the_pipeline_runs_every_asked_target(listing_target: outputs.Outputter) -> None:
    result = pipeline.run(BUNDLED_SPECS, targets={"listing": True})
    assert list(result.targets) == ["listing"]
    listed = result.targets["listing"]["tools.txt"].decode().split()
    assert listed == [tool.id for tool in result.catalog.tools] and listed
    sent: dict[str, bytes] = {}
    both = pipeline.run(BUNDLED_SPECS, targets={"typescript": sent.__setitem__, "listing": True})
    assert list(both.targets) == ["typescript", "listing"] and both.targets["typescript"] == {}
    assert "index.ts" in sent


def test_an_unknown_target_is_a_developer_error() -> None:
    with pytest.raises(ValueError, match="unknown targets \\['nope'\\]"):
        pipeline.run(BUNDLED_SPECS, targets={"nope": True})


def test_the_cli_writes_and_checks_a_new_target(capsys, specs: Path, tmp_path: Path, listing_target) -> None:
    out, listing = tmp_path / "generated", tmp_path / "listing"
    code, _, err = run_cli(capsys, "generate", "--specs", specs, "--out", out, "--no-docs", "--listing-out", listing)
    assert code == 0, err
    tree = read_tree(listing)
    assert sorted(json.loads(tree.pop("toolgen-manifest.json"))["files"]) == ["tools.txt"]
    (listing / "tools.txt").write_text("changed\n", "utf-8")
    code, _, _ = run_cli(capsys, "check", "--specs", specs, "--out", out, "--no-docs", "--listing-out", listing)
    assert code != 0
