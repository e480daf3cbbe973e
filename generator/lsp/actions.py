"""Code actions, only where the fix is certain.

- A "did you mean 'x'?" hint (a misspelt key or reference): replace the underlined name with x.
- W200, a file without the schema modeline: insert the modeline the hint gives as line 1.
- E101, a duplicate key: delete the second entry (its line and the lines indented below it).
- E211, a missing required key: insert ``key: `` at the mapping's indentation.
"""

from __future__ import annotations

import re
from typing import Any

from lsprotocol import types

from .convert import SOURCE
from .session import Session
from .text import from_utf16, line_of

_MODELINE = re.compile(r"(# yaml-language-server: \$schema=\S+)")
_QUOTES = "\"'"
_MISSING = re.compile(r"^'([^']+)' is a required property")


def code_actions(session: Session, params: types.CodeActionParams) -> list[types.CodeAction]:
    uri = params.text_document.uri
    found: list[types.CodeAction] = []
    for diagnostic in params.context.diagnostics:
        if diagnostic.source != SOURCE:
            continue
        data: Any = diagnostic.data if isinstance(diagnostic.data, dict) else {}
        edit = _fix(session, diagnostic, data)
        if edit is None:
            continue
        title, edits = edit
        found.append(
            types.CodeAction(
                title=title,
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[diagnostic],
                is_preferred=True,
                edit=types.WorkspaceEdit(changes={uri: edits}),
            )
        )
    return found


def _fix(
    session: Session, diagnostic: types.Diagnostic, data: dict[str, Any]
) -> tuple[str, list[types.TextEdit]] | None:
    replacement = data.get("replacement")
    if isinstance(replacement, str) and _names_the_wrong_one(session, diagnostic):
        return f"Change to '{replacement}'", [types.TextEdit(diagnostic.range, replacement)]
    hint = str(data.get("hint", ""))
    if diagnostic.code == "W200":
        modeline = _MODELINE.search(hint)
        if modeline:
            start = types.Position(0, 0)
            return "Add the schema modeline", [types.TextEdit(types.Range(start, start), modeline.group(1) + "\n")]
    if diagnostic.code == "E101":
        line = diagnostic.range.start.line
        end = _entry_end(session.text, line)
        return "Remove the duplicate entry", [
            types.TextEdit(types.Range(types.Position(line, 0), types.Position(end, 0)), "")
        ]
    if diagnostic.code == "E211":
        missing = _MISSING.match(diagnostic.message)
        if missing:
            return _insert_key(session, diagnostic, missing.group(1))
    return None


def _names_the_wrong_one(session: Session, diagnostic: types.Diagnostic) -> bool:
    """Whether the underlined text is the name the message complains about (quoted in it), so that
    replacing it is certain; a diagnostic placed on a whole mapping gets no such action."""
    start, end = diagnostic.range.start, diagnostic.range.end
    if start.line != end.line:
        return False
    line_text = line_of(session.text, start.line)
    token = line_text[from_utf16(line_text, start.character) : from_utf16(line_text, end.character)]
    name = token.strip(_QUOTES)
    return bool(name) and f"'{name}'" in diagnostic.message


def _entry_end(text: str, line: int) -> int:
    """The line after a mapping entry that starts on ``line`` (its value may span deeper lines)."""
    lines = text.split("\n")
    first = lines[line] if line < len(lines) else ""
    indent = len(first) - len(first.lstrip(" "))
    end = line + 1
    while end < len(lines) and (not lines[end].strip() or len(lines[end]) - len(lines[end].lstrip(" ")) > indent):
        end += 1
    return end


def _insert_key(session: Session, diagnostic: types.Diagnostic, key: str) -> tuple[str, list[types.TextEdit]]:
    """``key: `` as a new entry of the mapping the diagnostic points at."""
    line = diagnostic.range.start.line
    line_text = line_of(session.text, line)
    column = len(line_text) - len(line_text.lstrip(" -"))
    is_parent_key = line_text.rstrip().endswith(":") and diagnostic.range.start.character <= column
    if is_parent_key:  # the location is the mapping's own key: the new entry goes one level deeper
        nested = line_of(session.text, line + 1)
        column = len(nested) - len(nested.lstrip(" -")) if nested.strip() else column + 2
    at = types.Position(line + 1, 0) if is_parent_key else types.Position(line, 0)
    return f"Add the missing key '{key}'", [types.TextEdit(types.Range(at, at), " " * column + f"{key}: \n")]
