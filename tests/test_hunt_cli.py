"""Odd input to the command-line surfaces (outputs, init, show): each once made toolgen crash
(exit 123) or write where it must not. Every case runs on the small project `toolgen init` writes."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from conftest import run_cli

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="file names that are not UTF-8 need a POSIX file system")


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
