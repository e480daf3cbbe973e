"""ECMA-262 regular expressions (``u`` flag semantics) for JSON Schema's ``pattern`` keywords.

Standard library only. JSON Schema says patterns are ECMA-262 regular expressions; Python's ``re``
reads many of them differently (``$`` before a final newline, Unicode ``\\d``/``\\w``, no
``\\p{...}``). ``compile_pattern`` reads a pattern with the ECMA-262 grammar (ecma_regex_syntax)
into a tree (ecma_regex_tree), checks what toolgen refuses (ecma_regex_rules), and writes the tree
as a Python ``re`` pattern that answers as a JavaScript ``RegExp`` with the ``u`` flag would.
ts_runtime/ecma_regex.ts gives the same answers and the same errors: it writes the same tree for
JavaScript, with every class spelled out as code point ranges, so neither language depends on
its engine's Unicode version.

How the tree becomes Python: ``.`` is every code point but \\n \\r U+2028 U+2029; ``^``/``$`` are
``\\A``/``\\Z``; ``\\d \\w \\s`` and their complements are explicit ranges (``\\s`` is ECMA-262's
WhiteSpace and LineTerminator); ``\\b`` is ASCII-only, and ``\\B`` also holds in the empty text
(where Python 3.11's ``\\B`` fails); group names are dropped, numbers kept; a text's surrogate
pairs are combined first, as a JavaScript string holds them.

Refused (PatternError; each message says what to write instead):

1. lookbehind-width: a lookbehind with an alternative that can match texts of different lengths
   (Python's ``re`` needs one fixed length per alternative; alternatives of different lengths are
   fine and are split into one lookbehind each).
2. backreference-order: a backreference before its group closes (forward or inside its group).
3. backreference-lookaround: a backreference to a group inside a lookaround, or any
   backreference inside a lookbehind (JavaScript reads lookbehinds right to left).
4. backreference-repetition: a backreference to a group that a repetition can leave unset or
   holding an earlier round's text (JavaScript clears the groups of a repeated part at each round
   and drops an empty last round; Python keeps them).
5. modifiers: ES2025 modifier groups ``(?i:...)``, ``(?-s:...)``.
6. duplicate-names: a group name used twice (ES2025 allows it in separate alternatives).
7. non-ASCII-names: group names outside ASCII letters, digits, ``$`` and ``_`` (which others
   JavaScript allows depends on its Unicode version).
8. properties: ``\\p{..}`` other than General_Category values (every ECMA-262 alias, also as
   ``gc=``/``General_Category=``) and Any, ASCII, Assigned: Script, Script_Extensions and the
   other binary properties (the tables would not match every engine's Unicode version).
9. counts: repetition counts above 2147483647 (V8 reads them as infinity), and a minimum count
   above 100000 for a part that can match the empty string (V8 runs out of stack on it).
10. depth: groups and lookarounds nested deeper than 32 levels (Python's ``re`` recurses).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from .ecma_regex_rules import Plan, plan, width
from .ecma_regex_sets import MAX_CODE, Ranges, complement
from .ecma_regex_syntax import parse
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
    PatternError,
    Repeat,
)

__all__ = ["PatternError", "compile_pattern", "python_source"]

_PAIRS = re.compile(r"[\ud800-\udbff][\udc00-\udfff]")


def _code_points(text: str) -> str:
    """``text`` with each surrogate pair made one code point, as a JavaScript string reads it."""
    if text.isascii() or _PAIRS.search(text) is None:
        return text
    return text.encode("utf-16-le", "surrogatepass").decode(
        "utf-16-le", "surrogatepass"
    )


def _char(code: int) -> str:
    if code < 0x80 and (chr(code).isalnum() or code == 0x5F):
        return chr(code)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def _ranges(ranges: Ranges) -> str:
    return "".join(
        _char(first) + ("" if first == last else "-" + _char(last))
        for first, last in ranges
    )


def _set(ranges: Ranges) -> str:
    if len(ranges) == 1 and ranges[0][0] == ranges[0][1]:
        return _char(ranges[0][0])
    others = complement(ranges)
    if not ranges or not others:
        return f"[{'^' if not ranges else ''}\\x00-{_char(MAX_CODE)}]"
    if len(others) < len(ranges):
        return f"[^{_ranges(others)}]"
    return f"[{_ranges(ranges)}]"


_ASSERTIONS = {"^": "\\A", "$": "\\Z", "b": "\\b", "B": "(?:\\B|\\A\\Z)"}


class _Emitter:
    def __init__(self, refs: Plan) -> None:
        self.refs = refs.refs

    def disjunction(self, node: Disjunction) -> str:
        return "|".join(map(self.alternative, node.alternatives))

    def alternative(self, node: Alternative) -> str:
        return "".join(map(self.node, node.terms))

    def node(self, node: Node) -> str:
        if isinstance(node, Char):
            return _char(node.code)
        if isinstance(node, CharSet):
            return _set(node.ranges)
        if isinstance(node, Assertion):
            return _ASSERTIONS[node.kind]
        if isinstance(node, Backref):
            number, mode = self.refs[node.offset]
            return {"plain": f"(?:\\{number})", "if": f"(?({number})\\{number})"}.get(
                mode, "(?:)"
            )
        if isinstance(node, Group):
            opening = "(" if node.number is not None else "(?:"
            return opening + self.disjunction(node.body) + ")"
        if isinstance(node, Look):
            return self.look(node)
        return self.node(node.body) + _quantifier(node)

    def look(self, node: Look) -> str:
        kind = ("<" if node.behind else "") + ("!" if node.negate else "=")
        alternatives = node.body.alternatives
        if not node.behind or len({width(a) for a in alternatives}) == 1:
            return f"(?{kind}{self.disjunction(node.body)})"
        # Python's re needs one width per lookbehind: one lookbehind per alternative
        parts = [f"(?{kind}{self.alternative(a)})" for a in alternatives]
        return "(?:" + ("".join(parts) if node.negate else "|".join(parts)) + ")"


def _quantifier(node: Repeat) -> str:
    low, high = node.min, node.max
    if high is None:
        text = {0: "*", 1: "+"}.get(low, f"{{{low},}}")
    else:
        text = (
            "?"
            if (low, high) == (0, 1)
            else f"{{{low}}}" if low == high else f"{{{low},{high}}}"
        )
    return text if node.greedy else text + "?"


def python_source(source: str) -> str:
    """The Python ``re`` pattern that matches as ``source`` does in ECMA-262; PatternError if not."""
    text = _code_points(source)
    pattern = parse(text, source)
    return "(?a)" + _Emitter(plan(pattern, source)).disjunction(pattern.body)


def compile_pattern(source: str) -> Callable[[str], bool]:
    """A function telling whether ``source`` matches anywhere in a text; PatternError otherwise."""
    if not isinstance(source, str):  # a schema's pattern may be anything
        raise PatternError("a pattern must be a string", "", 0)
    return _compiled(source)


@functools.lru_cache(maxsize=1024)
def _compiled(source: str) -> Callable[[str], bool]:
    translated = python_source(source)
    try:
        search = re.compile(translated).search
    except (re.error, RecursionError, OverflowError) as exc:  # a gap in the translation
        message = f"toolgen could not translate this pattern for Python's re ({exc}); please report it"
        raise PatternError(message, source, 0) from None

    def matches(text: str) -> bool:
        # _code_points, inlined: this runs once per value checked
        if not text.isascii() and _PAIRS.search(text) is not None:
            text = _code_points(text)
        return search(text) is not None

    return matches
