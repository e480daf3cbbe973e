"""toolgen breaking --against REV: the old specs come from a git revision, read without a checkout."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import FIXTURE_SPECS, edit, run_cli

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def git(repo: Path, *args: str) -> str:
    command = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", *args]
    return subprocess.run(command, cwd=repo, check=True, capture_output=True, text=True).stdout


@pytest.fixture
def no_git_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run git as outside any hook: no repository or index imposed by the environment."""
    for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_git_env: None) -> Path:
    """A repository with the fixture specs at tool/specs: one commit, then one that removes a parameter.

    The working folder is tool/, so ``--specs specs`` (the default) names them.
    """
    root = tmp_path / "repo"
    shutil.copytree(FIXTURE_SPECS, root / "tool" / "specs")
    git(root, "init", "-q", "-b", "main")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "first")
    edit(root / "tool" / "specs" / "tools" / "read_file.yaml", "name: start_line", "name: first_line")
    edit(root / "tool" / "specs" / "tools" / "ask.yaml", "handler: null", "handler: {class: AskHandler}")
    git(root, "commit", "-q", "-am", "second")
    monkeypatch.chdir(root / "tool")
    return root


def state(root: Path) -> tuple[str, str, str]:
    """What a checkout or an index update would change: status, HEAD and the index file's bytes."""
    index = hashlib.sha256((root / ".git" / "index").read_bytes()).hexdigest()
    return git(root, "status", "--porcelain"), git(root, "rev-parse", "HEAD"), index


def test_against_previous_commit(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit(
        repo / "tool" / "specs" / "tools" / "ask.yaml", "Ask the user a question.", "Ask one question."
    )  # not committed
    before = state(repo)
    code, out, err = run_cli(capsys, "breaking", "--against", "HEAD~1")
    assert code == 1, err
    lines = out.splitlines()
    assert (
        "specs/tools/read_file.yaml:14:9: breaking[PARAMETER_RENAMED]: read_file: parameter 'start_line' renamed" in out
    )
    assert "specs/tools/ask.yaml:3:1: breaking[HANDLER_CLASS_ADDED]" in out  # AskHandler is new to the host
    assert "specs/tools/ask.yaml:5:3: info[DESCRIPTION_CHANGED]" in out  # the work tree is the new side
    # the renamed parameter reaches three families that kept their version: one finding each
    assert out.count("breaking[FAMILY_VERSION_NOT_BUMPED]") == 3
    assert lines[-1] == "toolgen breaking: 5 breaking, 0 warnings, 0 excepted, 1 info (against HEAD~1)"
    assert state(repo) == before


def test_a_removal_is_placed_in_the_work_tree_not_at_rev_path(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Was placed at REV:tool/specs/tools/todo.yaml, a line GitHub cannot annotate; now where it
    was removed from, in the file that still exists (toolgen.yaml's tools list)."""
    first = git(repo, "rev-parse", "HEAD~1").strip()
    (repo / "tool" / "specs" / "tools" / "todo.yaml").unlink()
    edit(repo / "tool" / "specs" / "toolgen.yaml", "  - todo\n", "")
    edit(repo / "tool" / "specs" / "parameters.yaml", "    dependencies: [todo]\n", "")
    for family in ("generic", "compact", "native"):
        edit(repo / "tool" / "specs" / "variants" / f"{family}.yaml", "- todo\n", "")
    before = state(repo)
    code, out, err = run_cli(capsys, "breaking", "--against", first)
    assert code == 1, err
    assert "specs/toolgen.yaml:4:1: breaking[TOOL_REMOVED]: tool 'todo' removed" in out
    assert f"{first}:" not in out.replace(f"(against {first})", "")
    assert state(repo) == before


def test_same_revision_reports_nothing(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "breaking", "--against", "HEAD")
    assert (code, out) == (0, "toolgen breaking: 0 breaking, 0 warnings, 0 excepted, 0 info (against HEAD)\n")


def test_invalid_specs_in_the_revision(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit(repo / "tool" / "specs" / "tools" / "ask.yaml", "handler: {class: AskHandler}", "handler: [")
    git(repo, "commit", "-q", "-am", "broken")
    edit(repo / "tool" / "specs" / "tools" / "ask.yaml", "handler: [", "handler: null")
    code, _, err = run_cli(capsys, "breaking", "--against", "HEAD")
    assert code == 2
    assert "HEAD:tool/specs/tools/ask.yaml:5:10: error[E100]: YAML syntax error" in err


def test_revision_without_the_spec_folder(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    git(repo, "mv", "tool/specs", "tool/other")
    git(repo, "commit", "-q", "-m", "moved")
    shutil.copytree(repo / "tool" / "other", repo / "tool" / "specs")
    code, _, err = run_cli(capsys, "breaking", "--against", "HEAD")
    assert code == 2
    assert "--against HEAD: error[E343]: the revision has no spec folder at tool/specs" in err


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_tag_named_like_a_folder(repo: Path, capsys: pytest.CaptureFixture[str], fmt: str) -> None:
    """The folder wins; one that is no spec folder was reported as a missing toolgen.yaml with a
    hint about --specs. Now E342 says so, and REF^{commit} names the revision."""
    git(repo, "tag", "v1", "HEAD~1")
    (repo / "tool" / "v1").mkdir()
    code, out, err = run_cli(capsys, "breaking", "--against", "v1", "--error-format", fmt)
    assert code == 2
    if fmt == "text":
        assert "--against v1: error[E342]: is a folder without toolgen.yaml" in err
        assert "write v1^{commit}" in err
    else:
        report = json.loads(out)
        assert [d["code"] for d in report["diagnostics"]] == ["E342"]
        assert (report["errors"], report["findings"]) == (1, [])
    code, out, err = run_cli(capsys, "breaking", "--against", "v1^{commit}")
    assert code == 1, err
    assert "PARAMETER_RENAMED" in out


def test_unknown_revision(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, "breaking", "--against", "v9.9")
    assert code == 2
    assert "--against v9.9: error[E342]: is neither a folder nor a revision of this repository" in err


def test_symlinked_spec_in_the_revision(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tools = repo / "tool" / "specs" / "tools"
    content = (tools / "ask.yaml").read_bytes()
    (tools / "ask.yaml").unlink()
    (tools / "ask.yaml").symlink_to("../parameters.yaml")
    git(repo, "commit", "-q", "-am", "symlink")
    (tools / "ask.yaml").unlink()
    (tools / "ask.yaml").write_bytes(content)
    code, _, err = run_cli(capsys, "breaking", "--against", "HEAD")
    assert code == 2
    assert "HEAD:tool/specs/tools/ask.yaml:1:1: error[E345]: is a symlink in revision 'HEAD', not a spec file" in err


def test_without_git(repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    code, _, err = run_cli(capsys, "breaking", "--against", "HEAD~1")
    assert code == 2
    assert "--against 'HEAD~1': error[E344]: git is not installed, so it cannot name a revision" in err


def test_specs_outside_a_repository(
    breaking_trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str], no_git_env: None
) -> None:
    code, _, err = run_cli(capsys, "breaking", "--against", "HEAD~1")
    assert code == 2
    assert "--against 'HEAD~1': error[E342]: is not a folder, and specs is not in a git repository" in err


@pytest.mark.parametrize(
    ("ref", "shown", "problem"),
    [
        ("--", "--", "is neither a spec folder nor a git revision"),  # was exit 123 (argparse gave a list)
        ("", "''", "is neither a spec folder nor a git revision"),
        ("-x", "-x", "is neither a spec folder nor a git revision"),  # never handed to git as an option
        ("HEAD^{tree}", "'HEAD^{tree}'", "is neither a folder nor a revision of this repository"),
        ("HEAD~99", "'HEAD~99'", "is neither a folder nor a revision of this repository"),
        ("/", "/", "is a folder without toolgen.yaml, so not a spec folder"),
    ],
)
def test_odd_refs_are_clear_errors(
    repo: Path, capsys: pytest.CaptureFixture[str], ref: str, shown: str, problem: str
) -> None:
    code, out, err = run_cli(capsys, "breaking", f"--against={ref}")
    assert code == 2, err
    assert f"--against {shown}: error[E342]: {problem}" in err
    assert "internal error" not in err and out == ""


def test_a_shallow_clone_without_the_revision(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A CI checkout of depth 1: the base revision is not there, and the hint says how to fetch it."""
    clone = tmp_path / "shallow"
    subprocess.run(
        ["git", "clone", "-q", "--depth", "1", f"file://{repo}", str(clone)], check=True, capture_output=True
    )
    monkeypatch.chdir(clone / "tool")
    code, _, err = run_cli(capsys, "breaking", "--against", "HEAD~1")
    assert code == 2, err
    assert "--against 'HEAD~1': error[E342]: is not a revision this shallow clone has" in err
    assert "hint: fetch the history first (git fetch --unshallow, or fetch-depth: 0 in actions/checkout)" in err
