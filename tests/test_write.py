"""Writing generated/: atomic swap, manifest-based pruning, foreign files, drift check."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from conftest import BUNDLED_OUT, BUNDLED_SPECS, edit, read_tree, run_cli
from generator import pipeline, swap, write


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


@pytest.mark.parametrize("broken", ["exchange", "first rename", "second rename"])
def test_interrupted_write_via_cli_reports_the_os_error(
    capsys, specs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, broken: str
) -> None:
    """A swap step that fails (not a kill) leaves the old tree in place and nothing beside it."""
    out = tmp_path / "generated"
    generate(capsys, specs, out)
    before = read_tree(out)
    edit(specs / "tools/ask.yaml", "Ask the user a question.", "Ask the user something.")
    real_rename = os.rename

    def fail(*args: object) -> bool:
        raise OSError(5, "I/O error")

    def rename(src, dst) -> None:  # type: ignore[no-untyped-def]
        if broken == "first rename" or Path(src).name == ".generated.toolgen-new":
            fail()
        real_rename(src, dst)

    if broken == "exchange":
        monkeypatch.setattr(swap, "_exchange", fail)
    else:  # the two-rename fallback
        monkeypatch.setattr(swap, "_exchange", lambda a, b: False)
        monkeypatch.setattr(write.os, "rename", rename)
    rc, _, err = run_cli(capsys, "generate", "--specs", specs, "--out", out)
    monkeypatch.undo()
    assert rc == 2 and "error[E404]" in err and "I/O error" in err, err
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
    assert "note: edited by hand since toolgen wrote them (manifest hash differs): generated/ids.py" in err
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


def changed_run(specs: Path) -> dict[str, bytes]:
    """Edit a spec so the next generate has something to write; returns the new files."""
    edit(specs / "tools/ask.yaml", "Ask the user a question.", "Ask the user something.")
    result = pipeline.run(specs)
    assert not result.diagnostics.has_errors
    return result.files


def test_symlinks_and_empty_dirs_survive_a_change(capsys, specs: Path, tmp_path: Path) -> None:
    out = tmp_path / "generated"
    generate(capsys, specs, out)
    keep = tmp_path / "elsewhere" / "keep"
    keep.mkdir(parents=True)
    (keep / "data.txt").write_text("theirs\n", "utf-8")
    (out / "vendor_link").symlink_to("../elsewhere/keep")  # to a folder, relative
    (out / "dangling").symlink_to("../nowhere/file.txt")
    (out / "sub").mkdir()
    (out / "sub" / "ids_link.py").symlink_to("../ids.py")  # to a file toolgen wrote
    (out / "emptydir").mkdir()
    (out / "deep" / "er" / "est").mkdir(parents=True)
    os.chmod(out / "deep", 0o750)
    links = {rel: os.readlink(out / rel) for rel in ("vendor_link", "dangling", "sub/ids_link.py")}

    edit(specs / "tools/ask.yaml", "Ask the user a question.", "Ask the user something.")
    err = generate(capsys, specs, out)
    assert "file(s) updated" in err
    assert b"Ask the user something." in (out / "catalog_data.py").read_bytes()
    for rel, target in links.items():
        assert (out / rel).is_symlink(), rel
        assert os.readlink(out / rel) == target, rel
    assert (out / "vendor_link" / "data.txt").read_text("utf-8") == "theirs\n"
    assert sorted(p.name for p in keep.iterdir()) == ["data.txt"]
    assert (out / "emptydir").is_dir() and not any((out / "emptydir").iterdir())
    assert (out / "deep" / "er" / "est").is_dir()
    assert (out / "deep").stat().st_mode & 0o777 == 0o750
    owned = json.loads((out / write.MANIFEST).read_text("utf-8"))["files"]
    assert not {"vendor_link", "dangling", "sub/ids_link.py", "emptydir"} & set(owned)
    assert leftovers(out) == []
    assert run_cli(capsys, "check", "--specs", specs, "--out", out)[0] == 0


def test_folder_left_empty_by_pruning_goes(capsys, specs: Path, tmp_path: Path) -> None:
    out = tmp_path / "generated"
    generate(capsys, specs, out)
    (out / "old").mkdir()
    (out / "old" / "mod.py").write_bytes(b"# old\n")
    manifest = json.loads((out / write.MANIFEST).read_text("utf-8"))
    manifest["files"]["old/mod.py"] = write.sha256(b"# old\n")
    (out / write.MANIFEST).write_text(json.dumps(manifest), "utf-8")
    generate(capsys, specs, out)
    assert not (out / "old").exists()


def test_generated_path_through_a_foreign_symlink_is_a_conflict(capsys, specs: Path, tmp_path: Path) -> None:
    out = tmp_path / "generated"
    generate(capsys, specs, out)
    theirs = tmp_path / "their_prompts"
    (out / "prompts").rename(theirs)
    (out / "prompts").symlink_to("../their_prompts")  # same content, but a symlink toolgen did not make
    (out / "ids.py").unlink()
    (out / "ids.py").symlink_to("../elsewhere.py")
    files = changed_run(specs)
    the_plan = write.plan(out, files)
    assert "ids.py" in the_plan.conflicts
    assert any(rel.startswith("prompts/") for rel in the_plan.conflicts)
    with pytest.raises(ValueError, match="refusing to overwrite"):
        write.write(out, files, the_plan)
    rc, _, err = run_cli(capsys, "generate", "--specs", specs, "--out", out)
    assert rc == 2
    assert "generated/ids.py: error[E400]" in err
    assert (out / "prompts").is_symlink() and (out / "ids.py").is_symlink()
    assert os.readlink(out / "ids.py") == "../elsewhere.py"
    assert leftovers(out) == []


@pytest.mark.parametrize("kind", ["file", "symlink to file", "dangling symlink"])
def test_out_that_is_not_a_folder_is_refused(specs: Path, tmp_path: Path, kind: str) -> None:
    out = tmp_path / "generated"
    (tmp_path / "target.txt").write_bytes(b"mine\n")
    if kind == "file":
        out.write_bytes(b"mine\n")
    elif kind == "symlink to file":
        out.symlink_to("target.txt")
    else:
        out.symlink_to("missing")
    problem = write.check_out_dir(out)
    assert problem is not None and "\n  hint: " in problem
    files = pipeline.run(specs).files
    with pytest.raises(write.OutDirError):
        write.write(out, files, write.plan(out, files))
    assert os.path.lexists(out) and not out.is_dir()
    if kind == "file":
        assert out.read_bytes() == b"mine\n"
    else:
        assert os.readlink(out) == ("target.txt" if kind == "symlink to file" else "missing")
    assert (tmp_path / "target.txt").read_bytes() == b"mine\n"
    assert leftovers(out) == []
    assert write.check_out_dir(tmp_path / "missing") is None
    assert write.check_out_dir(tmp_path) is None
    assert write.check_out_dir(Path(".")) is not None


def test_recover_copes_with_a_file_backup(tmp_path: Path) -> None:
    """An older toolgen moved a file --out aside and put a folder in its place."""
    out = tmp_path / "generated"
    backup = tmp_path / ".generated.toolgen-old"
    backup.write_bytes(b"mine\n")
    write.recover(out)  # nothing took its place: put back
    assert out.read_bytes() == b"mine\n" and not backup.exists()
    out.rename(backup)
    out.mkdir()
    write.recover(out)  # a folder took its place: neither is deleted
    assert backup.read_bytes() == b"mine\n" and out.is_dir()
    problem = write.check_out_dir(out)
    assert problem is not None and ".generated.toolgen-old" in problem


def test_out_symlinked_to_a_folder_is_written_through(capsys, specs: Path, tmp_path: Path) -> None:
    real = tmp_path / "real" / "pkg"
    real.mkdir(parents=True)
    (real / "notes.txt").write_bytes(b"mine\n")
    out = tmp_path / "generated"
    out.symlink_to("real/pkg")
    assert write.check_out_dir(out) is None
    generate(capsys, specs, out)
    edit(specs / "tools/ask.yaml", "Ask the user a question.", "Ask the user something.")
    generate(capsys, specs, out)
    assert out.is_symlink() and os.readlink(out) == "real/pkg"
    assert b"Ask the user something." in (real / "catalog_data.py").read_bytes()
    assert (real / "notes.txt").read_bytes() == b"mine\n"
    assert leftovers(out) == [] and leftovers(real) == []


def test_plan_sees_the_tree_an_interrupted_swap_restores(capsys, specs: Path, tmp_path: Path) -> None:
    out = tmp_path / "generated"
    generate(capsys, specs, out)
    manifest = json.loads((out / write.MANIFEST).read_text("utf-8"))
    del manifest["files"]["ids.py"]
    (out / write.MANIFEST).write_text(json.dumps(manifest), "utf-8")
    (out / "ids.py").write_bytes(b"# my own ids\n")
    before = read_tree(out)
    # crash after `out -> backup`, before `staging -> out`
    os.rename(out, tmp_path / ".generated.toolgen-old")
    (tmp_path / ".generated.toolgen-new").mkdir()
    files = pipeline.run(specs).files
    the_plan = write.plan(out, files)
    assert the_plan.conflicts == ["ids.py"]  # not an empty folder with nothing to conflict with
    assert read_tree(out) == before
    assert leftovers(out) == []


def test_plan_after_interrupted_swap_is_up_to_date(capsys, specs: Path, tmp_path: Path) -> None:
    out = tmp_path / "generated"
    generate(capsys, specs, out)
    os.rename(out, tmp_path / ".generated.toolgen-old")
    assert write.plan(out, pipeline.run(specs).files).up_to_date


DOC = b"<!-- Code generated by toolgen from specs/. DO NOT EDIT. -->\n# Tool catalog\n"


def test_foreign_doc_is_refused_and_untouched(tmp_path: Path) -> None:
    path = tmp_path / "docs" / "catalog.md"
    path.parent.mkdir()
    path.write_bytes(b"# Our own catalog notes\n")
    os.chmod(path, 0o600)
    stat = path.stat()
    docs = {"docs/catalog.md": DOC}
    assert write.doc_conflicts(tmp_path, docs) == ["docs/catalog.md"]
    assert write.write_docs(tmp_path, docs) == ["docs/catalog.md"]
    after = path.stat()
    assert path.read_bytes() == b"# Our own catalog notes\n"
    assert (after.st_ino, after.st_mode, after.st_mtime_ns) == (stat.st_ino, stat.st_mode, stat.st_mtime_ns)
    # a symlink is not ours either, even to a doc toolgen wrote
    (tmp_path / "real.md").write_bytes(DOC + b"old\n")
    path.unlink()
    path.symlink_to("../real.md")
    assert write.write_docs(tmp_path, docs) == ["docs/catalog.md"]
    assert path.is_symlink() and (tmp_path / "real.md").read_bytes() == DOC + b"old\n"
    assert sorted(p.name for p in path.parent.iterdir()) == ["catalog.md"]


def test_own_doc_is_rewritten_and_missing_doc_written(tmp_path: Path) -> None:
    path = tmp_path / "docs" / "catalog.md"
    docs = {"docs/catalog.md": DOC}
    assert write.doc_conflicts(tmp_path, docs) == []
    assert write.write_docs(tmp_path, docs) == []
    assert path.read_bytes() == DOC
    path.write_bytes(DOC + b"| stale | row |\n")
    os.chmod(path, 0o640)
    assert write.doc_conflicts(tmp_path, docs) == []
    assert write.write_docs(tmp_path, docs) == []
    assert path.read_bytes() == DOC
    assert path.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in path.parent.iterdir()) == ["catalog.md"]


def test_lock_is_released_after_an_exception(tmp_path: Path) -> None:
    out = tmp_path / "generated"

    def fail_while_locked() -> None:
        with write.locked(out):
            assert (tmp_path / ".generated.toolgen-lock").exists()
            raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        fail_while_locked()
    with write.locked(out, timeout=0):
        pass
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # no lock file left, --out not created


def test_lock_keeps_concurrent_runs_apart(tmp_path: Path) -> None:
    import threading

    out = tmp_path / "generated"
    with (
        write.locked(out),
        pytest.raises(write.LockTimeout, match="another toolgen run"),
        write.locked(out, timeout=0.2),
    ):
        pass
    # a waiter gets the lock once the holder lets go
    held, order = threading.Event(), []

    def holder() -> None:
        with write.locked(out):
            held.set()
            order.append("holder")
            threading.Event().wait(0.3)

    thread = threading.Thread(target=holder)
    thread.start()
    held.wait()
    with write.locked(out, timeout=5):
        order.append("waiter")
    thread.join()
    assert order == ["holder", "waiter"]
    assert leftovers(out) == []


# --- CLI-level: need the cli.py change (check_out_dir / locked / doc_conflicts / write_docs) ---


def test_cli_refuses_out_that_is_a_file(capsys, specs: Path, tmp_path: Path) -> None:
    out = tmp_path / "generated"
    out.write_bytes(b"mine\n")
    for command in ("generate", "check"):
        rc, _, err = run_cli(capsys, command, "--specs", specs, "--out", out)
        assert rc == 2
        assert "generated: error[E402]: exists and is not a folder" in err and "  hint: " in err
    assert out.read_bytes() == b"mine\n"
    assert leftovers(out) == []


def test_cli_refuses_foreign_doc(capsys, specs: Path, tmp_path: Path) -> None:
    doc = tmp_path / "docs" / "catalog.md"
    doc.parent.mkdir()
    doc.write_bytes(b"# Our catalog\n")
    out = tmp_path / "generated"
    rc, _, err = run_cli(capsys, "generate", "--specs", specs, "--out", out)
    assert rc == 2
    assert "docs/catalog.md: error[E400]: refusing to overwrite a file toolgen did not write" in err
    assert doc.read_bytes() == b"# Our catalog\n"
    assert not out.exists()  # refused before anything was written
    rc, _, err = run_cli(capsys, "check", "--specs", specs, "--out", out)
    assert rc == 1 and "docs/catalog.md: error[E400]" in err


def test_cli_rewrites_own_stale_doc(capsys, specs: Path, tmp_path: Path) -> None:
    out = tmp_path / "generated"
    generate(capsys, specs, out)
    doc = tmp_path / "docs" / "catalog.md"
    fresh = doc.read_bytes()
    doc.write_bytes(fresh.splitlines(keepends=True)[0] + b"stale\n")
    err = generate(capsys, specs, out)
    assert "1 file(s) updated" in err
    assert doc.read_bytes() == fresh


def test_cli_waits_for_the_lock_then_gives_up(capsys, specs: Path, tmp_path: Path, monkeypatch) -> None:
    out = tmp_path / "generated"
    monkeypatch.setattr(swap, "LOCK_TIMEOUT", 0.2)
    with write.locked(out):
        rc, _, err = run_cli(capsys, "generate", "--specs", specs, "--out", out)
    assert rc == 2
    assert "generated: error[E403]: another toolgen run has held .generated.toolgen-lock" in err
    assert not out.exists()
    generate(capsys, specs, out)
    assert leftovers(out) == []
