"""Results remembered by the identity of what they were computed from, for the workspace's edits.

The workspace keeps the objects of unchanged files (their loaded data, then the variants built
from them), so "the same object as last time" means "the same input". A stage asks
``memo.get(key, compute, diags)``: when every object of ``key`` is the very one of an earlier
call, that call's result and diagnostics are replayed; otherwise ``compute`` runs with a fresh
collector. ``sweep()`` starts a pass: what the previous pass did not use is dropped, so memory
stays flat however long an editing session runs.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from .diagnostics import Diagnostic, Diagnostics

T = TypeVar("T")
_Entry = tuple[tuple[object, ...], Any, tuple[Diagnostic, ...]]


class Memo:
    def __init__(self) -> None:
        self._before: dict[tuple[Hashable, ...], _Entry] = {}
        self._now: dict[tuple[Hashable, ...], _Entry] = {}

    def sweep(self) -> None:
        """Start a pass: keep only what the last pass used (all of it, when it used nothing)."""
        if self._now:
            self._before, self._now = self._now, {}

    def get(
        self, key: tuple[object, ...], compute: Callable[[Diagnostics], T], diags: Diagnostics, tag: Hashable = None
    ) -> T:
        """``compute(collector)``'s result for ``key`` (compared by identity); its findings go to ``diags``."""
        ident = (tag, *map(id, key))
        hit = self._hit(ident, key)
        if hit is not None:
            diags.extend(hit[2])
            result: T = hit[1]
            return result
        found = Diagnostics()
        value = compute(found)
        diags.extend(found.items)
        self._now[ident] = (key, value, tuple(found.items))
        return value

    def _hit(self, ident: tuple[Hashable, ...], key: tuple[object, ...]) -> _Entry | None:
        """The entry for ``key`` (every object the very one), now marked as used; else None."""
        hit = self._now.get(ident) or self._before.get(ident)
        if hit is None or len(hit[0]) != len(key) or any(a is not b for a, b in zip(hit[0], key, strict=True)):
            return None
        self._now[ident] = hit
        return hit

    def kept(self, key: tuple[object, ...], compute: Callable[[], T], tag: Hashable = None) -> T:
        """:meth:`get` for a computation that reports nothing."""
        hit = self._hit((tag, *map(id, key)), key)
        if hit is not None:
            result: T = hit[1]
            return result
        value = compute()
        self.put(key, value, tag)
        return value

    def peek(self, key: tuple[object, ...], tag: Hashable = None) -> object:
        """What :meth:`put` (or :meth:`kept`) left for ``key`` in this pass or the last, or None;
        for a stage that checks a remembered result before taking it."""
        hit = self._hit((tag, *map(id, key)), key)
        return None if hit is None else hit[1]

    def put(self, key: tuple[object, ...], value: object, tag: Hashable = None) -> None:
        """Remember ``value`` (no findings) for ``key`` in this pass."""
        self._now[(tag, *map(id, key))] = (key, value, ())


def remembered(
    memo: Memo | None, key: tuple[object, ...], compute: Callable[[Diagnostics], T], diags: Diagnostics, tag: Hashable
) -> T:
    """``memo.get`` when there is a memo; else just ``compute`` into ``diags``."""
    if memo is None:
        return compute(diags)
    return memo.get(key, compute, diags, tag)


def kept(memo: Memo | None, key: tuple[object, ...], compute: Callable[[], T], tag: Hashable) -> T:
    """:func:`remembered` for a computation that reports nothing (rendering's data, say)."""
    if memo is None:
        return compute()
    return memo.kept(key, compute, tag)
