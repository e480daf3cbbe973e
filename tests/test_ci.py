"""CI use: GitHub annotations point at files that exist from the repository root; the pre-commit hooks."""

from __future__ import annotations

import re
import shutil
import tomllib
from pathlib import Path

import pytest
import yaml

from conftest import FIXTURE_SPECS, ROOT, edit, run_cli
from generator import cli

ANNOTATION = re.compile(r"^::(error|warning) file=([^,]*),line=(\d+),col=(\d+),title=(\w+)::", re.MULTILINE)


def _unescape(value: str) -> str:
    """A workflow-command property as GitHub reads it back."""
    for escaped, char in (("%2C", ","), ("%3A", ":"), ("%0A", "\n"), ("%0D", "\r"), ("%25", "%")):
        value = value.replace(escaped, char)
    return value


# Four files broken in four ways, per stage (a stage with errors ends the run, so one set each).
BREAKAGES = {
    "load": [
        ("tools/ask.yaml", "id: ask", "id: [ask"),  # YAML syntax
        ("tools/read_file.yaml", "  validator: true\n", "  validator: true\n  extra: 1\n"),  # meta-schema
        ("variants/compact.yaml", "version: 1", "version: one"),
        ("toolgen.yaml", "toolgen: 1", "toolgen: 1\nunknown_key: 1"),
    ],
    "semantics": [
        ("variants/compact.yaml", "- todo\n", "- todoo\n"),  # unknown tool
        ("tools/write_file.yaml", "id: write_file", "id: write_files"),  # id differs from the file name
        ("parameters.yaml", "dependencies: [todo]", "dependencies: [todos]"),
        ("tools/read_file.yaml", "      - use: task_progress", "      - use: task_progres"),
    ],
}


def _broken_repo(
    root: Path, specs_at: str, out_at: str, breakage: str, capsys: pytest.CaptureFixture[str]
) -> tuple[Path, Path]:
    """A repository with generated output, then its specs broken as ``BREAKAGES[breakage]`` says."""
    specs, out = root / specs_at, root / out_at
    specs.parent.mkdir(parents=True, exist_ok=True)
    shutil.copytree(FIXTURE_SPECS, specs)
    assert run_cli(capsys, "generate", "--specs", specs, "--out", out)[0] == 0
    for name, old, new in BREAKAGES[breakage]:
        edit(specs / name, old, new)
    return specs, out


def _annotations(stdout: str) -> list[tuple[str, str, int, int, str]]:
    found = [
        (kind, _unescape(path), int(line), int(col), code) for kind, path, line, col, code in ANNOTATION.findall(stdout)
    ]
    assert len(found) == sum(line.startswith("::") for line in stdout.splitlines()), stdout
    return found


def _assert_resolve(root: Path, stdout: str) -> None:
    annotations = _annotations(stdout)
    assert len({path for _, path, *_ in annotations}) >= 4, stdout  # every broken file is named
    for kind, path, line, col, code in annotations:
        target = root / path
        assert target.is_file(), f"{kind}[{code}] names {path}, which does not exist from the repository root"
        assert 1 <= line <= len(target.read_text("utf-8").splitlines()) + 1, (path, line)
        assert col >= 1


LAYOUTS = [
    pytest.param("specs", "generated", id="specs-at-root"),
    pytest.param("config/specs", "myapp/_tools", id="nested"),
]


@pytest.mark.parametrize("breakage", list(BREAKAGES))
@pytest.mark.parametrize(("specs_at", "out_at"), LAYOUTS)
@pytest.mark.parametrize("command", ["validate", "check"])
@pytest.mark.parametrize("absolute", [False, True], ids=["relative", "absolute"])
def test_github_annotations_resolve_from_the_repository_root(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    command: str,
    specs_at: str,
    out_at: str,
    absolute: bool,
    breakage: str,
) -> None:
    root = tmp_path / "repo"
    specs, out = _broken_repo(root, specs_at, out_at, breakage, capsys)
    monkeypatch.chdir(root)  # where a workflow's run: step and a pre-commit hook start
    where = (specs, out) if absolute else (specs_at, out_at)
    code, stdout, stderr = run_cli(
        capsys, command, "--specs", where[0], "--out", where[1], "--error-format", "github"
    )
    assert code == 2, stderr
    _assert_resolve(root, stdout)


# ---- the pre-commit hooks ------------------------------------------------------------------------


def _hooks() -> dict[str, dict[str, object]]:
    data = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text("utf-8"))
    assert isinstance(data, list)
    return {hook["id"]: hook for hook in data}


def test_the_hooks_run_toolgen_once_over_the_whole_spec_folder() -> None:
    hooks = _hooks()
    assert {"toolgen-check", "toolgen-validate"} <= set(hooks)
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["scripts"]
    for hook_id, hook in hooks.items():
        assert hook["language"] == "python", hook_id  # pre-commit installs this repository
        assert hook["pass_filenames"] is False, hook_id
        program, *args = str(hook["entry"]).split()
        assert program in scripts, hook_id
        # the hook's own args (toolgen-breaking has --against), then what a user appends
        parsed = cli._parser().parse_args([*args, *map(str, hook.get("args", [])), "--specs", "config/specs"])
        assert parsed.command == hook_id.removeprefix("toolgen-")


@pytest.mark.parametrize(
    ("path", "runs"),
    [
        ("specs/tools/read_file.yaml", True),
        ("config/specs/toolgen.yaml", True),
        ("specs/variants/generic.yml", True),
        ("README.md", False),
        ("generated/catalog.py", False),
        ("specs/tools/read_file.yaml.orig", False),
    ],
)
def test_the_hooks_run_when_a_yaml_file_is_staged(path: str, runs: bool) -> None:
    for hook_id, hook in _hooks().items():
        assert bool(re.search(str(hook["files"]), path)) is runs, (hook_id, path)


def test_a_place_is_kept_for_the_breaking_hook() -> None:
    assert "toolgen-breaking" in (ROOT / ".pre-commit-hooks.yaml").read_text("utf-8")


def test_the_ci_guide_uses_the_github_format_and_the_hooks() -> None:
    guide = (ROOT / "docs" / "ci.md").read_text("utf-8")
    steps = re.findall(r"run: (toolgen \w+ .*)", guide)
    assert {step.split()[1] for step in steps} == {"validate", "check", "breaking"}
    for step in steps:
        assert step.endswith("--error-format github")
        # GitHub replaces ${{ expressions }} before the shell sees the line; every command line parses
        cli._parser().parse_args(re.sub(r"\$\{\{.*?\}\}", "X", step).split()[1:])
    for hook_id in _hooks():
        assert f"id: {hook_id}" in guide
