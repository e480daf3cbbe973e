"""Writing generated/: atomic swap, manifest-based pruning, foreign files, drift check."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from conftest import BUNDLED_OUT, BUNDLED_SPECS, edit, read_tree, run_cli
from generator import pipeline, write


def generate(capsys, specs: Path, out: Path) -> str:
    rc, _, err = run_cli(capsys, "generate", "--specs", specs, "--out", out)
    assert rc == 0, err
    return err


def leftovers(out: Path) -> list[str]:
    return sorted(p.name for p in out.parent.iterdir() if p.name.startswith(f".{out.name}.toolgen"))


def test_generate_writes_manifest_with_hashes(capsys, specs: Path, tmp_path: Path) -> None:
    out = tmp_path / "generated"
    generate(capsys, specs, out)
    manifest = json.loads((out / write.MANIFEST).read_text("utf-8"))
    assert manifest["generator"] == "toolgen"
    files = read_tree(out)
    assert sorted(manifest["files"]) == sorted(k for k in files if k != write.MANIFEST)
    for rel, digest in manifest["files"].items():
        assert write.sha256(files[rel]) == digest
    assert (tmp_path / "docs" / "catalog.md").is_file()
    assert leftovers(out) == []


def test_second_generate_is_a_no_op(capsys, specs: Path, tmp_path: Path) -> None:
    out = tmp_path / "generated"
    generate(capsys, specs, out)
    inodes = {p: p.stat().st_ino for p in out.rglob("*")}
    err = generate(capsys, specs, out)
    assert "toolgen: up to date" in err
    assert {p: p.stat().st_ino for p in out.rglob("*")} == inodes


@pytest.mark.parametrize("fail_after", [0, 3, 7])
def test_interrupted_write_leaves_old_tree(
    capsys, specs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fail_after: int
) -> None:
    out = tmp_path / "generated"
    generate(capsys, specs, out)
    (out / "notes.txt").write_text("foreign\n", "utf-8")
    before = read_tree(out)
    edit(specs / "tools/ask.yaml", "Ask the user a question.", "Ask the user something.")
    result = pipeline.run(specs)
    the_plan = write.plan(out, result.files)
    assert the_plan.changed

    calls = {"n": 0}
    real_fsync = os.fsync

    def flaky_fsync(fd: int) -> None:
        calls["n"] += 1
        if calls["n"] > fail_after:
            raise OSError(28, "No space left on device")
        real_fsync(fd)

    monkeypatch.setattr(write.os, "fsync", flaky_fsync)
    with pytest.raises(OSError, match="No space left"):
        write.write(out, result.files, the_plan)
    monkeypatch.undo()
    assert read_tree(out) == before
    assert leftovers(out) == []


def test_interrupted_write_via_cli_reports_internal_error(
    capsys, specs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "generated"
    generate(capsys, specs, out)
    before = read_tree(out)
    edit(specs / "tools/ask.yaml", "Ask the user a question.", "Ask the user something.")

    def broken_rename(src, dst):
        raise OSError(5, "I/O error")

    monkeypatch.setattr(write.os, "rename", broken_rename)
    rc, _, err = run_cli(capsys, "generate", "--specs", specs, "--out", out)
    monkeypatch.undo()
    assert rc == 123 and "internal error" in err
    assert read_tree(out) == before
    assert leftovers(out) == []


def test_recover_after_crash_between_renames(capsys, specs: Path, tmp_path: Path) -> None:
    out = tmp_path / "generated"
    generate(capsys, specs, out)
    before = read_tree(out)
    # crash after `out -> backup` and before `staging -> out`
    os.rename(out, out.with_name(".generated.toolgen-old"))
    (tmp_path / ".generated.toolgen-new").mkdir()
    (tmp_path / ".generated.toolgen-new" / "half.py").write_text("x", "utf-8")
    write.recover(out)
    assert read_tree(out) == before
    assert leftovers(out) == []
    # a later generate also recovers on its own
    os.rename(out, out.with_name(".generated.toolgen-old"))
    generate(capsys, specs, out)
    assert read_tree(out) == before
    assert leftovers(out) == []


def test_prune_only_manifest_listed_files_with_matching_hash(capsys, specs: Path, tmp_path: Path) -> None:
    out = tmp_path / "generated"
    generate(capsys, specs, out)
    # a stale file toolgen wrote (listed, hash matches) and a stale hand-edited one
    stale = b"# old generated module\n"
    edited = b"# old module, then edited\n"
    (out / "old_mod.py").write_bytes(stale)
    (out / "old_edit.py").write_bytes(edited)
    (out / "foreign.py").write_bytes(b"# not ours\n")
    manifest = json.loads((out / write.MANIFEST).read_text("utf-8"))
    manifest["files"]["old_mod.py"] = write.sha256(stale)
    manifest["files"]["old_edit.py"] = write.sha256(b"# what toolgen wrote\n")
    manifest["files"]["gone.py"] = write.sha256(b"")  # listed but already deleted
    (out / write.MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", "utf-8")

    result = pipeline.run(specs)
    the_plan = write.plan(out, result.files)
    assert the_plan.removed == ["old_mod.py"]
    assert the_plan.kept_stale == ["old_edit.py"]
    assert the_plan.hand_edited == ["old_edit.py"]
    assert the_plan.conflicts == []

    err = generate(capsys, specs, out)
    assert "generated/old_edit.py: warning[W401]" in err
    assert not (out / "old_mod.py").exists()
    assert (out / "old_edit.py").read_bytes() == edited
    assert (out / "foreign.py").read_bytes() == b"# not ours\n"
    manifest = json.loads((out / write.MANIFEST).read_text("utf-8"))
    assert not {"old_mod.py", "old_edit.py", "gone.py"} & set(manifest["files"])


def test_foreign_files_are_never_touched(capsys, specs: Path, tmp_path: Path) -> None:
    out = tmp_path / "generated"
    generate(capsys, specs, out)
    foreign = out / "sub" / "vendored.py"
    foreign.parent.mkdir()
    foreign.write_bytes(b"VALUE = 1\n")
    os.chmod(foreign, 0o640)
    stat = foreign.stat()
    edit(specs / "tools/ask.yaml", "Ask the user a question.", "Ask the user something.")
    generate(capsys, specs, out)
    after = foreign.stat()
    assert foreign.read_bytes() == b"VALUE = 1\n"
    assert (after.st_ino, after.st_mode, after.st_mtime_ns) == (stat.st_ino, stat.st_mode, stat.st_mtime_ns)
    assert "sub/vendored.py" not in json.loads((out / write.MANIFEST).read_text("utf-8"))["files"]


def test_collision_with_foreign_file_is_refused(capsys, specs: Path, tmp_path: Path) -> None:
    out = tmp_path / "generated"
    generate(capsys, specs, out)
    manifest = json.loads((out / write.MANIFEST).read_text("utf-8"))
    del manifest["files"]["ids.py"]  # toolgen no longer claims ids.py: it is someone else's now
    (out / write.MANIFEST).write_text(json.dumps(manifest), "utf-8")
    (out / "ids.py").write_bytes(b"# my own ids\n")
    before = read_tree(out)
    rc, _, err = run_cli(capsys, "generate", "--specs", specs, "--out", out)
    assert rc == 2
    assert "generated/ids.py: error[E400]: refusing to overwrite a file toolgen did not write" in err
    assert read_tree(out) == before


def test_check_reports_drift_with_unified_diff(capsys, specs: Path, tmp_path: Path) -> None:
    out = tmp_path / "generated"
    generate(capsys, specs, out)
    rc, out_text, err = run_cli(capsys, "check", "--specs", specs, "--out", out)
    assert (rc, out_text) == (0, "")
    before = read_tree(out)

    edit(specs / "tools/ask.yaml", "Ask the user a question.", "Ask the user something.")
    rc, out_text, err = run_cli(capsys, "check", "--specs", specs, "--out", out)
    assert rc == 1
    assert "--- a/generated/catalog_data.py\n+++ b/generated/catalog_data.py\n" in out_text
    removed = [line for line in out_text.splitlines() if line.startswith("-") and not line.startswith("---")]
    added = [line for line in out_text.splitlines() if line.startswith("+") and not line.startswith("+++")]
    assert any("Ask the user a question." in line for line in removed)
    assert any("Ask the user something." in line for line in added)
    assert "--- a/generated/toolgen-manifest.json\n" in out_text
    assert "out of date" in err
    assert read_tree(out) == before  # check never writes
    assert str(tmp_path) not in out_text


def test_check_reports_hand_edits_separately(capsys, specs: Path, tmp_path: Path) -> None:
    out = tmp_path / "generated"
    generate(capsys, specs, out)
    with open(out / "ids.py", "a", encoding="utf-8") as handle:
        handle.write("# tweak\n")
    rc, out_text, err = run_cli(capsys, "check", "--specs", specs, "--out", out)
    assert rc == 1
    assert "note: edited by hand since toolgen wrote them (manifest hash differs): ids.py" in err
    assert "-# tweak\n" in out_text
    # generate restores the file toolgen owns
    generate(capsys, specs, out)
    assert run_cli(capsys, "check", "--specs", specs, "--out", out)[0] == 0


def test_check_on_missing_output_is_drift(capsys, specs: Path, tmp_path: Path) -> None:
    rc, out_text, _ = run_cli(capsys, "check", "--specs", specs, "--out", tmp_path / "generated")
    assert rc == 1
    assert "+++ b/generated/__init__.py" in out_text


def test_check_reports_stale_docs(capsys, specs: Path, tmp_path: Path) -> None:
    out = tmp_path / "generated"
    generate(capsys, specs, out)
    (tmp_path / "docs" / "catalog.md").write_text("old\n", "utf-8")
    rc, out_text, _ = run_cli(capsys, "check", "--specs", specs, "--out", out)
    assert rc == 1
    assert "--- docs/catalog.md is out of date" in out_text


def test_committed_generated_tree_is_up_to_date(capsys) -> None:
    """`make generate` on a clean checkout is a no-op: `toolgen check` passes on generated/."""
    rc, out_text, err = run_cli(capsys, "check", "--specs", BUNDLED_SPECS, "--out", BUNDLED_OUT)
    assert rc == 0, out_text[:4000] + err
