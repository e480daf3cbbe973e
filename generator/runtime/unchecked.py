"""What of a run-time tool's schema the argument check cannot enforce, taken out before it is sent.

Standard library only. An MCP server's ``inputSchema`` is sent to the model and then checked
(sent_schema.py); a keyword the check cannot enforce would be a rule the model is told and no one
checks. ``drop_unchecked`` removes such keywords from the schema in place and says where: a
``pattern`` (or a ``patternProperties`` name) that ecma_regex does not accept as an ECMA-262
pattern, and every keyword the validator lists in ``schema_refusals``. dynamic_tools.py notes
them in the tool's description and reports the tool as degraded: it is still offered, one bad
keyword never costs the tool or the list. What cannot be taken out keyword by keyword (a
refusal of a whole schema node) is returned as left over: that tool is left out and reported.
"""

from __future__ import annotations

from typing import Any

from .ecma_regex import PatternError, compile_pattern
from .schema_common import _DEF_CONTAINERS, _SCHEMA_LIST, _SCHEMA_MAP, _SCHEMA_ONE
from .validation import schema_refusals

__all__ = ["drop_unchecked"]

_REASON = "not an ECMA-262 pattern toolgen can check"

_ROUNDS = 8
"""Removing a keyword can uncover another refusal below it; this many rounds at most."""


def _pointer(path: tuple[Any, ...]) -> str:
    return "".join("/" + str(key).replace("~", "~0").replace("/", "~1") for key in path)


def _holder(schema: Any, pointer: str) -> Any:
    """The schema node at a JSON pointer of ``schema`` (None when there is none)."""
    if pointer and not pointer.startswith("/"):
        return None  # a pointer into another document
    node = schema
    for part in pointer.split("/")[1:] if pointer else ():
        key = part.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict):
            node = node.get(key)
        elif isinstance(node, list) and key.isdigit() and int(key) < len(node):
            node = node[int(key)]
        else:
            return None
    return node


def _good_pattern(source: Any) -> bool:
    if not isinstance(source, str):
        return True  # not a pattern at all: the check ignores it
    try:
        compile_pattern(source)
    except PatternError:
        return False
    return True


def drop_unchecked(schema: dict[str, Any]) -> tuple[list[str], list[str]]:
    """Remove from ``schema`` (in place) what the check cannot enforce.

    Returns ``(dropped, left)``: ``"<pointer>: <why>"`` for each keyword taken out, and the
    refusals that no keyword's removal could cure (the schema then cannot be checked at all).
    """
    dropped: list[str] = []
    stack: list[tuple[Any, tuple[Any, ...]]] = [(schema, ())]
    while stack:
        node, path = stack.pop()
        if not isinstance(node, dict):
            continue
        if "pattern" in node and not _good_pattern(node["pattern"]):
            del node["pattern"]
            dropped.append(f"{_pointer(path + ('pattern',))}: {_REASON}")
        names = node.get("patternProperties")
        if isinstance(names, dict):
            for name in [n for n in names if not _good_pattern(n)]:
                del names[name]
                dropped.append(
                    f"{_pointer(path + ('patternProperties', name))}: {_REASON}"
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
    for _ in range(_ROUNDS):
        removed = False
        for refusal in schema_refusals(schema):
            holder = _holder(schema, refusal.pointer)
            if isinstance(holder, dict) and refusal.keyword in holder:
                del holder[refusal.keyword]
                dropped.append(str(refusal))
                removed = True
        if not removed:
            break
    left = [str(refusal) for refusal in schema_refusals(schema)]
    return sorted(dropped), left
