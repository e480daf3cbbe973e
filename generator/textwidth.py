"""Display width of a line, as black measures it, from a committed table.

pyfmt decides where generated code breaks by comparing line widths with 88 columns, so the width
of a character must not depend on the Python (and so Unicode) version that runs toolgen, nor on
whether or which black is installed. The table in _width_data.py is fixed in the repository
(tools/make_width_table.py documents how it is made); tests/test_textwidth.py compares it with
black's own ``str_width`` over every code point.
"""

from __future__ import annotations

from bisect import bisect_right
from functools import lru_cache

from ._width_data import WIDE

_STARTS = tuple(start for start, _ in WIDE)


@lru_cache(maxsize=4096)
def char_width(char: str) -> int:
    """2 for a wide (East Asian W or F) character, else 1."""
    code = ord(char)
    index = bisect_right(_STARTS, code) - 1
    return 2 if index >= 0 and code <= WIDE[index][1] else 1


def str_width(text: str) -> int:
    """Columns ``text`` takes in an editor: its length, plus one per wide character."""
    if text.isascii():
        return len(text)
    return sum(map(char_width, text))
