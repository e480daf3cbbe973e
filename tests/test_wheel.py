"""The built wheel carries its templates and meta-schemas and generates the same output as the source tree."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from conftest import BUNDLED_SPECS, ROOT, copy_specs, read_tree
from generator import pipeline


def _run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"{cmd}\n{proc.stdout}\n{proc.stderr}"
    return proc


def _can_build_wheels() -> bool:
    import importlib.util

    import setuptools

    major, minor = (int(x) for x in setuptools.__version__.split(".")[:2])
    return importlib.util.find_spec("wheel") is not None or (major, minor) >= (70, 1)


def test_wheel_install_generates_same_output(tmp_path: Path) -> None:
    if not _can_build_wheels():
        pytest.skip("cannot build a wheel offline: setuptools < 70.1 needs the 'wheel' package, which is not installed")
    # Build from a copy so the repository gets no build/ or egg-info debris.
    src = tmp_path / "src"
    src.mkdir()
    for name in ("generator", "templates", "handlers"):
        shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, src / name)
    dist = tmp_path / "dist"
    _run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "-w",
            str(dist),
            str(src),
        ],
        tmp_path,
    )
    (wheel,) = dist.glob("toolgen-*.whl")

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

    specs = copy_specs(BUNDLED_SPECS, tmp_path / "project")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["TOOLGEN_CACHE_DIR"] = ""
    where = _run([str(py), "-c", "import generator; print(generator.__file__)"], elsewhere, env).stdout
    assert where.startswith(str(venv)), where
    _run(
        [str(venv / "bin" / "toolgen"), "generate", "--specs", str(specs), "--out", str(tmp_path / "out")],
        elsewhere,
        env,
    )

    expected = pipeline.run(BUNDLED_SPECS)
    assert not expected.diagnostics.has_errors
    got = read_tree(tmp_path / "out")
    from generator.write import MANIFEST, manifest_bytes

    assert got == {**expected.files, MANIFEST: manifest_bytes(expected.files)}
    assert (specs.parent / "docs" / "catalog.md").read_bytes() == expected.docs["docs/catalog.md"]

    # init's templates and the meta-schemas are in the wheel: a new project generates at once
    _run([str(venv / "bin" / "toolgen"), "init"], elsewhere, env)
    assert sorted(p.name for p in (elsewhere / "specs" / ".schemas").iterdir()) == sorted(
        p.name for p in (ROOT / "generator" / "schemas").glob("*.schema.json")
    )
    assert sorted(p.name for p in (elsewhere / "specs" / "tools").iterdir()) == ["add_note.yaml", "read_note.yaml"]
    _run([str(venv / "bin" / "toolgen"), "generate"], elsewhere, env)
    assert (elsewhere / "generated" / "__init__.py").is_file()
