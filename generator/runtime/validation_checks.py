"""The validator's checks for one schema object: type, values, numbers, strings, arrays, objects.

Standard library only; ts_runtime/validation_checks.ts builds the same checks. Each maker reads
its keywords from a ``Scope`` (the schema object being compiled) and returns a ``Run`` closure,
or None when the schema does not use them; a keyword value it cannot enforce is refused through
``Scope.refuse`` instead. validation_compile.py holds references, combinators and unevaluated
keywords, and composes the runs of one schema object.

A ``Run`` is ``run(value, problems, coerce) -> value``: it appends each problem as a list
``[message, innermost key, ..., outermost key]`` (keys are added on the way out, and only
when there is a problem, so valid values pay nothing for paths) and returns the value typed
(an integral float becomes an int where the schema says integer; text coerced on the text path).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from operator import ge, gt, le, lt
from typing import Any

from .ecma_regex import PatternError, compile_pattern
from .json_formats import CHECKS, LIKE
from .json_values import is_multiple, json_type, show, unique_key
from .schema_common import MAX_NESTING, json_text_depth
from .schema_index import Located
from .validation_keywords import FORMATS

Problem = list[Any]
Run = Callable[[Any, list[Problem], bool], Any]

_FORMAT_STATUS = {name: (status, kind) for name, status, kind, _ in FORMATS}
_GEMINI_TYPES = {
    "STRING": "string",
    "NUMBER": "number",
    "INTEGER": "integer",
    "BOOLEAN": "boolean",
    "ARRAY": "array",
    "OBJECT": "object",
    "NULL": "null",
}
_TYPES = ("null", "boolean", "integer", "number", "string", "array", "object")


def accept(value: Any, problems: list[Problem], coerce: bool) -> Any:
    """The run of ``true`` and of ``{}``."""
    return value


def under(problems: list[Problem], start: int, key: str | int) -> None:
    """Put the problems from ``start`` on under ``key``."""
    for index in range(start, len(problems)):
        problems[index].append(key)


def place_text(problem: Problem, path: str = "") -> str:
    """A problem's place: ``path`` followed by its keys (``items[2].name``)."""
    for key in reversed(problem[1:]):
        if isinstance(key, int):
            path = f"{path}[{key}]"
        elif path:
            path = f"{path}.{key}"
        else:
            path = key
    return path


def passes(run: Run, value: Any) -> bool:
    """Whether ``value`` passes a run (its problems are thrown away)."""
    found: list[Problem] = []
    run(value, found, False)
    return not found


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _non_json_number(value: Any) -> bool:
    return isinstance(value, float) and not math.isfinite(value)


def got_text(value: Any, coerce: bool) -> str:
    """How a type problem names the value it got (``text`` on the text path)."""
    text = coerce and isinstance(value, str)
    kind = "text" if text else json_type(value) or type(value).__name__
    return kind if value is None else f"{kind} {show(value)}"


_INTEGER_TEXT = re.compile(r"[-+]?\d+")
_NUMBER_TEXT = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_COERCE_ORDER = ("integer", "number", "boolean", "array", "object")


def coerce_text(text: str, types: Sequence[str]) -> Any:
    """The text read as one of ``types`` by validation.py's rules, or the text unchanged."""
    if "string" in types:
        return text
    stripped = text.strip()
    for name in _COERCE_ORDER:
        if name not in types:
            continue
        integral = _INTEGER_TEXT.fullmatch(stripped) is not None
        if integral and name in ("integer", "number") and len(stripped) <= 4300:
            return int(
                stripped
            )  # longer digit strings stay text, as json.loads refuses them
        if name == "number" and not integral and _NUMBER_TEXT.fullmatch(stripped):
            number = float(stripped)
            if math.isfinite(number):
                return number
        if name == "boolean" and stripped.lower() in ("true", "false"):
            return stripped.lower() == "true"
        if name in ("array", "object") and stripped[:1] == (
            "[" if name == "array" else "{"
        ):
            if json_text_depth(stripped) > MAX_NESTING:
                continue
            try:
                decoded = json.loads(stripped)
            except ValueError:
                continue
            if json_type(decoded) == name:
                return decoded
    return text


class Node:
    """One compiled schema (object or boolean): its run and what annotations need of it."""

    __slots__ = ("base", "parts", "place", "resource", "run", "types")

    def __init__(self, place: Located) -> None:
        self.place = place
        self.base = place.base
        self.run: Run = accept
        self.types: tuple[str, ...] = ()
        self.parts: dict[str, Any] = {}
        """What unevaluatedProperties/Items read: the applicators and their children."""
        self.resource: str | None = None


class Scope:
    """The schema object being compiled: its keywords, where it is, and how to refuse one."""

    def __init__(
        self,
        node: Node,
        child: Callable[[Located], Node],
        refuse: Callable[[Located, str, str], None],
    ) -> None:
        self.node = node
        self.schema: dict[str, Any] = node.place.schema
        self.dialect = node.place.dialect
        self._child = child
        self._refuse = refuse

    def refuse(self, key: str, reason: str) -> None:
        self._refuse(self.node.place, key, reason)

    def sub(self, *path: str | int) -> Node | None:
        """The compiled subschema at ``path`` below this object; refused unless a schema."""
        value: Any = self.schema
        for part in path:
            value = value[part]
        place = self.node.place
        if not isinstance(value, (dict, bool)):
            self._refuse(
                Located(
                    value,
                    place.base,
                    place.dialect,
                    place.document,
                    place.pointer + path[:-1],
                ),
                str(path[-1]),
                "must be a schema (an object or a boolean)",
            )
            return None
        return self._child(
            Located(
                value, place.base, place.dialect, place.document, place.pointer + path
            )
        )

    def subs(self, key: str) -> list[Node] | None:
        """The compiled schemas of a keyword holding a non-empty list of them."""
        value = self.schema[key]
        if not isinstance(value, list) or not value:
            self.refuse(key, "must be a non-empty list of schemas")
            return None
        nodes = [self.sub(key, index) for index in range(len(value))]
        return [n for n in nodes if n is not None] if all(nodes) else None

    def count(self, key: str) -> int | None:
        """A count keyword's value (2.0 is 2); refused unless a non-negative integer."""
        value: Any = self.schema.get(key)
        if value is None and key not in self.schema:
            return None
        integral = _is_number(value) and (isinstance(value, int) or value.is_integer())
        if integral and value >= 0:
            return int(value)
        self.refuse(key, "must be a non-negative integer")
        return None

    def number(self, key: str) -> int | float | None:
        value = self.schema.get(key)
        if key not in self.schema or (
            isinstance(value, bool) and key.startswith("excl")
        ):
            return None  # draft 4's exclusive flags are read with minimum and maximum
        if _is_number(value):
            return value
        self.refuse(key, "must be a number")
        return None

    def names(self, key: str, value: Any) -> tuple[str, ...] | None:
        """A list of property names (``required``, ``dependentRequired`` entries)."""
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return tuple(dict.fromkeys(value))
        self.refuse(key, "must be a list of property names")
        return None

    def pattern(self, key: str, source: Any) -> Callable[[str], bool] | None:
        """An ECMA-262 pattern's search function; refused when it does not compile."""
        if not isinstance(source, str):
            self.refuse(key, "must be a regular expression (a string)")
            return None
        try:
            return compile_pattern(source)
        except PatternError as exc:
            self.refuse(key, f"the pattern {show(source)} is not valid: {exc.message}")
            return None


# ---- type --------------------------------------------------------------------------------


def read_types(scope: Scope) -> tuple[str, ...]:
    """The declared types (``nullable: true`` adds null); refused when not type names."""
    schema = scope.schema
    raw = schema.get("type")
    if raw is None and "type" not in schema:
        types: tuple[str, ...] = ()
    else:
        names: list[Any] = raw if isinstance(raw, list) else [raw]
        if scope.dialect == "gemini":
            names = [
                _GEMINI_TYPES.get(n, n) if isinstance(n, str) else n for n in names
            ]
        if not names or not all(n in _TYPES for n in names):
            scope.refuse(
                "type", f"must be a type name or a list of them: {', '.join(_TYPES)}"
            )
            return ()
        types = tuple(dict.fromkeys(names))
    nullable = schema.get("nullable", False)
    if not isinstance(nullable, bool):
        scope.refuse("nullable", "must be true or false")
    elif nullable and types and "null" not in types:
        types += ("null",)
    return types


_FAST_CLASSES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int,),  # a float may be NaN or an infinity: it takes the slow path
    "boolean": (bool,),
    "array": (list,),
    "object": (dict,),
    "null": (type(None),),
}


def _chain(steps: list[Run]) -> Run | None:
    """The steps as one run (None when there are none)."""
    if len(steps) <= 1:
        return steps[0] if steps else None
    chain = tuple(steps)

    def run(value: Any, problems: list[Problem], coerce: bool) -> Any:
        for step in chain:
            value = step(value, problems, coerce)
        return value

    return run


def typed(types: tuple[str, ...], steps: list[Run]) -> Run:
    """A schema object's run: the type check (with text-path coercion), then its steps."""
    after = _chain(steps)
    if not types:
        return accept if after is None else after
    allowed = frozenset(types + (("integer",) if "number" in types else ()))
    fast = frozenset(cls for name in types for cls in _FAST_CLASSES[name])
    to_int = "integer" in types and "number" not in types
    wanted = " or ".join(types)

    def run(value: Any, problems: list[Problem], coerce: bool) -> Any:
        cls = type(value)
        if cls in fast:  # the common case: a plain value of a declared type
            if after is None:
                return value
            return after(value, problems, coerce and cls is not str)
        if coerce and cls is str:
            value = coerce_text(value, types)
            nested = False  # values inside decoded JSON are native
        else:
            nested = coerce
        kind = json_type(value)
        if kind not in allowed:
            if kind is None and _non_json_number(value):
                problems.append([f"not a JSON number (got {show(value)})"])
            else:
                problems.append([f"expected {wanted}, got {got_text(value, coerce)}"])
            return value
        if to_int and type(value) is float:
            value = int(value)
        return value if after is None else after(value, problems, nested)

    return run


# ---- enum and const ----------------------------------------------------------------------


def values(scope: Scope) -> Run | None:
    schema = scope.schema
    if "enum" in schema:
        allowed = schema["enum"]
        if not isinstance(allowed, list):
            scope.refuse("enum", "must be a list of values")
            return None
        if "const" in schema and scope.dialect != "gemini":
            return _all(_one_of_values(allowed), _one_of_values([schema["const"]]))
        return _one_of_values(allowed)
    if "const" in schema:
        return _one_of_values([schema["const"]])
    return None


def _all(*runs: Run | None) -> Run | None:
    steps = tuple(r for r in runs if r is not None)
    if len(steps) <= 1:
        return steps[0] if steps else None

    def run(value: Any, problems: list[Problem], coerce: bool) -> Any:
        for step in steps:
            value = step(value, problems, coerce)
        return value

    return run


def _one_of_values(allowed: list[Any]) -> Run:
    lead = "must be one of" if len(allowed) != 1 else "must be"
    shown = ", ".join(show(v) for v in allowed)
    if all(type(v) is str for v in allowed):
        texts = frozenset(allowed)

        def run_texts(value: Any, problems: list[Problem], coerce: bool) -> Any:
            if not (isinstance(value, str) and value in texts):
                problems.append([f"{lead} {shown} (got {show(value)})"])
            return value

        return run_texts
    keys = frozenset(unique_key(v) for v in allowed)

    def run(value: Any, problems: list[Problem], coerce: bool) -> Any:
        if unique_key(value) not in keys:
            problems.append([f"{lead} {shown} (got {show(value)})"])
        return value

    return run


# ---- numbers -------------------------------------------------------------------------------


def numbers(scope: Scope) -> Run | None:
    schema = scope.schema
    tests: list[tuple[Callable[[Any, Any], bool], Any, str]] = []
    low, high = scope.number("minimum"), scope.number("maximum")
    ex_low, ex_high = scope.number("exclusiveMinimum"), scope.number("exclusiveMaximum")
    for key in ("exclusiveMinimum", "exclusiveMaximum"):
        flag = schema.get(key)
        if isinstance(flag, bool) and flag and schema.get(key[9:].lower()) is None:
            scope.refuse(key, f"the draft 4 flag needs {key[9:].lower()} beside it")
    if low is not None:
        if schema.get("exclusiveMinimum") is True:
            tests.append((gt, low, "greater than"))
        else:
            tests.append((ge, low, "at least"))
    if high is not None:
        if schema.get("exclusiveMaximum") is True:
            tests.append((lt, high, "less than"))
        else:
            tests.append((le, high, "at most"))
    if ex_low is not None:
        tests.append((gt, ex_low, "greater than"))
    if ex_high is not None:
        tests.append((lt, ex_high, "less than"))
    step = scope.number("multipleOf")
    if step is not None:
        if step > 0:
            tests.append((is_multiple, step, "a multiple of"))
        else:
            scope.refuse("multipleOf", "must be greater than 0")
    if not tests:
        return None
    checks = tuple(tests)

    def run(value: Any, problems: list[Problem], coerce: bool) -> Any:
        if type(value) is bool or not isinstance(value, (int, float)):
            return value
        if _non_json_number(value):
            problems.append([f"not a JSON number (got {show(value)})"])
            return value
        for test, bound, wanted in checks:
            if not test(value, bound):
                problems.append([f"must be {wanted} {bound} (got {value})"])
        return value

    return run


# ---- strings -------------------------------------------------------------------------------


def strings(scope: Scope) -> Run | None:
    low, high = scope.count("minLength"), scope.count("maxLength")
    source = scope.schema.get("pattern")
    search = scope.pattern("pattern", source) if "pattern" in scope.schema else None
    if low is None and high is None and search is None:
        return None

    def run(value: Any, problems: list[Problem], coerce: bool) -> Any:
        if not isinstance(value, str):
            return value
        if low is not None and len(value) < low:
            problems.append([f"must be at least {low} characters long"])
        if high is not None and len(value) > high:
            problems.append([f"must be at most {high} characters long"])
        if search is not None and not search(value):
            problems.append([f"must match the pattern {source}"])
        return value

    return run


def formats(scope: Scope) -> Run | None:
    name = scope.schema.get("format")
    if name is None and "format" not in scope.schema:
        return None
    if not isinstance(name, str):
        scope.refuse("format", "must be a format name (a string)")
        return None
    status, kind = _FORMAT_STATUS.get(name, ("annotation", ""))
    if name == "enum":
        if scope.dialect == "gemini" and "enum" not in scope.schema:
            scope.refuse("format", "format enum needs the enum values beside it")
        return None  # Gemini's enum format: the enum keyword checks the values
    if status != "enforced":
        return None
    check = CHECKS[name]
    like = LIKE[name]
    if kind == "number":

        def run_number(value: Any, problems: list[Problem], coerce: bool) -> Any:
            if _is_number(value) and not _non_json_number(value) and not check(value):
                problems.append([f"must be {like} ({name}) (got {value})"])
            return value

        return run_number

    def run(value: Any, problems: list[Problem], coerce: bool) -> Any:
        if isinstance(value, str) and not check(value):
            problems.append(
                [f"must be a valid {name}, like {like} (got {show(value)})"]
            )
        return value

    return run


# ---- arrays --------------------------------------------------------------------------------


def arrays(scope: Scope) -> Run | None:
    schema = scope.schema
    items = schema.get("items")
    prefix: list[Node] = []
    rest: Node | None = None
    if "prefixItems" in schema and scope.dialect == "2020-12":
        prefix = scope.subs("prefixItems") or []
    if isinstance(items, list):  # draft 7's array form (also read in 2020-12)
        prefix = scope.subs("items") or [] if items else []
        if "additionalItems" in schema:
            rest = scope.sub("additionalItems")
    elif "items" in schema:
        rest = scope.sub("items")
    scope.node.parts.update(prefix=len(prefix), items=rest is not None)
    low, high = scope.count("minItems"), scope.count("maxItems")
    unique = schema.get("uniqueItems", False)
    if not isinstance(unique, bool):
        scope.refuse("uniqueItems", "must be true or false")
    contains = _contains(scope)
    closed = rest is not None and rest.place.schema is False
    if closed:
        rest = None
    runs = tuple(n.run for n in prefix)
    rest_run = rest.run if rest is not None else None
    if not (runs or rest_run or closed or unique is True or contains) and (
        low is None and high is None
    ):
        return None
    size = len(runs)

    def run(value: Any, problems: list[Problem], coerce: bool) -> Any:
        if type(value) is not list:
            if not isinstance(value, tuple):
                return value
            value = list(value)
        count = len(value)
        if low is not None and count < low:
            problems.append([f"must have at least {low} items"])
        if high is not None and count > high:
            problems.append([f"must have at most {high} items"])
        if closed and count > size:
            problems.append([f"must have at most {size} items"])
        if unique is True and len({unique_key(v) for v in value}) < count:
            problems.append(["items must be unique"])
        out = value
        for index, item in enumerate(value):
            check = runs[index] if index < size else rest_run
            if check is None:
                if index >= size:
                    break
                continue
            start = len(problems)
            new = check(item, problems, False)
            if len(problems) > start:
                under(problems, start, index)
            if new is not item:
                if out is value:
                    out = list(value)
                out[index] = new
        if contains is not None:
            contains(value, problems)
        return out

    return run


def _contains(scope: Scope) -> Callable[[list[Any], list[Problem]], None] | None:
    schema = scope.schema
    modern = scope.dialect in ("2020-12", "2019-09")
    low = scope.count("minContains") if modern else None
    high = scope.count("maxContains") if modern else None
    if "contains" not in schema:
        return None
    node = scope.sub("contains")
    if node is None:
        return None
    scope.node.parts["contains"] = node
    least = 1 if low is None else low
    matching = f"matching {show(schema['contains'])}"
    check = node.run

    def run(value: list[Any], problems: list[Problem]) -> None:
        found = sum(1 for item in value if passes(check, item))
        if found < least:
            problems.append([f"must contain at least {least} items {matching}"])
        if high is not None and found > high:
            problems.append(
                [f"must contain at most {high} items {matching} (has {found})"]
            )

    return run


# ---- objects -------------------------------------------------------------------------------


def objects(scope: Scope) -> Run | None:
    schema = scope.schema
    props: dict[str, Run] = {}
    raw = schema.get("properties")
    if raw is not None or "properties" in schema:
        if isinstance(raw, dict):
            for key in raw:
                sub = scope.sub("properties", key)
                if sub is not None:
                    props[key] = sub.run
        else:
            scope.refuse("properties", "must map property names to schemas")
    required = (
        scope.names("required", schema["required"]) or ()
        if "required" in schema
        else ()
    )
    patterns: list[tuple[Callable[[str], bool], Run]] = []
    raw_patterns = schema.get("patternProperties")
    if "patternProperties" in schema and not isinstance(raw_patterns, dict):
        scope.refuse("patternProperties", "must map patterns to schemas")
    for source in raw_patterns if isinstance(raw_patterns, dict) else ():
        search = scope.pattern("patternProperties", source)
        sub = scope.sub("patternProperties", source)
        if search is not None and sub is not None:
            patterns.append((search, sub.run))
    extra = (
        scope.sub("additionalProperties") if "additionalProperties" in schema else None
    )
    closed = extra is not None and extra.place.schema is False
    if scope.dialect == "gemini" and schema.get("properties"):
        closed = True  # Gemini's objects take their declared properties only
    extra_run = None if extra is None or closed else extra.run
    names = scope.sub("propertyNames") if "propertyNames" in schema else None
    low, high = scope.count("minProperties"), scope.count("maxProperties")
    needs, depends = _dependencies(scope)
    scope.node.parts.update(
        properties=frozenset(props), patterns=[p[0] for p in patterns]
    )
    scope.node.parts["additional"] = extra is not None
    general = bool(patterns or extra_run or names)
    if not (props or required or closed or general or needs or depends) and (
        low is None and high is None
    ):
        return None
    names_run = names.run if names is not None else None
    counted = low is not None or high is not None

    def more(key: str, item: Any, matched: bool, problems: list[Problem]) -> Any:
        """patternProperties, additionalProperties and propertyNames for one property."""
        for search, pattern_run in patterns:
            if search(key):
                item = pattern_run(item, problems, False)
                matched = True
        if not matched:
            if closed:
                problems.append(["unknown parameter"])
            elif extra_run is not None:
                item = extra_run(item, problems, False)
        if names_run is not None:
            found: list[Problem] = []
            names_run(key, found, False)
            for problem in found:
                problems.append([f"the name {show(key)} is not allowed: {problem[0]}"])
        return item

    def run(value: Any, problems: list[Problem], coerce: bool) -> Any:
        if type(value) is not dict:
            if not isinstance(value, Mapping):
                return value
            value = dict(value)
        for key in required:
            if key not in value:
                problems.append(["required, but missing", key])
        if counted:
            size = len(value)
            if low is not None and size < low:
                problems.append([f"must have at least {low} properties"])
            if high is not None and size > high:
                problems.append([f"must have at most {high} properties"])
        out = value
        for key, item in value.items():
            sub = props.get(key)
            new = item
            start = len(problems)
            if sub is not None:
                new = sub(item, problems, coerce)
            if general:
                new = more(key, new, sub is not None, problems)
            elif sub is None and closed:
                problems.append(["unknown parameter"])
            if len(problems) > start:
                under(problems, start, key)
            if new is not item:
                if out is value:
                    out = dict(value)
                out[key] = new
        for key, wanted in needs.items() if needs else ():
            if key in value:
                for name in wanted:
                    if name not in value:
                        problems.append(
                            [f"required when {key} is present, but missing", name]
                        )
        for key, depend in depends.items() if depends else ():
            if key in value:
                depend(value, problems, False)
        return out

    if general or counted or needs or depends:
        return run

    def run_plain(value: Any, problems: list[Problem], coerce: bool) -> Any:
        """``run`` for the common tool shape: properties, required, maybe closed."""
        if type(value) is not dict:
            return run(value, problems, coerce)
        for key in required:
            if key not in value:
                problems.append(["required, but missing", key])
        out = value
        start = len(problems)
        for key, item in value.items():
            sub = props.get(key)
            if sub is None:
                if closed:
                    problems.append(["unknown parameter", key])
                    start += 1
                continue
            new = sub(item, problems, coerce)
            if len(problems) != start:
                under(problems, start, key)
                start = len(problems)
            if new is not item:
                if out is value:
                    out = dict(value)
                out[key] = new
        return out

    return run_plain


def _dependencies(
    scope: Scope,
) -> tuple[dict[str, tuple[str, ...]], dict[str, Run]]:
    """dependentRequired, dependentSchemas and draft 7's dependencies, by property name."""
    schema = scope.schema
    needs: dict[str, tuple[str, ...]] = {}
    depends: dict[str, Run] = {}
    parts: dict[str, Node] = {}
    for key in ("dependentRequired", "dependentSchemas", "dependencies"):
        if key not in schema:
            continue
        raw = schema[key]
        if not isinstance(raw, dict):
            scope.refuse(key, "must map property names to a list of names or a schema")
            continue
        for name, value in raw.items():
            if key != "dependentSchemas" and isinstance(value, list):
                found = scope.names(key, value)
                if found:
                    needs[name] = needs.get(name, ()) + found
            elif key != "dependentRequired":
                sub = scope.sub(key, name)
                if sub is not None:
                    parts[name] = sub
                    previous = depends.get(name)
                    depends[name] = (
                        sub.run
                        if previous is None
                        else _all(previous, sub.run)  # type: ignore[assignment]
                    )
            else:
                scope.refuse(key, "must map property names to lists of names")
    scope.node.parts["dependentSchemas"] = parts
    return needs, depends
