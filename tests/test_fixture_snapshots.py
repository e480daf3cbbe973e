"""Snapshots of every file generated from the fixture catalog (update with --snapshot-update)."""

from __future__ import annotations

from functools import lru_cache

import pytest

from conftest import FIXTURE_SPECS
from generator import pipeline


@lru_cache(maxsize=1)
def _output() -> dict[str, str]:
    result = pipeline.run(FIXTURE_SPECS)
    assert not result.diagnostics.has_errors, result.diagnostics.render()
    files = {f"generated/{k}": v.decode("utf-8") for k, v in result.files.items()}
    files.update({k: v.decode("utf-8") for k, v in result.docs.items()})
    return files


def test_file_list(snapshot) -> None:
    assert sorted(_output()) == snapshot


@pytest.mark.parametrize("rel", sorted(_output()))
def test_generated_file(snapshot, rel: str) -> None:
    assert _output()[rel] == snapshot
