"""Write the Unicode tables of the pattern runtime: generator/runtime/unicode_data.py and
generator/ts_runtime/unicode_data.ts, the same data for both languages.

Run ``.venv/bin/python tools/make_unicode_tables.py`` (``--check`` only compares) and commit both
files. The General_Category of every code point comes from the PyPI package ``unicodedata2``,
pinned (test extra, pyproject.toml) to one Unicode version, so ``\\p{..}`` answers the same in
Python and in every JavaScript engine, whatever Unicode version the running Python or engine has.
Neither toolgen nor its runtime imports unicodedata2; tests/runtime/test_runtime_unicode_data.py
checks that the committed files are what this script writes.

Encoding (compact, read by ecma_regex_sets): the code space U+0000..U+10FFFF is cut into runs of
one category; each run is the number ``(length - 1) * len(CATEGORIES) + category index``,
written big-endian in base 32 with the characters of ``DIGITS``: the first 32 end a number, the
last 32 say that more digits follow. About 4,100 runs take about 6.5 KB.

The property names (General_Category value aliases, the binary properties and the Script
properties ECMA-262 knows) are facts from ECMA-262 (tables "Non-binary Unicode property aliases",
"Binary Unicode property aliases", "Value aliases ... for General_Category"), which take them from
Unicode's PropertyValueAliases.txt.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import unicodedata2

UNICODE_VERSION = "17.0.0"
ROOT = Path(__file__).resolve().parent.parent
PY_OUT = ROOT / "generator" / "runtime" / "unicode_data.py"
TS_OUT = ROOT / "generator" / "ts_runtime" / "unicode_data.ts"

DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
BASE = 32

CATEGORIES = (
    "Cc", "Cf", "Cn", "Co", "Cs",
    "Ll", "Lm", "Lo", "Lt", "Lu",
    "Mc", "Me", "Mn",
    "Nd", "Nl", "No",
    "Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps",
    "Sc", "Sk", "Sm", "So",
    "Zl", "Zp", "Zs",
)  # fmt: skip

# Each General_Category value with its aliases: (categories it stands for, names ECMA-262 accepts).
GENERAL_CATEGORY_VALUES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Cc Cf Cn Co Cs", ("C", "Other")),
    ("Cc", ("Cc", "Control", "cntrl")),
    ("Cf", ("Cf", "Format")),
    ("Cn", ("Cn", "Unassigned")),
    ("Co", ("Co", "Private_Use")),
    ("Cs", ("Cs", "Surrogate")),
    ("Ll Lm Lo Lt Lu", ("L", "Letter")),
    ("Ll Lt Lu", ("LC", "Cased_Letter")),
    ("Ll", ("Ll", "Lowercase_Letter")),
    ("Lm", ("Lm", "Modifier_Letter")),
    ("Lo", ("Lo", "Other_Letter")),
    ("Lt", ("Lt", "Titlecase_Letter")),
    ("Lu", ("Lu", "Uppercase_Letter")),
    ("Mc Me Mn", ("M", "Mark", "Combining_Mark")),
    ("Mc", ("Mc", "Spacing_Mark")),
    ("Me", ("Me", "Enclosing_Mark")),
    ("Mn", ("Mn", "Nonspacing_Mark")),
    ("Nd Nl No", ("N", "Number")),
    ("Nd", ("Nd", "Decimal_Number", "digit")),
    ("Nl", ("Nl", "Letter_Number")),
    ("No", ("No", "Other_Number")),
    ("Pc Pd Pe Pf Pi Po Ps", ("P", "Punctuation", "punct")),
    ("Pc", ("Pc", "Connector_Punctuation")),
    ("Pd", ("Pd", "Dash_Punctuation")),
    ("Pe", ("Pe", "Close_Punctuation")),
    ("Pf", ("Pf", "Final_Punctuation")),
    ("Pi", ("Pi", "Initial_Punctuation")),
    ("Po", ("Po", "Other_Punctuation")),
    ("Ps", ("Ps", "Open_Punctuation")),
    ("Sc Sk Sm So", ("S", "Symbol")),
    ("Sc", ("Sc", "Currency_Symbol")),
    ("Sk", ("Sk", "Modifier_Symbol")),
    ("Sm", ("Sm", "Math_Symbol")),
    ("So", ("So", "Other_Symbol")),
    ("Zl Zp Zs", ("Z", "Separator")),
    ("Zl", ("Zl", "Line_Separator")),
    ("Zp", ("Zp", "Paragraph_Separator")),
    ("Zs", ("Zs", "Space_Separator")),
)

# The binary properties ECMA-262 accepts as \p{Name} (canonical names and short aliases).
BINARY_PROPERTIES = (
    "ASCII", "ASCII_Hex_Digit", "AHex", "Alphabetic", "Alpha", "Any", "Assigned",
    "Bidi_Control", "Bidi_C", "Bidi_Mirrored", "Bidi_M", "Case_Ignorable", "CI", "Cased",
    "Changes_When_Casefolded", "CWCF", "Changes_When_Casemapped", "CWCM",
    "Changes_When_Lowercased", "CWL", "Changes_When_NFKC_Casefolded", "CWKCF",
    "Changes_When_Titlecased", "CWT", "Changes_When_Uppercased", "CWU", "Dash",
    "Default_Ignorable_Code_Point", "DI", "Deprecated", "Dep", "Diacritic", "Dia", "Emoji",
    "Emoji_Component", "EComp", "Emoji_Modifier", "EMod", "Emoji_Modifier_Base", "EBase",
    "Emoji_Presentation", "EPres", "Extended_Pictographic", "ExtPict", "Extender", "Ext",
    "Grapheme_Base", "Gr_Base", "Grapheme_Extend", "Gr_Ext", "Hex_Digit", "Hex",
    "IDS_Binary_Operator", "IDSB", "IDS_Trinary_Operator", "IDST", "ID_Continue", "IDC",
    "ID_Start", "IDS", "Ideographic", "Ideo", "Join_Control", "Join_C",
    "Logical_Order_Exception", "LOE", "Lowercase", "Lower", "Math", "Noncharacter_Code_Point",
    "NChar", "Pattern_Syntax", "Pat_Syn", "Pattern_White_Space", "Pat_WS", "Quotation_Mark",
    "QMark", "Radical", "Regional_Indicator", "RI", "Sentence_Terminal", "STerm", "Soft_Dotted",
    "SD", "Terminal_Punctuation", "Term", "Unified_Ideograph", "UIdeo", "Uppercase", "Upper",
    "Variation_Selector", "VS", "White_Space", "space", "XID_Continue", "XIDC", "XID_Start",
    "XIDS",
)  # fmt: skip

# The non-binary properties ECMA-262 accepts as \p{Name=Value}.
GENERAL_CATEGORY_NAMES = ("General_Category", "gc")
SCRIPT_NAMES = ("Script", "sc", "Script_Extensions", "scx")

CHUNK = 76  # characters of the run string per source line (fits both files' line limits)


def category_runs() -> list[tuple[int, int]]:
    """(category index, length) for each run of one category over the whole code space."""
    index = {name: i for i, name in enumerate(CATEGORIES)}
    runs: list[list[int]] = []
    for code in range(sys.maxunicode + 1):
        category = index[unicodedata2.category(chr(code))]
        if runs and runs[-1][0] == category:
            runs[-1][1] += 1
        else:
            runs.append([category, 1])
    return [(category, length) for category, length in runs]


def encode(runs: list[tuple[int, int]]) -> str:
    out: list[str] = []
    for category, length in runs:
        value = (length - 1) * len(CATEGORIES) + category
        digits = [DIGITS[value % BASE]]
        value //= BASE
        while value:
            digits.append(DIGITS[BASE + value % BASE])
            value //= BASE
        out.append("".join(reversed(digits)))
    return "".join(out)


def chunks(text: str) -> list[str]:
    return [text[i : i + CHUNK] for i in range(0, len(text), CHUNK)]


def aliases() -> list[tuple[str, str]]:
    return [(name, codes) for codes, names in GENERAL_CATEGORY_VALUES for name in names]


def packed(names: tuple[str, ...], width: int) -> list[str]:
    """Names joined by spaces, cut between names into pieces of at most ``width`` characters."""
    pieces: list[str] = []
    for name in names:
        if pieces and len(pieces[-1]) + 1 + len(name) <= width:
            pieces[-1] += " " + name
        else:
            pieces.append((" " if pieces else "") + name)
    return pieces


def py_string(name: str, pieces: list[str]) -> list[str]:
    if len(pieces) == 1:
        return [f'{name} = "{pieces[0]}"']
    return [f"{name} = (", *(f'    "{piece}"' for piece in pieces), ")"]


def ts_string(name: str, pieces: list[str], doc: str = "") -> list[str]:
    lines = [f"/** {doc} */"] if doc else []
    if len(pieces) == 1:
        return [*lines, f'export const {name} = "{pieces[0]}";']
    body = [f'  "{piece}" +' for piece in pieces]
    body[-1] = body[-1].removesuffix(" +") + ";"
    return [*lines, f"export const {name} =", *body]


VALUES_DOC = "General_Category value names ECMA-262 accepts, each with the categories it means."
BINARY_DOC = "The binary properties ECMA-262 accepts as \\p{Name}, space-separated."
HEAD = (
    f"Unicode {UNICODE_VERSION} data for the pattern runtime (ecma_regex), written by",
    "tools/make_unicode_tables.py from unicodedata2: do not edit, run the script.",
    "CATEGORY_RUNS is the General_Category of every code point, as runs (encoding: the",
    "script's docstring); ecma_regex_sets reads it.",
)


def render_python(runs: str) -> str:
    lines = [
        f'"""{HEAD[0]}',
        *HEAD[1:-1],
        HEAD[-1] + '"""',
        "",
        "from __future__ import annotations",
        "",
        f'UNICODE_VERSION = "{UNICODE_VERSION}"',
        f'DIGITS = "{DIGITS}"',
        *py_string("CATEGORIES", packed(CATEGORIES, 80)),
        *py_string("CATEGORY_RUNS", chunks(runs)),
        f"# {VALUES_DOC}",
        "GENERAL_CATEGORY_VALUES = (",
        *(f'    ("{name}", "{codes}"),' for name, codes in aliases()),
        ")",
        *py_string("GENERAL_CATEGORY_NAMES", packed(GENERAL_CATEGORY_NAMES, 80)),
        *py_string("SCRIPT_NAMES", packed(SCRIPT_NAMES, 80)),
        f"# {BINARY_DOC}",
        *py_string("BINARY_PROPERTIES", packed(BINARY_PROPERTIES, 80)),
        "",
    ]
    return "\n".join(lines)


def render_ts(runs: str) -> str:
    lines = [
        "/**",
        *(f" * {line}" for line in HEAD),
        " * The same values as unicode_data.py (a test parses both).",
        " */",
        "",
        f'export const UNICODE_VERSION = "{UNICODE_VERSION}";',
        f'export const DIGITS = "{DIGITS}";',
        *ts_string("CATEGORIES", packed(CATEGORIES, 96)),
        *ts_string("CATEGORY_RUNS", chunks(runs)),
        f"/** {VALUES_DOC} */",
        "export const GENERAL_CATEGORY_VALUES: readonly (readonly [string, string])[] = [",
        *(f'  ["{name}", "{codes}"],' for name, codes in aliases()),
        "];",
        *ts_string("GENERAL_CATEGORY_NAMES", packed(GENERAL_CATEGORY_NAMES, 96)),
        *ts_string("SCRIPT_NAMES", packed(SCRIPT_NAMES, 96)),
        *ts_string("BINARY_PROPERTIES", packed(BINARY_PROPERTIES, 96), BINARY_DOC),
        "",
    ]
    return "\n".join(lines)


def outputs() -> dict[Path, str]:
    """Both files as this script writes them (needs unicodedata2 at the pinned version)."""
    if unicodedata2.unidata_version != UNICODE_VERSION:
        raise SystemExit(
            f"unicodedata2 has Unicode {unicodedata2.unidata_version}, the tables are Unicode "
            f"{UNICODE_VERSION}: install the version pinned in pyproject.toml's test extra"
        )
    runs = encode(category_runs())
    return {PY_OUT: render_python(runs), TS_OUT: render_ts(runs)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write (exit 1 if stale)")
    args = parser.parse_args()
    stale = []
    for path, text in outputs().items():
        if path.exists() and path.read_text("utf-8") == text:
            continue
        stale.append(path.relative_to(ROOT).as_posix())
        if not args.check:
            path.write_text(text, "utf-8")
    if args.check and stale:
        print("stale: " + ", ".join(stale) + "; run tools/make_unicode_tables.py", file=sys.stderr)
        return 1
    print(("wrote " if stale else "up to date: ") + ", ".join(stale or [PY_OUT.name, TS_OUT.name]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
