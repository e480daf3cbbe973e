"""toolgen breaking: output formats, exceptions in toolgen.yaml (E340, E341, E131), bad REF and invalid specs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from breaking_cases import breaking
from conftest import edit, run_cli
from generator.breaking.rules import RULES

EXCEPTIONS = "breaking:\n  exceptions:\n"
REMOVE_MINIMUM = ("minimum: 1", "minimum: 2")  # BOUND_TIGHTENED on read_file


def tighten(new: Path) -> None:
    edit(new / "tools" / "read_file.yaml", *REMOVE_MINIMUM)


def except_(new: Path, *entries: str) -> None:
    edit(new / "toolgen.yaml", "selection:\n", EXCEPTIONS + "".join(entries) + "selection:\n")


def test_text_output(breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    tighten(breaking_trees[1])
    code, out, _ = run_cli(capsys, "breaking", "--against", "old/specs")
    lines = out.splitlines()
    assert code == 1
    assert lines[0] == (
        "specs/tools/read_file.yaml:14:9: breaking[BOUND_TIGHTENED]: read_file: parameter 'start_line': "
        "minimum raised from 1 to 2 [families: compact, native, generic; formats: xml, anthropic, "
        "openai-chat, openai-responses, gemini, bedrock-converse]"
    )
    assert lines[-1] == "toolgen breaking: 1 breaking, 0 warnings, 0 excepted, 0 info (against old/specs)"


def test_github_output(breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    tighten(breaking_trees[1])
    edit(breaking_trees[1] / "tools" / "ask.yaml", "Ask the user a question.", "Ask the user, 100% politely.")
    code, out, _ = run_cli(capsys, "breaking", "--against", "old/specs", "--error-format", "github")
    lines = out.splitlines()
    assert code == 1
    assert lines[0].startswith("::notice file=specs/tools/ask.yaml,line=5,col=3,title=DESCRIPTION_CHANGED::ask: ")
    assert lines[1].startswith(
        "::error file=specs/tools/read_file.yaml,line=14,col=9,title=BOUND_TIGHTENED::read_file: parameter"
    )
    assert len(lines) == 2


def test_json_output_shape(breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    tighten(breaking_trees[1])
    code, report, _ = breaking(capsys)
    assert code == 1
    assert set(report) == {
        "against",
        "errors",
        "breaking",
        "warnings",
        "excepted",
        "info",
        "findings",
        "diagnostics",
        "unused_exceptions",
    }
    assert report["errors"] == 0
    (finding,) = report["findings"]
    assert finding == {
        "rule": "BOUND_TIGHTENED",
        "fingerprint": finding["fingerprint"],  # test_fingerprints_stay_when_lines_move
        "breaking": True,
        "level": "error",
        "excepted": None,
        "path": "specs/tools/read_file.yaml",
        "line": 14,
        "col": 9,
        "tool": "read_file",
        "parameter": "start_line",
        "families": ["compact", "native", "generic"],
        "formats": ["xml", "anthropic", "openai-chat", "openai-responses", "gemini", "bedrock-converse"],
        "message": "read_file: parameter 'start_line': minimum raised from 1 to 2",
    }


def test_exception_by_rule(breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    tighten(breaking_trees[1])
    except_(breaking_trees[1], "    - {rule: BOUND_TIGHTENED, reason: nobody sends line 1}\n")
    code, out, _ = run_cli(capsys, "breaking", "--against", "old/specs")
    assert code == 0
    assert "excepted[BOUND_TIGHTENED]: read_file: parameter 'start_line'" in out
    assert out.splitlines()[0].endswith("(excepted: nobody sends line 1)")
    assert out.splitlines()[-1] == "toolgen breaking: 0 breaking, 0 warnings, 1 excepted, 0 info (against old/specs)"


def test_exception_by_rule_and_tool(breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    tighten(breaking_trees[1])
    edit(breaking_trees[1] / "tools" / "write_file.yaml", "[overwrite, append]", "[overwrite]")
    edit(breaking_trees[1] / "tools" / "write_file.yaml", "        enum:", "        minLength: 1\n        enum:")
    except_(breaking_trees[1], "    - {rule: BOUND_TIGHTENED, tool: read_file, reason: accepted}\n")
    code, report, _ = breaking(capsys)
    status = {(f["rule"], f["tool"]): f["excepted"] for f in report["findings"]}
    assert status == {
        ("BOUND_TIGHTENED", "read_file"): "accepted",
        ("BOUND_TIGHTENED", "write_file"): None,
        ("ENUM_VALUE_REMOVED", "write_file"): None,
    }
    assert (code, report["breaking"], report["excepted"]) == (1, 2, 1)


def test_the_tools_exception_wins_over_the_rules(
    breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """The rule-wide exception, listed first, took the finding, and the tool's own was reported as
    matching nothing ("remove it"), though it was the one written for this change."""
    tighten(breaking_trees[1])
    except_(
        breaking_trees[1],
        "    - {rule: BOUND_TIGHTENED, reason: any bound}\n"
        "    - {rule: BOUND_TIGHTENED, tool: read_file, reason: this one}\n",
    )
    code, report, _ = breaking(capsys)
    assert code == 0
    assert [f["excepted"] for f in report["findings"]] == ["this one"]
    assert [(e["tool"], e["line"]) for e in report["unused_exceptions"]] == [(None, 62)]


@pytest.mark.parametrize("fmt", ["text", "github", "json"])
def test_duplicated_exception_is_e131(
    breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    """A second exception for the same rule and tool could never match: it was listed as unused."""
    tighten(breaking_trees[1])
    except_(
        breaking_trees[1],
        "    - {rule: BOUND_TIGHTENED, tool: read_file, reason: a}\n"
        "    - {rule: BOUND_TIGHTENED, reason: b}\n"
        "    - {rule: BOUND_TIGHTENED, tool: read_file, reason: c}\n",
    )
    code, out, err = run_cli(capsys, "breaking", "--against", "old/specs", "--error-format", fmt)
    assert code == 2
    if fmt == "text":
        assert (
            "specs/toolgen.yaml:64:7: error[E131]: a second breaking exception for BOUND_TIGHTENED (tool 'read_file')"
            in err
        )
        assert "(the first is on line 62)" in err and "hint: remove one" in err
    elif fmt == "github":
        assert out.startswith("::error file=specs/toolgen.yaml,line=64,col=7,title=E131::")
    else:
        (diag,) = json.loads(out)["diagnostics"]
        assert (diag["code"], diag["line"]) == ("E131", 64)


def test_unused_exception_is_listed(breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    except_(breaking_trees[1], "    - {rule: TOOL_REMOVED, tool: todo, reason: gone}\n")
    code, out, _ = run_cli(capsys, "breaking", "--against", "old/specs")
    assert code == 0
    assert (
        "specs/toolgen.yaml:62:7: note: the exception for TOOL_REMOVED (tool 'todo') matches no breaking change" in out
    )


def test_unknown_rule_suggests_the_closest(
    breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    except_(
        breaking_trees[1],
        "    - {rule: TOOL_REMOVE, reason: x}\n    - {rule: BOUND_TIGHTENED, tool: red_file, reason: x}\n",
    )
    code, out, err = run_cli(capsys, "breaking", "--against", "old/specs")
    assert (code, out) == (2, "")
    assert "specs/toolgen.yaml:62:14: error[E340]: unknown rule id 'TOOL_REMOVE' in a breaking exception" in err
    assert "did you mean 'TOOL_REMOVED'" in err
    assert "specs/toolgen.yaml:63:37: error[E341]: breaking exception names unknown tool 'red_file'" in err
    assert "did you mean 'read_file'" in err


def test_exception_needs_a_reason(breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    except_(breaking_trees[1], "    - {rule: TOOL_REMOVED}\n")
    code, _, err = run_cli(capsys, "breaking", "--against", "old/specs")
    assert code == 2
    assert "specs/toolgen.yaml:62:7: error[E211]" in err and "'reason' is a required property" in err


def test_generate_accepts_the_breaking_block(
    breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    except_(breaking_trees[1], "    - {rule: TOOL_REMOVED, reason: gone}\n")
    code, _, err = run_cli(capsys, "validate", "--specs", "specs")
    assert code == 0, err


def test_neither_folder_nor_revision(breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "breaking", "--against", "no-such-thing")
    assert (code, out) == (2, "")
    assert "--against no-such-thing: error[E342]: is not a folder" in err
    assert "hint: pass an existing spec folder, or a revision" in err


def test_option_like_ref_is_refused(breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, "breaking", "--against=--output=x")
    assert code == 2
    assert "--against --output=x: error[E342]: is neither a spec folder nor a git revision" in err


@pytest.mark.parametrize("ref", ["", "no such thing"])
def test_ref_errors_are_located_on_the_argument(
    breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str], ref: str
) -> None:
    """REF is no file: its errors were printed as 'REF:1:1:' (':1:1:' for an empty one) and annotated
    as file=REF. They name the argument as typed, with no line, in every format."""
    code, out, err = run_cli(capsys, "breaking", f"--against={ref}")
    assert code == 2
    (line, hint) = err.splitlines()[:2]
    assert line.startswith(f"--against '{ref}': error[E342]: is ")
    assert hint.startswith("  hint: pass an existing spec folder")
    code, out, _ = run_cli(capsys, "breaking", f"--against={ref}", "--error-format", "github")
    assert code == 2
    assert out.startswith(f"::error title=E342::--against '{ref}': is ")
    assert "file=" not in out
    code, out, _ = run_cli(capsys, "breaking", f"--against={ref}", "--error-format", "json")
    assert code == 2
    (diag,) = json.loads(out)["diagnostics"]
    assert (diag["path"], diag["line"], diag["col"], diag["code"]) == (f"--against '{ref}'", 0, 0, "E342")


def test_invalid_old_specs_exit_2(breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    edit(breaking_trees[0] / "tools" / "ask.yaml", "handler: null", "handler: [")
    tighten(breaking_trees[1])
    code, out, err = run_cli(capsys, "breaking", "--against", "old/specs")
    assert (code, out) == (2, "")
    assert "old/specs/tools/ask.yaml:" in err and "error[E100]" in err


def test_invalid_new_specs_exit_2(breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    edit(breaking_trees[1] / "variants" / "compact.yaml", "- ask\n", "- ask_user\n")
    code, out, _ = run_cli(capsys, "breaking", "--against", "old/specs", "--error-format", "json")
    assert code == 2
    report = json.loads(out)  # the same object as a run that compared, with nothing compared
    (diag,) = report.pop("diagnostics")
    assert (diag["path"], diag["line"], diag["code"]) == ("specs/variants/compact.yaml", 9, "E301")
    assert report == {
        "against": "old/specs",
        "errors": 1,
        "breaking": 0,
        "warnings": 0,
        "excepted": 0,
        "info": 0,
        "findings": [],
        "unused_exceptions": [],
    }


def test_rule_ids_are_upper_snake() -> None:
    assert all(rule.replace("_", "").isalpha() and rule.isupper() for rule in RULES)


def test_markdown_changelog(breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    """Release notes: sections in order, breaking lines first and marked, families and formats named."""
    new = breaking_trees[1]
    tighten(new)
    edit(new / "tools" / "ask.yaml", "handler: null", "handler: {class: TodoHandler}")
    code, out, _ = run_cli(capsys, "breaking", "--against", "old/specs", "--format", "markdown")
    assert code == 1
    assert out.startswith("## Changes since old/specs\n\n### Added\n\n- tool 'ask' is now handled by class TodoHandler")
    changed = out.split("### Changed\n\n", 1)[1]
    assert changed.startswith("- **Breaking:** read\\_file: parameter 'start\\_line': minimum raised from 1 to 2")
    assert "(families `compact`, `native`, `generic`; formats `xml`, `anthropic`," in changed
    assert "`BOUND_TIGHTENED`." in changed and "### Removed" not in out


def test_markdown_without_changes(breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "breaking", "--against", "old/specs", "--format", "markdown")
    assert (code, out) == (0, "## Changes since old/specs\n\nNo changes a model, a host or the wire sees.\n\n")


def test_junit_is_valid_xml_with_one_case_per_finding(
    breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """Spec text that looks like markup stays data."""
    import xml.etree.ElementTree as ET

    new = breaking_trees[1]
    tighten(new)
    edit(new / "tools" / "ask.yaml", "Ask the user a question.", 'Ask </testcase> & "quote" \\x01 here.')
    code, out, _ = run_cli(capsys, "breaking", "--against", "old/specs", "--format", "junit")
    assert code == 1
    root = ET.fromstring(out)
    suite = root.find("testsuite")
    assert suite is not None and (suite.get("tests"), suite.get("failures"), suite.get("skipped")) == ("2", "1", "0")
    cases = suite.findall("testcase")
    failed = [c for c in cases if c.find("failure") is not None]
    assert [c.get("classname") for c in failed] == ["specs/tools/read_file.yaml"]
    assert failed[0].find("failure").get("type") == "BOUND_TIGHTENED"  # type: ignore[union-attr]
    passed = next(c for c in cases if c.find("failure") is None)
    assert passed.get("name", "").startswith("DESCRIPTION_CHANGED ")


def test_junit_marks_excepted_findings_skipped(
    breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    import xml.etree.ElementTree as ET

    new = breaking_trees[1]
    tighten(new)
    except_(new, '    - {rule: BOUND_TIGHTENED, reason: "clients send 2 or more"}\n')
    code, out, _ = run_cli(capsys, "breaking", "--against", "old/specs", "--format", "junit")
    assert code == 0
    skipped = ET.fromstring(out).find("testsuite/testcase/skipped")
    assert skipped is not None and skipped.get("message") == "excepted: clients send 2 or more"


def test_fingerprints_stay_when_lines_move(
    breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    new = breaking_trees[1]
    tighten(new)
    _, first, _ = breaking(capsys)
    path = new / "tools" / "read_file.yaml"
    path.write_text("# a comment that moves every line down\n" + path.read_text("utf-8"), "utf-8")
    _, second, _ = breaking(capsys)
    (a,), (b,) = first["findings"], second["findings"]
    assert b["line"] == a["line"] + 1
    assert a["fingerprint"] == b["fingerprint"] and len(a["fingerprint"]) == 16
    edit(new / "tools" / "read_file.yaml", "minimum: 2", "minimum: 3")
    _, third, _ = breaking(capsys)
    assert third["findings"][0]["fingerprint"] != a["fingerprint"]  # another change, another print
