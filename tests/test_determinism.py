"""Output depends only on the specs: not on hash seed, working directory, locale, paths or the cache."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import BUNDLED_OUT, BUNDLED_SPECS, FIXTURE_SPECS, ROOT, copy_specs, read_tree


def _generate(specs: Path, out: Path, cwd: Path, **env: str) -> None:
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "PYTHONHASHSEED", "TOOLGEN"))}
    environ["PYTHONPATH"] = str(ROOT)
    environ.update(env)
    proc = subprocess.run(
        [sys.executable, "-m", "generator", "generate", "--specs", str(specs), "--out", str(out)],
        cwd=cwd,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr


def test_output_is_byte_identical_across_environments(tmp_path: Path) -> None:
    first = copy_specs(BUNDLED_SPECS, tmp_path / "one")
    second = copy_specs(BUNDLED_SPECS, tmp_path / "a-much-longer-directory-name")
    elsewhere = tmp_path / "cwd"
    elsewhere.mkdir()
    _generate(
        first, first.parent / "generated", elsewhere, PYTHONHASHSEED="0", LC_ALL="C", TOOLGEN_CACHE_DIR=""
    )
    _generate(
        second,
        Path("out"),  # relative --out, resolved against a different working directory
        second.parent,
        PYTHONHASHSEED="4242",
        LC_ALL="C.UTF-8",
        TOOLGEN_CACHE_DIR=str(tmp_path / "cache"),
    )
    a = read_tree(first.parent / "generated")
    b = read_tree(second.parent / "out")
    assert a == b
    docs_a = (first.parent / "docs" / "catalog.md").read_bytes()
    assert docs_a == (second.parent / "docs" / "catalog.md").read_bytes()
    ts_a = read_tree(first.parent / "generated-ts")  # outputs.typescript of the bundled specs
    assert ts_a and ts_a == read_tree(second.parent / "generated-ts")
    a.update({f"generated-ts/{rel}": data for rel, data in ts_a.items()})
    forbidden = [
        str(tmp_path).encode(),
        tmp_path.name.encode(),
        b"a-much-longer-directory-name",
        str(ROOT).encode(),
    ]
    for rel, data in {**a, "docs/catalog.md": docs_a}.items():
        for needle in forbidden:
            assert needle not in data, f"{needle!r} appears in {rel}"


def _python_files() -> list[tuple[str, str]]:
    from generator import pipeline

    files = [
        (f"generated/{p.relative_to(BUNDLED_OUT).as_posix()}", p.read_text("utf-8"))
        for p in sorted(BUNDLED_OUT.rglob("*.py"))
    ]
    result = pipeline.run(FIXTURE_SPECS)
    files += [
        (f"fixture/{rel}", data.decode("utf-8")) for rel, data in result.files.items() if rel.endswith(".py")
    ]
    return files


_PY_FILES = _python_files()


@pytest.mark.parametrize("rel,source", _PY_FILES, ids=[rel for rel, _ in _PY_FILES])
def test_generated_python_is_black_stable(rel: str, source: str) -> None:
    """toolgen never runs black; black (pinned in the test extra) judges that it did not need to."""
    import black

    from test_black_judge import MODE

    assert black.format_str(source, mode=MODE) == source, f"black would change {rel}"
