"""Subagent tools: one run-time tool per configured subagent, named to fit every provider.

Standard library only. Each config ``{name, description}`` becomes a spec variant (see
variants.py) with tool id ``use_subagents``, so its calls go to the subagents handler.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from typing import Any

from .predicates import family_name, field_value
from .schema_common import UNENCODABLE, has_lone_surrogate, printable
from .variants import SUBAGENTS_TOOL_ID, make_parameter, make_variant

__all__ = [
    "split_subagents",
    "subagent_name",
    "subagent_names",
    "subagent_tools",
    "subagents_active",
]

_HASH_HEX = 8
_UNSAFE = re.compile(r"[^a-z0-9_]+")


def _short_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:_HASH_HEX]


def _fit(prefix: str, base: str, suffix: str, max_length: int) -> str:
    room = max_length - len(prefix) - len(suffix)
    if room < 1:
        raise ValueError(
            f"prefix {prefix!r} leaves no room for a name within {max_length} characters"
        )
    return prefix + (base[:room].rstrip("_") or base[:room]) + suffix


def _scrub(prefix: str, body: str, separator: str) -> str:
    """``prefix + body`` with no ``separator`` in it: the characters of ``body`` an occurrence
    covers (also one that straddles prefix and body) become one ``_``, or go if only one.

    Every pass shortens ``body``, so this always ends. When nothing of ``body`` is left (a
    name made of separator characters only), ``subagent`` is scrubbed instead. Raises
    ValueError when the separator lies inside ``prefix`` itself, or that leaves nothing too.
    """
    if not separator:
        return prefix + body
    if separator in prefix:
        raise ValueError(
            f"subagent prefix {prefix!r} contains the MCP separator {separator!r}"
        )
    for text in (body, "subagent"):
        while (found := (prefix + text).find(separator)) >= 0:
            start = max(found, len(prefix)) - len(prefix)
            end = found + len(separator) - len(prefix)
            text = text[:start] + ("_" if end - start > 1 else "") + text[end:]
        if text:
            return prefix + text
    raise ValueError(f"no subagent name is left once {separator!r} is removed")


def subagent_name(
    name: str,
    *,
    prefix: str = "use_subagent_",
    max_length: int = 64,
    separator: str = "",
) -> str:
    """The tool name for one subagent: ``prefix`` + the name sanitized, within ``max_length``.

    Sanitizing lower-cases, turns each run of characters outside ``[a-z0-9_]`` into ``_`` and
    strips ``_`` from both ends. A name that must be trimmed keeps ``_`` + the first 8 hex digits
    of the SHA-256 of the original name, so distinct long names stay distinct. The MCP
    ``separator`` never survives into the name (dispatch would route it to the MCP handler):
    each occurrence (also one that begins in ``prefix``) is cut out of the name, and the hash
    suffix keeps the name distinct.
    """
    base = _UNSAFE.sub("_", name.lower()).strip("_") or "subagent"
    cleaned = _scrub(prefix, base, separator)[len(prefix) :]
    if cleaned == base and len(prefix) + len(base) <= max_length:
        return prefix + base
    fitted = _fit(prefix, cleaned, "_" + _short_hash(name), max_length)
    return _scrub(prefix, fitted[len(prefix) :], separator)


def subagent_names(
    configs: Sequence[Mapping[str, Any]],
    *,
    prefix: str = "use_subagent_",
    max_length: int = 64,
    separator: str = "",
) -> list[str]:
    """Tool names for ``configs``, in order, all distinct.

    A name already taken gets ``_2``, ``_3``, ... (trimmed to fit), so the result depends only on
    the configs and their order.
    """
    names: list[str] = []
    taken: set[str] = set()
    for config in configs:
        original = str(config.get("name") or "")
        name = subagent_name(
            original, prefix=prefix, max_length=max_length, separator=separator
        )
        candidate, n = name, 1
        while candidate in taken:
            n += 1
            candidate = _fit(prefix, name[len(prefix) :], f"_{n}", max_length)
            candidate = _scrub(prefix, candidate[len(prefix) :], separator)
        taken.add(candidate)
        names.append(candidate)
    return names


def split_subagents(
    configs: Sequence[Mapping[str, Any]],
) -> tuple[list[Mapping[str, Any]], list[dict[str, Any]]]:
    """The configs a tool can be made of, and skip records for the rest: a config whose
    name or description holds a lone surrogate could never be sent (no UTF-8 for it)."""
    kept: list[Mapping[str, Any]] = []
    skipped: list[dict[str, Any]] = []
    for config in configs:
        if not has_lone_surrogate((config.get("name"), config.get("description"))):
            kept.append(config)
            continue
        name = config.get("name")
        tool = printable(name) if isinstance(name, str) else None
        record = {"server": None, "uid": None, "tool": tool, "name": None}
        skipped.append(record | {"reason": UNENCODABLE})
    return kept, skipped


def subagent_tools(
    configs: Sequence[Mapping[str, Any]],
    *,
    prefix: str = "use_subagent_",
    max_length: int = 64,
    separator: str = "",
    skipped: list[dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """One variant per subagent config ``{name, description}``, named by ``subagent_names``.

    Each takes one required string parameter, ``prompt``. The variants carry ``id`` =
    ``"use_subagents"``: their calls are served by the subagents handler. Configs that
    ``split_subagents`` refuses get no tool; their records go to ``skipped`` when given.
    """
    configs, refused = split_subagents(configs)
    if skipped is not None:
        skipped.extend(refused)
    variants = []
    for config, name in zip(
        configs,
        subagent_names(
            configs, prefix=prefix, max_length=max_length, separator=separator
        ),
        strict=True,
    ):
        label = str(config.get("name") or "") or name[len(prefix) :]
        text = config.get("description")
        description = (
            text
            if isinstance(text, str) and text
            else f"Delegate a task to the {label} subagent."
        )
        prompt = make_parameter(
            "prompt",
            True,
            "The task for the subagent. It cannot see this conversation, so make the prompt self-contained.",
            {"type": "string"},
            "Task for the subagent",
        )
        origin = {"server": None, "uid": None, "tool": label}
        variants.append(
            make_variant(SUBAGENTS_TOOL_ID, name, description, (prompt,), None, origin)
        )
    return variants


def subagents_active(context: Any, family_tools: Sequence[str] | None) -> bool:
    """Whether subagent tools are offered: subagents are enabled, this is not itself a subagent
    run, and the family lists ``use_subagents`` (or lists no tools at all)."""
    if not field_value(context, "subagents_enabled") or field_value(
        context, "is_subagent_run"
    ):
        return False
    tools = [family_name(t) for t in family_tools or ()]
    return not tools or SUBAGENTS_TOOL_ID in tools
