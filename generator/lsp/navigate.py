"""Go to definition, find references and rename, across the files of a spec folder.

Every name a spec refers to is indexed from the latest check's loaded files: where it is
defined (a shared parameter's key in parameters.yaml, a variant's key in its tool file, a
family's or tool's file, a placeholder's or context field's key in toolgen.yaml) and every place
that names it (``use:``, ``extends:``, tool and family lists, ``fallback:``, ``field:``,
``{{NAME}}`` in text). The symbol under the cursor is found from the buffer's text, so that it
works while the file does not parse.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from lsprotocol import types

from ..load import SourceFile
from .session import FileKind, Session, file_kind
from .text import PathKey, line_of, path_to_uri, placeholder_at, to_utf16

Kind = Literal["parameter", "variant", "family", "tool", "placeholder", "context"]
# What can be renamed with text edits alone; a tool or family also renames its file (tools/<id>.yaml,
# variants/<name>.yaml), which needs a client that applies file renames. A variant's key is the
# name of its family: it is renamed with the family.
RENAMEABLE: frozenset[Kind] = frozenset({"parameter", "placeholder", "context"})
FILE_NAMED: dict[Kind, str] = {"tool": "tools", "family": "variants"}
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]{0,63}")
_PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")


@dataclass(frozen=True)
class Symbol:
    kind: Kind
    name: str
    scope: Path | None = None  # variants are named per tool file


@dataclass(frozen=True)
class Occurrence:
    symbol: Symbol
    path: Path
    line: int  # 0-based, with character columns
    start: int
    end: int
    definition: bool


def symbol_for(kind: FileKind, path: Path, where: PathKey, on_key: bool, name: str) -> Symbol | None:
    """The symbol that ``name`` at YAML path ``where`` (a key when ``on_key``) of a file stands for."""
    last = where[-1] if where else None
    parent = where[-2] if len(where) >= 2 else None
    if on_key:
        if kind == "tool" and len(where) == 2 and where[0] == "variants":
            return Symbol("family", name)
        if kind == "parameters" and len(where) == 2 and where[0] == "parameters":
            return Symbol("parameter", name)
        if kind == "project" and len(where) == 2 and where[0] == "placeholders":
            return Symbol("placeholder", name)
        if kind == "project" and len(where) == 2 and where[0] == "context":
            return Symbol("context", name)
        return None
    if last == "use":
        return Symbol("parameter", name)
    if last == "extends" and kind == "tool":
        return Symbol("variant", name, path)
    if last == "field":
        return Symbol("context", name)
    if last == "fallback" or (kind == "family" and where == ("family",)):
        return Symbol("family", name)
    if kind == "project" and parent == "families" and isinstance(last, int):
        return Symbol("family", name)
    if kind in ("project", "family") and parent == "tools" and isinstance(last, int) and len(where) == 2:
        return Symbol("tool", name)
    if kind in ("tool", "parameters") and parent == "dependencies" and isinstance(last, int):
        return Symbol("tool", name)
    if kind == "tool" and where in (("id",), ("handler", "shares")):
        return Symbol("tool", name)
    return None


def _walk(value: Any, path: PathKey) -> Iterator[tuple[PathKey, Any, bool]]:
    """Every (path, value, is_key) below ``value``: mapping keys first, then their values."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield path + (key,), key, True
            yield from _walk(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _walk(item, path + (index,))
    else:
        yield path, value, False


def _span(source: SourceFile, text: str, where: PathKey, key: bool, name: str) -> tuple[int, int, int] | None:
    """The 0-based line and character columns of ``name`` written at ``where`` (its key or value)."""
    table = source.key_positions if key else source.positions
    if where not in table:
        return None
    line, col = table[where]
    line_text = line_of(text, line - 1)
    found = line_text.find(name, col - 1)
    if found < 0:
        return None
    return line - 1, found, found + len(name)


def occurrences(session: Session) -> list[Occurrence]:
    """Every definition and mention of a name in the spec folder's loaded files."""
    found: list[Occurrence] = []
    specs = session.specs
    for path, source in session.analysis.sources.items():
        kind = file_kind(specs, path)
        text = session.text_of(path)
        if kind == "tool" and source.data is not None:
            found += _file_occurrence(source, text, path, ("id",), Symbol("tool", str(_get(source.data, "id"))))
        if kind == "family" and source.data is not None:
            found += _file_occurrence(
                source, text, path, ("family",), Symbol("family", str(_get(source.data, "family")))
            )
        for where, value, key in _walk(source.data, ()):
            if not isinstance(value, str):
                continue
            symbol = symbol_for(kind, path, where, key, value)
            if symbol is None:
                continue
            span = _span(source, text, where, key, value)
            if span is None:
                continue
            definition = key and symbol.kind in ("parameter", "placeholder", "context")
            found.append(Occurrence(symbol, path, *span, definition))
            if kind == "tool" and key and symbol.kind == "family":  # a variant's key also defines the variant
                found.append(Occurrence(Symbol("variant", value, path), path, *span, True))
        for number, line_text in enumerate(text.split("\n")):  # placeholders: in any text, block scalars too
            for match in _PLACEHOLDER.finditer(line_text):
                symbol = Symbol("placeholder", match.group(1))
                found.append(Occurrence(symbol, path, number, match.start(1), match.end(1), False))
    return found


def _get(data: Any, key: str) -> Any:
    return data.get(key) if isinstance(data, dict) else None


def _file_occurrence(source: SourceFile, text: str, path: Path, where: PathKey, symbol: Symbol) -> list[Occurrence]:
    span = _span(source, text, where, False, symbol.name)
    if span is None:
        return []
    return [Occurrence(symbol, path, *span, True)]


def symbol_at(session: Session, position: types.Position) -> tuple[Symbol, int, int] | None:
    """The symbol under the cursor and the character columns of its name on the cursor's line."""
    column = session.column(position)
    line_text = line_of(session.text, position.line)
    placeholder = placeholder_at(line_text, column)
    if placeholder is not None and placeholder[0]:
        return Symbol("placeholder", placeholder[0]), placeholder[1], placeholder[2]
    cursor = session.cursor(position)
    if not cursor.word or not _NAME.fullmatch(cursor.word):
        return None
    if cursor.on_key and cursor.key is not None and cursor.word != cursor.key:
        return None
    where = cursor.path if cursor.key is not None else cursor.container
    symbol = symbol_for(session.kind, session.path, where, cursor.on_key and cursor.key is not None, cursor.word)
    if symbol is None:
        return None
    return symbol, cursor.word_start, cursor.word_end


def _location(session: Session, item: Occurrence) -> types.Location:
    line_text = line_of(session.text_of(item.path), item.line)
    return types.Location(
        path_to_uri(item.path),
        types.Range(
            types.Position(item.line, to_utf16(line_text, item.start)),
            types.Position(item.line, to_utf16(line_text, item.end)),
        ),
    )


def definition(session: Session, position: types.Position) -> list[types.Location] | None:
    found = symbol_at(session, position)
    if found is None:
        return None
    symbol = found[0]
    targets = [item for item in occurrences(session) if item.symbol == symbol and item.definition]
    return [_location(session, item) for item in targets] or None


def references(session: Session, position: types.Position) -> list[types.Location] | None:
    found = symbol_at(session, position)
    if found is None:
        return None
    return [_location(session, item) for item in occurrences(session) if item.symbol == found[0]] or None


def _renameable(session: Session, symbol: Symbol) -> bool:
    return symbol.kind in RENAMEABLE or (symbol.kind in FILE_NAMED and session.can_rename_files)


def prepare_rename(session: Session, position: types.Position) -> types.Range | None:
    found = symbol_at(session, position)
    if found is None or not _renameable(session, found[0]):
        return None
    return session.range_in_line(position.line, found[1], found[2])


def rename(session: Session, position: types.Position, new_name: str) -> types.WorkspaceEdit | None:
    """Every mention and the definition of a shared parameter, placeholder, context field, tool or
    family renamed as one edit (a tool's or family's file too); None when the cursor is on nothing
    renameable, the new name is not a name, or a file of that name exists already."""
    found = symbol_at(session, position)
    if found is None or not _renameable(session, found[0]) or not _NAME.fullmatch(new_name):
        return None
    symbol = found[0]
    also = Symbol("variant", symbol.name) if symbol.kind == "family" else None  # its key in each tool file
    edits: dict[str, dict[tuple[int, int, int], types.TextEdit]] = {}
    for item in occurrences(session):
        if item.symbol != symbol and not (
            also is not None and (item.symbol.kind, item.symbol.name) == (also.kind, also.name)
        ):
            continue
        location = _location(session, item)
        edits.setdefault(location.uri, {})[(item.line, item.start, item.end)] = types.TextEdit(location.range, new_name)
    if not edits:
        return None
    if symbol.kind not in FILE_NAMED:
        return types.WorkspaceEdit(changes={uri: list(found.values()) for uri, found in edits.items()})
    folder = session.specs / FILE_NAMED[symbol.kind]
    old, new = folder / f"{symbol.name}.yaml", folder / f"{new_name}.yaml"
    if not old.is_file() or os.path.lexists(new):
        return None
    changes: list[types.TextDocumentEdit | types.RenameFile] = [
        types.TextDocumentEdit(types.OptionalVersionedTextDocumentIdentifier(uri, None), list(found.values()))
        for uri, found in edits.items()
    ]
    changes.append(types.RenameFile(old_uri=path_to_uri(old), new_uri=path_to_uri(new)))
    return types.WorkspaceEdit(document_changes=changes)
