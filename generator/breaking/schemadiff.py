"""What changed between two JSON Schemas of one value, as (rule id, message) pairs.

Judged from the side of the caller sending values (the model) and the handler receiving them:
a schema that accepts less than before can refuse a call that used to pass (breaking); one that
accepts more cannot (information). A keyword without a known direction (none in today's spec
language) is reported as TYPE_CHANGED: assumed to narrow. Object properties are compared like parameters, named with
dots (``options.depth``); array items with ``[]`` (``files[].path``); the schema of a map's other
members with ``.*``. ``const`` is a one-value enum; anyOf/oneOf branches (matched by shape) that
go away narrow and new ones widen, allOf the other way round.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

Change = tuple[str, str]

# A higher value of these accepts fewer values; a lower one of the second group does.
_LOWER_BOUNDS = ("minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties")
_UPPER_BOUNDS = ("maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties")
_TEXT_KEYWORDS = ("description", "title", "examples")
_HANDLED = (
    {"type", "nullable", "enum", "const", "pattern", "format", "items", "properties", "required", "default"}
    | {"additionalProperties", "uniqueItems", "multipleOf", "anyOf", "oneOf", "allOf"}
    | set(_LOWER_BOUNDS + _UPPER_BOUNDS + _TEXT_KEYWORDS)
)


def shape(schema: Mapping[str, Any]) -> Any:
    """The schema without its prose and default: two values of one shape accept the same calls."""
    return _canonical({k: v for k, v in schema.items() if k not in (*_TEXT_KEYWORDS, "default")})


def _canonical(value: Any) -> Any:
    if isinstance(value, Mapping):
        return tuple(sorted((k, _canonical(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(_canonical(v) for v in value)
    return (type(value).__name__, value)


def diff_schema(old: Mapping[str, Any], new: Mapping[str, Any], name: str) -> Iterator[Change]:
    """The changes from ``old`` to ``new`` of the parameter ``name`` (``options.depth``, ``files[]``)."""
    yield from _types(old, new, name)
    yield from _enum(_allowed(old), _allowed(new), name)
    for key in _LOWER_BOUNDS + _UPPER_BOUNDS + ("multipleOf",):
        yield from _bound(key, old.get(key), new.get(key), name)
    yield from _flag("uniqueItems", old.get("uniqueItems", False), new.get("uniqueItems", False), name)
    yield from _closed(old.get("additionalProperties"), new.get("additionalProperties"), name)
    old_extra, new_extra = old.get("additionalProperties"), new.get("additionalProperties")
    if isinstance(old_extra, Mapping) and isinstance(new_extra, Mapping):
        yield from diff_schema(old_extra, new_extra, f"{name}.*")
    for key in ("anyOf", "oneOf", "allOf"):
        yield from _branches(key, old.get(key), new.get(key), name)
    for key in ("pattern", "format"):
        yield from _pattern(key, old.get(key), new.get(key), name)
    if old.get("default") != new.get("default"):
        yield (
            "DEFAULT_CHANGED",
            f"{_label(name)}: default changed from {_show(old.get('default'))} to {_show(new.get('default'))}",
        )
    if any(old.get(k) != new.get(k) for k in _TEXT_KEYWORDS):
        yield "DESCRIPTION_CHANGED", f"{_label(name)}: description changed"
    old_items, new_items = old.get("items"), new.get("items")
    if isinstance(old_items, Mapping) and isinstance(new_items, Mapping):
        yield from diff_schema(old_items, new_items, f"{name}[]")
    elif old_items is None and new_items is not None:
        yield "BOUND_TIGHTENED", f"{_label(name)}: items must now match a schema"
    elif new_items is None and old_items is not None:
        yield "BOUND_LOOSENED", f"{_label(name)}: items no longer checked"
    yield from _properties(old, new, name)
    for key in sorted((set(old) | set(new)) - _HANDLED):
        if _canonical(old.get(key)) != _canonical(new.get(key)):
            yield "TYPE_CHANGED", f"{_label(name)}: keyword {key!r} changed (assumed to narrow)"


def _type_set(schema: Mapping[str, Any]) -> frozenset[str] | None:
    """The JSON types a schema accepts; None for any type."""
    declared = schema.get("type")
    if declared is None:
        return frozenset({"object"}) if "properties" in schema else None
    types = {declared} if isinstance(declared, str) else set(declared)
    if schema.get("nullable") is True:
        types.add("null")
    return frozenset(types)


def _covers(wide: frozenset[str] | None, narrow: frozenset[str] | None) -> bool:
    """Whether every value of type ``narrow`` is also of type ``wide`` (a number covers an integer)."""
    if wide is None:
        return True
    if narrow is None:
        return False
    return all(t in wide or (t == "integer" and "number" in wide) for t in narrow)


def _types(old: Mapping[str, Any], new: Mapping[str, Any], name: str) -> Iterator[Change]:
    before, after = _type_set(old), _type_set(new)
    if before == after:
        return
    text = f"type changed from {_show_types(before)} to {_show_types(after)}"
    if _covers(after, before):
        yield "TYPE_WIDENED", f"{_label(name)}: {text}"
    elif _covers(before, after):
        yield "TYPE_CHANGED", f"{_label(name)}: {text} (narrowed)"
    else:
        yield "TYPE_CHANGED", f"{_label(name)}: {text}"


def _show_types(types: frozenset[str] | None) -> str:
    return "any" if types is None else "|".join(sorted(types))


def _enum(before: Any, after: Any, name: str) -> Iterator[Change]:
    if before == after:
        return
    if after is None:
        yield "BOUND_LOOSENED", f"{_label(name)}: no longer limited to {_show(before)}"
        return
    if before is None:
        yield "BOUND_TIGHTENED", f"{_label(name)}: now limited to {_show(after)}"
        return
    old_values, new_values = [_canonical(v) for v in before], [_canonical(v) for v in after]
    removed = [v for v, key in zip(before, old_values, strict=True) if key not in new_values]
    added = [v for v, key in zip(after, new_values, strict=True) if key not in old_values]
    if removed:
        yield "ENUM_VALUE_REMOVED", f"{_label(name)}: enum value(s) removed: {', '.join(map(_show, removed))}"
    if added:
        yield "ENUM_VALUE_ADDED", f"{_label(name)}: enum value(s) added: {', '.join(map(_show, added))}"


def _allowed(schema: Mapping[str, Any]) -> Any:
    """The values a schema is limited to: its enum, or its const as a one-value enum."""
    if "const" in schema:
        return [schema["const"]]
    return schema.get("enum")


def _branches(key: str, before: Any, after: Any, name: str) -> Iterator[Change]:
    """A union (anyOf, oneOf) that loses a branch accepts less, one that gains a branch more; an
    intersection (allOf) the other way round. Branches are matched by shape, so a changed branch
    is one removed and one added. A union or intersection that appears narrows; one that goes
    away loosens."""
    old = [shape(b) for b in before or () if isinstance(b, Mapping)]
    new = [shape(b) for b in after or () if isinstance(b, Mapping)]
    if old == new:
        return
    if not old:
        yield "BOUND_TIGHTENED", f"{_label(name)}: now limited by {key} ({len(new)} schemas)"
        return
    if not new:
        yield "BOUND_LOOSENED", f"{_label(name)}: no longer limited by {key}"
        return
    removed = sum(1 for b in old if b not in new)
    added = sum(1 for b in new if b not in old)
    union = key != "allOf"
    if removed:
        rule = "BOUND_TIGHTENED" if union else "BOUND_LOOSENED"
        yield rule, f"{_label(name)}: {removed} {key} branch(es) removed or changed"
    if added:
        rule = "BOUND_LOOSENED" if union else "BOUND_TIGHTENED"
        yield rule, f"{_label(name)}: {added} {key} branch(es) added or changed"


def _presence(key: str, before: Any, after: Any, name: str, added: str) -> Change | None:
    """A keyword given on one side only: removing it loosens, adding it is ``added``; None otherwise."""
    if after is None:
        return "BOUND_LOOSENED", f"{_label(name)}: {key} {_show(before)} removed"
    if before is None:
        return added, f"{_label(name)}: {key} {_show(after)} added"
    return None


def _bound(key: str, before: Any, after: Any, name: str) -> Iterator[Change]:
    if before == after:
        return
    change = _presence(key, before, after, name, "BOUND_TIGHTENED")
    if change is not None:
        yield change
    elif not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (before, after)):
        yield (
            "TYPE_CHANGED",
            f"{_label(name)}: {key} changed from {_show(before)} to {_show(after)} (assumed to narrow)",
        )
    else:
        if key == "multipleOf":
            looser = before % after == 0  # every multiple of the old step is one of the new
        else:
            looser = after < before if key in _LOWER_BOUNDS else after > before
        verb = "lowered" if after < before else "raised"
        rule = "BOUND_LOOSENED" if looser else "BOUND_TIGHTENED"
        yield rule, f"{_label(name)}: {key} {verb} from {_show(before)} to {_show(after)}"


def _flag(key: str, before: Any, after: Any, name: str) -> Iterator[Change]:
    if before != after:
        rule = "BOUND_TIGHTENED" if after is True else "BOUND_LOOSENED"
        yield rule, f"{_label(name)}: {key} changed from {_show(before)} to {_show(after)}"


def _closed(before: Any, after: Any, name: str) -> Iterator[Change]:
    """additionalProperties (a boolean in the spec language): absent and true accept any extra key."""
    if (before is False) == (after is False):
        return
    if after is False:
        yield "BOUND_TIGHTENED", f"{_label(name)}: no longer accepts properties it does not declare"
    else:
        yield "BOUND_LOOSENED", f"{_label(name)}: now accepts properties it does not declare"


def _pattern(key: str, before: Any, after: Any, name: str) -> Iterator[Change]:
    if before == after:
        return
    change = _presence(key, before, after, name, "PATTERN_CHANGED")
    if change is not None:
        yield change
    else:
        yield "PATTERN_CHANGED", f"{_label(name)}: {key} changed from {_show(before)} to {_show(after)}"


def _properties(old: Mapping[str, Any], new: Mapping[str, Any], name: str) -> Iterator[Change]:
    before, after = old.get("properties") or {}, new.get("properties") or {}
    old_required, new_required = set(old.get("required") or ()), set(new.get("required") or ())
    if not isinstance(before, Mapping) or not isinstance(after, Mapping):
        return
    for prop in before:
        if prop not in after:
            yield "PARAMETER_REMOVED", f"{_label(name)}: property {prop!r} removed"
    for prop, schema in after.items():
        child = f"{name}.{prop}"
        if prop not in before:
            rule = "PARAMETER_REQUIRED_ADDED" if prop in new_required else "PARAMETER_ADDED"
            yield rule, f"{_label(name)}: property {prop!r} added{' (required)' if prop in new_required else ''}"
            continue
        if prop in new_required and prop not in old_required:
            yield "PARAMETER_MADE_REQUIRED", f"{_label(child)}: now required"
        elif prop in old_required and prop not in new_required:
            yield "PARAMETER_MADE_OPTIONAL", f"{_label(child)}: now optional"
        if isinstance(before[prop], Mapping) and isinstance(schema, Mapping):
            yield from diff_schema(before[prop], schema, child)


def _label(name: str) -> str:
    return f"parameter {name!r}"


def _show(value: Any) -> str:
    """A value in messages: JSON-like, and short."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        text = repr(value)
    elif isinstance(value, (list, tuple)):
        text = "[" + ", ".join(_show(v) for v in value) + "]"
    else:
        text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."
