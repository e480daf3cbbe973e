"""A small least-recently-used cache for results computed per context.

Contexts repeat across requests, so tool lists and prompt sections are kept for the most recent
few hundred keys. A key that cannot be hashed (a Context built with a list value) is simply not
cached: the caller computes the result again.
"""

from __future__ import annotations

import marshal
import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any, Generic, TypeVar

__all__ = ["LRU", "fingerprint"]

V = TypeVar("V")


class LRU(Generic[V]):
    """At most ``limit`` values; the least recently used one goes first.

    Safe to share between threads: a lookup and its move to the end happen under one lock, so
    another thread's eviction cannot fall between them.
    """

    def __init__(self, limit: int = 256) -> None:
        self.limit = limit
        self._items: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> V | None:
        """The value stored under ``key``, or None (also when ``key`` is unhashable)."""
        with self._lock:
            try:
                value = self._items.get(key)
            except TypeError:
                return None
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: Hashable, value: V) -> None:
        """Store ``value`` under ``key`` unless ``key`` is unhashable."""
        with self._lock:
            try:
                self._items[key] = value
            except TypeError:
                return
            self._items.move_to_end(key)
            while len(self._items) > self.limit:
                self._items.popitem(last=False)

    def clear(self) -> None:
        """Forget every value (benchmarks use it to time misses)."""
        with self._lock:
            self._items.clear()

    def in_use_order(self) -> list[Hashable]:
        """The keys, least recently used first."""
        return list(self._items)

    def __len__(self) -> int:
        return len(self._items)


def fingerprint(value: Any) -> bytes | None:
    """A key for JSON-like data taken from a request (an MCP server list, subagent configs).

    marshal's bytes: written in C, exact about types (1, 1.0 and True differ; so do a list and
    a tuple), and what ``marshal.loads`` reads back, so equal bytes mean equal data. Format 2
    writes no back-references: later formats mark every object referenced more than once, so
    the same list would give other bytes as soon as an Offer holds it. A string interned in one
    list and not in another gives other bytes, which costs a miss, never a wrong hit. None for
    data marshal cannot hold (a Mapping that is not a dict, a str subclass, nesting past its
    limit): such a request is simply not cached.
    """
    try:
        return marshal.dumps(value, 2)
    except ValueError:
        return None
