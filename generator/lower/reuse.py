"""What ``generate --watch`` keeps from one render to the next, so that an edit re-renders one tool.

The workspace rebuilds the model after an edit and keeps the objects of unchanged tool files
(memo.py). Rendering keys on those objects too: each tool's converted entries, catalog data and
prompt blocks are remembered by the identity of its variants (``memo``), and the laid-out lines of
each such value by its own identity (``layouts``). A cold run has no ``Reuse`` and computes
everything once; the output is the same bytes either way (tests/test_watch_reuse.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..memo import Memo
from ..pyfmt import Layouts


@dataclass(frozen=True)
class Reuse:
    memo: Memo = field(default_factory=Memo)
    layouts: Layouts = field(default_factory=Layouts)

    def sweep(self) -> None:
        """Start a render: what the previous one did not use is dropped (memory stays flat)."""
        self.memo.sweep()
        self.layouts.sweep()
