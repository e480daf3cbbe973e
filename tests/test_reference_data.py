"""The vendored reference facts stay equal to the shared originals they were copied from."""

from __future__ import annotations

import json

import pytest

from conftest import REFERENCE, SHARED_REFERENCE

NAMES = ("catalog", "golden-structure", "variant-selection-grid")


@pytest.mark.parametrize("name", NAMES)
def test_vendored_copy_is_valid_json(name: str) -> None:
    data = json.loads((REFERENCE / f"cline-v4.0.10-{name}.json").read_text("utf-8"))
    assert data, name


@pytest.mark.parametrize("name", NAMES)
def test_vendored_copy_equals_shared_original(name: str) -> None:
    shared = SHARED_REFERENCE / f"cline-v4.0.10-{name}.json"
    if not shared.is_file():
        pytest.skip(f"no shared original beside this clone to compare with ({shared.name}); the vendored copy is used")
    vendored = REFERENCE / f"cline-v4.0.10-{name}.json"
    assert (
        vendored.read_bytes() == shared.read_bytes()
    ), f"{vendored.name} differs from the shared original: copy it again"
