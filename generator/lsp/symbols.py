"""Document symbols (a tool file's variants and their parameters, a family's tools, the shared
parameters, context fields and placeholders) and folding of multi-line descriptions."""

from __future__ import annotations

import re
from typing import Any

from lsprotocol import types

from .convert import lsp_range
from .session import Session

_Kind = types.SymbolKind
# A key holding prose, with the column its entry starts at ('- ' of a list item included).
_TEXT_KEY = re.compile(r"^( *(?:- +)*)(?:description|instruction|usage|doc|text|label):(?: |$)")


def document_symbols(session: Session) -> list[types.DocumentSymbol] | None:
    source = session.source(session.path)
    if source is None or not isinstance(source.data, dict):
        return None
    data = source.data

    def symbol(
        name: str, kind: types.SymbolKind, path: tuple[Any, ...], children: list[types.DocumentSymbol]
    ) -> types.DocumentSymbol:
        line, col = source.key_positions.get(path) or source.positions.get(path) or (1, 1)
        where = lsp_range(session.text, line, col)
        return types.DocumentSymbol(name=name, kind=kind, range=where, selection_range=where, children=children or None)

    found: list[types.DocumentSymbol] = []
    if session.kind == "tool":
        for family, variant in (data.get("variants") or {}).items():
            params = variant.get("parameters") if isinstance(variant, dict) else None
            children = [
                symbol(str(p.get("name") or p.get("use")), _Kind.Field, ("variants", family, "parameters", i), [])
                for i, p in enumerate(params or [])
                if isinstance(p, dict)
            ]
            found.append(symbol(str(family), _Kind.Class, ("variants", family), children))
        return [symbol(str(data.get("id", session.path.stem)), _Kind.Function, ("id",), found)]
    if session.kind == "family":
        children = [symbol(str(t), _Kind.Function, ("tools", i), []) for i, t in enumerate(data.get("tools") or [])]
        return [symbol(str(data.get("family", session.path.stem)), _Kind.Module, ("family",), children)]
    for block, kind in (("parameters", _Kind.Field), ("context", _Kind.Variable), ("placeholders", _Kind.Constant)):
        entries = data.get(block)
        if isinstance(entries, dict):
            found += [symbol(str(name), kind, (block, name), []) for name in entries]
    return found


def folding_ranges(session: Session) -> list[types.FoldingRange]:
    """Each multi-line text (a block scalar, or a plain one going on over indented lines) folds
    to its first line, so a long description can be hidden while the keys stay in sight."""
    lines = session.text.split("\n")
    found: list[types.FoldingRange] = []
    row = 0
    while row < len(lines):
        line = lines[row]
        match = _TEXT_KEY.match(line)
        if match is None:
            row += 1
            continue
        indent = len(match.group(1))
        end = row
        probe = row + 1
        while probe < len(lines) and (
            not lines[probe].strip() or len(lines[probe]) - len(lines[probe].lstrip(" ")) > indent
        ):
            if lines[probe].strip():
                end = probe
            probe += 1
        if end > row:
            found.append(types.FoldingRange(start_line=row, end_line=end, kind=types.FoldingRangeKind.Comment))
        row = end + 1
    return found
