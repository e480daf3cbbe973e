"""Type annotations (args.py's TypedDicts) laid out as black lays them out, without black.

pyfmt writes data literals; this module writes the other code whose line length depends on the
specs: a TypedDict field ``key: <annotation>`` in a class body, and the functional form
``Name = TypedDict("Name", {"key": <annotation>, ...}, total=...)`` used when a key cannot be an
attribute. Annotations are small trees (``Sub`` for ``head[items]``, ``Union`` for ``a | b``,
a str for a name or literal), and the rules below are black's (stable style, line length 88) for
exactly these shapes:

* a line that fits stays whole;
* inside brackets, a ``|`` union that does not fit splits before each ``|``;
* otherwise the last bracket pair splits: head and opening bracket, the contents one level
  deeper (on one line when they fit there, else one item per line with a trailing comma), and
  the closing bracket with what follows it; a dict display always puts one entry per line;
* a statement's annotation or right-hand side may instead be wrapped in parentheses: a union
  always is, a lone name or literal is when that makes it fit, and a subscript or call is when
  splitting at its own bracket leaves the first line too long but the parenthesised form fits.

tests/test_black_judge.py checks these rules against black on random shapes and widths.
"""

from __future__ import annotations

from dataclasses import dataclass

from .pyfmt import INDENT, LINE_LENGTH
from .textwidth import str_width


@dataclass(frozen=True)
class Sub:
    """``head[item, ...]``: Literal[...], list[...], NotRequired[...], dict[str, Any]."""

    head: str
    items: tuple[Annotation, ...]


@dataclass(frozen=True)
class Union:
    """``option | option | ...``."""

    options: tuple[Annotation, ...]


Annotation = str | Sub | Union


def text(node: Annotation) -> str:
    """The one-line source of an annotation."""
    if isinstance(node, str):
        return node
    if isinstance(node, Sub):
        return f"{node.head}[{', '.join(text(item) for item in node.items)}]"
    return " | ".join(text(option) for option in node.options)


def _fits(line: str) -> bool:
    return str_width(line) <= LINE_LENGTH


def _bracket_split(depth: int, head: str, node: Sub, tail: str) -> list[str]:
    """Split ``head + node + tail`` at ``node``'s brackets (black's right-hand split)."""
    indent = INDENT * depth
    lines = [f"{indent}{head}{node.head}["]
    if len(node.items) == 1:
        lines += _inner(node.items[0], depth + 1, "", "")
    else:
        joined = f"{indent}{INDENT}{', '.join(text(item) for item in node.items)}"
        if _fits(joined):
            lines.append(joined)
        else:
            for item in node.items:
                lines += _inner(item, depth + 1, "", ",")
    lines.append(f"{indent}]{tail}")
    return lines


def _inner(node: Annotation, depth: int, prefix: str, suffix: str) -> list[str]:
    """A line inside brackets: ``prefix + node + suffix`` at ``depth``."""
    line = f"{INDENT * depth}{prefix}{text(node)}{suffix}"
    if _fits(line):
        return [line]
    if isinstance(node, Union):  # split before each `|` (a trailing comma does not count as a split point)
        last = len(node.options) - 1
        lines: list[str] = []
        for index, option in enumerate(node.options):
            lines += _inner(option, depth, prefix if index == 0 else "| ", suffix if index == last else "")
        return lines
    if isinstance(node, Sub):
        return _bracket_split(depth, prefix, node, suffix)
    return [line]  # nothing to split at: black leaves the line long


def _parenthesized(depth: int, head: str, node: Annotation) -> list[str]:
    return [f"{INDENT * depth}{head}(", *_inner(node, depth + 1, "", ""), f"{INDENT * depth})"]


def _statement(depth: int, head: str, node: Annotation) -> list[str]:
    """``head + node`` as a statement whose ``node`` black may wrap in invisible parentheses."""
    line = f"{INDENT * depth}{head}{text(node)}"
    if _fits(line):
        return [line]
    if isinstance(node, str):
        body = f"{INDENT * (depth + 1)}{node}"
        return _parenthesized(depth, head, node) if _fits(body) else [line]
    if isinstance(node, Union):
        return _parenthesized(depth, head, node)
    lines = _bracket_split(depth, head, node, "")
    if not _fits(lines[0]):
        wrapped = _parenthesized(depth, head, node)
        if all(_fits(each) for each in wrapped):
            return wrapped
    return lines


def field(key: str, node: Annotation) -> str:
    """A class-syntax TypedDict field, one level deep: ``    key: <annotation>``."""
    return "\n".join(_statement(1, f"{key}: ", node))


def assignment(target: str, node: Annotation) -> str:
    """``target = <annotation>`` at module level (a type alias)."""
    return "\n".join(_statement(0, f"{target} = ", node))


def functional(target: str, args: tuple[str, ...], entries: tuple[tuple[str, Annotation], ...], keyword: str) -> str:
    """``target = TypedDict(args..., {key: annotation, ...}, keyword)`` at module level.

    ``args`` and ``keyword`` are short source texts placed before and after the dict display;
    keys are string literals as pyfmt writes them.
    """
    lines = _call(0, f"{target} = ", args, entries, keyword)
    if len(lines) > 1 and not _fits(lines[0]):
        wrapped = [f"{target} = (", *_call(1, "", args, entries, keyword), ")"]
        if all(_fits(each) for each in wrapped):
            return "\n".join(wrapped)
    return "\n".join(lines)


def _call(
    depth: int, head: str, args: tuple[str, ...], entries: tuple[tuple[str, Annotation], ...], keyword: str
) -> list[str]:
    """``head + TypedDict(...)`` at ``depth``: whole, with the arguments on one line, or one per line."""
    indent = INDENT * depth
    mapping = "{" + ", ".join(f"{key}: {text(node)}" for key, node in entries) + "}"
    arguments = ", ".join((*args, mapping, keyword))
    line = f"{indent}{head}TypedDict({arguments})"
    if _fits(line):
        return [line]
    lines = [f"{indent}{head}TypedDict("]
    inner = indent + INDENT
    if _fits(inner + arguments):
        lines.append(inner + arguments)
    else:
        lines += [f"{inner}{arg}," for arg in args]
        if _fits(f"{inner}{mapping},"):
            lines.append(f"{inner}{mapping},")
        else:  # a dict display that does not fit is exploded one entry per line
            lines.append(inner + "{")
            for key, node in entries:
                lines += _inner(node, depth + 2, f"{key}: ", ",")
            lines.append(inner + "},")
        lines.append(f"{inner}{keyword},")
    lines.append(f"{indent})")
    return lines


def class_header(name: str, bases: str) -> str:
    """``class name(bases):``; a header that does not fit puts the (short) bases on their own line."""
    line = f"class {name}({bases}):"
    return line if _fits(line) else f"class {name}(\n{INDENT}{bases}\n):"
