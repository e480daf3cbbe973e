"""What a spec variant's schema loses on the way out, reported where it was written.

Calls are checked against exactly the schema a format sends (runtime/sent_schema.py), so a
keyword a format moves into the description text (``DESCRIBE`` in runtime/formats.py, and the
hooks' own moves such as Gemini's non-string enums) or cannot express at all (Gemini's
``additionalProperties: false``: its objects go out open) is not checked on that format: W502
says which keyword and which formats. A conversion notice (Gemini and OpenAI strict read ``oneOf`` as
``anyOf``; strict mode's documented nesting limit) is W503. A keyword the validator cannot
enforce (``validation.schema_refusals``) is E322 for every format and the text path.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from ..diagnostics import Diagnostics, Location
from ..memo import Memo, remembered
from ..model import Catalog, ToolVariant, plain
from ..resolve import ResolvedFamily
from ..runtime.formats import FORMATS
from ..runtime.native import fast_copy, parameters_schema
from ..runtime.schema_dialects import DialectError, convert
from ..runtime.validation import schema_refusals


def input_schema(variant: ToolVariant) -> dict[str, Any]:
    """The variant's parameters as JSON Schema, as every format's conversion starts from it."""
    return parameters_schema(
        [
            {"name": p.name, "required": p.required, "instruction": plain(p.instruction), "schema": fast_copy(p.schema)}
            for p in variant.parameters
        ]
    )


def _where(variant: ToolVariant, path: tuple[Any, ...]) -> tuple[Location, str]:
    """The parameter a converter path points into (its location and name), else the variant."""
    if len(path) >= 2 and path[0] == "properties":
        for param in variant.parameters:
            if param.name == path[1]:
                return param.location, f"parameter {param.name!r}"
    return variant.location, f"{variant.key}"


def _path(pointer: str) -> tuple[str, ...]:
    """The keys of a JSON pointer into the variant's schema."""
    return tuple(part.replace("~1", "/").replace("~0", "~") for part in pointer.split("/")[1:])


def _shown(path: tuple[Any, ...]) -> str:
    return "/".join(map(str, path[1:] if path[:1] == ("properties",) else path)) or "root"


def check(catalog: Catalog, families: tuple[ResolvedFamily, ...], diags: Diagnostics, memo: Memo | None = None) -> None:
    """W502, W503 and E322 for every variant a family sends (see the module docstring).

    With a ``memo`` (the workspace's), an unchanged variant's findings are replayed.
    """
    native = {v.key: v for r in families if r.family.use_native_tools for v in r.variants}
    sent = {v.key: v for r in families for v in r.variants}
    formats = tuple(f for f in FORMATS if f in catalog.project.formats)
    for key in sorted(sent):
        variant = sent[key]
        is_native = key in native
        remembered(
            memo,
            (variant,),
            partial(_check_variant, variant, is_native, formats),
            diags,
            ("sent", is_native, formats),
        )


def _check_variant(variant: ToolVariant, native: bool, formats: tuple[str, ...], diags: Diagnostics) -> None:
    """One variant's findings: E322 always, W502 and W503 when a native family sends it."""
    schema = input_schema(variant)
    for refusal in schema_refusals(schema):
        if refusal.keyword == "pattern":
            continue  # E320 locates it inside the pattern string
        location, what = _where(variant, _path(refusal.pointer))
        diags.error(
            location,
            "E322",
            f"{what} of {variant.key}: the argument check cannot enforce {refusal}",
            "remove the keyword or express the rule another way; docs/spec-language.md lists what is checked",
        )
    if not native:
        return
    described: dict[tuple[Any, ...], list[str]] = {}
    dropped: dict[tuple[Any, ...], list[str]] = {}
    noticed: dict[str, list[str]] = {}
    for fmt in formats:
        strict = variant.strict and FORMATS[fmt].strict is not None
        label = fmt + (" strict" if strict else "")
        try:
            conversion = convert(schema, fmt, strict=strict)
        except DialectError:
            continue  # E500, reported by the format's emitter
        for path, keyword in conversion.described:
            described.setdefault((tuple(path), keyword), []).append(label)
        for path, keyword in conversion.dropped:
            dropped.setdefault((tuple(path), keyword), []).append(label)
        for notice in conversion.notices:
            text = notice.message.split(": ", 1)[-1]
            noticed.setdefault(f"{_shown(tuple(notice.path))}: {text}", []).append(label)
    for lost, why in ((described, "it is described in the text instead"), (dropped, "the format cannot say it")):
        for (path, keyword), labels in lost.items():
            location, what = _where(variant, path)
            diags.warning(
                location,
                "W502",
                f"{what} of {variant.key}: {keyword!r} at {_shown(path)} is not sent to {', '.join(labels)} "
                f"({why}), so calls there are not checked against it",
                "accept it, express the rule with keywords those formats send, or leave them out of 'formats'",
            )
    for text, labels in noticed.items():
        diags.warning(
            variant.location,
            "W503",
            f"{variant.key} on {', '.join(labels)}: {text}",
            "calls are checked against the schema as sent; see docs/providers.md",
        )
