"""Snapshots of the files generated from the fixture catalog (update with --snapshot-update).

Only generated data and bindings are snapshotted: the runtime under generated/_runtime/ is a
verbatim copy of generator/runtime/, which tests/runtime/ tests where it is written and the
drift check (test_runtime_copy_is_verbatim) keeps identical.
"""

from __future__ import annotations

from functools import lru_cache

import pytest

from conftest import FIXTURE_SPECS, ROOT
from generator import pipeline
from generator.lower import RUNTIME_PACKAGE, runtime_sources

RUNTIME_PREFIX = f"generated/{RUNTIME_PACKAGE}/"


@lru_cache(maxsize=1)
def _output() -> dict[str, str]:
    result = pipeline.run(FIXTURE_SPECS)
    assert not result.diagnostics.has_errors, result.diagnostics.render()
    files = {f"generated/{k}": v.decode("utf-8") for k, v in result.files.items()}
    files.update({k: v.decode("utf-8") for k, v in result.docs.items()})
    return files


def test_file_list(snapshot) -> None:
    assert sorted(_output()) == snapshot


@pytest.mark.parametrize("rel", sorted(r for r in _output() if not r.startswith(RUNTIME_PREFIX)))
def test_generated_file(snapshot, rel: str) -> None:
    assert _output()[rel] == snapshot


def test_runtime_copy_is_verbatim() -> None:
    copied = {rel.removeprefix("generated/"): text for rel, text in _output().items() if rel.startswith(RUNTIME_PREFIX)}
    assert copied == runtime_sources()
    assert f"{RUNTIME_PACKAGE}/__init__.py" in copied and f"{RUNTIME_PACKAGE}/catalog.py" in copied
    for rel, text in copied.items():
        source = text.split("\n", 1)[1]
        written = ROOT / "generator/runtime" / rel.removeprefix(RUNTIME_PREFIX[len("generated/") :])
        assert source == written.read_text("utf-8")
