"""Evaluate declarative predicates (context requirements and family selection rules).

Standard library only: copied verbatim into the generated package, and used by the generator.
Predicates are plain data (mappings, tuples, strings); see docs/spec-language.md for the forms.
Semantics follow the modelled system: ECMAScript-style trim and lower-casing for normalized ids,
JavaScript-like truthiness, and a provider test on a missing provider that fails the whole matcher.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

__all__ = [
    "JS_WHITESPACE",
    "MatcherError",
    "SelectionData",
    "evaluate",
    "family_name",
    "field_tests",
    "field_value",
    "normalize",
    "read_fields",
    "select",
    "truthy",
]

# ECMAScript String.prototype.trim strips WhiteSpace and LineTerminator code points.
JS_WHITESPACE = (
    "\u0009\u000a\u000b\u000c\u000d\u0020\u00a0\u1680\u2000\u2001\u2002\u2003\u2004"
    "\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)


class MatcherError(Exception):
    """A predicate could not be evaluated (e.g. a provider test with no provider)."""


def normalize(value: str) -> str:
    return value.strip(JS_WHITESPACE).lower()


def family_name(family: Any) -> str:
    """A family (or tool id) as its plain name: enum members give their value."""
    return str(getattr(family, "value", family))


def truthy(value: Any) -> bool:
    """JavaScript-like truthiness; empty lists are falsy too (documented deviation)."""
    if value is None or value is False:
        return False
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value != 0 and value == value
    if isinstance(value, (str, list, tuple)):
        return len(value) > 0
    return True


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    return type(a) is type(b) and a == b


class SelectionData:
    """The named sets and model predicates that selection rules refer to."""

    def __init__(
        self,
        provider_sets: Mapping[str, Sequence[str]],
        model_sets: Mapping[str, Sequence[str]],
        model_predicates: Mapping[str, Mapping[str, Any]],
    ) -> None:
        self.provider_sets = {k: frozenset(v) for k, v in provider_sets.items()}
        self.model_sets = {k: frozenset(v) for k, v in model_sets.items()}
        self.model_predicates = model_predicates
        self._regex: dict[str, re.Pattern[str]] = {}

    def model_matches(self, name: str, model_id: str) -> bool:
        return self._model(self.model_predicates[name], model_id)

    def _model(self, node: Mapping[str, Any], mid: str) -> bool:
        for key, arg in node.items():
            if key == "any_contains":
                ok = any(s in mid for s in arg)
            elif key == "all_contains":
                ok = all(s in mid for s in arg)
            elif key == "none_contains":
                ok = not any(s in mid for s in arg)
            elif key == "equals_any":
                ok = mid in arg
            elif key == "in_set":
                ok = mid in self.model_sets[arg]
            elif key == "model_matches":
                ok = self.model_matches(arg, mid)
            elif key == "any":
                ok = any(self._model(child, mid) for child in arg)
            elif key == "all":
                ok = all(self._model(child, mid) for child in arg)
            elif key == "regex_first_match":
                pattern = self._regex.get(arg["pattern"])
                if pattern is None:
                    pattern = self._regex[arg["pattern"]] = re.compile(
                        arg["pattern"], re.ASCII
                    )
                found = pattern.search(mid)
                ok = False
                if found is not None and found.group(arg["group"]) is not None:
                    try:
                        ok = float(found.group(arg["group"])) >= arg["gte"]
                    except ValueError:
                        ok = False
            else:
                raise MatcherError(f"unknown model predicate key {key!r}")
            if not ok:
                return False
        return True


def field_value(context: Any, name: str) -> Any:
    """A context field from a Context-like object or a mapping (None when absent)."""
    if isinstance(context, Mapping):
        return context.get(name)
    return getattr(context, name, None)


def evaluate(
    pred: Mapping[str, Any], context: Any, data: SelectionData | None = None
) -> bool:
    """Evaluate one predicate; may raise MatcherError (selection treats that as 'no match')."""
    if "all" in pred:
        return all(evaluate(child, context, data) for child in pred["all"])
    if "any" in pred:
        return any(evaluate(child, context, data) for child in pred["any"])
    if "not" in pred:
        return not evaluate(pred["not"], context, data)
    if "field" in pred:
        value = field_value(context, pred["field"])
        if "truthy" in pred:
            same: bool = truthy(value) == pred["truthy"]
            return same
        if "equals" in pred:
            return _same(value, pred["equals"])
        if "in" in pred:
            return any(_same(value, option) for option in pred["in"])
        if "contains" in pred:
            needle = pred["contains"].lower()
            items = value if isinstance(value, (list, tuple)) else [value]
            return any(isinstance(v, str) and needle in v.lower() for v in items)
        if "ends_with" in pred:
            items = value if isinstance(value, (list, tuple)) else [value]
            return any(
                isinstance(v, str) and v.endswith(pred["ends_with"]) for v in items
            )
        raise MatcherError(f"field predicate without a comparison: {dict(pred)!r}")
    if data is None:
        raise MatcherError("selection predicates need selection data")
    if "provider_in" in pred:
        provider = field_value(context, "provider_id")
        if not isinstance(provider, str):
            raise MatcherError("provider_in needs a provider id")
        return normalize(provider) in data.provider_sets[pred["provider_in"]]
    if "model_matches" in pred:
        model = field_value(context, "model_id")
        if not isinstance(model, str):
            raise MatcherError("model_matches needs a model id")
        return data.model_matches(pred["model_matches"], normalize(model))
    if "model_raw_contains" in pred:
        model = field_value(context, "model_id")
        if not isinstance(model, str):
            raise MatcherError("model_raw_contains needs a model id")
        return pred["model_raw_contains"] in model
    raise MatcherError(f"unknown predicate {dict(pred)!r}")


def _tests(pred: Mapping[str, Any] | None) -> Iterator[Mapping[str, Any]]:
    """The simple predicates inside ``pred`` (below any all/any/not)."""
    pending = [pred]
    while pending:
        node = pending.pop()
        if not isinstance(node, Mapping):
            continue
        compound = [*node.get("all", ()), *node.get("any", ())]
        compound += [node["not"]] if "not" in node else []
        if compound or "all" in node or "any" in node:
            pending += compound
        else:
            yield node


def read_fields(pred: Mapping[str, Any] | None) -> set[str]:
    """The context fields ``evaluate`` may read for ``pred`` (a cache key needs no others)."""
    found: set[str] = set()
    for test in _tests(pred):
        if "field" in test:
            found.add(test["field"])
        elif "provider_in" in test:
            found.add("provider_id")
        elif "model_matches" in test or "model_raw_contains" in test:
            found.add("model_id")
    return found


def field_tests(pred: Mapping[str, Any] | None) -> list[Mapping[str, Any]]:
    """The ``field`` predicates inside ``pred``: the only way it reads a field's value."""
    return [test for test in _tests(pred) if "field" in test]


def select(
    rules: Sequence[tuple[str, Mapping[str, Any]]],
    context: Any,
    data: SelectionData,
    fallback: str,
    precondition: Mapping[str, Any] | None = None,
) -> str:
    """The first family whose rule holds, trying rules in order; ``fallback`` otherwise.

    A rule that raises counts as not matching, and the next one is tried.
    """
    if precondition is not None:
        try:
            if not evaluate(precondition, context, data):
                return fallback
        except MatcherError:
            return fallback
    for family, rule in rules:
        try:
            if evaluate(rule, context, data):
                return family
        except MatcherError:
            continue
    return fallback
