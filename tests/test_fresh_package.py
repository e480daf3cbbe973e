"""Tests exercise output of the current generator, and the committed tree equals it."""

from __future__ import annotations

from pathlib import Path


def test_tests_import_a_freshly_generated_bundled_package() -> None:
    """``import generated`` in tests is the session's fresh generation, not the committed tree."""
    import generated
    from conftest import BUNDLED_OUT, FRESH_BUNDLED_OUT

    location = generated.__file__
    assert location is not None
    assert Path(location).resolve().parent == FRESH_BUNDLED_OUT.resolve()
    assert Path(location).resolve().parent != BUNDLED_OUT.resolve()
