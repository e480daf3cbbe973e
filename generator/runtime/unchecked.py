"""What of a run-time tool's schema the argument check cannot enforce, taken out before it is sent.

Standard library only. An MCP server's ``inputSchema`` is sent to the model and then checked
(sent_schema.py); a keyword the check cannot enforce would be a rule the model is told and no one
checks. ``drop_unchecked`` removes such keywords from the schema in place and says where: a
``pattern`` (or a ``patternProperties`` name) that ecma_regex does not accept as an ECMA-262
pattern, and every keyword the validator lists in ``schema_refusals`` (once it has that API).
dynamic_tools.py notes them in the tool's description and reports the tool as degraded: it is
still offered, one bad keyword never costs the tool or the list.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from . import validation
from .ecma_regex import PatternError, compile_pattern
from .schema_common import _DEF_CONTAINERS, _SCHEMA_LIST, _SCHEMA_MAP, _SCHEMA_ONE

__all__ = ["drop_unchecked"]

_REASON = "not an ECMA-262 pattern toolgen can check"

# The validator's list of what it cannot enforce: ``schema_refusals(schema)`` yields items with
# ``path`` (keys from the root to the keyword's schema) and ``keyword``. A validator without it
# enforces every keyword it reads.
_REFUSALS: Callable[[Any], Iterable[Any]] | None = getattr(
    validation, "schema_refusals", None
)


def _pointer(path: tuple[Any, ...]) -> str:
    return "".join(f"/{key}" for key in path)


def _good_pattern(source: Any) -> bool:
    if not isinstance(source, str):
        return True  # not a pattern at all: the check ignores it
    try:
        compile_pattern(source)
    except PatternError:
        return False
    return True


def drop_unchecked(schema: dict[str, Any]) -> list[str]:
    """Remove from ``schema`` (in place) what the check cannot enforce; ``"<pointer> (<why>)"`` each."""
    dropped: list[str] = []
    stack: list[tuple[Any, tuple[Any, ...]]] = [(schema, ())]
    while stack:
        node, path = stack.pop()
        if not isinstance(node, dict):
            continue
        if "pattern" in node and not _good_pattern(node["pattern"]):
            del node["pattern"]
            dropped.append(f"{_pointer(path + ('pattern',))} ({_REASON})")
        names = node.get("patternProperties")
        if isinstance(names, dict):
            for name in [n for n in names if not _good_pattern(n)]:
                del names[name]
                dropped.append(
                    f"{_pointer(path + ('patternProperties', name))} ({_REASON})"
                )
        for key, value in node.items():
            if key in _SCHEMA_ONE:
                stack.append((value, path + (key,)))
            elif key in _SCHEMA_LIST and isinstance(value, list):
                stack.extend((v, path + (key, i)) for i, v in enumerate(value))
            elif (key in _SCHEMA_MAP or key in _DEF_CONTAINERS) and isinstance(
                value, dict
            ):
                stack.extend((v, path + (key, name)) for name, v in value.items())
    if _REFUSALS is not None:
        for refusal in list(_REFUSALS(schema)):
            holder: Any = schema
            where = tuple(getattr(refusal, "path", ()))
            for key in where:
                holder = holder.get(key) if isinstance(holder, dict) else None
            keyword = getattr(refusal, "keyword", None)
            if isinstance(holder, dict) and keyword in holder:
                del holder[keyword]
                dropped.append(
                    f"{_pointer(where + (keyword,))} (not checked: {refusal})"
                )
    return sorted(dropped)
