"""The documented differences between the runtimes (differences.json) and TypeScript's answer for each.

A model is (id, applies, answer): ``applies(module, function, input, expect)`` tells whether the
difference shows in a case, and ``answer`` gives TypeScript's answer from Python's. generate.py marks
every case a model applies to, so the corpus holds both answers; ``render`` writes the table and the
case counts into docs/conformance.md.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conformance.corpus import MAX_SAFE_INTEGER, Case

TABLE = Path(__file__).resolve().parent / "differences.json"
_INDEX = re.compile(r"0|[1-9][0-9]*")


def entries() -> list[dict[str, str]]:
    data: list[dict[str, str]] = json.loads(TABLE.read_text("utf-8"))["differences"]
    return data


# ---- integer-like keys ------------------------------------------------------------------------


def _index_like(key: str) -> bool:
    return bool(_INDEX.fullmatch(key)) and int(key) < 2**32 - 1


def has_index_keys(value: Any) -> bool:
    """Whether any object in ``value`` has a key that reads as an array index."""
    if isinstance(value, dict):
        return any(_index_like(key) or has_index_keys(item) for key, item in value.items())
    if isinstance(value, list):
        return any(has_index_keys(item) for item in value)
    return False


def js_order(value: Any) -> Any:
    """``value`` with every object's keys in JavaScript's iteration order."""
    if isinstance(value, dict):
        indexes = sorted((k for k in value if _index_like(k)), key=int)
        rest = [k for k in value if not _index_like(k)]
        return {k: js_order(value[k]) for k in [*indexes, *rest]}
    if isinstance(value, list):
        return [js_order(item) for item in value]
    return value


def _js_int(literal: str) -> int | float:
    """An integer literal as JSON.parse reads it: the nearest double, still an integer."""
    number = int(literal)
    if abs(number) <= MAX_SAFE_INTEGER:
        return number
    try:
        near = float(number)
    except OverflowError:
        return math.inf if number > 0 else -math.inf
    return int(near)  # an integer to the runtime (Number.isInteger); number-text says how it is shown


def _servers_text(text: Any, changed: set[str]) -> Any:
    """MCP servers given as JSON text (the native cases): the text JavaScript's JSON.parse would
    read, where an integer literal beyond ±(2**53 - 1) is a double (an infinity past 1.8e308)."""
    if not isinstance(text, str):
        return text
    try:
        loaded = json.loads(text, parse_int=_js_int)
        exact = json.loads(text)
    except ValueError:
        return text  # both runtimes refuse it alike
    if json.dumps(loaded) == json.dumps(exact):
        return text
    changed.add("js-numbers")
    return json.dumps(loaded, ensure_ascii=False)


def js_view(value: Any) -> tuple[Any, set[str]]:
    """``value`` as JavaScript holds it after ``JSON.parse``, and the differences that changed it:
    keys in JavaScript's order ("integer-like-keys"); an integral float as an integer and an integer
    past ±(2**53 - 1) as the nearest double, itself integral ("js-numbers")."""
    changed: set[str] = set()

    def view(item: Any) -> Any:
        if isinstance(item, bool) or item is None or isinstance(item, str):
            return item
        if isinstance(item, int) and abs(item) > MAX_SAFE_INTEGER:
            try:
                near = float(item)
            except OverflowError:  # past the largest double: JSON.parse reads an infinity
                changed.add("js-numbers")
                return math.inf if item > 0 else -math.inf
            if int(near) != item:
                changed.add("js-numbers")  # the nearest double, an integer itself
                return int(near)
            return item
        if isinstance(item, float) and item.is_integer():
            changed.add("js-numbers")
            return int(item)
        if isinstance(item, dict):
            indexes = sorted((k for k in item if _index_like(k)), key=int)
            order = [*indexes, *(k for k in item if not _index_like(k))]
            if order != list(item):
                changed.add("integer-like-keys")
            return {key: _servers_text(item[key], changed) if key == "servers" else view(item[key]) for key in order}
        if isinstance(item, (list, tuple)):
            return [view(sub) for sub in item]
        return item

    return view(value), changed


# ---- integers past 2**53 in call arguments ----------------------------------------------------

#: The functions whose answer holds the calls read from a reply, and where their uses are.
_READERS = {("dispatch", "readCalls"), ("dispatch", "decode"), ("dispatch", "stream"), ("special", "readCalls")}


def _beyond(value: Any, floats_too: bool) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return abs(value) > MAX_SAFE_INTEGER
    return floats_too and isinstance(value, float) and value.is_integer() and abs(value) > MAX_SAFE_INTEGER


def big_path(params: Any, floats_too: bool) -> str | None:
    """Where the first integral number beyond ±(2**53 - 1) is (``a.b[0]``), or None."""
    if not _has_big(params, floats_too):
        return None

    def walk(value: Any, path: str) -> str | None:
        if _beyond(value, True):
            return path
        if isinstance(value, dict):
            for key, item in js_order(value).items():
                found = walk(item, f"{path}.{key}" if path else key)
                if found is not None:
                    return found
        if isinstance(value, list):
            for index, item in enumerate(value):
                found = walk(item, f"{path}[{index}]")
                if found is not None:
                    return found
        return None

    return walk(params, "")


def _has_big(value: Any, floats_too: bool) -> bool:
    if isinstance(value, dict):
        return any(_has_big(item, floats_too) for item in value.values())
    if isinstance(value, (list, tuple)):
        return any(_has_big(item, floats_too) for item in value)
    return _beyond(value, floats_too)


def big_reason(path: str) -> str:
    """TypeScript's reason for refusing such a call (generator/ts_runtime/replies.ts says the same)."""
    return f"its argument {path!r} holds an integer beyond \u00b1(2**53 - 1), which JavaScript cannot hold exactly"


def _refused_use(use: dict[str, Any], floats_too: bool) -> dict[str, Any]:
    if use.get("error") is not None or use.get("partial"):
        return use
    path = big_path(use.get("params"), floats_too)
    if path is None:
        return use
    who = f"tool {use['name']}" if use["name"] else "a tool without a name"
    error = f"The call to {who} was not run: {big_reason(path)}. Send it again, corrected."
    return {**use, "params": {}, "error": error}


def _from_objects(given: Any) -> bool:
    """Whether the arguments arrive already parsed (not as JSON text) in this case's format."""
    return given.get("format") in ("anthropic", "gemini", "bedrock-converse")


def _big_answer(module: str, function: str, given: Any, expect: Any) -> Any:
    if function == "decode" and isinstance(expect, list):
        params, reason = expect
        floats = not isinstance(given.get("value"), str)
        if reason is None and (path := big_path(params, floats)) is not None:
            return [{}, big_reason(path)]
        return expect
    if not isinstance(expect, dict) or ("error" in expect and len(expect) == 1):
        return expect
    floats = _from_objects(given) if isinstance(given, dict) else False
    out = dict(expect)
    for key in ("uses", "calls", "finished"):
        if key in out:
            out[key] = [_refused_use(u, floats) for u in out[key]]
    if "fed" in out:
        out["fed"] = [[_refused_use(u, floats) for u in batch] for batch in out["fed"]]
    return out


def _big_applies(module: str, function: str, given: Any, expect: Any) -> bool:
    return (module, function) in _READERS and _big_answer(module, function, given, expect) != expect


# ---- how an integral number past 1e16 is shown ------------------------------------------------

_LONG_INTEGER = re.compile(r"(?<![\w.])-?[1-9][0-9]{16,}(?![\w.])")


def _as_float_text(text: str) -> str:
    return _LONG_INTEGER.sub(lambda m: repr(float(int(m.group()))), text)


def _texts(value: Any, change: Callable[[str], str]) -> Any:
    if isinstance(value, str):
        return change(value)
    if isinstance(value, dict):
        return {key: _texts(item, change) for key, item in value.items()}
    if isinstance(value, list):
        return [_texts(item, change) for item in value]
    return value


#: Where answers quote numbers from the input: the validator's messages, the texts of native tools.
_SHOWN = {("dispatch", "validate"), ("native", "nativeTools")}


def _number_text_applies(module: str, function: str, given: Any, expect: Any) -> bool:
    if (module, function) not in _SHOWN:
        return False
    # only an integer of 17 digits or more in the input can be shown so (a shortcut past the texts)
    servers = given.get("servers") if isinstance(given, dict) else None
    if not _has_big(given, True) and not (isinstance(servers, str) and re.search(r"[0-9]{17}", servers)):
        return False
    return _texts(expect, _as_float_text) != expect


def _number_text(module: str, function: str, given: Any, expect: Any) -> Any:
    return _texts(expect, _as_float_text)


# ---- messages that name the API ------------------------------------------------------------

TS_RUNTIME = Path(__file__).resolve().parents[2] / "generator" / "ts_runtime"


def _ts_constant(module: str, name: str) -> str:
    """A text constant of the TS runtime (string literals joined with +), read from its source."""
    source = (TS_RUNTIME / f"{module}.ts").read_text("utf-8")
    start = source.index(f"export const {name} =")
    body = source[start : source.index(";", start)]
    return "".join(json.loads(literal) for literal in re.findall(r'"(?:[^"\\]|\\.)*"', body))


def _api_texts() -> list[tuple[str, str]]:
    """(Python's text, TypeScript's) of each remedy that names the caller's API."""
    from generator.runtime import handler_calls

    return [(getattr(handler_calls, name), _ts_constant("handler_calls", name)) for name in ("BIND_ASYNC", "USE_ASYNC")]


def _in_ts_words(text: str) -> str:
    for python, typescript in _api_texts():
        text = text.replace(python, typescript)
    return text


def _api_applies(module: str, function: str, given: Any, expect: Any) -> bool:
    # only dispatch runs handlers, whose refusals name the API
    return module == "dispatch" and _texts(expect, _in_ts_words) != expect


def _api_answer(module: str, function: str, given: Any, expect: Any) -> Any:
    return _texts(expect, _in_ts_words)


#: Models applied to the answer, after the input was read as JavaScript reads it.
MODELS: list[tuple[str, Callable[..., bool], Callable[..., Any]]] = [
    ("big-integers", _big_applies, _big_answer),
    ("number-text", _number_text_applies, _number_text),
    ("api-spelling", _api_applies, _api_answer),
]


# ---- the doc ----------------------------------------------------------------------------------


def render(files: dict[str, list[Case]]) -> str:
    """docs/conformance.md: what the corpus is, its cases per function, and the differences."""
    counts: Counter[tuple[str, str]] = Counter()
    used: Counter[str] = Counter()
    for cases in files.values():
        for case in cases:
            counts[(case.module, case.function)] += 1
            used.update(case.differences)
    total = sum(counts.values())
    lines = [
        "<!-- Generated by tests/conformance/generate.py from tests/conformance/differences.json. DO NOT EDIT. -->",
        "# Conformance: one corpus, two runtimes",
        "",
        "The Python and the TypeScript runtime answer alike, and this is checked the way protobuf checks",
        "its language runtimes: `tests/conformance/corpus/*.jsonl` holds cases (module, function, input,",
        "expected answer) that Python writes (`tests/conformance/generate.py`, seeded generators, the same",
        "bytes every run) and that `tests/conformance/runner.test.ts` replays against the TypeScript",
        "package under `node --test`, with no Python in the loop. `make test` runs both sides:",
        "`tests/test_conformance.py` fails when the committed corpus is not what the Python runtime",
        "answers now, and runs the TypeScript runner (skipped, and said so, without node).",
        "",
        "To replay it by hand: `node tests/conformance/run.mjs` compiles generated-ts/ with the adapters",
        "(`tests/ts_scripts/<module>.ts`) and runs the runner. The `js_names` and `orders` modules need",
        "their spec sets' packages (`toolgen generate --specs tests/data/js_names/specs --ts-out <dir>`,",
        "then `--package js_names=<dir>`); without them their cases are skipped, and the runner says so.",
        "A third language would write its own adapters and read the same files.",
        "",
        "The format is in `tests/conformance/corpus.py`: pure-ASCII JSON lines; NaN and the infinities as",
        '`{"$$float": "nan"}`; integers past ±(2**53 - 1) as `{"$$int": "<digits>"}` (a JavaScript reader',
        "takes the nearest double, as `JSON.parse` does); text escaped as `\\uXXXX`, so a lone surrogate is",
        "an escape both `json.loads` and `JSON.parse` read back as that one code unit; long texts as pieces",
        '(`{"$$text": [...]}`, runs of one character counted); large values written once in',
        '`shared.jsonl.gz` and referenced as `{"$$ref": "<id>"}`.',
        "",
        "`tests/data/runtime/interface.json` (`tools/runtime_interface.py`) records both runtimes' public",
        "names side by side; `tests/test_runtime_interface.py` fails on a name with no counterpart and no",
        "reason (`tests/data/runtime/one_sided.json`), and on a paired TypeScript function or class that",
        "no case of the corpus runs (V8's coverage of the runner).",
        "",
        f"## Cases ({total:,})",
        "",
        "| module | function | cases |",
        "| --- | --- | ---: |",
    ]
    lines += [f"| {m} | `{f}` | {n:,} |" for (m, f), n in sorted(counts.items())]
    lines += [
        "",
        "## Differences",
        "",
        "Every difference between the runtimes is one entry here; a case it shows in records both",
        "languages' answers (`expect` and `expect_ts`). An entry no case exercises fails the tests.",
        "",
        "| id | what | Python | TypeScript | cases |",
        "| --- | --- | --- | --- | ---: |",
    ]
    for entry in entries():
        cells = [f"`{entry['id']}`", entry["title"], entry["python"], entry["typescript"], f"{used[entry['id']]:,}"]
        lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    limits = json.loads(TABLE.read_text("utf-8")).get("limits", [])
    if limits:
        lines += ["", "## Limits no case shows", "", "What could differ, though no case of the corpus does:", ""]
        lines += [f"- `{limit['id']}`: {limit['what']}" for limit in limits]
    return "\n".join(lines) + "\n"
