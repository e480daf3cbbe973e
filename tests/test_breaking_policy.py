"""toolgen breaking: a project's policy (levels, presets, --fail-on) and scoped exceptions, through the CLI."""

from __future__ import annotations

from pathlib import Path

import pytest

from breaking_cases import breaking
from conftest import edit, run_cli


def policy(new: Path, block: str) -> None:
    """Put a ``breaking:`` block (its indented lines) into the new side's toolgen.yaml."""
    edit(new / "toolgen.yaml", "selection:\n", "breaking:\n" + block + "selection:\n")


def tighten(new: Path) -> None:
    edit(new / "tools" / "read_file.yaml", "minimum: 1", "minimum: 2")  # BOUND_TIGHTENED, start_line


def new_handler_class(new: Path) -> None:
    edit(new / "tools" / "ask.yaml", "handler: null", "handler: {class: AskHandler}")  # HANDLER_CLASS_ADDED


def describe(new: Path) -> None:
    edit(new / "tools" / "ask.yaml", "Ask the user a question.", "Ask one question.")  # DESCRIPTION_CHANGED


def rules(report: dict) -> list[tuple[str, str]]:
    return [(f["rule"], f["level"]) for f in report["findings"]]


def test_a_rule_relevelled_to_warning_fails_only_with_fail_on_warning(
    breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    new = breaking_trees[1]
    tighten(new)
    policy(new, "  levels: {BOUND_TIGHTENED: warning}\n")
    code, report, _ = breaking(capsys)
    assert (code, rules(report), report["breaking"], report["warnings"]) == (0, [("BOUND_TIGHTENED", "warning")], 0, 1)
    assert report["findings"][0]["breaking"] is False
    code, _, _ = breaking(capsys, "--fail-on", "warning")
    assert code == 1
    code, out, _ = run_cli(capsys, "breaking", "--against", "old/specs")
    assert "specs/tools/read_file.yaml:14:9: warning[BOUND_TIGHTENED]: " in out
    assert out.splitlines()[-1] == "toolgen breaking: 0 breaking, 1 warnings, 0 excepted, 0 info (against old/specs)"


def test_info_made_an_error_fails_and_off_is_not_reported(
    breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    new = breaking_trees[1]
    tighten(new)
    describe(new)
    policy(new, "  levels:\n    DESCRIPTION_CHANGED: error\n    BOUND_TIGHTENED: 'off'\n")
    code, report, _ = breaking(capsys)
    assert (code, rules(report)) == (1, [("DESCRIPTION_CHANGED", "error")])


def test_fail_on_info_fails_on_any_finding(
    breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    describe(breaking_trees[1])
    assert breaking(capsys)[0] == 0
    assert breaking(capsys, "--fail-on", "info")[0] == 1


@pytest.mark.parametrize(
    ("protect", "kept"),
    [
        ("both", ["DESCRIPTION_CHANGED", "HANDLER_CLASS_ADDED", "BOUND_TIGHTENED"]),
        ("model", ["DESCRIPTION_CHANGED", "BOUND_TIGHTENED"]),  # a handler class concerns the host only
        ("host", ["HANDLER_CLASS_ADDED", "BOUND_TIGHTENED"]),  # prose concerns the model only
    ],
)
def test_presets_keep_the_rules_of_whom_they_protect(
    breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str], protect: str, kept: list[str]
) -> None:
    new = breaking_trees[1]
    tighten(new)
    new_handler_class(new)
    describe(new)
    policy(new, f"  protect: {protect}\n")
    _, report, _ = breaking(capsys)
    assert sorted(f["rule"] for f in report["findings"]) == sorted(kept)


def test_an_explicit_level_wins_over_the_preset(
    breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    new = breaking_trees[1]
    new_handler_class(new)
    policy(new, "  protect: model\n  levels: {HANDLER_CLASS_ADDED: warning}\n")
    _, report, _ = breaking(capsys)
    assert rules(report) == [("HANDLER_CLASS_ADDED", "warning")]


def test_an_unknown_rule_in_levels_is_e340(
    breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    policy(breaking_trees[1], "  levels: {BOUND_TIGHTEND: warning}\n")
    code, _, err = run_cli(capsys, "breaking", "--against", "old/specs")
    assert code == 2
    assert "error[E340]: unknown rule id 'BOUND_TIGHTEND'" in err and "hint: did you mean 'BOUND_TIGHTENED'?" in err


def test_a_level_that_does_not_exist_is_a_meta_schema_error(
    breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    policy(breaking_trees[1], "  levels: {BOUND_TIGHTENED: fatal}\n")
    code, _, err = run_cli(capsys, "breaking", "--against", "old/specs")
    assert code == 2 and "specs/toolgen.yaml:" in err and "fatal" in err


def test_an_exception_scoped_to_a_parameter(
    breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    new = breaking_trees[1]
    tighten(new)
    policy(new, "  exceptions:\n    - {rule: BOUND_TIGHTENED, parameter: path, reason: other parameter}\n")
    code, report, _ = breaking(capsys)
    assert code == 1 and report["findings"][0]["excepted"] is None
    assert [e["parameter"] for e in report["unused_exceptions"]] == ["path"]
    edit(new / "toolgen.yaml", "parameter: path", "parameter: start_line")
    code, report, _ = breaking(capsys)
    assert code == 0 and report["findings"][0]["excepted"] == "other parameter"


def test_an_exception_scoped_to_a_family_splits_the_finding(
    breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """Accepted for the compact family only: the change still breaks native and generic."""
    new = breaking_trees[1]
    tighten(new)
    policy(new, "  exceptions:\n    - {rule: BOUND_TIGHTENED, family: compact, reason: compact prompts only}\n")
    code, report, _ = breaking(capsys)
    assert code == 1
    found = sorted((tuple(f["families"]), f["excepted"]) for f in report["findings"])
    assert found == [(("compact",), "compact prompts only"), (("native", "generic"), None)]


def test_an_exception_scoped_to_a_format(breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    new = breaking_trees[1]
    tighten(new)
    policy(new, "  exceptions:\n    - {rule: BOUND_TIGHTENED, format: xml, reason: the text path clamps it}\n")
    _, report, _ = breaking(capsys)
    excepted = [f for f in report["findings"] if f["excepted"]]
    rest = [f for f in report["findings"] if not f["excepted"]]
    assert [f["formats"] for f in excepted] == [["xml"]]
    assert rest and "xml" not in rest[0]["formats"] and "anthropic" in rest[0]["formats"]


@pytest.mark.parametrize(
    ("key", "value", "hint"), [("family", "compat", "compact"), ("format", "openai-chats", "openai-chat")]
)
def test_an_exception_naming_an_unknown_family_or_format_is_e341(
    breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str], key: str, value: str, hint: str
) -> None:
    policy(breaking_trees[1], f"  exceptions:\n    - {{rule: BOUND_TIGHTENED, {key}: {value}, reason: r}}\n")
    code, _, err = run_cli(capsys, "breaking", "--against", "old/specs")
    assert code == 2
    assert f"error[E341]: breaking exception names unknown {key} {value!r}" in err
    assert f"hint: did you mean {hint!r}?" in err
