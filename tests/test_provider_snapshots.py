"""Snapshots of each generated provider module's TOOLS, so a change in native output is a reviewed diff.

One JSON file per module under tests/__snapshots__/test_provider_snapshots/; key order is kept
(it is part of the output contract). Update with ``pytest --snapshot-update`` after reviewing.
"""

from __future__ import annotations

import json

import pytest
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

from generated import providers


class JSONText(SingleFileSnapshotExtension):
    """The snapshot is the given text, stored as a .json file (no re-serialisation, no key sorting)."""

    _write_mode = WriteMode.TEXT
    file_extension = "json"


@pytest.fixture
def snapshot_json(snapshot):
    return snapshot.use_extension(JSONText)


def _dump(data) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


@pytest.mark.parametrize("fmt", list(providers.FORMATS))
def test_tools(snapshot_json, fmt: str) -> None:
    module = providers.FORMATS[fmt]
    assert fmt == module.DIALECT
    assert _dump(module.TOOLS) == snapshot_json
