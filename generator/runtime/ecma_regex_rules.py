"""What toolgen refuses in a parsed pattern, because Python's ``re`` cannot match it as ECMA-262 does.

Standard library only. ``plan`` walks the tree once and either raises the first refusal (by
offset) or says how each backreference is written (ecma_regex's docstring lists the rules):

- ``plain``: the group has surely matched before the reference, in the same round of every
  repetition around both: ``\\N`` means the same in both engines.
- ``if``: the group may not have matched, and no repetition can leave an older value in it:
  JavaScript matches an unset group as empty, so Python gets ``(?(N)\\N)``.
- ``empty``: the group is in another alternative than the reference and no repetition holds
  both: it is never set there, and the reference matches the empty string.

ts_runtime/ecma_regex_rules.ts makes the same decisions with the same messages.
"""

from __future__ import annotations

from dataclasses import dataclass

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

__all__ = ["MAX_EMPTY_ROUNDS", "Plan", "plan", "width"]

MAX_EMPTY_ROUNDS = 100000
"""The most rounds a repetition must run when they can match nothing (V8 overflows at millions)."""

Tree = Node | Alternative | Disjunction


@dataclass(frozen=True)
class Plan:
    refs: dict[
        int, tuple[int, str]
    ]  # a backreference's offset: (group number, plain|if|empty)


def width(node: Tree) -> tuple[int, int | None]:
    """The fewest and the most code points ``node`` can match (None: no limit)."""
    if isinstance(node, Char | CharSet):
        return 1, 1
    if isinstance(node, Assertion | Look):
        return 0, 0
    if isinstance(node, Backref):
        return 0, None
    if isinstance(node, Group):
        return width(node.body)
    if isinstance(node, Repeat):
        low, high = width(node.body)
        if node.max is None:
            return low * node.min, None if high != 0 else 0
        return low * node.min, None if high is None else high * node.max
    spans = [width(child) for child in _children(node)]
    highs = [high for _, high in spans]
    if isinstance(node, Alternative):
        return sum(low for low, _ in spans), (
            None if None in highs else sum(h or 0 for h in highs)
        )
    return min(low for low, _ in spans), (
        None if None in highs else max(h or 0 for h in highs)
    )


def _nullable(node: Tree) -> bool:
    return width(node)[0] == 0


def _children(node: Tree) -> tuple[Tree, ...]:
    if isinstance(node, Disjunction):
        return node.alternatives
    if isinstance(node, Alternative):
        return node.terms
    if isinstance(node, Group | Look | Repeat):
        return (node.body,)
    return ()


def _repeats(node: Tree) -> bool:
    """A repetition that can run its body more than once."""
    return isinstance(node, Repeat) and (node.max is None or node.max > 1)


def _optional(node: Tree) -> bool:
    """A step down the tree that may be skipped: one alternative of several, or a min-0 repetition."""
    if isinstance(node, Disjunction):
        return len(node.alternatives) > 1
    return isinstance(node, Repeat) and node.min == 0


def _unsteady(inner: tuple[Tree, ...]) -> bool:
    """A repetition on the way down to a group that may end on a round that did not set it
    (the group is skipped in a round, or the round matched nothing and JavaScript drops it).
    """
    return any(
        isinstance(node, Repeat)
        and _repeats(node)
        and (_nullable(node.body) or any(map(_optional, inner[index + 1 :])))
        for index, node in enumerate(inner)
    )


class _Walk:
    def __init__(self, pattern: Pattern) -> None:
        self.pattern = pattern
        self.groups: dict[int, tuple[Group, tuple[Tree, ...]]] = {}
        self.refs: list[tuple[Backref, tuple[Tree, ...]]] = []
        self.problems: list[tuple[int, str]] = []
        self.visit(pattern.body, ())

    def visit(self, node: Tree, path: tuple[Tree, ...]) -> None:
        if isinstance(node, Group) and node.number is not None:
            self.groups[node.number] = (node, path)
        elif isinstance(node, Backref):
            self.refs.append((node, path))
        elif isinstance(node, Look) and node.behind:
            spans = {width(alternative) for alternative in node.body.alternatives}
            if any(low != high for low, high in spans):
                message = (
                    "toolgen does not support a lookbehind that can match texts of different "
                    "lengths in one alternative (Python's re needs fixed lengths): give each "
                    "alternative one length, e.g. (?<=ab|abc) instead of (?<=abc?)"
                )
                self.problems.append((node.offset, message))
        elif (
            isinstance(node, Repeat)
            and node.min > MAX_EMPTY_ROUNDS
            and _nullable(node.body)
        ):
            message = (
                f"toolgen does not support a minimum count above {MAX_EMPTY_ROUNDS} for a part "
                "that can match the empty string (JavaScript runs out of stack on it): make "
                "the part match at least one character"
            )
            self.problems.append((node.offset, message))
        for child in _children(node):
            self.visit(child, (*path, node))

    def mode(self, ref: Backref, path: tuple[Tree, ...]) -> str:
        """How ``ref`` is written (plain, if, empty), or the message refusing it."""
        number = self.pattern.number(ref)
        group, group_path = self.groups[number]
        spelling = f"\\k<{ref.name}>" if ref.name is not None else f"\\{number}"
        refused = f"toolgen does not support the backreference {spelling}"
        if group.end > ref.offset:
            return (
                f"{refused} before its group closes (JavaScript matches it as empty there, "
                "Python's re refuses it): put it after the group"
            )
        if any(isinstance(node, Look) for node in group_path):
            return (
                f"{refused} to a group inside a lookaround (the engines keep different "
                "captures there): capture the text outside the lookaround"
            )
        if any(isinstance(node, Look) and node.behind for node in path):
            return (
                f"{refused} inside a lookbehind (JavaScript matches lookbehinds right to "
                "left): match the repeated text outside the lookbehind"
            )
        common = 0
        while (
            common < min(len(path), len(group_path))
            and path[common] is group_path[common]
        ):
            common += 1
        outer, inner = group_path[:common], (*group_path[common:], group)
        repeated = (
            f"{refused} to a group in a repetition that may leave it unset or holding an "
            "earlier round's text (JavaScript and Python's re keep different captures "
            "then): capture the whole repetition, e.g. ((?:ab)+) instead of (?:(ab))+"
        )
        if _unsteady(inner):
            return repeated
        around = any(map(_repeats, outer))
        if isinstance(outer[-1], Disjunction):
            return repeated if around else "empty"
        if not any(map(_optional, inner)):
            return "plain"
        return repeated if around else "if"


def plan(pattern: Pattern, source: str) -> Plan:
    """How to write each backreference; PatternError for the first refused construct."""
    walk = _Walk(pattern)
    refs: dict[int, tuple[int, str]] = {}
    for ref, path in walk.refs:
        mode = walk.mode(ref, path)
        if mode in ("plain", "if", "empty"):
            refs[ref.offset] = (pattern.number(ref), mode)
        else:
            walk.problems.append((ref.offset, mode))
    if walk.problems:
        offset, message = min(walk.problems)
        raise PatternError(message, source, offset)
    return Plan(refs)
