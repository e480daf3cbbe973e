"""The ECMA-262 pattern grammar with the ``u`` flag and its early errors.

Standard library only. ``parse`` reads a pattern (a string of code points: ecma_regex combines
surrogate pairs first) into a tree (ecma_regex_tree), or raises ``PatternError`` with the offset
of the problem in code points. Character classes and class escapes are resolved here into code
point sets (ecma_regex_sets), so the emitters only write what the tree says.
ts_runtime/ecma_regex_syntax.ts is the same parser, with the same messages and offsets.
"""

from __future__ import annotations

from .ecma_regex_sets import (
    CLASS_ESCAPES,
    DOT,
    Ranges,
    complement,
    property_ranges,
    union,
)
from .ecma_regex_tree import (
    Alternative,
    Assertion,
    Backref,
    Char,
    CharSet,
    Disjunction,
    Group,
    Look,
    Node,
    Pattern,
    PatternError,
    Repeat,
)

__all__ = ["MAX_COUNT", "MAX_DEPTH", "parse", "show"]

MAX_COUNT = 2147483647
"""The largest repetition count: V8 reads larger ones as infinity, Python's re refuses them."""
MAX_DEPTH = 32
"""The deepest nesting of groups and lookarounds (Python's re parses them recursively)."""


SYNTAX = "^$\\.*+?()[]{}|"
CONTROL = {"f": 0x0C, "n": 0x0A, "r": 0x0D, "t": 0x09, "v": 0x0B}
HEX = "0123456789abcdefABCDEF"
LOOKAROUNDS = ("(?=", "(?!", "(?<=", "(?<!")


def show(code: int) -> str:
    """A code point as messages quote it: printable ASCII as itself, others as U+XXXX."""
    return chr(code) if 0x21 <= code <= 0x7E else f"U+{code:04X}"


_SHORT_QUANTIFIERS: dict[str, tuple[int, int | None]] = {
    "*": (0, None),
    "+": (1, None),
    "?": (0, 1),
}


def _digit(char: str) -> bool:
    return "0" <= char <= "9" and len(char) == 1


def _is_name_char(code: int, first: bool) -> bool:
    char = chr(code)
    return char.isascii() and (
        char.isalpha() or char in "$_" or (not first and _digit(char))
    )


class _Parser:
    """Recursive descent over ``text``; ``i`` is the offset of the next code point."""

    def __init__(self, text: str, source: str) -> None:
        self.text = text
        self.source = source
        self.i = 0
        self.groups = 0
        self.depth = 0
        self.names: dict[str, int] = {}
        self.refs: list[tuple[Backref, str]] = (
            []
        )  # each with its spelling, for messages

    def error(self, message: str, offset: int) -> PatternError:
        return PatternError(message, self.source, offset)

    def at(self, offset: int) -> str:
        return self.text[offset] if offset < len(self.text) else ""

    def parse(self) -> Pattern:
        body = self.disjunction()
        if self.i < len(self.text):  # only a ")" stops a top-level disjunction early
            raise self.error(
                "unmatched ): write \\) to match the character itself", self.i
            )
        for ref, spelling in self.refs:
            if ref.name is not None and ref.name not in self.names:
                raise self.error(
                    f"{spelling} refers to no group named {ref.name}", ref.offset
                )
            if ref.name is None and ref.number > self.groups:
                plural = "" if self.groups == 1 else "s"
                message = (
                    f"{spelling} refers to group {spelling[1:]}, but the pattern has "
                    f"{self.groups} capturing group{plural}"
                )
                raise self.error(message, ref.offset)
        return Pattern(body, self.groups, self.names)

    def disjunction(self) -> Disjunction:
        alternatives = [self.alternative()]
        while self.at(self.i) == "|":
            self.i += 1
            alternatives.append(self.alternative())
        return Disjunction(tuple(alternatives))

    def alternative(self) -> Alternative:
        terms: list[Node] = []
        while self.i < len(self.text) and self.text[self.i] not in "|)":
            terms.append(self.term())
        return Alternative(tuple(terms))

    def term(self) -> Node:
        char = self.text[self.i]
        node: Node
        if char in "^$":
            self.i += 1
            node = Assertion(char)
        elif char == "\\" and self.at(self.i + 1) in ("b", "B"):
            node = Assertion(self.text[self.i + 1])
            self.i += 2
        elif self.text.startswith(LOOKAROUNDS, self.i):
            node = self.look()
        else:
            return self.quantified(self.atom())
        if self.quantifier_length():
            message = "an assertion (^, $, \\b, \\B or a lookaround) cannot be repeated: remove the quantifier"
            raise self.error(message, self.i)
        return node

    def quantifier_length(self) -> int:
        """How long the quantifier at ``i`` is (``*``, ``{2,5}``, ...); 0 when there is none."""
        char = self.at(self.i)
        if char in ("*", "+", "?"):
            return 1
        if char != "{" or not _digit(self.at(self.i + 1)):
            return 0
        end = self.digits_end(self.i + 1)
        if self.at(end) == ",":
            end = self.digits_end(end + 1)
        return end + 1 - self.i if self.at(end) == "}" else 0

    def digits_end(self, offset: int) -> int:
        while _digit(self.at(offset)):
            offset += 1
        return offset

    def quantified(self, atom: Node) -> Node:
        length = self.quantifier_length()
        if not length:
            return atom
        offset = self.i
        spelling = self.text[offset : offset + length]
        self.i += length
        low, high = _SHORT_QUANTIFIERS.get(spelling, (0, None))
        if spelling.startswith("{"):
            parts = spelling[1:-1].split(",")
            if any(len(part) > 10 or int(part or "0") > MAX_COUNT for part in parts):
                message = (
                    f"toolgen does not support repetition counts above {MAX_COUNT}"
                )
                raise self.error(message, offset)
            low = int(parts[0])
            high = low if len(parts) == 1 else int(parts[1]) if parts[1] else None
            if high is not None and low > high:
                message = (
                    f"the quantifier {spelling} has its numbers out of order: "
                    f"write {{{high},{low}}}"
                )
                raise self.error(message, offset)
        greedy = self.at(self.i) != "?"
        self.i += not greedy
        return Repeat(atom, low, high, greedy, offset)

    def atom(self) -> Node:
        char = self.text[self.i]
        if char == ".":
            self.i += 1
            return CharSet(DOT)
        if char == "(":
            return self.group()
        if char == "[":
            return self.char_class()
        if char == "\\":
            return self.atom_escape()
        if char in "*+?" or (char == "{" and self.quantifier_length()):
            message = f"nothing to repeat before {char}: write \\{char} to match the character itself"
            raise self.error(message, self.i)
        if char == "{" and self.at(self.i + 1) == ",":
            message = "{,n} is not an ECMA-262 quantifier: write {0,n}, or \\{ to match the character itself"
            raise self.error(message, self.i)
        if char in "{}]":
            raise self.error(
                f"lone {char}: write \\{char} to match the character itself", self.i
            )
        self.i += 1
        return Char(ord(char))

    def enter(self, offset: int) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            message = (
                f"toolgen does not support groups nested deeper than {MAX_DEPTH} levels"
            )
            raise self.error(message, offset)

    def close(self, offset: int, what: str) -> int:
        """Consume the ``)`` of the group or lookaround opened at ``offset``; its offset."""
        if self.at(self.i) != ")":
            raise self.error(f"missing ) to close the {what} that opens here", offset)
        self.depth -= 1
        self.i += 1
        return self.i - 1

    def look(self) -> Look:
        offset = self.i
        behind = self.text[self.i + 2] == "<"
        negate = self.text[self.i + 2 + behind] == "!"
        self.i += 3 + behind
        self.enter(offset)
        body = self.disjunction()
        self.close(offset, "lookbehind" if behind else "lookahead")
        return Look(body, behind, negate, offset)

    def group(self) -> Group:
        offset = self.i
        self.enter(offset)
        number: int | None = None
        if self.text.startswith("(?:", offset):
            self.i += 3
        elif self.text.startswith("(?<", offset):
            self.i += 3
            name = self.group_name()
            if name in self.names:
                message = (
                    f"toolgen does not support the group name {name} twice (ES2025 allows it "
                    "in separate alternatives, older engines do not): give each group its own name"
                )
                raise self.error(message, offset)
            self.groups += 1
            number = self.names[name] = self.groups
        elif self.at(offset + 1) == "?":
            if self.at(offset + 2) in ("i", "m", "s", "-"):
                message = (
                    "toolgen does not support modifier groups like (?i:...) (ES2025): spell the "
                    "cases out instead, e.g. [Aa] for a"
                )
                raise self.error(message, offset)
            message = "invalid group: (? must be followed by :, =, !, <=, <! or <name>"
            raise self.error(message, offset)
        else:
            self.i += 1
            self.groups += 1
            number = self.groups
        body = self.disjunction()
        end = self.close(offset, "group")
        return Group(body, number, offset, end)

    def group_name(self) -> str:
        """The name after ``<`` up to ``>``: ASCII letters, digits, $ and _ (escapes allowed)."""
        name: list[str] = []
        while self.at(self.i) != ">":
            offset = self.i
            char = self.at(offset)
            if not char:
                raise self.error("missing > after the group name", offset)
            if char == "\\" and self.at(offset + 1) == "u":
                self.i += 1
                code = self.unicode_escape(offset)
            else:
                self.i += 1
                code = ord(char)
            if code > 0x7F:
                message = (
                    "toolgen does not support non-ASCII group names (which ones JavaScript "
                    "allows depends on its Unicode version): use ASCII letters, digits, $ and _"
                )
                raise self.error(message, offset)
            if not _is_name_char(code, not name):
                message = (
                    "invalid group name: start it with an ASCII letter, $ or _, "
                    "and go on with those or digits"
                )
                raise self.error(message, offset)
            name.append(chr(code))
        if not name:
            raise self.error("empty group name: write (?<name>...)", self.i)
        self.i += 1
        return "".join(name)

    def backslash(self) -> tuple[int, str]:
        """Step over the backslash at ``i``: its offset and the character after it."""
        offset = self.i
        self.i += 1
        char = self.at(self.i)
        if not char:
            message = "\\ at the end of the pattern: write \\\\ to match a backslash"
            raise self.error(message, offset)
        return offset, char

    def atom_escape(self) -> Node:
        offset, char = self.backslash()
        if char in "123456789":
            self.i = self.digits_end(self.i)
            digits = self.text[offset + 1 : self.i]
            number = int(digits) if len(digits) <= 9 else MAX_COUNT
            ref = Backref(number, None, offset)
            self.refs.append((ref, "\\" + digits))
            return ref
        if char == "k":
            self.i += 1
            if self.at(self.i) != "<":
                message = (
                    "\\k must be followed by a group name in angle brackets: \\k<name>"
                )
                raise self.error(message, offset)
            self.i += 1
            name = self.group_name()
            ref = Backref(0, name, offset)
            self.refs.append((ref, f"\\k<{name}>"))
            return ref
        if char in CLASS_ESCAPES:
            self.i += 1
            return CharSet(CLASS_ESCAPES[char])
        if char in ("p", "P"):
            return CharSet(self.property(offset))
        return Char(self.character_escape(offset, False))

    def character_escape(self, offset: int, in_class: bool) -> int:
        """The code point of the escape whose backslash is at ``offset`` (``i`` is after it)."""
        char = self.text[self.i]
        follows = self.at(self.i + 1)
        if char in CONTROL:
            self.i += 1
            return CONTROL[char]
        if char == "c":
            if not (follows.isascii() and follows.isalpha()):
                message = "\\c must be followed by a letter A-Z or a-z: write \\\\c to match \\ and c"
                raise self.error(message, offset)
            self.i += 2
            return ord(follows) % 32
        if char == "0":
            if _digit(follows):
                message = (
                    "\\0 followed by a digit is an octal escape, which ECMA-262 does not allow "
                    "with the u flag: write the character as \\xHH"
                )
                raise self.error(message, offset)
            self.i += 1
            return 0
        if char == "x":
            digits = self.text[self.i + 1 : self.i + 3]
            if len(digits) < 2 or any(d not in HEX for d in digits):
                raise self.error(
                    "\\x must be followed by two hex digits, as in \\x41", offset
                )
            self.i += 3
            return int(digits, 16)
        if char == "u":
            return self.unicode_escape(offset)
        if char in SYNTAX or char == "/" or (in_class and char == "-"):
            self.i += 1
            return ord(char)
        where = " in a character class" if in_class else ""
        allowed = (
            "^ $ \\ . * + ? ( ) [ ] { } | / -"
            if in_class
            else "^ $ \\ . * + ? ( ) [ ] { } | /"
        )
        message = (
            f"invalid escape \\{show(ord(char))}{where}: with the u flag only {allowed} "
            "can be escaped; write the character itself"
        )
        raise self.error(message, offset)

    def unicode_escape(self, offset: int) -> int:
        """``\\uXXXX`` (a surrogate pair of them is one code point) or ``\\u{X...}``; ``i`` is at u."""
        self.i += 1
        if self.at(self.i) == "{":
            end = self.i + 1
            while self.at(end) and self.at(end) in HEX:
                end += 1
            if end == self.i + 1 or self.at(end) != "}":
                raise self.error(
                    "\\u{ must be followed by hex digits and }, as in \\u{1F600}",
                    offset,
                )
            digits = self.text[self.i + 1 : end].lstrip("0")
            if len(digits) > 6 or int(digits or "0", 16) > 0x10FFFF:
                raise self.error(
                    "\\u{...} is past the last code point \\u{10FFFF}", offset
                )
            self.i = end + 1
            return int(digits or "0", 16)
        code = self.hex4(self.i)
        if code is None:
            message = "\\u must be followed by four hex digits or a code point in braces: \\u0041, \\u{1F600}"
            raise self.error(message, offset)
        self.i += 4
        if 0xD800 <= code <= 0xDBFF and self.text.startswith("\\u", self.i):
            low = self.hex4(self.i + 2)
            if low is not None and 0xDC00 <= low <= 0xDFFF:
                self.i += 6
                return 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        return code

    def hex4(self, start: int) -> int | None:
        digits = self.text[start : start + 4]
        if len(digits) < 4 or any(d not in HEX for d in digits):
            return None
        return int(digits, 16)

    def property(self, offset: int) -> Ranges:
        """``\\p{..}`` or ``\\P{..}``; ``i`` is at the p."""
        negate = self.text[self.i] == "P"
        self.i += 1
        if self.at(self.i) != "{":
            message = "\\p must be followed by a property in braces, as in \\p{L} or \\p{gc=Lu}"
            raise self.error(message, offset)
        end = self.text.find("}", self.i)
        if end < 0:
            raise self.error("missing } to close \\p{", offset)
        found = property_ranges(self.text[self.i + 1 : end])
        if isinstance(found, str):
            raise self.error(found, offset)
        self.i = end + 1
        return complement(found) if negate else found

    def char_class(self) -> CharSet:
        offset = self.i
        self.i += 1
        negate = self.at(self.i) == "^"
        self.i += negate
        parts: list[Ranges] = []
        while self.at(self.i) != "]":
            if not self.at(self.i):
                raise self.error(
                    "missing ] to close the character class that opens here", offset
                )
            start = self.i
            first = self.class_atom()
            if self.at(self.i) == "-" and self.at(self.i + 1) not in ("]", ""):
                self.i += 1
                last = self.class_atom()
                if not isinstance(first, int) or not isinstance(last, int):
                    message = (
                        "a class escape (\\d, \\w, \\s, \\p{..}, ...) cannot be the end of a range: "
                        "write the - as \\- to match it"
                    )
                    raise self.error(message, start)
                if first > last:
                    message = (
                        f"the range {show(first)}-{show(last)} is out of order: "
                        "write the smaller character first"
                    )
                    raise self.error(message, start)
                parts.append(((first, last),))
            else:
                parts.append(((first, first),) if isinstance(first, int) else first)
        self.i += 1
        ranges = union(parts)
        return CharSet(complement(ranges) if negate else ranges)

    def class_atom(self) -> int | Ranges:
        """One class member: a code point, or the set of a class escape."""
        char = self.text[self.i]
        if char != "\\":
            self.i += 1
            return ord(char)
        offset, char = self.backslash()
        if char == "b":
            self.i += 1
            return 0x08
        if char in CLASS_ESCAPES:
            self.i += 1
            return CLASS_ESCAPES[char]
        if char in ("p", "P"):
            return self.property(offset)
        return self.character_escape(offset, True)


def parse(text: str, source: str) -> Pattern:
    """The tree of ``text`` (``source`` with its surrogate pairs combined); PatternError if invalid."""
    return _Parser(text, source).parse()
