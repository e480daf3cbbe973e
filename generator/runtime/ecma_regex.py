"""ECMA-262 regular expressions (``u`` flag semantics) for JSON Schema's ``pattern`` keywords.

Standard library only. JSON Schema says patterns are ECMA-262 regular expressions; Python's ``re``
reads many of them differently (``$`` before a final newline, Unicode ``\\d``/``\\w``, no
``\\p{...}``). ``compile_pattern`` reads a pattern with the ECMA-262 grammar and gives a search
function that answers as a JavaScript ``RegExp`` with the ``u`` flag would, or raises
``PatternError``. ts_runtime/ecma_regex.ts gives the same answers and the same errors.

INTERFACE STUB: the translation layer replaces this body; the API below is fixed.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

__all__ = ["PatternError", "compile_pattern"]


class PatternError(ValueError):
    """A pattern that is not valid ECMA-262 (``u`` mode), or that toolgen refuses.

    ``offset`` is where the problem is, in code points from the start of ``source``.
    """

    def __init__(self, message: str, source: str, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.source = source
        self.offset = offset


@functools.lru_cache(maxsize=1024)
def compile_pattern(source: str) -> Callable[[str], bool]:
    """A function telling whether ``source`` matches anywhere in a text; PatternError otherwise."""
    try:
        search = re.compile(source).search
    except re.error as exc:
        raise PatternError(str(exc), source, exc.pos or 0) from None
    return lambda text: search(text) is not None
