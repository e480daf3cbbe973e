"""Regression tests for bugs a code review found (hangs and exit 123 on odd but possible input)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from conftest import ROOT, edit, run_cli
from generated import catalog
from generated._runtime.subagents import subagent_name, subagent_names

SEP = catalog.MCP["separator"]


@pytest.fixture(autouse=True)
def _at_repo_root(monkeypatch):
    monkeypatch.chdir(ROOT)  # --out defaults to generated/ in the current directory


def _file(tmp_path: Path, name: str, data) -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), "utf-8")
    return path


# ---- 1: subagent names and the MCP separator ---------------------------------------------


def test_subagent_name_ends_when_the_separator_straddles_prefix_and_name() -> None:
    name = subagent_name("0abc", prefix="use0mcp", separator="0mcp0")
    assert "0mcp0" not in name and name.startswith("use0mcp")


def test_subagent_names_never_hold_the_separator_whatever_the_name() -> None:
    rng = random.Random(7)
    refusals: set[str] = set()
    alphabet = "0m_cpa"
    for _ in range(3000):
        separator = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 4)))
        prefix = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 5)))
        if separator in prefix:
            continue
        configs = [{"name": "".join(rng.choice(alphabet + "X ") for _ in range(rng.randint(0, 12)))}]
        try:
            names = subagent_names(configs * 3, prefix=prefix, max_length=24, separator=separator)
        except ValueError as exc:  # nothing of the name left: said so, never a hang
            refusals.add(str(exc).split(" once ")[0])
            continue
        assert len(set(names)) == 3
        for name in names:
            assert separator not in name and name.startswith(prefix) and len(name) <= 24
    assert refusals <= {"no subagent name is left"}


def test_subagent_prefix_that_starts_the_separator_is_a_located_e303(capsys, specs: Path) -> None:
    project = specs / "toolgen.yaml"
    edit(project, "name: fixture\n", "name: fixture\nmcp: {separator: 0mcp0}\nsubagents: {name_prefix: run0mcp}\n")
    code, _, err = run_cli(capsys, "validate", "--specs", specs)
    assert code == 2
    assert (
        "specs/toolgen.yaml:5:26: error[E303]: the subagent prefix ends with '0mcp', the start of the MCP "
        "separator '0mcp0', so a subagent named '0'... would hold it"
    ) in err


def test_subagent_prefix_ending_in_an_unreachable_separator_start_is_fine(capsys, specs: Path) -> None:
    # "_" starts "__mcp__", but a sanitized name never starts with "_mcp__"
    project = specs / "toolgen.yaml"
    edit(project, "name: fixture\n", "name: fixture\nmcp: {separator: __mcp__}\nsubagents: {name_prefix: use_}\n")
    code, _, err = run_cli(capsys, "validate", "--specs", specs)
    assert "E303" not in err and code == 0


def test_show_prompt_with_a_subagent_name_that_completes_the_separator(capsys, tmp_path: Path) -> None:
    ctx = _file(tmp_path, "ctx.json", {"subagents_enabled": True})
    agents = _file(tmp_path, "agents.json", [{"name": f"{SEP[1:]}abc"}, {"name": f"a{SEP}b"}])
    code, out, err = run_cli(capsys, "show", "prompt", "--family", "generic", "--context", ctx, "--subagents", agents)
    assert (code, err) == (0, "")
    headings = [line for line in out.splitlines() if line.startswith("## use_subagent_")]
    assert len(headings) == 2 and not any(SEP in line for line in headings)
