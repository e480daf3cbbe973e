"""toolgen in someone else's project: a folder outside this repository, specs in config/specs, the
package vendored as myapp/_tools. init -> generate -> import -> check -> edit -> check, and every
path toolgen prints resolves from the directory it ran in."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

SPECS = "config/specs"
PACKAGE = "myapp/_tools"


def toolgen(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The installed toolgen (this interpreter's), run in ``cwd`` as a user would."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "TOOLGEN_DEBUG")}
    env["TOOLGEN_CACHE_DIR"] = str(cwd.parent / "cache") if cwd.name != "cache" else ""
    return subprocess.run(
        [sys.executable, "-m", "generator", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120
    )


def printed_paths(text: str) -> list[str]:
    """Every file path in toolgen's output: diagnostics, annotations, diff headers, notes."""
    found = re.findall(r"^([^\s:]+\.(?:yaml|py|md|json)):\d+:\d+: ", text, re.M)
    found += re.findall(r"::(?:error|warning) file=([^,]+),", text)
    found += re.findall(r"^(?:---|\+\+\+) [ab]/(\S+)", text, re.M)
    found += re.findall(r"^--- (\S+) is out of date", text, re.M)
    return found


def assert_resolve(cwd: Path, text: str) -> None:
    paths = printed_paths(text)
    assert paths, text
    for path in paths:
        assert (cwd / path).exists(), f"{path} does not exist from {cwd}:\n{text}"


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("someone-elses-project") / "proj"
    root.mkdir()
    assert not root.resolve().is_relative_to(ROOT)
    # a Python app: its manifest marks the project folder the outputs must stay in (E134)
    (root / "pyproject.toml").write_text('[project]\nname = "myapp"\nversion = "0.1.0"\n', "utf-8")
    proc = toolgen(root, "init", SPECS, "--out", PACKAGE, "--docs", "docs/tools.md")
    assert proc.returncode == 0, proc.stderr
    assert f"next: toolgen generate --specs {SPECS}" in proc.stderr
    proc = toolgen(root, "generate", "--specs", SPECS)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.strip().endswith("file(s) updated"), proc.stderr  # no warnings on a fresh project
    (root / "myapp" / "__init__.py").write_text("", "utf-8")
    return root


def test_the_vendored_package_imports_under_its_own_name(project: Path) -> None:
    script = (
        "import json, myapp._tools as t\n"
        "native = t.Context(provider_id='anthropic', model_id='m', enable_native_tool_calls=True)\n"
        "text = t.Context(model_id='m')\n"
        "tools = t.native_tools(t.select_family(native), native)\n"
        "print(json.dumps([t.select_family(native), t.select_family(text), [x['name'] for x in tools]]))\n"
        "print(t.prompt_section(t.select_family(text), text))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(project)}
    proc = subprocess.run([sys.executable, "-c", script], cwd=project.parent, env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    first, section = proc.stdout.split("\n", 1)
    assert first == '["native", "text", ["read_note", "add_note"]]'
    assert "<read_note>" in section and "notes" in section


def test_check_then_an_edit_is_drift_with_paths_from_the_project_root(project: Path) -> None:
    proc = toolgen(project, "check", "--specs", SPECS)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    spec = project / SPECS / "tools" / "read_note.yaml"
    before = spec.read_text("utf-8")
    spec.write_text(before.replace("Returns the text of one note.", "Returns one note's text."), "utf-8")
    try:
        for cwd, specs in ((project, SPECS), (project / "config", "specs")):
            proc = toolgen(cwd, "check", "--specs", specs)
            assert proc.returncode == 1, proc.stderr
            assert f"--- a/{os.path.relpath(project / PACKAGE, cwd)}/" in proc.stdout
            assert_resolve(cwd, proc.stdout)
            assert f"run `toolgen generate --specs {specs}`" in proc.stderr
        proc = toolgen(project, "check", "--specs", SPECS, "--out", PACKAGE, "--no-docs")
        assert f"run `toolgen generate --specs {SPECS} --out {PACKAGE} --no-docs`" in proc.stderr
    finally:
        spec.write_text(before, "utf-8")


def test_drift_in_machine_formats_is_one_document_of_e408_items(project: Path) -> None:
    """check --error-format json prints one JSON list (diagnostics plus an E408 per stale file) and
    github one annotation per stale file, each on a file that exists; the diff goes to stderr."""
    import json

    spec = project / SPECS / "tools" / "read_note.yaml"
    before = spec.read_text("utf-8")
    proc = toolgen(project, "check", "--specs", SPECS, "--error-format", "json")
    assert (proc.returncode, json.loads(proc.stdout)) == (0, [])
    spec.write_text(before.replace("Returns the text of one note.", "Returns one note's text."), "utf-8")
    try:
        proc = toolgen(project, "check", "--specs", SPECS, "--error-format", "json")
        assert proc.returncode == 1, proc.stderr
        items = json.loads(proc.stdout)
        assert items and {item["code"] for item in items} == {"E408"}
        assert all((project / item["path"]).is_file() for item in items), items
        assert f"{PACKAGE}/anthropic.py" in [item["path"] for item in items]
        assert all(f"toolgen generate --specs {SPECS}" in item["hint"] for item in items)
        assert "--- a/" in proc.stderr  # the diff is still there for a human reading the log

        proc = toolgen(project, "check", "--specs", SPECS, "--error-format", "github")
        assert proc.returncode == 1
        lines = proc.stdout.splitlines()
        assert lines and all(line.startswith("::error file=") and "title=E408" in line for line in lines)
        assert_resolve(project, proc.stdout)
    finally:
        spec.write_text(before, "utf-8")


def test_a_bad_spec_is_named_from_the_project_root(project: Path) -> None:
    bad = project / SPECS / "tools" / "x.yaml"
    bad.write_text("# yaml-language-server: $schema=../.schemas/tool.schema.json\nid: x\nbogus: 1\n", "utf-8")
    try:
        for cwd in (project, project / "myapp"):
            specs = os.path.relpath(project / SPECS, cwd)
            text = toolgen(cwd, "check", "--specs", specs)
            github = toolgen(cwd, "check", "--specs", specs, "--error-format", "github")
            assert text.returncode == github.returncode == 2
            where = os.path.relpath(bad, cwd)
            assert re.search(rf"^{re.escape(where)}:\d+:\d+: error\[E\d+\]", text.stderr, re.M), text.stderr
            assert f"::error file={where},line=" in github.stdout
            assert_resolve(cwd, text.stderr)
            assert_resolve(cwd, github.stdout)
    finally:
        bad.unlink()


def test_docs_elsewhere_or_off_never_meets_the_projects_own_catalog(tmp_path: Path) -> None:
    """A project with its own docs/catalog.md generates (E400 only when toolgen would overwrite it)."""
    assert toolgen(tmp_path, "init").returncode == 0
    own = tmp_path / "docs" / "catalog.md"
    own.parent.mkdir()
    own.write_text("# our own catalog\n", "utf-8")
    refused = toolgen(tmp_path, "generate", "--docs", "docs/catalog.md")
    assert refused.returncode == 2 and "docs/catalog.md: error[E400]" in refused.stderr
    assert "--no-docs" in refused.stderr  # the hint says how to point it elsewhere
    assert toolgen(tmp_path, "generate").returncode == 0  # init's default: docs/tools.md
    assert (tmp_path / "docs" / "tools.md").is_file()
    project_file = tmp_path / "specs" / "toolgen.yaml"
    project_file.write_text(project_file.read_text("utf-8").replace('"../docs/tools.md"', "null"), "utf-8")
    proc = toolgen(tmp_path, "generate")
    assert proc.returncode == 0, proc.stderr
    assert toolgen(tmp_path, "check").returncode == 0
    assert own.read_text("utf-8") == "# our own catalog\n"


def test_outputs_that_overlap_are_refused(tmp_path: Path) -> None:
    assert toolgen(tmp_path, "init").returncode == 0
    proc = toolgen(tmp_path, "generate", "--out", "specs/pkg")
    assert proc.returncode == 2 and "specs/pkg:1:1: error[E110]" in proc.stderr, proc.stderr
    project_file = tmp_path / "specs" / "toolgen.yaml"
    text = project_file.read_text("utf-8")
    project_file.write_text(text.replace('"../docs/tools.md"', '"../generated/README.md"'), "utf-8")
    proc = toolgen(tmp_path, "validate")
    assert proc.returncode == 2
    line = text.split("\n").index('  docs: "../docs/tools.md"') + 1
    assert f"specs/toolgen.yaml:{line}:9: error[E111]" in proc.stderr, proc.stderr
    project_file.write_text(text.replace('"../generated"', '"../gen\\0x"'), "utf-8")
    proc = toolgen(tmp_path, "generate")
    assert proc.returncode == 2 and f"specs/toolgen.yaml:{line - 1}:11: error[E112]" in proc.stderr, proc.stderr
    assert not (tmp_path / "generated").exists()


def test_init_never_overwrites(tmp_path: Path) -> None:
    (tmp_path / "specs" / "tools").mkdir(parents=True)
    (tmp_path / "specs" / "tools" / "read_note.yaml").write_text("mine\n", "utf-8")
    proc = toolgen(tmp_path, "init")
    assert proc.returncode == 2
    assert "specs/tools/read_note.yaml: error[E406]" in proc.stderr and "hint: " in proc.stderr
    assert sorted(p.name for p in (tmp_path / "specs").rglob("*")) == ["read_note.yaml", "tools"]
    (tmp_path / "file").write_text("x\n", "utf-8")
    proc = toolgen(tmp_path, "init", "file/specs")
    assert proc.returncode == 2 and "error[E407]" in proc.stderr, proc.stderr


def test_schema_writes_the_meta_schemas_and_modelines_point_at_them(tmp_path: Path) -> None:
    assert toolgen(tmp_path, "init", "specs").returncode == 0
    for spec in (tmp_path / "specs").rglob("*.yaml"):
        first = spec.read_text("utf-8").split("\n", 1)[0]
        target = first.removeprefix("# yaml-language-server: $schema=")
        assert target != first and (spec.parent / target).is_file(), spec
    proc = toolgen(tmp_path, "schema", "--out", "editor/schemas")
    assert proc.returncode == 0, proc.stderr
    for shipped in (ROOT / "generator" / "schemas").glob("*.json"):
        assert (tmp_path / "editor" / "schemas" / shipped.name).read_bytes() == shipped.read_bytes()
