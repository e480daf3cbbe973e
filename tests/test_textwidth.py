"""generator/textwidth.py against black's str_width, the judge of generated layout (black only here)."""

from __future__ import annotations

import sys

from black.strings import str_width as black_width

from generator.textwidth import str_width

# Characters black (26.10.1, wcwidth 0.2.14, Unicode 17) counts two columns wide that the committed
# table (Unicode 14, tools/make_width_table.py) counts as one: Unicode 15 to 17 made them wide
# (trigram and hexagram symbols, Tai Xuan Jing, new CJK strokes and Tangut, new emoji). A spec text containing one
# can make a generated line one column shorter by our count than by black's.
KNOWN_DIFFERENCES = (
    (0x2630, 0x2637), (0x268A, 0x268F), (0x2FFC, 0x2FFF), (0x31E4, 0x31E5), (0x31EF, 0x31EF),
    (0x4DC0, 0x4DFF), (0xFA6E, 0xFA6F), (0xFADA, 0xFAFF), (0x16FF2, 0x16FF6), (0x187F8, 0x187FF),
    (0x18CFF, 0x18CFF), (0x18D09, 0x18D1E), (0x18D80, 0x18DF2), (0x1B132, 0x1B132), (0x1B155, 0x1B155),
    (0x1D300, 0x1D356), (0x1D360, 0x1D376), (0x1F6D8, 0x1F6D8), (0x1F6DC, 0x1F6DC), (0x1FA75, 0x1FA77),
    (0x1FA87, 0x1FA8A), (0x1FA8E, 0x1FA8F), (0x1FAAD, 0x1FAAF), (0x1FABB, 0x1FABF), (0x1FAC6, 0x1FAC6),
    (0x1FAC8, 0x1FAC8), (0x1FACD, 0x1FACF), (0x1FADA, 0x1FADC), (0x1FADF, 0x1FADF), (0x1FAE8, 0x1FAEA),
    (0x1FAEF, 0x1FAEF), (0x1FAF7, 0x1FAF8),
)  # fmt: skip


def test_width_matches_black_on_every_code_point_but_the_documented_ones() -> None:
    known = {code for start, end in KNOWN_DIFFERENCES for code in range(start, end + 1)}
    differ = set()
    for code in range(sys.maxunicode + 1):
        if 0xD800 <= code <= 0xDFFF:
            continue  # surrogates are never in decoded spec text
        char = chr(code)
        if str_width(char) != black_width(char):
            differ.add(code)
    assert differ == known
    for code in known:
        assert (str_width(chr(code)), black_width(chr(code))) == (1, 2)


def test_width_of_mixed_text() -> None:
    assert str_width("plain ascii") == 11
    assert str_width("日本語 text") == 11
    assert str_width("e\u0301") == black_width("e\u0301") == 2  # a combining mark counts one, as in black
