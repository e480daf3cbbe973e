"""Fresh copies of the catalog's JSON-like data, for callers who may change what they get.

Standard library only; light to import (the catalog uses it at run time, the converters too).
"""

from __future__ import annotations

import marshal
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

__all__ = ["copier", "fast_copy"]


def fast_copy(value: Any) -> Any:
    """Deep copy of JSON-like data (mappings as dicts, tuples as lists); faster than copy.deepcopy."""
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, dict):
        return {k: fast_copy(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [fast_copy(v) for v in value]
    if isinstance(value, Mapping):
        # Read-only views (the generator's model) become plain dicts.
        return {k: fast_copy(v) for k, v in value.items()}
    return value


def copier(value: Any) -> Callable[[], Any]:
    """A function returning a fresh copy of JSON-like ``value`` with its exact shape (tuples
    stay tuples): marshal is C, cheap to make and to run. Values marshal cannot hold (a
    hand-made entry with read-only views) are copied with fast_copy instead."""
    try:
        return partial(marshal.loads, marshal.dumps(value))
    except ValueError:
        return partial(fast_copy, fast_copy(value))
