"""``deprecated:`` on tools, parameters and enum values: what the model reads, what the generated
types say, E318, and how ``toolgen breaking`` takes a removal that was announced (through the CLI)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from breaking_cases import breaking
from conftest import FIXTURE_SPECS, edit, run_cli
from generator import pipeline

TOOL_MARK = "id: ask\ndeprecated: {note: Ask in the chat instead., removal: 2027-06-30}\n"
PARAM_MARK = "      - name: mode\n        deprecated: true\n"
VALUES_MARK = "        enum: [overwrite, append]\n        deprecated_values: [{value: append, note: use overwrite}]\n"


def mark(specs: Path) -> None:
    edit(specs / "tools" / "ask.yaml", "id: ask\n", TOOL_MARK)
    edit(specs / "tools" / "write_file.yaml", "      - name: mode\n", PARAM_MARK)
    edit(specs / "tools" / "write_file.yaml", "        enum: [overwrite, append]\n", VALUES_MARK)


@pytest.fixture
def marked(tmp_path: Path) -> dict[str, bytes]:
    """The Python and TypeScript packages of the fixture specs with every kind of marker."""
    import shutil

    specs = tmp_path / "specs"
    shutil.copytree(FIXTURE_SPECS, specs)
    mark(specs)
    result = pipeline.run(specs, targets={"typescript": True})
    assert not result.diagnostics.has_errors, result.diagnostics.render("text")
    files = {f"py/{k}": v for k, v in result.files.items()}
    files.update({f"ts/{k}": v for k, v in result.targets["typescript"].items()})
    return files


def test_the_model_reads_the_note_in_every_format(marked: dict[str, bytes]) -> None:
    data = marked["py/catalog_data.py"].decode("utf-8")
    assert "Deprecated: Ask in the chat instead. It may be removed after 2027-06-30." in data
    assert "Deprecated: avoid this parameter; it will be removed." in data
    assert 'Deprecated values: "append" (use overwrite); avoid them.' in data


def test_the_schema_sent_holds_no_marker_keyword(marked: dict[str, bytes]) -> None:
    """The markers are spec language, not JSON Schema: nothing like them reaches a provider."""
    from generator.runtime.formats import FORMATS

    modules = [f"py/{rec.module}.py" for rec in FORMATS.values()]
    assert all(name in marked for name in modules), sorted(marked)  # each format's baked tool entries
    for name in modules:
        assert b"Deprecated: Ask in the chat instead." in marked[name], name  # the note is sent...
        assert b'"deprecated' not in marked[name] and b"deprecated_values" not in marked[name], name  # not the key


def test_the_types_mark_what_is_deprecated(marked: dict[str, bytes]) -> None:
    ts = marked["ts/args.ts"].decode("utf-8")
    ask = ts[: ts.index("export type AskArgs")].rsplit("/**", 1)[1]  # the type's own JSDoc
    assert "Deprecated: Ask in the chat instead." in ask and ask.rstrip().endswith("* @deprecated\n */")
    block = ts[: ts.index("readonly mode?")].rsplit("/**", 1)[1]
    assert "Deprecated: avoid this parameter" in block and "@deprecated" in block
    question = ts[: ts.index("readonly question")].rsplit("/**", 1)[1]
    assert "@deprecated" not in question  # only what is deprecated is marked
    py = marked["py/args.py"].decode("utf-8")
    assert "Deprecated: Ask in the chat instead." in py  # the class docstring of ask's arguments
    assert "Deprecated: avoid this parameter; it will be removed." in py  # the field docstring of mode


@pytest.mark.parametrize(
    ("path", "old", "new", "message"),
    [
        (
            "tools/ask.yaml",
            "id: ask\n",
            "id: ask\ndeprecated: {removal: 2027-02-30}\n",
            "error[E318]: removal date '2027-02-30' is not a date of the calendar",
        ),
        (
            "tools/write_file.yaml",
            "        enum: [overwrite, append]\n",
            "        enum: [overwrite, append]\n        deprecated_values: [{value: prepend}]\n",
            'error[E318]: deprecated value "prepend" is not a value of the parameter\'s enum',
        ),
    ],
)
def test_a_marker_that_cannot_hold_is_e318(
    breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str], path: str, old: str, new: str, message: str
) -> None:
    specs = breaking_trees[1]
    edit(specs / path, old, new)
    code, _, err = run_cli(capsys, "validate", "--specs", "specs")
    assert code == 2 and message in err, err


def drop_ask(new: Path) -> None:
    """Remove the ask tool from the new specs everywhere they name it."""
    (new / "tools" / "ask.yaml").unlink()
    edit(new / "toolgen.yaml", "  - ask\n", "")
    for family in ("generic", "compact", "native"):
        text = (new / "variants" / f"{family}.yaml").read_text("utf-8")
        (new / "variants" / f"{family}.yaml").write_text(text.replace("- ask\n", ""), "utf-8")


@pytest.mark.parametrize(
    ("today", "code", "level", "says"),
    [
        ("2027-01-01", 1, "error", "(it is deprecated, but may be removed only after 2027-06-30)"),
        ("2027-06-30", 0, "info", "(it was deprecated; removal allowed since 2027-06-30)"),
    ],
)
def test_removing_a_deprecated_tool_breaks_only_before_its_date(
    breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str], today: str, code: int, level: str, says: str
) -> None:
    old, new = breaking_trees
    mark(old)
    edit(new / "tools" / "write_file.yaml", "      - name: mode\n", PARAM_MARK)  # keep the rest as it was
    edit(new / "tools" / "write_file.yaml", "        enum: [overwrite, append]\n", VALUES_MARK)
    drop_ask(new)
    status, report, _ = breaking(capsys, "--today", today)
    (removed,) = [f for f in report["findings"] if f["rule"] == "TOOL_REMOVED"]
    assert (status, removed["level"]) == (code, level)
    assert removed["message"].endswith(says)


def test_a_removal_keeps_its_fingerprint_when_its_date_passes(
    breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """CI tells findings apart by fingerprint: the date-dependent note must not change it."""
    old, new = breaking_trees
    mark(old)
    drop_ask(new)
    seen = {}
    for today in ("2027-01-01", "2027-07-01"):
        _, report, _ = breaking(capsys, "--today", today)
        (removed,) = [f for f in report["findings"] if f["rule"] == "TOOL_REMOVED"]
        seen[today] = (removed["fingerprint"], removed["message"])
    assert seen["2027-01-01"][0] == seen["2027-07-01"][0]
    assert seen["2027-01-01"][1] != seen["2027-07-01"][1]


def test_removing_a_deprecated_parameter_without_a_date_is_information(
    breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    old, new = breaking_trees
    edit(old / "tools" / "write_file.yaml", "      - name: mode\n", PARAM_MARK)
    text = (new / "tools" / "write_file.yaml").read_text("utf-8")
    start = text.index("      - name: mode\n")
    end = text.index("      - use: task_progress", start)
    (new / "tools" / "write_file.yaml").write_text(text[:start] + text[end:], "utf-8")
    code, report, _ = breaking(capsys)
    (removed,) = [f for f in report["findings"] if f["rule"] == "PARAMETER_REMOVED"]
    assert code == 0 and removed["level"] == "info" and "removal allowed" in removed["message"]


@pytest.mark.parametrize(("values", "expected"), [("[overwrite]", "info"), ("[append]", "error")])
def test_removing_enum_values_is_announced_only_when_all_were_deprecated(
    breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str], values: str, expected: str
) -> None:
    old, new = breaking_trees
    edit(old / "tools" / "write_file.yaml", "        enum: [overwrite, append]\n", VALUES_MARK)
    edit(new / "tools" / "write_file.yaml", "enum: [overwrite, append]", f"enum: {values}")
    _, report, _ = breaking(capsys)
    (removed,) = [f for f in report["findings"] if f["rule"] == "ENUM_VALUE_REMOVED"]
    assert removed["level"] == expected


def test_the_changelog_lists_what_became_deprecated(
    breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    mark(breaking_trees[1])
    code, out, _ = run_cli(capsys, "breaking", "--against", "old/specs", "--format", "markdown")
    assert code == 0
    deprecated = out.split("### Deprecated\n\n", 1)[1].split("###", 1)[0]
    lines = [line for line in deprecated.splitlines() if line.startswith("- ")]
    assert len(lines) == 3 and all(line.endswith("`DEPRECATED`.") for line in lines), deprecated
    assert json.dumps("append") in deprecated
