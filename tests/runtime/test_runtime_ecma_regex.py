"""The pattern runtime (generator/runtime/ecma_regex*.py): ECMA-262 syntax with the u flag, its
errors and their offsets, the refusals, and what patterns match. The expected verdicts are
ECMA-262's (each was checked against node's RegExp with the u flag); the TypeScript runtime gives
the same answers (tests/test_ecma_regex_differential.py compares the two on a large corpus)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from generator.runtime import ecma_regex
from generator.runtime.ecma_regex import PatternError, compile_pattern, python_source
from generator.runtime.ecma_regex_syntax import MAX_DEPTH

# ---- what matches ----------------------------------------------------------------------------

# (pattern, text, ECMA-262's verdict)
VERDICTS = [
    # anchors: start and end of input only; search finds a match anywhere
    ("b", "abc", True),
    ("^abc$", "abc", True),
    ("^abc$", "abc\n", False),
    ("a$", "a\n", False),
    ("^$", "", True),
    # . is any code point but \n \r U+2028 U+2029
    ("^.$", "\u0085", True),
    ("^.$", "\r", False),
    ("^.$", "\u2029", False),
    ("^.$", "\U0001f600", True),
    ("^.$", "\ud800", True),
    # \d \w are ASCII; \s is ECMA-262 WhiteSpace and LineTerminator
    ("^\\d$", "\u0660", False),
    ("^\\D$", "\u0660", True),
    ("^\\w$", "\u00e9", False),
    ("^\\w$", "\u212a", False),
    ("^\\W$", "\u00e9", True),
    ("^\\s$", "\ufeff", True),
    ("^\\s$", "\u3000", True),
    ("^\\s$", "\u0085", False),
    ("^\\s$", "\u180e", False),
    ("^\\S$", "\u200b", True),
    ("^[\\S]$", " ", False),
    # \b \B by ASCII word characters; \B also holds in the empty text
    ("\\bx\\b", "\u00e9x\u00e9", True),
    ("\\Bx", "ax", True),
    ("\\B", "", True),
    ("^\\B$", "", True),
    ("\\b", "", False),
    # classes
    ("^[^a]$", "\U0001f600", True),
    ("^[\\b]$", "\b", True),
    ("^[a\\-z]$", "-", True),
    ("^[a-]$", "-", True),
    ("^[\\d-]$", "-", True),
    ("^[--0]$", "/", True),
    ("[]", "a", False),
    ("^[^]$", "\n", True),
    # escapes
    ("^\\t\\n\\v\\f\\r$", "\t\n\v\f\r", True),
    ("^\\cJ\\ca$", "\n\x01", True),
    ("^\\0$", "\x00", True),
    ("^\\x41\\u0042\\u{43}$", "ABC", True),
    ("^\\u{1F600}$", "\U0001f600", True),
    ("^\\uD83D\\uDE00$", "\U0001f600", True),
    ("^\\u{D83D}\\u{DE00}$", "\U0001f600", False),
    ("\\uDE00", "\U0001f600", False),
    ("^\\uDE00$", "\ude00", True),
    ("^\\/\\.\\*\\\\$", "/.*\\", True),
    ("^\U0001f432*$", "\U0001f432\U0001f432", True),
    # quantifiers
    ("^a{2}$", "aa", True),
    ("^a{2,}$", "a", False),
    ("^a{1,2}$", "aaa", False),
    ("^a{0}$", "", True),
    ("^a+?$", "aaa", True),
    ("^(?:ab)*$", "aba", False),
    # groups, lookarounds
    ("^(?:a|ab)(?:c|bcd)$", "abcd", True),
    ("(?=a)[a-c]", "b", False),
    ("^(?!a)\\w$", "b", True),
    ("(?<=a)b", "cb", False),
    ("(?<!a)b", "cb", True),
    ("(?<=a|bc)d", "bcd", True),
    ("(?<!a|bc)d", "bcd", False),
    ("(?<=\\u{1F600})x", "\U0001f600x", True),
    ("(?<=^.)x", "\U0001f600x", True),
    # backreferences: an unset group matches empty
    ("^(a)\\1$", "aa", True),
    ("^(a)?b\\1$", "b", True),
    ("^(a)?b\\1$", "abb", False),
    ("^(?:(a)|b)\\1$", "b", True),
    ("^(a)|\\1b$", "b", True),
    ("^(?<x>[ab])\\k<x>$", "ab", False),
    ("^(a)(?:\\1)+$", "aaa", True),
    ("^(?:x(a))+\\1$", "xaxaa", True),
    # \p{..}: General_Category from the committed Unicode 17 table, every alias
    ("^\\p{Letter}cole$", "\u00e9cole", True),
    ("^\\p{L}$", "1", False),
    ("^\\p{Lo}$", "\u0295", True),  # Ll in Unicode 14 (this Python's unicodedata), Lo in 17
    ("^\\p{digit}+$", "\u0966\U0001d7ce", True),
    ("^\\p{gc=Lu}$", "\u0130", True),
    ("^\\p{General_Category=Decimal_Number}$", "x", False),
    ("^\\p{LC}$", "\u01c5", True),
    ("^\\p{Cased_Letter}$", "\u02b0", False),
    ("^\\p{Combining_Mark}$", "\u0301", True),
    ("^\\p{punct}$", "!", True),
    ("^\\p{cntrl}$", "\x7f", True),
    ("^\\p{Any}$", "\U0010ffff", True),
    ("^\\p{ASCII}+$", "\x80", False),
    ("^\\p{Assigned}$", "\u0378", False),
    ("^\\P{Assigned}$", "\u0378", True),
    ("^\\p{Cs}$", "\ud800", True),
    ("^\\p{Co}$", "\U000f0000", True),
    ("^[\\p{Lu}\\d]+$", "A1", True),
    ("^[^\\p{L}\\p{N}]$", "1", False),
]


@pytest.mark.parametrize("pattern, text, expected", VERDICTS)
def test_verdicts_are_ecma_262s(pattern: str, text: str, expected: bool) -> None:
    assert compile_pattern(pattern)(text) is expected


def test_a_surrogate_pair_in_a_text_is_one_code_point_as_in_javascript() -> None:
    matches = compile_pattern("^.$")
    assert matches("\ud83d\ude00")  # two code points here, one character in a JavaScript string
    assert not matches("\ud83d\ud83d")
    assert compile_pattern("^\\uD83D$")("\ud83d")


def test_python_source_spells_out_what_re_reads_otherwise() -> None:
    assert python_source("^\\d$") == "(?a)\\A[0-9]\\Z"
    assert python_source("\\w") == "(?a)[0-9A-Z_a-z]"
    assert python_source("(?<name>x)\\k<name>") == "(?a)(x)(?:\\1)"  # names dropped, numbers kept
    assert python_source("(a)?b\\1") == "(?a)(a)?b(?(1)\\1)"
    assert python_source("(a)|\\1") == "(?a)(a)|(?:)"
    assert python_source("(?<!a|bc)") == "(?a)(?:(?<!a)(?<!bc))"
    assert python_source("\\u{1F600}") == "(?a)\\U0001f600"
    assert "\\p" not in python_source("\\p{L}")


def test_compiled_patterns_are_cached_and_the_cache_is_bounded() -> None:
    assert compile_pattern("^cached$") is compile_pattern("^cached$")
    assert ecma_regex._compiled.cache_info().maxsize == 1024


@pytest.mark.parametrize("source", [None, 5, ["a"], {"a": 1}])
def test_a_pattern_that_is_not_a_string_is_a_pattern_error(source: Any) -> None:
    with pytest.raises(PatternError, match=r"^a pattern must be a string$"):
        compile_pattern(source)


# ---- errors: message and offset ----------------------------------------------------------------

ESCAPABLE = "^ $ \\ . * + ? ( ) [ ] { } | /"
ERRORS = [
    ("a{", 1, "lone {: write \\{ to match the character itself"),
    ("a{,5}", 1, "{,n} is not an ECMA-262 quantifier: write {0,n}, or \\{ to match the character itself"),
    ("x}", 1, "lone }: write \\} to match the character itself"),
    ("x]", 1, "lone ]: write \\] to match the character itself"),
    ("x{2,1}", 1, "the quantifier {2,1} has its numbers out of order: write {1,2}"),
    ("*", 0, "nothing to repeat before *: write \\* to match the character itself"),
    ("a|{2}", 2, "nothing to repeat before {: write \\{ to match the character itself"),
    ("a**", 2, "nothing to repeat before *: write \\* to match the character itself"),
    ("^*", 1, "an assertion (^, $, \\b, \\B or a lookaround) cannot be repeated: remove the quantifier"),
    ("\\b+", 2, "an assertion (^, $, \\b, \\B or a lookaround) cannot be repeated: remove the quantifier"),
    ("(?=a)?", 5, "an assertion (^, $, \\b, \\B or a lookaround) cannot be repeated: remove the quantifier"),
    ("ab)", 2, "unmatched ): write \\) to match the character itself"),
    ("x(a", 1, "missing ) to close the group that opens here"),
    ("(?<=a", 0, "missing ) to close the lookbehind that opens here"),
    ("(?x)", 0, "invalid group: (? must be followed by :, =, !, <=, <! or <name>"),
    ("(?<>a)", 3, "empty group name: write (?<name>...)"),
    ("(?<1a>a)", 3, "invalid group name: start it with an ASCII letter, $ or _, and go on with those or digits"),
    ("(?<ab", 5, "missing > after the group name"),
    ("[ab", 0, "missing ] to close the character class that opens here"),
    ("[z-a]", 1, "the range z-a is out of order: write the smaller character first"),
    ("[\\d-z]", 1, "a class escape (\\d, \\w, \\s, \\p{..}, ...) cannot be the end of a range: "
     "write the - as \\- to match it"),
    ("ab\\", 2, "\\ at the end of the pattern: write \\\\ to match a backslash"),
    ("\\c1", 0, "\\c must be followed by a letter A-Z or a-z: write \\\\c to match \\ and c"),
    ("\\x4", 0, "\\x must be followed by two hex digits, as in \\x41"),
    ("\\u12", 0, "\\u must be followed by four hex digits or a code point in braces: \\u0041, \\u{1F600}"),
    ("\\u{}", 0, "\\u{ must be followed by hex digits and }, as in \\u{1F600}"),
    ("\\u{110000}", 0, "\\u{...} is past the last code point \\u{10FFFF}"),
    ("\\01", 0, "\\0 followed by a digit is an octal escape, which ECMA-262 does not allow with the u flag: "
     "write the character as \\xHH"),
    ("\\a", 0, f"invalid escape \\a: with the u flag only {ESCAPABLE} can be escaped; write the character itself"),
    ("[\\B]", 1, f"invalid escape \\B in a character class: with the u flag only {ESCAPABLE} - can be escaped; "
     "write the character itself"),
    ("\\\u00e9", 0, f"invalid escape \\U+00E9: with the u flag only {ESCAPABLE} can be escaped; "
     "write the character itself"),
    ("(a)\\2", 3, "\\2 refers to group 2, but the pattern has 1 capturing group"),
    ("\\10", 0, "\\10 refers to group 10, but the pattern has 0 capturing groups"),
    ("\\k", 0, "\\k must be followed by a group name in angle brackets: \\k<name>"),
    ("(?<a>x)\\k<b>", 7, "\\k<b> refers to no group named b"),
    ("\\p{L", 0, "missing } to close \\p{"),
    ("\\pL", 0, "\\p must be followed by a property in braces, as in \\p{L} or \\p{gc=Lu}"),
    ("\\p{l}", 0, "unknown Unicode property l: "
     "write a General_Category value (L, Nd, Letter, ...), Any, ASCII or Assigned"),
    ("\\p{gc=Any}", 0, "unknown General_Category value Any: write one like L, Lu, Nd, Letter or Decimal_Number"),
    ("\\p{Foo=L}", 0, "unknown Unicode property Foo: "
     "ECMA-262 knows General_Category (gc), Script (sc) and Script_Extensions (scx)"),
    ("\\p{L }", 0, "invalid Unicode property escape: "
     "write \\p{Value} or \\p{Name=Value} with ASCII letters, digits and _"),
    # offsets count code points: a surrogate pair is one, as JavaScript's u flag reads it
    ("\U0001f600\\1", 1, "\\1 refers to group 1, but the pattern has 0 capturing groups"),
    ("\ud83d\ude00\\1", 1, "\\1 refers to group 1, but the pattern has 0 capturing groups"),
]  # fmt: skip


@pytest.mark.parametrize("pattern, offset, message", ERRORS)
def test_errors_say_what_and_where(pattern: str, offset: int, message: str) -> None:
    with pytest.raises(PatternError) as caught:
        compile_pattern(pattern)
    assert (caught.value.offset, caught.value.message) == (offset, message)
    assert str(caught.value) == message
    assert caught.value.source == pattern
    assert not message.startswith("toolgen does not support")


def test_every_accepted_form_compiles() -> None:
    for pattern in [
        "a|b|", "(?:)", "()", "(?<$_a1>x)\\k<$_a1>", "(?<\\u0061>x)\\k<a>", "x{0,}?y{1}?z??", "[\\-\\b\\]]",
        "\\/\\^\\$\\\\\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|", "[\\/\\-]", "(?=x)(?!y)(?<=z)(?<!w)", "\\p{gc=L}\\P{Nd}",
        "\\u{0000041}", "x{2147483647}", "(" * MAX_DEPTH + ")" * MAX_DEPTH, "\u2028\ud800",
    ]:  # fmt: skip
        compile_pattern(pattern)


# ---- refusals: one per rule of ecma_regex's docstring -------------------------------------------

REFUSALS = {
    "lookbehind-width": ("x(?<=a+|b)", 1, "a lookbehind that can match texts of different lengths"),
    "backreference-order": ("\\1(a)", 0, "the backreference \\1 before its group closes"),
    "backreference-lookaround": ("(?=(a))\\1", 7, "the backreference \\1 to a group inside a lookaround"),
    "backreference-repetition": ("(?:(a)|b)+\\1", 10, "the backreference \\1 to a group in a repetition"),
    "modifiers": ("a(?i:b)", 1, "modifier groups like (?i:...)"),
    "duplicate-names": ("(?<a>x)|(?<a>y)", 8, "the group name a twice"),
    "non-ASCII-names": ("(?<n\u00e9>x)", 4, "non-ASCII group names"),
    "properties": ("\\p{Script=Greek}", 0, "the Unicode property Script=Greek"),
    "counts": ("a{1,2147483648}", 1, "repetition counts above 2147483647"),
    "depth": ("(" * (MAX_DEPTH + 1) + ")" * (MAX_DEPTH + 1), MAX_DEPTH, f"groups nested deeper than {MAX_DEPTH}"),
}


def test_every_refusal_rule_of_the_docstring_is_tested() -> None:
    documented = re.findall(r"^\d+\. ([\w-]+):", ecma_regex.__doc__ or "", re.MULTILINE)
    assert documented == list(REFUSALS)


@pytest.mark.parametrize("rule", list(REFUSALS))
def test_refusals_name_the_construct_and_the_way_out(rule: str) -> None:
    pattern, offset, what = REFUSALS[rule]
    with pytest.raises(PatternError) as caught:
        compile_pattern(pattern)
    assert caught.value.message.startswith("toolgen does not support " + what), caught.value.message
    assert caught.value.offset == offset


@pytest.mark.parametrize(
    "pattern",
    [
        "(?<=ab+)",  # one alternative of variable length
        "(?<=(?:a|bc))",  # alternatives of different lengths below the top
        "(?<=(a)\\1)",  # a backreference inside a lookbehind
        "(?<=(a))\\1",  # ... or to a group inside one
        "(?!(a))\\1",
        "(a\\1)",  # inside its own group
        "(a?)+\\1",  # the last round may match empty: JavaScript drops it, Python keeps it
        "(?:a(b)?)+\\1",  # a round may skip the group
        "(?:(a)|\\1b)+",  # another alternative, inside a repetition
        "(?:(a)?\\1)+",  # the group may be unset in this round but set in an earlier one
        "(?:a?|b){100001}",  # many rounds that can match nothing: V8 overflows its stack
        "\\p{Alpha}",
        "\\p{sc=Grek}",
        "\\P{scx=Latn}",
        "(?-i:a)",
        "(?<a\u200d>x)",  # ZWJ is an identifier part in JavaScript, but not ASCII
    ],
)
def test_refused_forms(pattern: str) -> None:
    with pytest.raises(PatternError, match=r"^toolgen does not support "):
        compile_pattern(pattern)


@pytest.mark.parametrize(
    "pattern",
    [
        "(?<=a|bc)",  # alternatives of different lengths, each fixed: one lookbehind each
        "(?<=a{2}(?:b|c))",
        "(a)+\\1",  # every round sets the group, and no round is empty
        "(?:x(a))+\\1",
        "(?:(a)\\1)+",  # set before the reference in the same round
        "(?:(a)|b)\\1",  # may be unset, never stale
        "(a)(?=\\1)(?!\\1\\1)",
        "(a){0}\\1",
        "(?:a?){100000}",
        "a{100001}",
        "(?:a?){0,2000000}",
    ],
)
def test_safe_backreferences_and_lookbehinds_are_accepted(pattern: str) -> None:
    compile_pattern(pattern)
