"""A generated package refuses, at import, a _runtime/ of another version (like protobuf gencode)."""

from __future__ import annotations

import hashlib
import json
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


# --------------------------------------------------------------------------- the version is bumped


INTERFACE_RECORD = Path(__file__).parent / "data" / "runtime" / "interface.json"


def _runtime_interface() -> dict[str, str]:
    """Every runtime name the generated modules import, with its call signature (classes: the
    signatures of their public methods): what a generated module expects of its _runtime."""
    import importlib
    import inspect

    used: set[tuple[str, str]] = set()
    for path in sorted(BUNDLED_OUT.glob("*.py")):
        text = path.read_text("utf-8")
        for module, names in re.findall(r"from \._runtime\.(\w+) import \(?([\w\s,]+?)\)?\n(?!\s)", text):
            used.update((module, n.strip().split(" as ")[0]) for n in names.split(",") if n.strip())
        used.update(re.findall(r"\b_runtime\.(\w+)\.(\w+)\b", text))
    interface: dict[str, str] = {}
    for module, name in sorted(used):
        value = getattr(importlib.import_module(f"generator.runtime.{module}"), name)
        if inspect.isclass(value):
            members = {
                attr: str(inspect.signature(member))
                for attr, member in sorted(vars(value).items())
                if callable(member) and (not attr.startswith("_") or attr == "__init__")
            }
            interface[f"{module}.{name}"] = json.dumps(members, sort_keys=True)
        elif callable(value):
            interface[f"{module}.{name}"] = str(inspect.signature(value))
        else:
            interface[f"{module}.{name}"] = type(value).__name__
    return interface


def test_runtime_interface_changes_come_with_a_new_version() -> None:
    """The interface generated modules use is recorded per RUNTIME_VERSION in tests/data/runtime/.

    When this fails, the runtime's interface changed: bump RUNTIME_VERSION in
    generator/runtime/__init__.py, regenerate, and record the new interface under the new
    version (``python -c 'import tests...'`` is not needed: the assertion message prints it).
    Recording a changed interface under an old version is a mistake a reviewer should refuse.
    """
    current = _runtime_interface()
    digest = hashlib.sha256(json.dumps(current, sort_keys=True).encode()).hexdigest()
    recorded = json.loads(INTERFACE_RECORD.read_text("utf-8"))
    assert str(RUNTIME_VERSION) in recorded, f"record version {RUNTIME_VERSION}: {digest}"
    assert recorded[str(RUNTIME_VERSION)]["sha256"] == digest, (
        f"the runtime interface changed under version {RUNTIME_VERSION}: bump RUNTIME_VERSION and "
        f"record {digest} for the new version in {INTERFACE_RECORD.name}; names: {sorted(current)}"
    )
