"""The language server's text positions: UTF-16 columns, token ends, and the YAML path under the
cursor found from text alone (so it works on files that do not parse)."""

from __future__ import annotations

import pytest

from generator.lsp.text import cursor_at, from_utf16, placeholder_at, to_utf16, token_end

TOOL = """\
# modeline
id: ask
variants:
  generic:
    description: |
      Usage: not a key.
      parameters: nor this.
    requires: {field: yolo_mode, truthy: false}
    parameters:
      - name: question
        required: true
      - use: task_progress
"""


def test_utf16_columns_count_astral_characters_twice() -> None:
    line = 'x: "é😀y"'
    assert to_utf16(line, line.index("y")) == line.index("y") + 1
    assert from_utf16(line, to_utf16(line, line.index("y"))) == line.index("y")
    assert from_utf16(line, 99) == len(line)


@pytest.mark.parametrize(
    "line, start, end",
    [
        ("  bogus: 1", 2, 7),  # a key stops at its colon
        ('x: "a \\" b" # c', 3, 11),  # a double-quoted string with an escaped quote
        ("x: 'it''s' ", 3, 10),  # a single-quoted string with a doubled quote
        ("x: [a, [b]], y", 3, 11),  # a flow list on one line
        ("x: plain text # note", 3, 13),  # a plain scalar stops before a comment
        ("{a: 1, bogus: 2}", 7, 12),  # a key inside a flow mapping
    ],
)
def test_token_end(line: str, start: int, end: int) -> None:
    assert token_end(line, start) == end


def _cursor(needle: str, offset: int = 0):  # type: ignore[no-untyped-def]
    index = TOOL.index(needle) + offset
    line = TOOL.count("\n", 0, index)
    return cursor_at(TOOL, line, index - (TOOL.rfind("\n", 0, index) + 1))


def test_cursor_paths() -> None:
    assert _cursor("generic").path == ("variants", "generic")
    assert _cursor("generic").on_key
    use = _cursor("task_progress", 3)
    assert use.path == ("variants", "generic", "parameters", 1, "use") and not use.on_key
    assert use.word == "task_progress"
    required = _cursor("required")
    assert required.path == ("variants", "generic", "parameters", 0, "required")
    # the text of a block scalar holds no keys: 'requires' follows 'description' in 'generic'
    assert _cursor("requires").path == ("variants", "generic", "requires")


def test_cursor_inside_a_flow_mapping() -> None:
    value = _cursor("yolo_mode", 2)
    assert value.container == ("variants", "generic", "requires") and value.key == "field" and not value.on_key
    key = _cursor("truthy", 2)
    assert key.container == ("variants", "generic", "requires") and key.on_key


def test_cursor_on_a_line_being_typed() -> None:
    text = TOOL + "    \n"
    assert cursor_at(text, text.count("\n") - 1, 4).container == ("variants", "generic")
    half = TOOL + "  native:\n    ext"
    cursor = cursor_at(half, half.count("\n"), 7)
    assert cursor.container == ("variants", "native") and cursor.word == "ext" and cursor.on_key


def test_placeholder_at() -> None:
    line = "text with {{CWD}} and {{"
    assert placeholder_at(line, line.index("CWD") + 1) == ("CWD", line.index("CWD"), line.index("CWD") + 3)
    assert placeholder_at(line, len(line)) == ("", len(line), len(line))
    assert placeholder_at("no placeholder", 3) is None
