"""Shared helpers: the fixture catalog, running the CLI in-process, importing generated packages."""

from __future__ import annotations

import atexit
import importlib.util
import itertools
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

from golden import GOLDEN_FIELDS  # noqa: F401 - re-exported for the tests

ROOT = Path(__file__).resolve().parents[1]
FIXTURE_SPECS = ROOT / "tests" / "fixtures" / "specs"
BUNDLED_SPECS = ROOT / "specs"
BUNDLED_OUT = ROOT / "generated"
#: Facts about the modelled system, vendored from ../shared/reference (see tests/data/reference/README.md).
REFERENCE = ROOT / "tests" / "data" / "reference"
SHARED_REFERENCE = ROOT.parent / "shared" / "reference"

_counter = itertools.count()


def _generate_fresh_bundled_package() -> Path:
    """Generate specs/ into a private folder and put it first on sys.path, so that every test's
    ``import generated`` gets output of the current generator and specs, never a stale committed copy.

    The committed tree is compared with a fresh generation by test_write's drift test instead.
    """
    from generator import pipeline, write

    base = Path(tempfile.mkdtemp(prefix="toolgen-fresh-"))
    atexit.register(shutil.rmtree, base, True)
    result = pipeline.run(BUNDLED_SPECS)
    if result.diagnostics.has_errors:
        pytest.exit("the bundled specs do not generate:\n" + result.diagnostics.render(), returncode=2)
    out = base / "generated"
    write.write(out, result.files, write.plan(out, result.files))
    sys.path.insert(0, str(base))
    for name in [m for m in sys.modules if m == "generated" or m.startswith("generated.")]:
        del sys.modules[name]
    return out


#: The package generated from specs/ in this test session; ``import generated`` resolves to it.
FRESH_BUNDLED_OUT = _generate_fresh_bundled_package()


def reference_file(name: str) -> Path:
    """A vendored reference file; it is part of the repository, so its absence is a failure, not a skip."""
    path = REFERENCE / f"cline-v4.0.10-{name}.json"
    assert path.is_file(), f"vendored reference data missing: {path.relative_to(ROOT)}"
    return path


def copy_specs(source: Path, dest: Path) -> Path:
    """Copy a spec tree to ``dest/specs`` (the name diagnostics show) and return that folder."""
    target = dest / "specs"
    shutil.copytree(source, target)
    return target


def edit(path: Path, old: str, new: str, count: int = 1) -> None:
    """Replace ``old`` by ``new`` in a spec file; ``old`` must occur exactly ``count`` times."""
    text = path.read_text("utf-8")
    assert text.count(old) == count, f"{old!r} occurs {text.count(old)} times in {path}"
    path.write_text(text.replace(old, new), "utf-8")


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run ``toolgen`` in-process; returns (exit code, stdout, stderr).

    With an absolute ``--specs`` outside the current directory (a tmp_path), it runs in the spec
    folder's parent, the project root, as a user would: messages name files relative to the
    current directory (``specs/tools/x.yaml``). A test that chose its directory keeps it.
    """
    from generator.cli import main

    argv = [str(a) for a in args]
    specs = argv[argv.index("--specs") + 1] if "--specs" in argv[:-1] else None
    outside = specs is not None and Path(specs).is_absolute() and not Path(specs).is_relative_to(os.getcwd())
    where = Path(specs).parent if specs is not None and outside else None
    capsys.readouterr()
    before = os.getcwd()
    try:
        if where is not None and where.is_dir():
            os.chdir(where)
        code = main(argv)
    except SystemExit as exc:  # argparse: --version, usage errors
        code = exc.code if isinstance(exc.code, int) else 2
    finally:
        os.chdir(before)
    out, err = capsys.readouterr()
    return code, out, err


def read_tree(root: Path) -> dict[str, bytes]:
    """Every file below ``root`` by POSIX relative path."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
    }


def import_package(out: Path):
    """Import a generated package from ``out`` under a fresh module name (it only uses relative imports)."""
    name = f"toolgen_test_pkg_{next(_counter)}"
    spec = importlib.util.spec_from_file_location(
        name, out / "__init__.py", submodule_search_locations=[str(out)]
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def submodule(package, name: str):
    return importlib.import_module(f"{package.__name__}.{name}")


@pytest.fixture
def specs(tmp_path: Path) -> Path:
    """A private copy of the fixture catalog at ``tmp_path/specs``."""
    return copy_specs(FIXTURE_SPECS, tmp_path)


@pytest.fixture(scope="session")
def fixture_output(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture catalog generated once per session; returns the output folder."""
    from generator import pipeline, write

    base = tmp_path_factory.mktemp("fixture-gen")
    spec_dir = copy_specs(FIXTURE_SPECS, base)
    result = pipeline.run(spec_dir)
    assert not result.diagnostics.has_errors, result.diagnostics.render()
    out = base / "generated"
    write.write(out, result.files, write.plan(out, result.files))
    return out


@pytest.fixture(scope="session")
def fixture_package(fixture_output: Path):
    return import_package(fixture_output)


@pytest.fixture
def breaking_trees(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """(old, new) copies of the fixture catalog at old/specs and specs, with the working folder above them.

    Every family of the new side has its version raised by one, as a project that keeps its
    versions does, so that only the tests of the version check (FAMILY_VERSION_NOT_BUMPED) see it;
    ``keep_versions(new)`` undoes it."""
    shutil.copytree(FIXTURE_SPECS, tmp_path / "old" / "specs")
    shutil.copytree(FIXTURE_SPECS, tmp_path / "specs")
    for family in sorted((tmp_path / "specs" / "variants").glob("*.yaml")):
        text = family.read_text("utf-8")
        version = int(re.search(r"^version: (\d+)$", text, re.M).group(1))  # type: ignore[union-attr]
        family.write_text(text.replace(f"version: {version}\n", f"version: {version + 1}\n", 1), "utf-8")
    monkeypatch.chdir(tmp_path)
    return Path("old/specs"), Path("specs")


def keep_versions(new: Path) -> None:
    """Undo breaking_trees' version raise on the new side: every family keeps the old version."""
    for family in sorted((new / "variants").glob("*.yaml")):
        old = Path("old") / "specs" / "variants" / family.name
        text, before = family.read_text("utf-8"), old.read_text("utf-8")
        version = re.search(r"^version: \d+$", before, re.M).group(0)  # type: ignore[union-attr]
        family.write_text(re.sub(r"^version: \d+$", version, text, count=1, flags=re.M), "utf-8")


def pytest_unconfigure(config: pytest.Config) -> None:
    """Say loudly when the TypeScript checks were skipped (tests/ts_bridge.py): they did not pass.

    Written at unconfigure, after the counts line, so that the red line closes the output where
    nobody can miss it (a terminal-summary hook would print it above the short summary)."""
    from ts_bridge import SKIP_PREFIX

    terminalreporter = config.pluginmanager.get_plugin("terminalreporter")
    if terminalreporter is None:
        return
    reasons = set()
    for report in terminalreporter.stats.get("skipped", []):
        longrepr = getattr(report, "longrepr", None)
        message = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr)
        if SKIP_PREFIX in message:
            reasons.add(message[message.index(SKIP_PREFIX) :])
    for reason in sorted(reasons):
        terminalreporter.write_sep("!", "NOT CHECKED: " + reason, red=True, bold=True)
