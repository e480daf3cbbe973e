"""The bundled spec prose is our own: none of the modelled system's characteristic phrases.

The phrases are short fragments of Cline v4.0.10's tool texts, the sentences the bundled specs
once followed too closely. Each spec file is checked with its line breaks and indentation
collapsed to single spaces, so a phrase that a folded YAML block wraps across lines is found
as well.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import BUNDLED_SPECS

#: Lower case; matched against lower-cased, whitespace-collapsed spec text.
FORBIDDEN = (
    "relative to the current working directory",
    "executed in the current working directory",
    "current working directory {{cwd}}",
    "type a string of text",
    "after clicking on a text field",
    "not possible to navigate to",
    "close the browser, then launch again",
    "again at the new",
    "while the browser is",
    "no other tool",
    "present the result",
    "present the final result",
    "respond with feedback",
    "reply with feedback",
    "merely print",
    "prints text",
    "print text",
    "represent data sources",
    "can be used as context",
    "context such as files",
)


def collapsed(text: str) -> str:
    return " ".join(text.split()).lower()


SPEC_FILES = sorted(BUNDLED_SPECS.rglob("*.yaml"))


def test_spec_files_found() -> None:
    assert len(SPEC_FILES) > 20


@pytest.mark.parametrize("path", SPEC_FILES, ids=lambda p: p.relative_to(BUNDLED_SPECS).as_posix())
def test_no_modelled_system_phrases(path: Path) -> None:
    text = collapsed(path.read_text("utf-8"))
    found = [phrase for phrase in FORBIDDEN if phrase in text]
    assert not found, f"{path.name} still uses the modelled system's wording: {found}; say it in other words"


def test_collapsing_finds_a_phrase_wrapped_across_lines() -> None:
    folded = "path of the file, relative to the current working\n          directory {{CWD}}."
    assert FORBIDDEN[0] in collapsed(folded)
