"""toolgen diagnostics as LSP diagnostics: same rule id, severity, message and start; a range.

The start is the CLI's ``line:col`` converted exactly (1-based code points to 0-based UTF-16);
the end is the end of the YAML token there (the key or value). The hint goes in the related
information (most clients show it under the message) and, with any "did you mean" replacement,
in ``data`` for the code actions.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from lsprotocol import types

from ..diagnostics import Diagnostic
from .text import line_of, path_to_uri, to_utf16, token_end

SOURCE = "toolgen"
_DID_YOU_MEAN = re.compile(r"did you mean '([^']+)'\?")


def lsp_range(text: str, line: int, col: int) -> types.Range:
    """The range of the token at the 1-based ``line``:``col`` (characters) of ``text``."""
    if line < 1:
        return types.Range(types.Position(0, 0), types.Position(0, 0))
    line_text = line_of(text, line - 1)
    start = max(col - 1, 0)
    if start > len(line_text):  # the text is unknown (never loaded): keep the start exact
        return types.Range(types.Position(line - 1, start), types.Position(line - 1, start))
    end = token_end(line_text, start)
    return types.Range(
        types.Position(line - 1, to_utf16(line_text, start)),
        types.Position(line - 1, to_utf16(line_text, end)),
    )


def replacement(hint: str) -> str | None:
    """The name a "did you mean 'x'?" hint proposes, if any."""
    match = _DID_YOU_MEAN.search(hint)
    return match.group(1) if match else None


def to_lsp(item: Diagnostic, path: Path, text: str) -> types.Diagnostic:
    """One toolgen diagnostic on the file ``path`` whose current text is ``text``."""
    where = lsp_range(text, item.location.line, item.location.col)
    related = None
    if item.hint:
        related = [types.DiagnosticRelatedInformation(types.Location(path_to_uri(path), where), f"hint: {item.hint}")]
    data: dict[str, Any] = {"hint": item.hint}
    proposed = replacement(item.hint)
    if proposed is not None:
        data["replacement"] = proposed
    return types.Diagnostic(
        range=where,
        message=item.message,
        severity=types.DiagnosticSeverity.Error if item.severity == "error" else types.DiagnosticSeverity.Warning,
        code=item.code,
        source=SOURCE,
        related_information=related,
        data=data,
    )
