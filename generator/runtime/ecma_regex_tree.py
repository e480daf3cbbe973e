"""The syntax tree of an ECMA-262 pattern, and the error every pattern problem is.

Standard library only. ecma_regex_syntax builds the tree (classes already resolved into code point
sets), ecma_regex_rules judges it and ecma_regex writes it for Python's ``re``;
ts_runtime/ecma_regex_tree.ts has the same shapes.
"""

from __future__ import annotations

from dataclasses import dataclass

from .ecma_regex_sets import Ranges

__all__ = [
    "Alternative",
    "Assertion",
    "Backref",
    "Char",
    "CharSet",
    "Disjunction",
    "Group",
    "Look",
    "Node",
    "Pattern",
    "PatternError",
    "Repeat",
]


class PatternError(ValueError):
    """A pattern that is not valid ECMA-262 (``u`` mode), or that toolgen refuses.

    ``offset`` is where the problem is, in code points from the start of ``source``.
    """

    def __init__(self, message: str, source: str, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.source = source
        self.offset = offset


@dataclass(frozen=True)
class Char:
    code: int


@dataclass(frozen=True)
class CharSet:
    ranges: Ranges


@dataclass(frozen=True)
class Assertion:
    kind: str  # ^ $ b B


@dataclass(frozen=True)
class Backref:
    number: int  # 0 for a named reference until the pattern's names resolve it
    name: str | None
    offset: int


@dataclass(frozen=True)
class Alternative:
    terms: tuple[Node, ...]


@dataclass(frozen=True)
class Disjunction:
    alternatives: tuple[Alternative, ...]


@dataclass(frozen=True)
class Group:
    body: Disjunction
    number: int | None  # None: (?:...)
    offset: int
    end: int  # the offset of its ")"


@dataclass(frozen=True)
class Look:
    body: Disjunction
    behind: bool
    negate: bool
    offset: int


@dataclass(frozen=True)
class Repeat:
    body: Node
    min: int
    max: int | None  # None: no upper bound
    greedy: bool
    offset: int


Node = Char | CharSet | Assertion | Backref | Group | Look | Repeat


@dataclass(frozen=True)
class Pattern:
    body: Disjunction
    groups: int
    names: dict[str, int]

    def number(self, ref: Backref) -> int:
        """The group a backreference means (named ones resolved)."""
        return ref.number if ref.name is None else self.names[ref.name]
