"""A generated package refuses, at import, a _runtime/ of another version (like protobuf gencode)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from conftest import BUNDLED_OUT, import_package, submodule
from generator.runtime import RUNTIME_VERSION

GENERATED_MODULES = ("catalog", "context", "ids", "bindings", "providers", "prompt", "dispatch", "anthropic")


def _copy(tmp_path: Path, runtime_version: int) -> Path:
    out = tmp_path / "pkg"
    shutil.copytree(BUNDLED_OUT, out, ignore=shutil.ignore_patterns("__pycache__"))
    init = out / "_runtime" / "__init__.py"
    pattern = r"(?m)^RUNTIME_VERSION = \d+$"
    text, count = re.subn(pattern, f"RUNTIME_VERSION = {runtime_version}", init.read_text("utf-8"))
    assert count == 1
    init.write_text(text, "utf-8")
    return out


def test_every_generated_module_checks_the_runtime_version() -> None:
    for path in sorted(BUNDLED_OUT.glob("*.py")):
        assert f"_runtime.check_version({RUNTIME_VERSION}, __name__)" in path.read_text("utf-8"), path.name


def test_a_mismatched_runtime_fails_at_import_naming_both_versions(tmp_path: Path) -> None:
    out = _copy(tmp_path, RUNTIME_VERSION + 1)
    with pytest.raises(ImportError) as err:
        import_package(out)
    message = str(err.value)
    assert f"generated for toolgen runtime version {RUNTIME_VERSION}," in message
    assert f"is version {RUNTIME_VERSION + 1}" in message
    assert "Regenerate the whole package" in message


def test_a_matching_runtime_imports(tmp_path: Path) -> None:
    package = import_package(_copy(tmp_path, RUNTIME_VERSION))
    for name in GENERATED_MODULES:
        submodule(package, name)
    assert package.select_family({}) == "generic"
