"""docs/breaking.md documents every rule of generator/breaking/rules.py, and only those, each with an
example that the command really prints; the pre-commit hook offers the command."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from breaking_cases import CASES
from conftest import ROOT, run_cli
from generator.breaking.rules import RULES

DOC = (ROOT / "docs" / "breaking.md").read_text("utf-8")
RULES_PART = DOC.split("\n## Rules\n", 1)[1]
SECTIONS = dict(re.findall(r"^### `([A-Z_]+)`\n(.*?)(?=^### |\Z)", RULES_PART, re.MULTILINE | re.DOTALL))


def test_every_rule_has_a_section_and_every_section_a_rule() -> None:
    assert sorted(SECTIONS) == sorted(RULES)


@pytest.mark.parametrize("rule", sorted(RULES))
def test_section_has_an_example(rule: str) -> None:
    section = SECTIONS[rule]
    assert "```yaml\n" in section, f"{rule}: no YAML example"
    status = "breaking" if RULES[rule].breaking else "info"
    assert f": {status}[{rule}]: " in section, f"{rule}: no output line, or the wrong status"
    assert section.lstrip().startswith("Breaking." if RULES[rule].breaking else "Not breaking"), rule


@pytest.mark.parametrize("rule", sorted(RULES))
def test_example_output_is_what_the_command_prints(
    rule: str, breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """The example lines of a section come from the matching case of test_breaking.py."""
    CASES[rule][0](*breaking_trees)
    _, out, _ = run_cli(capsys, "breaking", "--against", "old/specs")
    printed = out.splitlines()
    examples = [line for line in SECTIONS[rule].splitlines() if re.match(r"^\S+:\d+:\d+: (breaking|info)\[", line)]
    assert examples
    for line in examples:
        assert line in printed, f"docs/breaking.md shows a line the command does not print:\n{line}"


def test_pre_commit_hook_offers_the_command() -> None:
    hooks = {hook["id"]: hook for hook in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text("utf-8"))}
    hook = hooks["toolgen-breaking"]
    assert hook["entry"] == "toolgen breaking"
    assert hook["stages"] == ["manual"]
    assert hook["args"][0] == "--against"
    assert hook["pass_filenames"] is False


def test_documented_codes_are_in_range() -> None:
    codes = set(re.findall(r"`(E3\d\d)`", DOC))
    assert codes == {f"E34{i}" for i in range(6)}
