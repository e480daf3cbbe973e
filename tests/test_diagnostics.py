"""One test per diagnostic code: a one-edit mistake in the fixture catalog, reported at the exact line:col."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conftest import edit, run_cli

# (code, file, old text, new text, expected "path:line:col")
CASES = [
    ("E101", "tools/ask.yaml", "id: ask\n", "id: ask\nid: ask\n", "specs/tools/ask.yaml:3:1"),
    ("E102", "tools/ask.yaml", "description: Ask", "description: !custom Ask", "specs/tools/ask.yaml:6:18"),
    ("E103", "tools/ask.yaml", "  generic:\n", "  generic:\n    <<: {strict: true}\n", "specs/tools/ask.yaml:6:5"),
    ("E104", "tools/ask.yaml", "handler: null\n", "handler: null\n? [a, b]\n: 1\n", "specs/tools/ask.yaml:4:3"),
    ("E210", "tools/ask.yaml", "handler: null\n", "handler: null\nhandlr: 1\n", "specs/tools/ask.yaml:4:1"),
    ("E211", "tools/ask.yaml", "handler: null\n", "", "specs/tools/ask.yaml:2:1"),
    ("E212", "tools/ask.yaml", "required: true", "required: 3", "specs/tools/ask.yaml:10:19"),
    ("E213", "tools/read_file.yaml", "type: integer", "type: intger", "specs/tools/read_file.yaml:15:15"),
    ("E214", "tools/ask.yaml", "{field: yolo_mode, truthy: false}", "{truthy: false}", "specs/tools/ask.yaml:7:15"),
    ("E301", "variants/native.yaml", "- ask\n", "- asq\n", "specs/variants/native.yaml:11:3"),
    ("E302", "toolgen.yaml", "  - todo\nfamilies:", "  - todo\n  - ask\nfamilies:", "specs/toolgen.yaml:9:5"),
    ("E303", "toolgen.yaml", "  - native\n", "  - native\n  - Native\n", "specs/toolgen.yaml:13:5"),
    ("E304", "tools/ask.yaml", "      - use:", "      - name: question\n      - use:", "specs/tools/ask.yaml:13:9"),
    ("E305", "tools/ask.yaml", "field: yolo_mode", "field: yolo", "specs/tools/ask.yaml:7:23"),
    ("E306", "tools/ask.yaml", "Ask the user a question.", "Ask {{NOPE}}.", "specs/tools/ask.yaml:6:18"),
    (
        "E307",
        "tools/ask.yaml",
        "        required: true\n",
        "        required: true\n        dependencies: [nope]\n",
        "specs/tools/ask.yaml:11:24",
    ),
    ("E308", "tools/ask.yaml", "use: task_progress", "use: task_progres", "specs/tools/ask.yaml:13:14"),
    ("E309", "tools/write_file.yaml", "shares: read_file", "shares: ask", "specs/tools/write_file.yaml:4:11"),
    ("E310", "tools/read_file.yaml", "  native:", "  natve:", "specs/tools/read_file.yaml:20:3"),
    (
        "E311",
        "tools/write_file.yaml",
        "enum: [overwrite, append]",
        "enum: [overwrite, 3]",
        "specs/tools/write_file.yaml:24:27",
    ),
    (
        "E312",
        "tools/ask.yaml",
        "{field: yolo_mode, truthy: false}",
        "{field: yolo_mode, truthy: false, equals: true}",
        "specs/tools/ask.yaml:7:15",
    ),
    (
        "E313",
        "variants/compact.yaml",
        "provider_in: local_providers",
        "provider_in: locals",
        "specs/variants/compact.yaml:15:21",
    ),
    ("E314", "tools/read_file.yaml", "extends: generic", "extends: generc", "specs/tools/read_file.yaml:21:14"),
    ("E315", "variants/native.yaml", "order: 2", "order: 1", "specs/variants/native.yaml:13:10"),
    (
        "E320",
        "tools/ask.yaml",
        "        required: true\n",
        '        required: true\n        pattern: "("\n',
        # the column of the problem inside the pattern string (its first character, after the quote)
        "specs/tools/ask.yaml:11:19",
    ),
]


def diag_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if re.match(r"^\S+: (error|warning)\[[EW]\d{3}\]", line)]


def expect_line(err: str, location: str, code: str, severity: str = "error") -> None:
    prefix = f"{location}: {severity}[{code}]: "
    assert any(line.startswith(prefix) for line in err.splitlines()), f"no line starting {prefix!r} in:\n{err}"


@pytest.mark.parametrize("code,file,old,new,location", CASES, ids=[c[0] for c in CASES])
def test_error_code_location(capsys, specs: Path, code, file, old, new, location) -> None:
    edit(specs / file, old, new)
    rc, out, err = run_cli(capsys, "validate", "--specs", specs)
    assert rc == 2, err
    expect_line(err, location, code)
    assert "Traceback" not in err + out
    # every diagnostic carries a hint line
    assert "\n  hint: " in err


def test_e100_invalid_utf8(capsys, specs: Path) -> None:
    (specs / "tools/ask.yaml").write_bytes(b"# modeline\nid: ask\ndescription: caf\xe9\n")
    rc, _, err = run_cli(capsys, "validate", "--specs", specs)
    assert rc == 2
    expect_line(err, "specs/tools/ask.yaml:3:17", "E100")
    assert "not valid UTF-8 (byte 35)" in err


def test_e100_yaml_syntax_error_location(capsys, specs: Path) -> None:
    edit(
        specs / "tools/ask.yaml",
        "    requires: {field: yolo_mode, truthy: false}",
        "    requires: {field: yolo_mode, truthy: false",
    )
    rc, _, err = run_cli(capsys, "validate", "--specs", specs)
    assert rc == 2
    expect_line(err, "specs/tools/ask.yaml:8:15", "E100")
    assert "YAML syntax error" in err


def test_e100_missing_project_file(capsys, specs: Path) -> None:
    (specs / "toolgen.yaml").unlink()
    rc, _, err = run_cli(capsys, "validate", "--specs", specs)
    assert rc == 2
    expect_line(err, "specs/toolgen.yaml:1:1", "E100")


def test_e105_alias_bomb(capsys, specs: Path) -> None:
    lines = ["# modeline", 'a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, 10):
        prev = f"*a{i - 1}"
        lines.append(f"a{i}: &a{i} [{', '.join([prev] * 9)}]")
    (specs / "tools/ask.yaml").write_text("\n".join(lines) + "\n", "utf-8")
    rc, _, err = run_cli(capsys, "validate", "--specs", specs)
    assert rc == 2
    expect_line(err, "specs/tools/ask.yaml:1:1", "E105")


def test_e109_deep_nesting(capsys, specs: Path) -> None:
    (specs / "tools/ask.yaml").write_text("x: " + "[" * 20000 + "]" * 20000 + "\n", "utf-8")
    rc, _out, err = run_cli(capsys, "validate", "--specs", specs)
    assert rc == 2, err
    assert re.search(r"^specs/tools/ask.yaml:1:\d+: error\[E109\]: .*nested more than 100 deep", err, re.M), err


def test_e211_empty_file(capsys, specs: Path) -> None:
    (specs / "tools/ask.yaml").write_text("# yaml-language-server: $schema=x\n", "utf-8")
    rc, _, err = run_cli(capsys, "validate", "--specs", specs)
    assert rc == 2
    expect_line(err, "specs/tools/ask.yaml:1:1", "E211")
    assert "file is empty" in err


def test_e301_listed_tool_without_file(capsys, specs: Path) -> None:
    edit(specs / "toolgen.yaml", "  - todo\n", "  - todo\n  - nope\n")
    rc, _, err = run_cli(capsys, "validate", "--specs", specs)
    assert rc == 2
    expect_line(err, "specs/toolgen.yaml:9:5", "E301")
    assert "tool 'nope' has no spec file" in err


def test_e316_file_name_mismatch(capsys, specs: Path) -> None:
    (specs / "tools/ask.yaml").rename(specs / "tools/asking.yaml")
    rc, _, err = run_cli(capsys, "validate", "--specs", specs)
    assert rc == 2
    expect_line(err, "specs/tools/asking.yaml:2:5", "E316")


def test_w200_missing_modeline_is_a_warning(capsys, specs: Path) -> None:
    edit(specs / "tools/ask.yaml", "# yaml-language-server: $schema=../../generator/schemas/tool.schema.json\n", "")
    rc, _, err = run_cli(capsys, "validate", "--specs", specs)
    assert rc == 0, err
    expect_line(err, "specs/tools/ask.yaml:1:1", "W200", "warning")
    assert "0 error(s), 1 warning(s)" in err


def test_w201_yml_file_ignored(capsys, specs: Path) -> None:
    (specs / "tools/extra.yml").write_text("id: extra\n", "utf-8")
    rc, _, err = run_cli(capsys, "validate", "--specs", specs)
    assert rc == 0, err
    expect_line(err, "specs/tools/extra.yml:1:1", "W201", "warning")


def test_w302_duplicate_tool_in_family(capsys, specs: Path) -> None:
    edit(specs / "variants/native.yaml", "- ask\n", "- ask\n- read_file\n")
    rc, _, err = run_cli(capsys, "validate", "--specs", specs)
    assert rc == 0, err
    expect_line(err, "specs/variants/native.yaml:12:3", "W302", "warning")


def test_e400_foreign_file_collision(capsys, specs: Path, tmp_path: Path) -> None:
    out = tmp_path / "generated"
    out.mkdir()
    (out / "catalog.py").write_text("# mine\n", "utf-8")
    rc, _, err = run_cli(capsys, "generate", "--specs", specs, "--out", out)
    assert rc == 2
    assert "generated/catalog.py: error[E400]: refusing to overwrite a file toolgen did not write" in err
    assert (out / "catalog.py").read_text("utf-8") == "# mine\n"
    assert sorted(p.name for p in out.iterdir()) == ["catalog.py"]


def test_w401_hand_edited_stale_file_kept(capsys, specs: Path, tmp_path: Path) -> None:
    out = tmp_path / "generated"
    assert run_cli(capsys, "generate", "--specs", specs, "--out", out)[0] == 0
    stale = out / "prompts" / "native.xml"
    assert stale.is_file()
    stale.write_text("edited by hand\n", "utf-8")
    # drop the family 'native' so prompts/native.xml is no longer generated
    (specs / "variants/native.yaml").unlink()
    edit(specs / "tools/read_file.yaml", "  native:\n    extends: generic\n    description: Reads a file.\n", "")
    edit(specs / "tools/todo.yaml", "  native:", "  generic:")
    rc, _, err = run_cli(capsys, "generate", "--specs", specs, "--out", out)
    assert rc == 0, err
    assert "generated/prompts/native.xml: warning[W401]" in err
    assert stale.read_text("utf-8") == "edited by hand\n"


def test_all_errors_of_a_run_are_collected(capsys, specs: Path) -> None:
    edit(specs / "tools/ask.yaml", "field: yolo_mode", "field: yolo")
    edit(specs / "tools/read_file.yaml", "extends: generic", "extends: generc")
    rc, _, err = run_cli(capsys, "generate", "--specs", specs, "--out", specs.parent / "generated")
    assert rc == 2
    expect_line(err, "specs/tools/ask.yaml:7:23", "E305")
    expect_line(err, "specs/tools/read_file.yaml:21:14", "E314")
    assert "2 error(s), 0 warning(s)" in err
    assert not (specs.parent / "generated").exists()


def test_errors_in_different_stages_files_are_all_reported(capsys, specs: Path) -> None:
    # a schema error in one file and a YAML error in another: both files are reported
    edit(specs / "tools/ask.yaml", "handler: null\n", "handler: null\nhandlr: 1\n")
    edit(specs / "tools/todo.yaml", "id: todo\n", "id: todo\nid: todo\n")
    rc, _, err = run_cli(capsys, "validate", "--specs", specs)
    assert rc == 2
    expect_line(err, "specs/tools/ask.yaml:4:1", "E210")
    expect_line(err, "specs/tools/todo.yaml:3:1", "E101")


def test_github_error_format(capsys, specs: Path) -> None:
    edit(specs / "tools/ask.yaml", "field: yolo_mode", "field: yolo")
    rc, out, _ = run_cli(capsys, "validate", "--specs", specs, "--error-format", "github")
    assert rc == 2
    lines = out.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(
        "::error file=specs/tools/ask.yaml,line=7,col=23,title=E305::unknown context field 'yolo'"
    )
    assert "(hint: did you mean 'yolo_mode'?)" in lines[0]


def test_json_error_format(capsys, specs: Path) -> None:
    edit(specs / "tools/ask.yaml", "field: yolo_mode", "field: yolo")
    edit(specs / "variants/native.yaml", "- ask\n", "- ask\n- ask\n")
    rc, out, _ = run_cli(capsys, "validate", "--specs", specs, "--error-format", "json")
    assert rc == 2
    data = json.loads(out)
    assert data == [
        {
            "code": "E305",
            "message": "unknown context field 'yolo'",
            "hint": "did you mean 'yolo_mode'?",
            "severity": "error",
            "path": "specs/tools/ask.yaml",
            "line": 7,
            "col": 23,
        },
        {
            "code": "W302",
            "message": "tool 'ask' is listed twice; the second entry is dropped",
            "hint": "remove the duplicate",
            "severity": "warning",
            "path": "specs/variants/native.yaml",
            "line": 12,
            "col": 3,
        },
    ]


def test_github_format_escapes_newlines() -> None:
    from generator.diagnostics import Diagnostic, Location

    diag = Diagnostic(Location("specs/a.yaml", 3, 4), "E210", "bad\nkey 100%\r", "fix it")
    assert (
        diag.format_github() == "::error file=specs/a.yaml,line=3,col=4,title=E210::bad%0Akey 100%25%0D (hint: fix it)"
    )


HOSTILE_FILES = [
    "",
    "\x00\x01",
    "- just\n- a list\n",
    "id: [1, 2]\nhandler: {class: 3}\nvariants: 7\n",
    (
        "id: ask\nhandler: null\n"
        "variants: {generic: {parameters: [{use: 3}, 5, {name: x, type: object, properties: 4}]}}\n"
    ),
    "id: ask\nhandler: {shares: ask}\nvariants: {generic: {extends: generic}}\n",
    "id: ask\nhandler: null\nvariants: {generic: {requires: {all: [{not: {}}]}, description: [{when: 3}]}}\n",
    (
        "id: ask\nhandler: null\n"
        "variants: {generic: {parameters: [{name: q, enum: [1], default: {}, items: {type: x}}]}}\n"
    ),
    "id: ask\nhandler: null\nvariants:\n  generic: {extends: native}\n  native: {extends: generic}\n",
    "id: !!binary aGVsbG8=\nhandler: !!set {a, b}\nvariants: !!omap [{generic: {}}]\n",
    "x: &a [*a]\n",
    "x: 2001-12-14\ny: .nan\nz: 0x1F\n",
    "\ufeffid: ask\n",
    "a: b\n\t- c\n",
]


@pytest.mark.parametrize("text", HOSTILE_FILES, ids=range(len(HOSTILE_FILES)))
def test_no_traceback_on_hostile_spec(capsys, specs: Path, text: str) -> None:
    (specs / "tools/ask.yaml").write_text(text, "utf-8")
    rc, _out, err = run_cli(capsys, "generate", "--specs", specs, "--out", specs.parent / "generated")
    assert rc in (0, 2), err
    assert "internal error" not in err and "Traceback" not in err
    if rc == 2:
        assert re.search(r"^specs/\S+:\d+:\d+: error\[E\d{3}\]: ", err, re.M), err


@pytest.mark.parametrize(
    "file,text",
    [
        (
            "toolgen.yaml",
            "toolgen: 1\ntools: [a, a]\nfamilies: [generic]\ncontext: {x: {type: string_list, doc: d, default: [1]}}\n",
        ),
        (
            "toolgen.yaml",
            "toolgen: 1\ntools: []\nfamilies: []\ncontext: {}\n"
            "selection: {fallback: g, model_predicates: {p: {model_matches: p,"
            " regex_first_match: {pattern: '(', group: 3, gte: 1}}}}\n",
        ),
        (
            "variants/native.yaml",
            "family: other\ndescription: d\ntools: [zzz]\nselection: {order: 1, rule: {field: nope, contains: x}}\n",
        ),
        (
            "parameters.yaml",
            "parameters: {task_progress: {type: object, member_required: [x], properties: {y: {type: string}}}}\n",
        ),
    ],
)
def test_no_traceback_on_hostile_project_files(capsys, specs: Path, file: str, text: str) -> None:
    (specs / file).write_text(text, "utf-8")
    rc, _out, err = run_cli(capsys, "generate", "--specs", specs, "--out", specs.parent / "generated")
    assert rc == 2, err
    assert "internal error" not in err


def test_nested_schemas_generate(capsys, specs: Path) -> None:
    """Nested schemas (items/properties) reach lowering as read-only mappings; they must still generate."""
    edit(
        specs / "tools/todo.yaml",
        "        required: true\n",
        "        required: true\n        type: array\n"
        "        items: {type: object, properties: {text: {type: string}}, required: [text]}\n",
    )
    rc, _, err = run_cli(capsys, "generate", "--specs", specs, "--out", specs.parent / "generated")
    assert rc == 0, err


def test_version_and_usage_errors(capsys) -> None:
    from generator import __version__

    rc, out, _ = run_cli(capsys, "--version")
    assert rc == 0 and out.strip() == f"toolgen {__version__}"
    rc, _, err = run_cli(capsys, "frobnicate")
    assert rc == 2 and "usage:" in err


def test_paths_are_printed_relative_to_the_current_directory(tmp_path: Path, monkeypatch) -> None:
    """Spec files keep their in-run names (generated headers use them); messages name them from the cwd,
    other files too; an absolute path only where no relative one exists (another drive on Windows)."""
    import os

    from generator.diagnostics import Location, file_location, shown
    from generator.specfiles import spec_diagnostics

    specs = tmp_path / "config" / "specs"
    specs.mkdir(parents=True)
    diags = spec_diagnostics(specs)
    diags.error(Location("specs/tools/x.yaml", 3, 5), "E210", "bad")
    diags.error(file_location(tmp_path / "myapp" / "_tools"), "E402", "not a folder")
    monkeypatch.chdir(tmp_path / "config")
    paths = {d["code"]: d["path"] for d in json.loads(diags.render("json"))}
    assert paths == {"E210": "specs/tools/x.yaml", "E402": "../myapp/_tools"}
    monkeypatch.chdir(tmp_path)
    assert "config/specs/tools/x.yaml:3:5: error[E210]: bad" in diags.render("text").splitlines()
    assert "::error file=myapp/_tools,line=1,col=1,title=E402::" in diags.render("github")

    def no_relative_path(path: str, start: str | None = None) -> str:
        raise ValueError("path is on mount 'D:', start on mount 'C:'")

    monkeypatch.setattr(os.path, "relpath", no_relative_path)
    assert shown(tmp_path / "x.yaml") == str(tmp_path / "x.yaml")


@pytest.mark.parametrize(
    "written,column",
    [
        ("ab(", 20),  # plain: the "(" is the third character of the value at column 18
        ("'a''('", 22),  # single-quoted: the doubled quote is one character of the pattern
        ('"ab("', 21),  # double-quoted without escapes
        ('"\\\\d("', 18),  # an escape before the problem: the string itself
    ],
)
def test_a_pattern_error_points_inside_the_string(capsys, specs: Path, written: str, column: int) -> None:
    edit(
        specs / "tools" / "ask.yaml",
        "        required: true\n",
        f"        required: true\n        pattern: {written}\n",
    )
    rc, _, err = run_cli(capsys, "validate", "--specs", specs)
    assert rc == 2, err
    expect_line(err, f"specs/tools/ask.yaml:11:{column}", "E320")
