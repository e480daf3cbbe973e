"""What one request works with: the buffer, its spec folder's latest check, and where things are."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from lsprotocol import types

from ..load import SourceFile
from .convert import lsp_range
from .frontend import Analysis
from .text import Cursor, cursor_at, from_utf16, line_of, path_to_uri

FileKind = Literal["project", "parameters", "tool", "family", "other"]


def file_kind(specs: Path, path: Path) -> FileKind:
    """Which meta-schema a file of the spec folder follows."""
    if path.parent == specs:
        return {"toolgen.yaml": "project", "parameters.yaml": "parameters"}.get(path.name, "other")  # type: ignore[return-value]
    if path.parent.parent == specs and path.suffix == ".yaml":
        return {"tools": "tool", "variants": "family"}.get(path.parent.name, "other")  # type: ignore[return-value]
    return "other"


@dataclass(frozen=True)
class Session:
    path: Path
    text: str
    analysis: Analysis
    last_good: Analysis | None
    overlay: dict[Path, str]
    can_rename_files: bool = False  # the client applies RenameFile in a workspace edit

    @property
    def specs(self) -> Path:
        return self.analysis.specs

    @property
    def kind(self) -> FileKind:
        return file_kind(self.specs, self.path)

    @property
    def model(self) -> Analysis | None:
        """The latest check with a model: the current one, else the last without errors."""
        return self.analysis if self.analysis.catalog is not None else self.last_good

    def cursor(self, position: types.Position) -> Cursor:
        line_text = line_of(self.text, position.line)
        return cursor_at(self.text, position.line, from_utf16(line_text, position.character))

    def column(self, position: types.Position) -> int:
        """The character column of an LSP position in this buffer."""
        return from_utf16(line_of(self.text, position.line), position.character)

    def text_of(self, path: Path) -> str:
        """A file's current text: the open buffer's, else the text the latest check read."""
        if path in self.overlay:
            return self.overlay[path]
        source = self.analysis.sources.get(path)
        return source.text if source is not None else ""

    def source(self, path: Path) -> SourceFile | None:
        return self.analysis.sources.get(path)

    def location(self, path: Path, line: int, col: int) -> types.Location:
        """The LSP location of the token at 1-based ``line``:``col`` of a spec file."""
        return types.Location(path_to_uri(path), lsp_range(self.text_of(path), line, col))

    def range_in_line(self, line: int, start: int, end: int) -> types.Range:
        """An LSP range on 0-based ``line`` of this buffer between character columns."""
        from .text import to_utf16

        line_text = line_of(self.text, line)
        return types.Range(
            types.Position(line, to_utf16(line_text, start)), types.Position(line, to_utf16(line_text, end))
        )
