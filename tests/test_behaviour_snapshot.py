"""Digests of everything the bundled package answers (tests/behaviour.py), per kind and family.

A refactoring of the runtime or the generator must leave this snapshot unchanged; a change of
behaviour shows up as a reviewed diff naming the kind and family that changed. Compare the full
documents with ``python tests/behaviour.py FILE`` before and after to see what exactly changed.
"""

from __future__ import annotations

import json

import generated
from behaviour import capture, digests


def test_behaviour_digests(snapshot) -> None:
    document = capture(generated)
    json.dumps(document, allow_nan=False)  # every answer is valid JSON
    assert digests(document) == snapshot
