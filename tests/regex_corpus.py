"""A corpus of (pattern, texts) for the pattern runtime's differential test (test_ecma_regex_differential).

Hand-written edge cases (``EDGE_CASES``) plus patterns from a small ECMA-262 grammar walker
(``generated``): seeded (``random.Random(SEED)``), so every run checks the same corpus. The walker
writes every escape form, classes with ranges and class escapes, ``\\p{..}`` aliases, groups of
every kind, lookarounds, backreferences, quantifiers and, now and then, a mutation (a character
inserted or dropped) that makes most patterns invalid. Each pattern's texts are drawn from the
characters it mentions (and their neighbours) plus line terminators, non-BMP characters and lone
surrogates, so both verdicts occur often.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

SEED = 20261202

_SPACES = " \t\n\v\f\r\u00a0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"

# (pattern, texts): cases a reader can check by hand, one or more per construct.
EDGE_CASES: list[tuple[str, list[str]]] = [
    ("^abc$", ["abc", "abc\n", "xabc", ""]),
    ("$", ["", "a", "a\n"]),
    ("^$", ["", "\n", "a"]),
    ("a$", ["a\n", "a", "ba"]),
    ("^\\t$", ["\t", "\\t", "\u0009"]),
    ("^\\cC$", ["\x03", "C"]),
    ("^\\cc$", ["\x03", "c"]),
    ("^\\d$", ["0", "9", "\u0660", "\u07c0", "\uff10", "a"]),
    ("^\\D$", ["0", "\u0660", "a", "\U0001f600"]),
    ("^\\w$", ["a", "_", "\u00e9", "\u0130", "\u212a", "\u017f", "9"]),
    ("^\\W$", ["\u00e9", "a", "-", "\U0001f600"]),
    ("^\\s$", [*_SPACES, "\u180e", "\u0085", "\u200b", "x"]),
    ("^\\S$", ["\u0085", "\u180e", "\u200b", " ", "\ufeff", "\U0001f600"]),
    ("^.$", ["\n", "\r", "\u2028", "\u2029", "\u0085", "\U0001f600", "\ud800", "\udc00", "a"]),
    ("^..$", ["\U0001f600", "\ud83d\ude00", "ab", "\ud800\ud800"]),
    ("\\bx\\b", ["x", "ax", "x_", "\u00e9x\u00e9", "-x-"]),
    ("\\B", ["", "a", "ab", " ", "-"]),
    ("^\\B$", ["", "a"]),
    ("\\b", ["", "a", "\u00e9"]),
    ("^[^a]$", ["\U0001f600", "a", "b", "\ud800"]),
    ("^[\\s\\S]$", ["\U0001f600", "\n", ""]),
    ("[]", ["", "a"]),
    ("^[^]$", ["a", "\U0001f600", "\n", ""]),
    ("^[\\b]$", ["\b", "b"]),
    ("^[a\\-z]$", ["-", "b", "a", "z"]),
    ("^[-a]$", ["-", "a"]),
    ("^[a-]$", ["-", "a", "b"]),
    ("^[\\d-]$", ["-", "5"]),
    ("^[a-c-e]$", ["b", "-", "d", "e"]),
    ("^[--0]$", ["-", ".", "/", "0", "1"]),
    ("^\\u{1F600}$", ["\U0001f600", "\ud83d\ude00", "\ud83d"]),
    ("^\\uD83D\\uDE00$", ["\U0001f600"]),
    ("^\\uD83D$", ["\ud83d", "\U0001f600", "\ud83d\ud83d"]),
    ("^\\u{D83D}\\u{DE00}$", ["\U0001f600", "\ud83d\ude00"]),
    ("\\uDE00", ["\U0001f600", "\ude00", "x\ude00"]),
    ("^[\\uD83D\\uDE00-\\uD83D\\uDE4F]$", ["\U0001f600", "\U0001f64f", "\U0001f650", "\ud83d"]),
    ("^\ud83d\udc32*$", ["", "\U0001f432", "\U0001f432\U0001f432", "\ud83d", "\udc32"]),
    ("^\\x41\\u0042\\u{43}\\103$", ["ABCC"]),
    ("^\\0$", ["\x00", "0"]),
    ("\\/", ["/", "\\/"]),
    ("^\\p{Letter}cole$", ["\u00e9cole", "ecole", "1cole"]),
    ("^\\p{digit}+$", ["42", "\u0966\u0967", "\U0001d7ce", "x"]),
    ("^\\p{L}+$", ["Hello", "\u03c0", "\u0295", "1"]),
    ("^\\P{L}$", ["1", "a", "\U0001f600"]),
    ("^\\p{gc=Lu}$", ["A", "a", "\u0130"]),
    ("^\\p{General_Category=Decimal_Number}$", ["5", "\u0660", "x"]),
    ("^\\p{Any}$", ["\ud800", "\U0010ffff", "\n"]),
    ("^\\p{ASCII}+$", ["abc\x7f", "\x80"]),
    ("^\\p{Assigned}$", ["a", "\u0378", "\U000e0080", "\ue000"]),
    ("^\\p{Cn}$", ["\u0378", "a"]),
    ("^\\p{Cs}$", ["\ud800", "\U0001f600"]),
    ("^\\p{Co}$", ["\ue000", "\U000f0000", "a"]),
    ("^[\\p{Lu}\\d]+$", ["A1", "a"]),
    ("^[^\\p{L}\\p{N}]$", ["-", "a", "1"]),
    ("^\\p{LC}$", ["a", "A", "\u01c5", "\u02b0"]),
    ("^\\p{Combining_Mark}$", ["\u0301", "a"]),
    ("^\\p{punct}$", ["!", "a"]),
    ("^\\p{Sc}$", ["$", "\u20ac", "a"]),
    ("^\\p{Zs}$", [" ", "\u3000", "\t"]),
    ("a{2}", ["a", "aa"]),
    ("^a{2,}$", ["a", "aa", "aaaa"]),
    ("^a{1,2}$", ["", "aa", "aaa"]),
    ("^a{0}$", ["", "a"]),
    ("^a+?$", ["aaa"]),
    ("^(?:ab)*$", ["abab", "aba"]),
    ("^(a)\\1$", ["aa", "ab"]),
    ("^(a)?b\\1$", ["b", "aba", "ab"]),
    ("^(?:(a)|b)\\1$", ["aa", "b", "ba"]),
    ("^(a)|\\1b$", ["b", "a"]),
    ("^(?<x>[ab])\\k<x>$", ["aa", "ab"]),
    ("^(a)(?=\\1)", ["aa", "ab"]),
    ("^(a)(?:\\1)+$", ["aaa", "a"]),
    ("(a)?ab(?:\\1)", ["ab", "aab"]),
    ("^(?:x(a))+\\1$", ["xaxaa", "xaa", "xa"]),
    ("(?<=a)b", ["ab", "b", "cb"]),
    ("(?<!a)b", ["ab", "b", "cb"]),
    ("(?<=a|bc)d", ["ad", "bcd", "cd", "d"]),
    ("(?<!a|bc)d", ["ad", "bcd", "cd", "d"]),
    ("(?<=\\u{1F600})x", ["\U0001f600x", "x"]),
    ("(?<=^.)x", ["ax", "\U0001f600x", "aax"]),
    ("(?<=(?=a).)b", ["ab", "cb"]),
    ("(?=a)[a-c]", ["a", "b"]),
    ("^(?!a)\\w$", ["a", "b"]),
    ("^(?:a|ab)(?:c|bcd)(?:d*)$", ["abcd", "acd"]),
    ("^(?:a|)*$", ["", "aa"]),
    ("^(a*)*$", ["", "b"]),
    ("^(?:a?)+?b$", ["b", "aab"]),
    ("\u2028", ["\u2028", "\n"]),
    ("^[\u00e9\u00ea]$", ["\u00e9", "e\u0301"]),
    ("^\\$\\^\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\\\\\/$", ["$^.*+?()[]{}|\\/"]),
    ("a|", ["", "b"]),
    ("|", [""]),
    ("()", [""]),
    ("(?:)", [""]),
    ("(|a)+", [""]),
]

# Patterns that must be errors (in every engine) or refusals (in both runtimes).
INVALID = [
    "{", "}", "]", "a{", "a{1", "a{1,", "a{,5}", "x{2,1}", "*", "+a", "?", "a**", "a{1}{2}", "a???",
    "(", ")", "(?", "(?a)", "(?<", "(?<>a)", "(?<1a>x)", "(?<a", "[", "[a", "[z-a]", "[\\d-z]",
    "[a-\\w]", "\\", "a\\", "\\c", "\\c1", "[\\c_]", "\\x", "\\x1", "\\xg0", "\\u", "\\u12", "\\u{",
    "\\u{}", "\\u{110000}", "\\u{1F600", "\\01", "\\00", "\\1", "(a)\\2", "\\8", "\\k", "\\k<a>",
    "(?<a>x)\\k<b>", "\\k<a", "\\a", "\\e", "\\-", "\\z", "[\\B]", "[\\1]", "[\\k]", "\\p", "\\p{",
    "\\p{}", "\\p{L", "\\pL", "\\p{l}", "\\p{Foo}", "\\p{gc=Foo}", "\\p{gc=}", "\\p{=L}", "\\p{Foo=L}",
    "\\p{gc=Any}", "\\p{L }", "^*", "$+", "\\b*", "\\B{2}", "(?=a)*", "(?!a)+", "(?<=a)?", "(?<!a){1}",
    "(?<a>x)(?<a>y)", "(?i:a)", "(?-i:a)", "(?s:.)", "(?m:^)", "(?<\u00e9>x)", "(?<a\u200d>x)",
    "\\p{Script=Latin}", "\\p{sc=Grek}", "\\p{scx=Latn}", "\\p{Script_Extensions=Latin}",
    "\\p{Alpha}", "\\p{Emoji}", "\\p{White_Space}", "\\P{ID_Start}", "(?<=a+)b", "(?<=a|b+)c",
    "(?<!a?)b", "(?<=(a)\\1)b", "(?<=\\1(a))b", "\\1(a)", "(a\\1)", "(?:(a)|b)+\\1", "(a?)+\\1",
    "(?:(a)|\\1b)+", "(?=(a))\\1", "(?:a(b)?)+\\1", "a{2147483648}", "a{1,99999999999}", "(?:a?){100001}",
    "(" * 33 + ")" * 33,
]  # fmt: skip


# ---- the grammar walker -----------------------------------------------------------------------

_PLAIN = ["a", "b", "c", "x", "0", "1", "_", "-", " ", ",", "=", "<", ">", ":", "!", "\u00e9", "\u0295",
          "\U0001f600", "\n", "\u2028", "\u00a0", "\ud800", "\udc00", "\U00010400", "\u212a"]  # fmt: skip
_ESCAPES = [
    ("\\n", "\n"), ("\\t", "\t"), ("\\r", "\r"), ("\\v", "\v"), ("\\f", "\f"), ("\\cJ", "\n"),
    ("\\ca", "\x01"), ("\\0", "\x00"), ("\\x41", "A"), ("\\x7f", "\x7f"), ("\\u0041", "A"),
    ("\\u00e9", "\u00e9"), ("\\u{1F600}", "\U0001f600"), ("\\u{41}", "A"), ("\\u{0000062}", "b"),
    ("\\uD83D\\uDE00", "\U0001f600"), ("\\uD83D", "\ud83d"), ("\\uDE00", "\ude00"),
    ("\\u{D83D}", "\ud83d"), ("\\/", "/"), ("\\.", "."), ("\\*", "*"), ("\\+", "+"), ("\\?", "?"),
    ("\\(", "("), ("\\)", ")"), ("\\[", "["), ("\\]", "]"), ("\\{", "{"), ("\\}", "}"), ("\\|", "|"),
    ("\\^", "^"), ("\\$", "$"), ("\\\\", "\\"),
]  # fmt: skip
_RANGE_ENDS = ["0", "9", "a", "f", "z", "A", "Z", "\u00e9", "\U0001f600", "\U0001f64f"]
_CLASS_ESCAPES = ["\\d", "\\D", "\\w", "\\W", "\\s", "\\S"]
_PROPERTIES = [
    "L", "Letter", "Lu", "Ll", "Lt", "LC", "Cased_Letter", "Lm", "Lo", "Nd", "digit", "N", "Nl",
    "No", "P", "punct", "Pd", "Ps", "S", "Sm", "Sc", "So", "Z", "Zs", "Zl", "C", "Cc", "cntrl", "Cf",
    "Cn", "Co", "Cs", "M", "Mn", "Mc", "Combining_Mark", "gc=Lu", "General_Category=Nd",
    "gc=Letter", "Any", "ASCII", "Assigned", "Script=Latin", "Alpha", "Emoji", "Foo", "l",
]  # fmt: skip
# Characters a text may hold besides those its pattern names: the line terminators, a space, a
# word character, a non-BMP character; and in one text of eight, both halves of a surrogate pair, alone.
_TEXT_EXTRAS = ["a", "0", " ", "\n", "\r", "\u2028", "\U0001f600", "\u00e9", "-"]
_LONE_SURROGATES = ["\ud83d", "\ude00"]
_MUTATIONS = "(){}[]|*+?\\^$-,<>=!:ku0"


@dataclass
class _Walk:
    rng: random.Random
    groups: int = 0
    closed: list[str] = field(default_factory=list)  # references to the groups closed so far
    names: set[str] = field(default_factory=set)
    chars: set[str] = field(default_factory=set)
    fixed: bool = False  # inside a lookbehind: mostly fixed-width quantifiers

    def disjunction(self, depth: int) -> str:
        count = 1 if self.fixed and depth > 1 else self.rng.choices([1, 2, 3], [8, 3, 1])[0]
        return "|".join(self.alternative(depth) for _ in range(count))

    def alternative(self, depth: int) -> str:
        return "".join(self.term(depth) for _ in range(self.rng.randint(0 if depth else 1, 4)))

    def term(self, depth: int) -> str:
        roll = self.rng.random()
        if roll < 0.08:
            return self.rng.choice(["^", "$", "\\b", "\\B"])
        if roll < 0.16 and depth < 3:
            kind = self.rng.choice(["(?=", "(?!", "(?<=", "(?<!"])
            outer, self.fixed = self.fixed, self.fixed or ("<" in kind and self.rng.random() < 0.9)
            body = self.disjunction(depth + 1)
            self.fixed = outer
            return kind + body + ")"
        atom = self.atom(depth)
        if self.rng.random() < 0.35:
            atom += self.quantifier()
        return atom

    def quantifier(self) -> str:
        low = self.rng.randint(0, 2)
        if self.fixed:
            return f"{{{low}}}"
        high = low + self.rng.randint(0, 2)
        text = self.rng.choice(["*", "+", "?", f"{{{low}}}", f"{{{low},}}", f"{{{low},{high}}}"])
        return text + ("?" if self.rng.random() < 0.3 else "")

    def atom(self, depth: int) -> str:
        roll = self.rng.random()
        if roll < 0.3:
            return self.char()
        if roll < 0.36:
            return "."
        if roll < 0.5:
            return self.char_class()
        if roll < 0.56:
            return self.rng.choice(_CLASS_ESCAPES)
        if roll < 0.62:
            return self.property()
        if roll < 0.75 and self.groups and not self.fixed:
            if self.rng.random() < 0.03:  # maybe a group still open, or no group at all
                return f"\\{self.rng.randint(1, self.groups + 1)}"
            return self.rng.choice(self.closed) if self.closed else self.char()
        if depth < 4:
            return self.group(depth)
        return self.char()

    def group(self, depth: int) -> str:
        kind = self.rng.choices(["(", "(?:", "named"], [5, 3, 2])[0]
        refs = []
        if kind == "named":
            pool = ["a", "b", "x1", "$n", "_", "\\u0061b", "A$", "\\u{63}"]
            fresh = [name for name in pool if name not in self.names]
            name = self.rng.choice(fresh if fresh and self.rng.random() < 0.95 else pool)
            self.names.add(name)
            kind = f"(?<{name}>"
            refs.append(f"\\k<{name}>")
        if kind != "(?:":
            self.groups += 1
            refs.append(f"\\{self.groups}")
        body = self.disjunction(depth + 1)
        self.closed += refs
        return kind + body + ")"

    def char(self, in_class: bool = False) -> str:
        if self.rng.random() < 0.5:
            spelling, char = self.rng.choice(_ESCAPES)
        else:
            char = self.rng.choice(_PLAIN)
            spelling = char
            if in_class and char == "-":
                spelling = "\\-"
        self.chars.add(char)
        return spelling

    def char_class(self) -> str:
        items = []
        for _ in range(self.rng.randint(0, 3)):
            roll = self.rng.random()
            if roll < 0.2:
                items.append(self.rng.choice(_CLASS_ESCAPES + ["\\b", "\\-"]))
            elif roll < 0.3:
                items.append(self.property())
            elif roll < 0.6:
                low, high = sorted(self.rng.sample(_RANGE_ENDS, 2))
                self.chars.update([low, high, chr(ord(low) + 1), chr(ord(high) - 1), chr(ord(high) + 1)])
                items.append(f"{low}-{high}")
            else:
                char = self.char(True)
                items.append("\\]" if char == "]" else char)
        return "[" + ("^" if self.rng.random() < 0.3 else "") + "".join(items) + "]"

    def property(self) -> str:
        return f"\\{self.rng.choice('pP')}{{{self.rng.choice(_PROPERTIES)}}}"

    def texts(self) -> list[str]:
        """Eight texts; lone surrogates only in the last (regress, one of the engines compared, cannot take them)."""
        mentioned = sorted(self.chars)
        whole = [char for char in mentioned if not 0xD800 <= ord(char) <= 0xDFFF] + _TEXT_EXTRAS
        alphabets = [whole] * 7 + [mentioned + _TEXT_EXTRAS + _LONE_SURROGATES]
        return ["".join(self.rng.choices(alphabet, k=self.rng.randint(0, 6))) for alphabet in alphabets]


def generated(count: int, seed: int = SEED) -> list[tuple[str, list[str]]]:
    """``count`` (pattern, texts) pairs from the grammar walker, the same for the same seed."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        walk = _Walk(rng)
        pattern = walk.disjunction(0)
        if rng.random() < 0.1:
            at = rng.randint(0, len(pattern))
            if rng.random() < 0.5 and pattern:
                pattern = pattern[:at] + pattern[at + 1 :]
            else:
                pattern = pattern[:at] + rng.choice(_MUTATIONS) + pattern[at:]
        out.append((pattern, walk.texts()))
    return out
