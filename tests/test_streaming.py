"""Streaming output: files go to staging as they render, one at a time, and a failed run leaves nothing.

The CLI never holds the whole output in memory (docs/performance.md): the pipeline hands each
rendered file to a sink (write.Staging) that writes it and keeps its hash. These tests check
that contract by behaviour: what the sink is handed and when, what a failed or refused run leaves
on disk, and that check's diff is exactly the unified diff of the old tree against the new bytes.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import sys
import tempfile
from pathlib import Path

import pytest

from conftest import edit, read_tree, run_cli
from generator import pipeline, write
from generator.diagnostics import Diagnostics, Location
from generator.lower import native


def generate(capsys, specs: Path, out: Path) -> None:
    rc, _, err = run_cli(capsys, "generate", "--specs", specs, "--out", out)
    assert rc == 0, err


def leftovers(out: Path) -> list[str]:
    return sorted(p.name for p in out.parent.iterdir() if p.name.startswith(f".{out.name}.toolgen"))


@pytest.fixture
def scratch_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private temp folder for check's scratch staging, so a test can see what is left there."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def test_the_pipeline_hands_over_one_file_at_a_time(specs: Path) -> None:
    """When the sink gets a file, nothing but the sink still refers to the previous file's bytes."""
    held: list[bytes] = []
    names: list[str] = []

    def sink(rel: str, data: bytes) -> None:
        if held:
            # references: the list `held` and getrefcount's argument; a third means the pipeline kept it
            # (counted outside the assert: pytest's rewriting keeps its operands alive)
            count = sys.getrefcount(held[0])
            assert count == 2, f"the pipeline still holds {names[-1]} while handing over {rel}"
        held[:] = [data]
        names.append(rel)
        staging(rel, data)

    staging = write.Staging(None)
    result = pipeline.run(specs, sink)
    assert not result.diagnostics.has_errors and result.files == {}
    expected = pipeline.run(specs).files  # the same run, kept in memory
    assert sorted(names) == sorted(expected) and len(names) == len(set(names))
    assert staging.hashes == {rel: hashlib.sha256(data).hexdigest() for rel, data in expected.items()}


def test_staging_keeps_hashes_and_writes_each_file(tmp_path: Path) -> None:
    staging = write.Staging(tmp_path / "stage")
    assert not (tmp_path / "stage").exists()  # made with the first file only
    staging("a/b.py", b"x = 1\n")
    staging("c.py", b"y = 2\n")
    assert staging.hashes == {"a/b.py": write.sha256(b"x = 1\n"), "c.py": write.sha256(b"y = 2\n")}
    assert staging.read("a/b.py") == b"x = 1\n"
    assert staging.read(write.MANIFEST) == write.manifest_bytes({"a/b.py": b"x = 1\n", "c.py": b"y = 2\n"})
    staging.discard()
    assert not (tmp_path / "stage").exists()


def _fail_after_first_emitter(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the native emitters report a spec error after other files already reached the sink."""
    real_emit = native.emit

    def emit(*args):  # type: ignore[no-untyped-def]
        rendered = real_emit(*args)
        diags = next(arg for arg in args if isinstance(arg, Diagnostics))
        diags.error(Location("specs/toolgen.yaml"), "E999", "injected by the test", "none")
        return rendered

    monkeypatch.setattr(native, "emit", emit)


@pytest.mark.parametrize("command", ["generate", "check"])
def test_an_error_reported_mid_emit_leaves_the_tree_and_no_staging(
    capsys, specs: Path, tmp_path: Path, scratch_tmp: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    out = tmp_path / "generated"
    generate(capsys, specs, out)
    before = read_tree(out)
    edit(specs / "tools/ask.yaml", "Ask the user a question.", "Ask the user something.")
    _fail_after_first_emitter(monkeypatch)
    rc, _, err = run_cli(capsys, command, "--specs", specs, "--out", out)
    assert rc == 2 and "error[E999]: injected by the test" in err
    assert read_tree(out) == before
    assert leftovers(out) == [] and os.listdir(scratch_tmp) == []


def test_an_os_error_while_staging_leaves_the_tree_and_no_staging(
    capsys, specs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "generated"
    generate(capsys, specs, out)
    before = read_tree(out)
    edit(specs / "tools/ask.yaml", "Ask the user a question.", "Ask the user something.")
    calls = {"n": 0}
    real_fsync = os.fsync

    def flaky_fsync(fd: int) -> None:
        calls["n"] += 1
        if calls["n"] > 5:  # mid-render: some files are staged already
            raise OSError(28, "No space left on device")
        real_fsync(fd)

    monkeypatch.setattr(write.os, "fsync", flaky_fsync)
    rc, _, err = run_cli(capsys, "generate", "--specs", specs, "--out", out)
    monkeypatch.undo()
    assert rc == 2 and "error[E404]" in err and "No space left" in err, err
    assert read_tree(out) == before
    assert leftovers(out) == []


def test_a_conflict_discards_staging_before_anything_is_swapped(capsys, specs: Path, tmp_path: Path) -> None:
    out = tmp_path / "generated"
    generate(capsys, specs, out)
    (out / "ids.py").unlink()
    (out / "ids.py").write_bytes(b"# mine\n")
    manifest = write.read_manifest(out)
    del manifest["ids.py"]
    (out / write.MANIFEST).write_text(json.dumps({"generator": "toolgen", "files": manifest}), "utf-8")
    before = read_tree(out)
    rc, _, err = run_cli(capsys, "generate", "--specs", specs, "--out", out)
    assert rc == 2 and "generated/ids.py: error[E400]" in err
    assert read_tree(out) == before and leftovers(out) == []


def _reference_diff(out: Path, new: dict[str, bytes]) -> str:
    """check's diff as the in-memory writer made it: every changed file, then every pruned one."""
    files = {**new, write.MANIFEST: write.manifest_bytes(new)}
    owned = write.read_manifest(out)
    text = ""

    def lines(data: bytes) -> list[str]:
        return data.decode("utf-8", "replace").splitlines(keepends=True)

    for rel in sorted(files):
        old = (out / rel).read_bytes() if (out / rel).is_file() else b""
        if old != files[rel] or not (out / rel).is_file():
            chunks = difflib.unified_diff(lines(old), lines(files[rel]), f"a/{out.name}/{rel}", f"b/{out.name}/{rel}")
            text += "".join(c if c.endswith("\n") else c + "\n" for c in chunks)
    for rel in sorted(set(owned) - set(files)):
        chunks = difflib.unified_diff(lines((out / rel).read_bytes()), [], f"a/{out.name}/{rel}", "/dev/null")
        text += "".join(c if c.endswith("\n") else c + "\n" for c in chunks)
    return text


def test_check_diff_is_the_unified_diff_of_old_and_new_bytes(
    capsys, specs: Path, tmp_path: Path, scratch_tmp: Path
) -> None:
    """Byte for byte what the in-memory writer printed: changed, added (no newline at end) and pruned files."""
    out = tmp_path / "generated"
    generate(capsys, specs, out)
    (out / "ids.py").write_bytes((out / "ids.py").read_bytes() + b"# no newline at the end")
    (out / "prompts" / "old_family.py").write_bytes(b"# pruned\n")
    manifest = (out / write.MANIFEST).read_text("utf-8")
    old_hash = hashlib.sha256(b"# pruned\n").hexdigest()
    (out / write.MANIFEST).write_text(
        manifest.replace('"files": {', f'"files": {{\n    "prompts/old_family.py": "{old_hash}",', 1), "utf-8"
    )
    (out / "catalog_data.py").unlink()
    edit(specs / "tools/ask.yaml", "Ask the user a question.", "Ask the user something.")
    expected = _reference_diff(out, pipeline.run(specs).files)
    rc, out_text, _ = run_cli(capsys, "check", "--specs", specs, "--out", out)
    assert rc == 1
    assert "--- a/generated/prompts/old_family.py\n+++ /dev/null\n" in out_text
    assert "+++ b/generated/catalog_data.py" in out_text
    assert out_text.removesuffix("--- docs/catalog.md is out of date\n") == expected
    assert os.listdir(scratch_tmp) == []
