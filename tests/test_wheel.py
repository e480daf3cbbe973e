"""The built wheel: packaged without warnings, generates the same output as the source tree, and its
``handlers`` bind to a generated package vendored under another name; installed beside black 24 it
still generates the same bytes (black is no dependency of toolgen: it is a test tool, pinned there)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import textwrap
from pathlib import Path

import pytest

from conftest import BUNDLED_SPECS, ROOT, copy_specs, read_tree
from generator import pipeline
from generator.write import MANIFEST, manifest_bytes


def _run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"{cmd}\n{proc.stdout}\n{proc.stderr}"
    return proc


def _can_build_wheels() -> bool:
    import importlib.util

    import setuptools

    major, minor = (int(x) for x in setuptools.__version__.split(".")[:2])
    return importlib.util.find_spec("wheel") is not None or (major, minor) >= (70, 1)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """toolgen's wheel, built once from a copy of the sources (the repository gets no build debris)."""
    if not _can_build_wheels():
        pytest.skip("cannot build a wheel offline: setuptools < 70.1 needs the 'wheel' package, which is not installed")
    base = tmp_path_factory.mktemp("wheel")
    src = base / "src"
    src.mkdir()
    for name in ("generator", "templates", "handlers"):
        shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, src / name)
    dist = base / "dist"
    # PYTHONDONTWRITEBYTECODE makes setuptools warn that it skips byte-compiling: not a packaging problem.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    build = _run(
        [sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "--no-build-isolation", "--no-index"]
        + ["-w", str(dist), str(src)],
        base,
        env,
    )
    warnings = [line for line in (build.stdout + build.stderr).splitlines() if "warn" in line.lower()]
    assert not warnings, "\n".join(warnings)
    (built,) = dist.glob("toolgen-*.whl")
    return built


def _expected() -> dict[str, bytes]:
    """What the source tree generates from specs/, manifest included."""
    expected = pipeline.run(BUNDLED_SPECS)
    assert not expected.diagnostics.has_errors
    return {**expected.files, MANIFEST: manifest_bytes(expected.files)}


def _clean_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["TOOLGEN_CACHE_DIR"] = ""
    return env


# Run in the wheel's venv: handlers from the wheel, bound to the package vendored as myapp._tools.
_EXERCISE_HANDLERS = textwrap.dedent(
    """
    import json, sys
    import handlers
    from handlers.config import WebToolsTaskConfig
    from myapp import _tools

    bound = handlers.bind(_tools)
    coordinator = _tools.Coordinator.from_namespace(bound, lenient=True)
    call = _tools.ToolUse("web_fetch", {"url": "https://example.com", "prompt": "p"})
    result = coordinator.execute(WebToolsTaskConfig(provider_id="openai"), call)
    config = WebToolsTaskConfig()
    partial = _tools.ToolUse("web_search", {"query": "q", "allowed_domains": '["a.com", "b.'}, partial=True)
    coordinator.get_handler("web_search").handle_partial_block(config, partial)
    print(json.dumps({
        "handlers": handlers.__file__,
        "package": bound.WebFetchToolHandler.package,
        "result_type": type(result) is _tools.ToolResult,
        "result": str(result),
        "said": config.said[0][1],
    }))
    """
)


def test_wheel_install_generates_same_output_and_binds_handlers(tmp_path: Path, wheel: Path) -> None:
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], tmp_path)
    py = venv / "bin" / "python"
    # Dependencies come from the test interpreter's site-packages, appended after the venv's own
    # (a plain path entry: .pth files there, such as an editable toolgen install, are not processed).
    site = Path(
        _run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], tmp_path).stdout.strip()
    )
    (site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", "utf-8")
    _run([sys.executable, "-m", "pip", "--python", str(py), "install", "--no-deps", "--no-index", str(wheel)], tmp_path)
    assert (venv / "bin" / "toolgen").is_file()

    project = tmp_path / "project"
    specs = copy_specs(BUNDLED_SPECS, project)
    out = project / "myapp" / "_tools"  # vendored under another name
    env = _clean_env()
    where = _run([str(py), "-c", "import generator; print(generator.__file__)"], tmp_path, env).stdout
    assert where.startswith(str(venv)), where
    _run([str(venv / "bin" / "toolgen"), "generate", "--specs", str(specs), "--out", str(out)], tmp_path, env)
    assert read_tree(out) == _expected()
    assert (specs.parent / "docs" / "catalog.md").read_bytes() == pipeline.run(BUNDLED_SPECS).docs["docs/catalog.md"]

    (project / "myapp" / "__init__.py").write_text("", "utf-8")
    report = json.loads(_run([str(py), "-c", _EXERCISE_HANDLERS], project, env).stdout)
    assert report["handlers"].startswith(str(venv)), report
    assert report["package"] == "myapp._tools"
    assert report["result_type"] and "web tools are currently disabled" in report["result"]
    assert "a.com" in report["said"]  # the partial preview read the domains with the bound runtime

    # init's templates and the meta-schemas are in the wheel: a new project generates at once
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    _run([str(venv / "bin" / "toolgen"), "init"], elsewhere, env)
    assert sorted(p.name for p in (elsewhere / "specs" / ".schemas").iterdir()) == sorted(
        p.name for p in (ROOT / "generator" / "schemas").glob("*.schema.json")
    )
    assert sorted(p.name for p in (elsewhere / "specs" / "tools").iterdir()) == ["add_note.yaml", "read_note.yaml"]
    _run([str(venv / "bin" / "toolgen"), "generate"], elsewhere, env)
    assert (elsewhere / "generated" / "__init__.py").is_file()

def test_wheel_beside_black_24_generates_the_same_bytes(tmp_path: Path, wheel: Path) -> None:
    """A project that pins another black installs toolgen, and the output does not change.

    Needs the package index (PyPI or its mirror), as `make test` on CI has; about 6 seconds here.
    """
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], tmp_path)
    py = venv / "bin" / "python"
    pip = [sys.executable, "-m", "pip", "--python", str(py), "install", "--quiet"]
    _run([*pip, "black==24.*"], tmp_path)
    _run([*pip, str(wheel)], tmp_path)  # resolves toolgen's own dependencies; black is none of them
    env = _clean_env()
    version = _run([str(py), "-c", "import black; print(black.__version__)"], tmp_path, env).stdout
    assert version.startswith("24."), version

    specs = copy_specs(BUNDLED_SPECS, tmp_path / "project")
    out = tmp_path / "out"
    _run([str(venv / "bin" / "toolgen"), "generate", "--specs", str(specs), "--out", str(out)], tmp_path, env)
    assert read_tree(out) == _expected()
