"""Odd input to the command-line surfaces (outputs, init, show): each once made toolgen crash
(exit 123) or write where it must not. Every case runs on the small project `toolgen init` writes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import run_cli

posix_only = pytest.mark.skipif(
    sys.platform == "win32", reason="file names that are not UTF-8 need a POSIX file system"
)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Path:
    """A fresh `toolgen init` project in ``tmp_path`` (the current directory): specs/, package pkg/."""
    monkeypatch.chdir(tmp_path)
    code, _, err = run_cli(capsys, "init", "specs", "--out", "pkg", "--docs", "doc.md")
    assert code == 0, err
    return tmp_path


def set_outputs(project: Path, block: str) -> None:
    """Replace the ``outputs`` block of the project's toolgen.yaml by ``block`` (its indented lines)."""
    path = project / "specs" / "toolgen.yaml"
    text = path.read_text("utf-8")
    old = 'outputs:\n  python: "../pkg"\n  docs: "../doc.md"\n'
    assert old in text
    path.write_text(text.replace(old, "outputs:\n" + block), "utf-8")


def spec_files(project: Path) -> list[str]:
    return sorted(p.relative_to(project / "specs").as_posix() for p in (project / "specs").rglob("*"))


# --- paths that are not UTF-8 (a surrogate escape in Python) -----------------------------------


@posix_only
@pytest.mark.parametrize("flag", ["--out", "--ts-out"])
@pytest.mark.parametrize("command", ["generate", "check", "validate"])
def test_output_folder_named_in_bytes_that_are_not_utf8(
    project: Path, capsys: pytest.CaptureFixture[str], command: str, flag: str
) -> None:
    """The fast path's cache key hashed the folder's name as UTF-8: exit 123."""
    folder = os.fsdecode(b"out\xff")
    if command == "check":
        assert run_cli(capsys, "generate", "--specs", "specs", flag, folder)[0] == 0
    code, _, err = run_cli(capsys, command, "--specs", "specs", flag, folder)
    assert code == 0, err
    assert "internal error" not in err


@posix_only
def test_spec_folder_named_in_bytes_that_are_not_utf8(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The spec folder's name goes into the generated files' headers; it could not be encoded."""
    os.rename("specs", os.fsdecode(b"sp\xffecs"))
    specs = os.fsdecode(b"sp\xffecs")
    for command in ("validate", "generate", "check"):
        code, _, err = run_cli(capsys, command, "--specs", specs, "--ts-out", "ts")
        assert code == 0, (command, err)
    header = (project / "pkg" / "prompts" / "text.xml").read_text("utf-8").splitlines()[0]
    assert "sp?ecs/tools/add_note.yaml" in header


@posix_only
def test_spec_file_named_in_bytes_that_are_not_utf8(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A stray file in tools/ whose name is not UTF-8 is reported, not a crash of the fingerprint."""
    (project / "specs" / "tools" / os.fsdecode(b"\xff.yaml")).write_text("x: 1\n", "utf-8")
    code, _, err = run_cli(capsys, "generate", "--specs", "specs")
    assert code == 2, err
    assert "internal error" not in err
    assert "specs/tools/\\udcff.yaml:" in err


@posix_only
def test_show_reads_a_package_folder_named_in_bytes_that_are_not_utf8(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = os.fsdecode(b"out\xff")
    assert run_cli(capsys, "generate", "--specs", "specs", "--out", folder)[0] == 0
    code, out, err = run_cli(capsys, "show", "schema", "--specs", "specs", "--out", folder, "--tool", "read_note")
    assert code == 0, err
    assert '"title": "read_note"' in out


# --- the TypeScript package folder against the other places a run touches --------------------


@pytest.mark.parametrize(
    ("block", "code", "where"),
    [
        ('  typescript: "."\n', "E110", "specs/toolgen.yaml:7:15"),  # the spec folder itself
        ('  typescript: "tools"\n', "E110", "specs/toolgen.yaml:7:15"),  # inside it
        ('  typescript: "../link/ts"\n', "E110", "specs/toolgen.yaml:7:15"),  # inside it, through a symlink
        ('  typescript: ".."\n', "E110", "specs/toolgen.yaml:7:15"),  # a parent of it
        ('  python: "../pkg"\n  typescript: "../pkg"\n', "E130", "specs/toolgen.yaml:8:15"),
        ('  python: "../pkg"\n  typescript: "../pkg/ts"\n', "E130", "specs/toolgen.yaml:8:15"),
        ('  python: "../ts/py"\n  typescript: "../ts"\n', "E130", "specs/toolgen.yaml:8:15"),
        ('  typescript: "../ts"\n  docs: "../ts/doc.md"\n', "E111", "specs/toolgen.yaml:8:9"),
        ('  python: "../link/pkg"\n', "E110", "specs/toolgen.yaml:7:11"),  # the Python package, through a symlink
    ],
)
@pytest.mark.parametrize("command", ["generate", "check", "validate"])
def test_typescript_folder_must_not_overlap(
    project: Path, capsys: pytest.CaptureFixture[str], command: str, block: str, code: str, where: str
) -> None:
    """These were accepted: the TypeScript package went into the spec folder, or replaced the Python one
    (the same folder waited 5 s for its own lock, E403)."""
    os.symlink("specs", project / "link")
    set_outputs(project, block)
    before = spec_files(project)
    status, _, err = run_cli(capsys, command, "--specs", "specs")
    assert status == 2, err
    assert f"{where}: error[{code}]:" in err
    assert "hint: " in err
    assert spec_files(project) == before
    assert not (project / "pkg").exists() and not (project / "ts").exists()


@pytest.mark.parametrize(
    ("args", "code", "where"),
    [
        (["--ts-out", "specs/ts"], "E110", "specs/ts"),
        (["--ts-out", "pkg"], "E130", "pkg"),
        (["--ts-out", "pkg/ts"], "E130", "pkg/ts"),
        (["--ts-out", "ts", "--out", "ts/py"], "E130", "ts"),
        (["--ts-out", "ts", "--docs", "ts/doc.md"], "E111", "ts/doc.md"),
    ],
)
def test_typescript_override_must_not_overlap(
    project: Path, capsys: pytest.CaptureFixture[str], args: list[str], code: str, where: str
) -> None:
    status, _, err = run_cli(capsys, "generate", "--specs", "specs", *args)
    assert status == 2, err
    assert f"{where}:1:1: error[{code}]:" in err  # a path from the command line has no line: 1:1, as for --out
    assert not (project / "pkg").exists() and not (project / "ts").exists()


def test_typescript_overlap_in_json_format(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    set_outputs(project, '  python: "../pkg"\n  typescript: "../pkg"\n')
    status, out, _ = run_cli(capsys, "check", "--specs", "specs", "--error-format", "json")
    assert status == 2
    assert '"code": "E130"' in out and '"line": 8' in out


def test_typescript_folder_beside_the_others_is_fine(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    set_outputs(project, '  python: "../pkg"\n  typescript: "../ts"\n  docs: "../doc.md"\n')
    status, _, err = run_cli(capsys, "generate", "--specs", "specs")
    assert status == 0, err
    assert (project / "ts" / "index.ts").is_file() and (project / "pkg" / "__init__.py").is_file()


# --- init and schema: refuse before writing anything -------------------------------------------


def tree(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*"))


@pytest.mark.parametrize(
    ("target", "blocker"),
    [("afile", "afile"), ("afile/sub", "afile"), ("half/x", "half/x/tools"), ("half/y", "half/y/.schemas")],
)
def test_init_below_a_file_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], target: str, blocker: str
) -> None:
    """A file where init needs a folder (tools/, .schemas/) failed midway, leaving toolgen.yaml and
    some tool files behind."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "afile").write_text("", "utf-8")
    for folder in ("half/x", "half/y"):
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "half/x/tools").write_text("", "utf-8")
    (tmp_path / "half/y/.schemas").write_text("", "utf-8")
    before = tree(tmp_path)
    code, _, err = run_cli(capsys, "init", target)
    assert code == 2, err
    assert f"{blocker}: error[E407]: is a file, not a folder" in err and "hint: " in err
    assert tree(tmp_path) == before


def test_init_takes_back_what_it_wrote_when_a_write_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "specs").mkdir()  # an empty folder the user made: it stays
    written: list[Path] = []
    real = Path.write_bytes

    def failing(self: Path, data: bytes) -> int:
        if len(written) == 3:
            raise PermissionError(13, "Permission denied", str(self))
        written.append(self)
        return real(self, data)

    monkeypatch.setattr(Path, "write_bytes", failing)
    code, _, err = run_cli(capsys, "init", "specs")
    assert code == 2, err
    assert "error[E407]: cannot write: Permission denied" in err
    assert tree(tmp_path) == ["specs"]


@pytest.mark.parametrize(
    ("args", "code", "where"),
    [
        (["x", "--out", "x"], "E110", "x:1:1"),
        (["x", "--out", "x/pkg"], "E110", "x/pkg:1:1"),
        (["x", "--out", "."], "E110", ".:1:1"),
        (["generated"], "E110", "generated:1:1"),  # the default package folder, ../generated, is the spec folder
        (["x", "--out", "o", "--docs", "o/doc.md"], "E111", "o/doc.md:1:1"),
    ],
)
def test_init_refuses_outputs_that_generate_would_refuse(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    code: str,
    where: str,
) -> None:
    """init wrote these projects; the first `generate` then failed with the same error."""
    monkeypatch.chdir(tmp_path)
    status, _, err = run_cli(capsys, "init", *args)
    assert status == 2, err
    assert f"{where}: error[{code}]:" in err and "hint: " in err
    assert tree(tmp_path) == []


def test_schema_into_a_folder_holding_a_folder_of_a_schema_name_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s" / "tool.schema.json").mkdir(parents=True)
    code, _, err = run_cli(capsys, "schema", "--out", "s")
    assert code == 2, err
    assert "s/tool.schema.json: error[E407]: is not a file" in err
    assert tree(tmp_path) == ["s", "s/tool.schema.json"]


# --- the TypeScript folder's own problems name it, not the Python package ----------------------


@pytest.mark.parametrize("command", ["generate", "check"])
def test_typescript_folder_below_a_file_is_named(
    project: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """Was reported at the Python package folder: 'pkg: error[E404]: cannot write the output folder'."""
    (project / "afile").write_text("", "utf-8")
    code, _, err = run_cli(capsys, command, "--specs", "specs", "--ts-out", "afile/ts")
    assert code == 2, err
    assert "afile/ts: error[E404]: cannot create the output folder: afile is a file, not a folder" in err
    assert "pass another --ts-out" in err
    assert "pkg:" not in err and not (project / "pkg").exists()


def test_typescript_folder_that_is_a_file_names_its_option(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "afile").write_text("", "utf-8")
    code, _, err = run_cli(capsys, "generate", "--specs", "specs", "--ts-out", "afile")
    assert code == 2, err
    assert "afile: error[E402]: exists and is not a folder" in err
    assert "choose another --ts-out" in err and "--out" not in err.replace("--ts-out", "")


@pytest.mark.parametrize(
    ("docs", "says"),
    [
        (".", "is a folder, not a file"),
        ("specs", "is a folder, not a file"),
        ("dangling", "is a symlink that leads nowhere"),
        ("doc.md", "refusing to overwrite a file toolgen did not write"),
    ],
)
def test_docs_path_that_is_not_a_file_says_what_it_is(
    project: Path, capsys: pytest.CaptureFixture[str], docs: str, says: str
) -> None:
    """A folder as --docs was 'refusing to overwrite a file toolgen did not write'."""
    os.symlink("nowhere", project / "dangling")
    (project / "doc.md").write_text("mine\n", "utf-8")
    code, _, err = run_cli(capsys, "generate", "--specs", "specs", "--docs", docs)
    assert code == 2, err
    assert f"{docs}: error[E400]: {says}" in err
    assert (project / "doc.md").read_text("utf-8") == "mine\n"


# --- NUL characters in outputs, control characters in show's messages ---------------------------


@pytest.mark.parametrize(
    ("block", "key", "where"),
    [
        ('  python: "a\\0b"\n  typescript: "../ts"\n', "python", "7:11"),
        ('  docs: "a\\0b"\n  typescript: "../ts"\n', "docs", "7:9"),
        ('  typescript: "a\\0b"\n', "typescript", "7:15"),  # was dropped silently: exit 0, no package
    ],
)
@pytest.mark.parametrize("command", ["generate", "check", "validate"])
def test_nul_in_an_output_path_is_e112(
    project: Path, capsys: pytest.CaptureFixture[str], command: str, block: str, key: str, where: str
) -> None:
    set_outputs(project, block)
    code, _, err = run_cli(capsys, command, "--specs", "specs")
    assert code == 2, err
    assert f"specs/toolgen.yaml:{where}: error[E112]: outputs.{key} holds a NUL character" in err


def test_show_escapes_control_characters_of_a_path(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(capsys, "generate", "--specs", "specs")[0] == 0
    code, _, err = run_cli(capsys, "show", "family", "--specs", "specs", "--context", "\x1b[31mred.json")
    assert code == 2
    assert "\x1b" not in err and "\\x1b[31mred.json" in err


@pytest.mark.parametrize(
    ("args", "where"),
    [
        (["generate", "--specs", "specs", "--docs", "specs/tools/catalog.yaml"], "specs/tools/catalog.yaml:1:1"),
        (["check", "--specs", "specs", "--docs", "specs/catalog.yml"], "specs/catalog.yml:1:1"),
        (["init", "other", "--docs", "other/variants/doc.yaml"], "other/variants/doc.yaml:1:1"),
    ],
)
def test_docs_file_named_like_a_spec_inside_the_spec_folder_is_e132(
    project: Path, capsys: pytest.CaptureFixture[str], args: list[str], where: str
) -> None:
    """generate wrote the Markdown doc as specs/tools/catalog.yaml; every later run failed on it (E100)."""
    before = tree(project)
    code, _, err = run_cli(capsys, *args)
    assert code == 2, err
    assert f"{where}: error[E132]:" in err and "hint: " in err
    assert tree(project) == before


def test_docs_file_in_the_spec_folder_with_a_markdown_name_is_fine(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for _ in range(2):
        code, _, err = run_cli(capsys, "generate", "--specs", "specs", "--docs", "specs/CATALOG.md")
        assert code == 0, err


# --- init: paths toolgen.yaml must name exactly -----------------------------------------------


@pytest.mark.parametrize("name", ["o\x85p", "q\u2028r", "z\ufffez", "d\x7fel", "ünï"])
def test_init_names_an_odd_package_folder_exactly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    """A NEL or line separator was written raw into toolgen.yaml, where YAML folds it into a space
    (the package went to 'o p'); U+FFFE made toolgen.yaml unreadable (E100)."""
    monkeypatch.chdir(tmp_path)
    assert run_cli(capsys, "init", "specs", "--out", name)[0] == 0
    code, _, err = run_cli(capsys, "generate", "--specs", "specs")
    assert code == 0, err
    assert (tmp_path / name / "__init__.py").is_file()


@posix_only
@pytest.mark.parametrize("option", ["--out", "--docs"])
def test_init_refuses_a_path_that_is_not_utf8(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], option: str
) -> None:
    """Was exit 123 (UnicodeEncodeError while writing toolgen.yaml)."""
    monkeypatch.chdir(tmp_path)
    code, _, err = run_cli(capsys, "init", "specs", option, os.fsdecode(b"x\xff"))
    assert code == 2, err
    assert f"x\\udcff: error[E407]: {option} is not UTF-8 text" in err
    assert tree(tmp_path) == []


# --- what the terminal's encoding cannot hold ---------------------------------------------------


def toolgen_process(cwd: Path, encoding: str, *args: str | bytes) -> subprocess.CompletedProcess[bytes]:
    """The CLI in a child process, with stdout encoded as ``encoding`` (PYTHONIOENCODING)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "TOOLGEN_DEBUG")}
    env["PYTHONIOENCODING"] = encoding
    return subprocess.run(
        [sys.executable, "-m", "generator", *args], cwd=cwd, env=env, capture_output=True, timeout=120
    )


@posix_only
def test_check_diff_names_a_folder_that_is_not_utf8(project: Path) -> None:
    """With a strict UTF-8 stdout (PYTHONIOENCODING=utf-8, common in CI) the diff header of such a
    folder raised (exit 123); it is written with the folder's own bytes."""
    done = toolgen_process(project, "utf-8", "check", "--specs", "specs", "--out", b"out\xff")
    assert done.returncode == 1, done.stderr
    assert b"--- a/out\xff/__init__.py" in done.stdout


def test_output_the_terminal_cannot_encode_is_a_clear_error(project: Path) -> None:
    """Was exit 123 (UnicodeEncodeError) when the diff holds text that stdout's encoding lacks."""
    path = project / "specs" / "tools" / "add_note.yaml"
    path.write_text(path.read_text("utf-8").replace("Fails when", "Fails \u2014 when"), "utf-8")
    done = toolgen_process(project, "ascii", "check", "--specs", "specs")
    assert done.returncode == 2, done.stderr
    assert b"toolgen: error: the output holds text that ascii cannot encode (" in done.stderr
    assert b"hint: run with a UTF-8 locale or PYTHONIOENCODING=utf-8" in done.stderr


@pytest.mark.parametrize(
    ("block", "key", "where"),
    [
        ('  python: "~/tools_pkg"\n', "python", "7:11"),  # was E110, "the package folder and the spec folder overlap"
        ('  docs: "~/catalog.md"\n', "docs", "7:9"),  # was accepted: the doc went to specs/~/catalog.md
        ('  typescript: "~"\n', "typescript", "7:15"),
    ],
)
def test_tilde_in_an_output_path_is_e133(
    project: Path, capsys: pytest.CaptureFixture[str], block: str, key: str, where: str
) -> None:
    set_outputs(project, block)
    code, _, err = run_cli(capsys, "generate", "--specs", "specs")
    assert code == 2, err
    assert f"specs/toolgen.yaml:{where}: error[E133]: outputs.{key} starts with '~'" in err
    assert "E110" not in err
    assert not (project / "specs" / "~").exists()


@pytest.mark.parametrize(
    ("block", "key", "where"),
    [
        ('  python: "../../escaped_pkg"\n', "python", "7:11"),  # climbs out of the project
        ('  python: "/tmp/toolgen-absolute-pkg"\n', "python", "7:11"),  # absolute, elsewhere
        ('  python: pkg\n  docs: "../../doc.md"\n', "docs", "8:9"),
        ('  python: pkg\n  typescript: "../link/ts"\n', "typescript", "8:15"),  # a symlink that leads out
    ],
)
def test_an_output_outside_the_project_is_e134(
    project: Path, capsys: pytest.CaptureFixture[str], block: str, key: str, where: str
) -> None:
    """Was written without a word: a change to the specs alone chose where a run writes."""
    outside = project.parent / f"elsewhere-{project.name}"
    outside.mkdir()
    (project / "link").symlink_to(outside)
    set_outputs(project, block)
    code, _, err = run_cli(capsys, "generate", "--specs", "specs")
    assert code == 2, err
    assert f"specs/toolgen.yaml:{where}: error[E134]: outputs.{key} is outside the project folder" in err
    assert f"hint: write it inside the project, or list it as allowed outside: outputs.outside_project: [{key}]" in err
    assert not (project.parent / "escaped_pkg").exists()
    assert not Path("/tmp/toolgen-absolute-pkg").exists()
    assert list(outside.iterdir()) == []


def test_an_output_listed_as_outside_is_written(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    outside = project.parent / f"elsewhere-{project.name}"
    set_outputs(project, f'  python: "../../{outside.name}/pkg"\n  outside_project: [python]\n')
    code, _, err = run_cli(capsys, "generate", "--specs", "specs")
    assert code == 0, err
    assert (outside / "pkg" / "__init__.py").is_file()


def test_a_command_line_output_outside_the_project_is_the_callers_choice(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = project.parent / f"cli-chosen-{project.name}"
    code, _, err = run_cli(capsys, "generate", "--specs", "specs", "--out", str(out))
    assert code == 0, err
    assert (out / "__init__.py").is_file()


def test_the_project_folder_is_the_repository_root(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Inside a repository the spec folder's parent is not the limit: the repository's root is
    (specs in config/specs, toolgen run from config/: the current directory plays no part)."""
    set_outputs(project, '  python: "../../vendored/pkg"\n')
    (project / "config").mkdir()
    (project / "specs").rename(project / "config" / "specs")
    os.chdir(project / "config")  # the fixture's monkeypatch.chdir restores the directory
    code, _, err = run_cli(capsys, "generate", "--specs", "specs")
    assert code == 2 and "error[E134]: outputs.python is outside the project folder config/" in err
    (project / ".git").mkdir()
    code, _, err = run_cli(capsys, "generate", "--specs", "specs")
    assert code == 0, err
    assert (project / "vendored" / "pkg" / "__init__.py").is_file()


@pytest.mark.parametrize("option", ["--out", "--docs"])
def test_init_refuses_an_output_outside_the_project(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], option: str
) -> None:
    here = tmp_path / "proj"
    here.mkdir()
    monkeypatch.chdir(here)
    status, _, err = run_cli(capsys, "init", "specs", option, "../outside/x")
    assert status == 2, err
    assert f"error[E134]: {option} is outside the project folder proj/" in err
    assert tree(here) == [] and not (tmp_path / "outside").exists()


def test_init_refuses_an_out_that_is_a_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Was accepted; the first generate then failed with E402."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("mine", "utf-8")
    status, _, err = run_cli(capsys, "init", "specs", "--out", "notes.txt")
    assert status == 2, err
    assert "notes.txt:1:1: error[E402]: exists and is not a folder" in err
    assert tree(tmp_path) == ["notes.txt"]
