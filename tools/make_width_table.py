"""Regenerate generator/textwidth.py's WIDE table from this Python's unicodedata.

Run ``.venv/bin/python tools/make_width_table.py > generator/_width_data.py`` and commit the result;
the generator then never consults unicodedata, so line widths (and so the layout of generated
code) do not change with the Python or Unicode version at run time.

The rule mirrors how black measures lines (its table comes from wcwidth): a code point is two
columns wide when its East Asian Width is W or F, except combining marks (categories Mn, Me, Mc)
and emoji skin-tone modifiers (U+1F3FB..U+1F3FF), which black counts as one column. Unassigned
code points (Cn) count as one, except in the CJK ideograph planes U+20000..U+3FFFD, where the
Unicode default width is W (but not the noncharacters U+2FFFE/F and U+3FFFE/F). Every other code
point is one column. black has no zero-width (0) entries: it counts combining and control
characters as one column, so the table has none either. tests/test_textwidth.py compares every
code point with black and lists the ones that differ (characters Unicode 15 to 17 made wide).
"""

from __future__ import annotations

import sys
import unicodedata

_NARROW_MARKS = ("Mn", "Me", "Mc")
_SKIN_TONES = range(0x1F3FB, 0x1F400)
_CJK_PLANES = (range(0x20000, 0x2FFFE), range(0x30000, 0x3FFFE))  # noncharacters excluded


def wide(code: int) -> bool:
    char = chr(code)
    if unicodedata.category(char) in _NARROW_MARKS or code in _SKIN_TONES:
        return False
    if unicodedata.category(char) == "Cn":
        return any(code in plane for plane in _CJK_PLANES)
    return unicodedata.east_asian_width(char) in ("W", "F")


def ranges() -> list[tuple[int, int]]:
    found: list[list[int]] = []
    for code in range(sys.maxunicode + 1):
        if wide(code):
            if found and found[-1][1] == code - 1:
                found[-1][1] = code
            else:
                found.append([code, code])
    return [(start, end) for start, end in found]


def main() -> None:
    version = unicodedata.unidata_version
    print(f'"""Wide (two-column) code point ranges: tools/make_width_table.py, Unicode {version}."""')
    print()
    print("WIDE: tuple[tuple[int, int], ...] = (")
    for start, end in ranges():
        print(f"    (0x{start:X}, 0x{end:X}),")
    print(")")


if __name__ == "__main__":
    main()
