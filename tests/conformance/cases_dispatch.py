"""Conformance cases of the return path (module "dispatch", tests/ts_scripts/dispatch.ts):

- dispatch decisions, sync and async: every tool name of every family, every MCP tool name the
  servers of tests/data/mcp/ give (and the raw, unrewritten and malformed spellings), subagent
  names around the length limit, unknown names, unreadable calls; which handler (class, shared
  alias) or which error, the ``has`` answer and the label; a namespace missing classes, strict
  and lenient;
- ``readCalls`` on the reply corpus of tests/replies_data.py for every format, with missing and
  repeated ids, malformed arguments (CPython's JSON error texts), odd response shapes, a reply
  entered along its call path, and a small argument limit;
- the stream accumulators (all four formats) fed every prefix of the event streams, then finished;
- argument validation: every static tool's schema and every MCP tool's schema, on valid and
  broken arguments drawn with a fixed seed, native and text path; plus the keyword corpus;
- result messages (each, grouped, text path) for every format;
- the Offer of every family in three contexts, on the text path and in every format, with MCP
  servers (one disabled) and subagents: the names sent, the skip report, and for calls to every
  tool, offered or not, with drawn arguments: the refusal and the answer.

Numbers past 2**53 and integer-like keys are the cases of cases_special.py. Patterns are
ECMA-262 in both (ecma_regex): the keyword corpus has invalid and refused patterns (the same
refusal texts) and patterns Python's own ``re`` would read otherwise.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import generated
from conformance.common import Cases
from generated import catalog_data
from generated._runtime import replies, streams, validation
from generated._runtime.dynamic_tools import encode_mcp_tool_name, load_servers_json, mcp_tools
from generated._runtime.native import parameters_schema
from generated._runtime.validation_scope import MAX_PATTERN_TEXT
from generated.dispatch import (
    HANDLERS,
    MCP_SEPARATOR,
    SUBAGENT_MAX_LENGTH,
    SUBAGENT_PREFIX,
    Coordinator,
    MissingHandlersError,
    SharedToolHandler,
)
from replies_data import (
    CALLS,
    FORMATS,
    anthropic_events,
    gemini_chunks,
    openai_chat_chunks,
    openai_responses_events,
    reply,
)
from test_offer import NATIVE, SUBAGENTS
from test_offer import SERVERS as OFFER_SERVERS

MCP_DATA = Path(__file__).resolve().parents[1] / "data" / "mcp"
SEED = 20261130


def use_json(use: generated.ToolUse) -> dict[str, Any]:
    return {"name": use.name, "params": dict(use.params), "partial": use.partial, "id": use.id, "error": use.error}


def use_from(call: dict[str, Any]) -> generated.ToolUse:
    """A ToolUse from the JSON form the TS driver reads too (tests/ts_scripts/dispatch.ts useFrom)."""
    params = call.get("params", {})
    return generated.ToolUse(
        call["name"], params, partial=call.get("partial", False), id=call.get("id", ""), error=call.get("error")
    )


def result_json(result: generated.ToolResult | None) -> Any:
    return None if result is None else {"content": result.content, "is_error": result.is_error, "denied": result.denied}


# ---- dispatch ------------------------------------------------------------------------------


class Error(Exception):
    """Named as JavaScript's Error, so that both runtimes describe a handler's exception alike."""


def namespace(missing: list[str]) -> dict[str, type]:
    def handler_class(class_name: str) -> type:
        def execute(self: Any, config: Any, block: generated.ToolUse) -> generated.ToolResult:
            if block.params.get("raise"):
                raise Error(str(block.params["raise"]))
            params = json.dumps(dict(block.params), separators=(",", ":"), ensure_ascii=False)
            return generated.ToolResult.ok(f"{class_name}|{block.name}|{params}")

        def init(self: Any, validator: Any = None) -> None:
            self.validator = validator

        return type(class_name, (), {"class_name": class_name, "__init__": init, "execute": execute})

    names = {b["class_name"] for b in HANDLERS.values() if b is not None}
    return {name: handler_class(name) for name in sorted(names) if name not in missing}


def describe(handler: Any) -> Any:
    if handler is None:
        return None
    if isinstance(handler, SharedToolHandler):
        return {"shared": handler.name, "inner": handler.inner.class_name}
    return {"class": handler.class_name}


def py_route(given: dict[str, Any]) -> Any:
    try:
        coordinator = Coordinator.from_namespace(
            namespace(given.get("missing", [])), lenient=given.get("lenient", False)
        )
    except MissingHandlersError as exc:
        return {"refused": f"MissingHandlersError: {exc}"}

    async def answers() -> list[dict[str, Any]]:
        out = []
        for call in given["calls"]:
            use = use_from(call)
            has = coordinator.has(use.name)
            handler = describe(coordinator.get_handler(use.name)) if use.error is None else None
            result = result_json(coordinator.execute(None, use))
            awaited = result_json(await coordinator.execute_async(None, use, timeout=5, sync_in_thread=False))
            out.append(
                {"has": has, "handler": handler, "result": result, "awaited": awaited, "label": coordinator.label(use)}
            )
        return out

    return asyncio.run(answers())


def mcp_servers() -> list[Any]:
    servers: list[Any] = []
    for path in sorted(MCP_DATA.glob("*.json")):
        loaded = load_servers_json(path.read_text("utf-8"))
        servers += loaded if isinstance(loaded, list) else [loaded]
    return servers


def tool_names() -> Iterator[str]:
    """Every name a model may send: static tools, MCP tools as sent and as a provider may garble them,
    subagent names around the limits, and names nobody declared."""
    for keys in catalog_data.FAMILY_SPECS.values():
        yield from (catalog_data.SPECS[key]["name"] for key in keys)
    yield from HANDLERS
    variants, skipped = mcp_tools(mcp_servers(), separator=MCP_SEPARATOR)
    yield from (v["name"] for v in variants)
    yield from (s["name"] for s in skipped if isinstance(s.get("name"), str))
    for server in mcp_servers():
        for tool in server.get("tools", []) if isinstance(server, dict) else []:
            if isinstance(tool, dict) and isinstance(tool.get("name"), str):
                raw = tool["name"]
                yield f"{server.get('uid')}{MCP_SEPARATOR}{raw}"  # not rewritten
                yield f"{server.get('uid')}{MCP_SEPARATOR}{encode_mcp_tool_name(raw)}"
    yield from ["x" + MCP_SEPARATOR, MCP_SEPARATOR + "tool", "a" + MCP_SEPARATOR + "_x_bad_zz_", MCP_SEPARATOR]
    yield from ["a" + MCP_SEPARATOR + "_x_a_2f_b", "a" + MCP_SEPARATOR + "_x__", "a" + MCP_SEPARATOR * 2 + "b"]
    for length in (0, 1, 2, SUBAGENT_MAX_LENGTH - len(SUBAGENT_PREFIX), SUBAGENT_MAX_LENGTH - len(SUBAGENT_PREFIX) + 1):
        yield SUBAGENT_PREFIX + "r" * length
    yield from [SUBAGENT_PREFIX + "\u00e9" * 10, SUBAGENT_PREFIX + "\U0001f600" * 30, SUBAGENT_PREFIX[:-1]]
    yield from ["", "nope", "READ_FILE", "read_file ", "focus_chain", "__proto__", "constructor", "toString"]


def calls_for(name: str) -> list[dict[str, Any]]:
    return [
        {"name": name, "params": {"path": "src/a.ts", "prompt": "look  around", "server_name": "s"}},
        {"name": name, "params": {"path": "p"}, "partial": True},
    ]


def dispatch_decisions_are_equal(out: Cases) -> None:
    names = list(dict.fromkeys(tool_names()))
    calls = [call for name in names for call in calls_for(name)]
    calls += [
        {"name": "read_file", "params": {}, "id": "c1", "error": "unreadable"},
        {"name": "read_file", "params": {}, "error": "unreadable", "partial": True},
        {"name": "read_file", "params": {"raise": "boom"}},
        {"name": "read_file", "params": {"path": {"nested": [1, 2.5, None, True]}, "raise": ""}},
        {"name": "read_file", "params": {"path": "x" * 200}},
        {"name": "read_file", "params": {"path": "a\n\tb\u3000c"}},
    ]
    inputs: list[dict[str, Any]] = [{"calls": calls}]
    classes = sorted({b["class_name"] for b in HANDLERS.values() if b is not None})
    for missing in (classes[:1], ["WriteToFileToolHandler", "UseSubagentsToolHandler", "UseMcpToolHandler"]):
        inputs += [{"calls": calls, "missing": missing}, {"calls": calls, "missing": missing, "lenient": True}]
    out.run("dispatch", "route", inputs, py_route)


# ---- reading calls ---------------------------------------------------------------------------

BAD_JSON = [
    '{"a": 1,}',
    '{"a" 1}',
    "[1 2]",
    "{",
    "   ",
    "null",
    "3",
    '"s"',
    "[1]",
    "NaN",
    '{"a": NaN}',
    '{"a": -Infinity}',
    '{"a": "\\x"}',
    '{"a": "\\u12"}',
    '{"a": "\\u12"',
    '{"a": "b\nc"}',
    '{"a": 1} x',
    "\ufeff{}",
    '{"a":1}\n\n  }',
    '{"a": ' + "1" * 4301 + "}",
    '{"a": ' + "1" * 15 + "}",
    "[" * 101,
    '{"a":' * 100 + "1" + "}" * 100,
    '{"a":' * 101 + "1" + "}" * 101,
    '{\n"a": 1,\n"b" 2}',
    '{"\u00e4\U0001f600": 1,,}',
    '{"a": tru}',
    '{"a": 01}',
    '{"a": 1.}',
    '{"a": -}',
    '{"a": "\\ud800"}',
    '{"a": "\\ud83d\\ude00"}',
    '{"a": 1e5, "b": -0.5e-3, "c": 1E+2}',
    '{"a": [], "b": {}, "a": 2}',
    '{"__proto__": {"x": 1}, "constructor": 2}',
    "{} ",
    " \t\n{}\r\n",
    '{"a": "\\/\\b\\f\\n\\r\\t\\"\\\\"}',
]


def reply_inputs() -> Iterator[dict[str, Any]]:
    for fmt in FORMATS:
        yield {"format": fmt, "response": reply(fmt)}
        yield {"format": fmt, "response": reply(fmt, [])}
        yield {"format": fmt, "response": reply(fmt, [(None, "read_file", {"path": "a"}), (None, "list_files", {})])}
        yield {"format": fmt, "response": reply(fmt, [("c", "read_file", {}), ("c", "read_file", {}), ("d", "", {})])}
        yield {"format": fmt, "response": reply(fmt, [("c", "t", text) for text in BAD_JSON])}
        yield {"format": fmt, "response": reply(fmt, [("c", "t", [1]), ("d", "t", 3), ("e", "t", None)])}
        yield {"format": fmt, "response": reply(fmt), "max": 12}
        yield {"format": fmt, "response": reply(fmt, [("c", "t", {"deep": json.loads("[" * 100 + "]" * 100)})])}
        full = reply(fmt)
        path: list[Any] = []
        node: Any = full
        for key in {
            "anthropic": ["content"],
            "openai-chat": ["choices", 0, "message", "tool_calls"],
            "openai-responses": ["output"],
            "gemini": ["candidates", 0, "content", "parts"],
            "bedrock-converse": ["output", "message", "content"],
        }[fmt]:
            node = node[key]
            path.append(key)
            yield {"format": fmt, "response": node}
    for fmt in FORMATS:
        for junk in (
            {},
            [],
            {"choices": []},
            {"choices": [{}]},
            {"choices": "x"},
            {"output": 3},
            {"candidates": []},
            {"content": None},
            {"output": {"message": None}},
            "text",
            3,
            None,
            {"choices": [{"message": {"tool_calls": None}}]},
            [{"type": "tool_use"}, 3, None],
        ):
            yield {"format": fmt, "response": junk}
    yield {"format": "nope", "response": {}}


def py_read(given: dict[str, Any]) -> Any:
    problems: list[str] = []
    try:
        uses = replies.read_calls(
            given["response"],
            given["format"],
            problems=problems,
            max_argument_chars=given.get("max") or replies.MAX_ARGUMENT_CHARS,
        )
    except ValueError as exc:
        return {"error": f"{type(exc).__name__}: {exc}"}
    return {"uses": [use_json(u) for u in uses], "problems": problems}


def read_calls_are_equal(out: Cases) -> None:
    out.run("dispatch", "readCalls", list(reply_inputs()), py_read)


def decode_arguments_is_equal(out: Cases) -> None:
    inputs = [{"value": text} for text in BAD_JSON] + [{"value": text, "max": 5} for text in BAD_JSON[:5]]
    inputs += [{"value": v} for v in (None, {}, {"a": [1, {"b": "c"}]}, [1], 3, True, "x" * 20)]
    inputs += [{"value": {"a": "x" * 30}, "max": 20}, {"value": "\U0001f600" * 6, "max": 8}]
    out.run(
        "dispatch",
        "decode",
        inputs,
        lambda g: replies.decode_arguments(g["value"], g.get("max") or replies.MAX_ARGUMENT_CHARS),
    )


# ---- streams ---------------------------------------------------------------------------------

STREAM_CALLS = [
    *CALLS,
    ("call_d", "write_to_file", {"path": "\u00e4/\U0001f600.txt", "content": 'line\n"quoted" \\ back', "n": -1.5e-7}),
    ("call_e", "t", '{"a": [1, 2, {"b": null}], "c": tr'),
]


STREAMS: dict[str, tuple[type[Any], Callable[[Any, int], list[Any]]]] = {
    "anthropic": (streams.AnthropicStream, anthropic_events),
    "openai-chat": (streams.OpenAIChatStream, openai_chat_chunks),
    "openai-responses": (streams.OpenAIResponsesStream, openai_responses_events),
    "gemini": (streams.GeminiStream, gemini_chunks),
}
GEMINI_STREAM_CALLS: list[Any] = [(None, "a", {"x": 1}), *STREAM_CALLS[:4], (None, "", {}), ("call_a", "b", [1])]
GEMINI_ODD_PARTS = [3, {"functionCall": None}, {"functionCall": {"name": "g", "args": "{}"}}]
HOSTILE_EVENTS: list[Any] = [
    None,
    3,
    "x",
    {},
    {"choices": 3},
    {"type": "content_block_stop", "index": 9},
    {"type": "response.function_call_arguments.delta", "output_index": 0, "delta": "{"},
    {"type": "response.output_item.done", "output_index": "0", "item": {"type": "function_call"}},
    {"type": "response.output_item.done", "output_index": 2, "item": {"type": "function_call", "name": "n"}},
    {"type": ["x"], "output_index": 1},
    {"type": "content_block_start", "index": True, "content_block": {"type": "tool_use", "id": "t", "name": "n"}},
    {"choices": [{"delta": {"tool_calls": [{"index": True, "id": "c", "function": {"name": "n"}}]}}]},
    {"type": "response.output_item.added", "output_index": True, "item": {"type": "function_call", "name": "n"}},
    {"candidates": [{"content": {"parts": GEMINI_ODD_PARTS}}]},
    {"candidates": [{"content": {"parts": "abc"}}]},
    {"type": "response.completed"},
]


def stream_inputs() -> Iterator[dict[str, Any]]:
    for fmt, (_, make) in STREAMS.items():
        for size in (1, 2, 3, 7, 50) if fmt != "gemini" else (1, 2, 3):
            events = make(STREAM_CALLS, size)
            yield {"format": fmt, "events": events}
            if size == 3:
                yield from ({"format": fmt, "events": events[:cut]} for cut in range(len(events)))
        yield {"format": fmt, "events": make(CALLS, 4), "max": 10}
        yield {"format": fmt, "events": HOSTILE_EVENTS}
        yield {"format": fmt, "events": make([("dup", "a", {}), ("dup", "b", {})], 2)}
    yield {"format": "gemini", "events": gemini_chunks(GEMINI_STREAM_CALLS, 2)}
    lossy = [e for e in openai_responses_events(STREAM_CALLS, 4) if e["type"] != "response.output_item.done"]
    yield {"format": "openai-responses", "events": lossy[:9] + lossy[10:]}  # a delta lost, arguments.done wins


def py_stream(given: dict[str, Any]) -> Any:
    kind = STREAMS[given["format"]][0]
    stream = kind(max_argument_chars=given.get("max") or replies.MAX_ARGUMENT_CHARS)
    fed = [[use_json(u) for u in stream.feed(event)] for event in given["events"]]
    calls = [use_json(u) for u in stream.calls]
    finished = [use_json(u) for u in stream.finish()]
    return {"fed": fed, "calls": calls, "finished": finished, "problems": stream.problems}


def streams_are_equal(out: Cases) -> None:
    out.run("dispatch", "stream", list(stream_inputs()), py_stream)


# ---- validation ------------------------------------------------------------------------------


def schemas() -> Iterator[dict[str, Any]]:
    """Every static variant's parameters schema (as the Offer checks it) and every MCP tool's."""
    seen: set[str] = set()
    for spec in catalog_data.SPECS.values():
        schema = parameters_schema([{**p, "instruction": ""} for p in spec["parameters"]])
        text = json.dumps(schema, sort_keys=True)
        if text not in seen:
            seen.add(text)
            yield schema
    variants, _ = mcp_tools(mcp_servers(), separator=MCP_SEPARATOR)
    for variant in variants:
        yield variant["input_schema"]


class Draw:
    """Values for a schema from a seeded generator: valid ones, and ones broken on purpose.

    Numbers are integers or non-integral floats (JavaScript cannot tell 3 from 3.0) and object
    keys never look like array indexes (JavaScript iterates those first).
    """

    WORDS = (
        "a",
        "src/app.ts",
        "",
        " 3 ",
        "true",
        "FALSE",
        "-2.5",
        "2.5e-1",
        '["x"]',
        '{"k": 1}',
        "\u00e4\U0001f600",
        "0mcp0",
    )

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def scalar(self) -> Any:
        pick = self.rng.randrange(6)
        return [
            None,
            self.rng.choice((True, False)),
            self.rng.randint(-5, 100),
            self.rng.choice((0.5, -1.25, 2.75, 1e-7)),
            self.rng.choice(self.WORDS),
            self.rng.choice(("x" * 70, "k")),
        ][pick]

    def value(self, schema: Any, depth: int = 0) -> Any:
        if not isinstance(schema, dict) or depth > 4 or self.rng.random() < 0.15:
            return self.scalar() if self.rng.random() < 0.8 else [self.scalar()]
        for key in ("enum", "const"):
            if key in schema and self.rng.random() < 0.7:
                return self.rng.choice(schema["enum"]) if key == "enum" and schema["enum"] else schema.get("const")
        for key in ("anyOf", "oneOf", "allOf"):
            if isinstance(schema.get(key), list) and schema[key]:
                return self.value(self.rng.choice(schema[key]), depth + 1)
        kind = schema.get("type")
        kind = self.rng.choice(kind) if isinstance(kind, list) and kind else kind
        if kind == "object" or "properties" in schema:
            return self.object(schema, depth)
        if kind == "array":
            return [self.value(schema.get("items"), depth + 1) for _ in range(self.rng.randrange(4))]
        if kind in ("integer", "number"):
            low = schema.get("minimum", -3)
            return self.rng.choice((low, low - 1, self.rng.randint(-3, 40), 0.5 if kind == "number" else 7))
        if kind == "boolean":
            return self.rng.choice((True, False, "true"))
        if kind == "string":
            return self.rng.choice(self.WORDS)
        return self.scalar()

    def object(self, schema: dict[str, Any], depth: int = 0) -> dict[str, Any]:
        props = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
        out = {k: self.value(s, depth + 1) for k, s in props.items() if self.rng.random() < 0.8}
        if self.rng.random() < 0.3:
            out[self.rng.choice(("extra", "path", "x-y"))] = self.scalar()
        return out

    def texts(self, schema: dict[str, Any]) -> dict[str, Any]:
        """Text-path arguments: every value a string, as the XML reader gives them."""
        return {k: v if isinstance(v, str) else json.dumps(v) for k, v in self.object(schema).items()}


def validation_inputs() -> Iterator[dict[str, Any]]:
    draw = Draw(SEED)
    for schema in schemas():
        cases = [(draw.object(schema), False) for _ in range(12)]
        cases += [(draw.texts(schema), True) for _ in range(6)]
        cases += [({}, False), ({}, True)]
        yield {"schema": schema, "cases": cases}
    keyword_cases = [
        {"type": "integer", "minimum": 1, "maximum": 5, "multipleOf": 2},
        {"type": ["string", "null"], "minLength": 2, "maxLength": 3, "pattern": "^[a-z]+$"},
        {"type": "string", "pattern": "^(a)\\1$"},
        {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
        {"minimum": 1, "exclusiveMinimum": True, "maximum": 3, "exclusiveMaximum": True},
        {"type": "array", "items": {"type": "integer"}, "minItems": 1, "maxItems": 2, "uniqueItems": True},
        {"items": [{"type": "string"}], "additionalItems": False},
        {"prefixItems": [{"type": "string"}], "items": {"type": "integer"}},
        {"enum": ["a", 1, True, None, [1], {"k": 1}]},
        {"const": {"a": [1, True]}},
        {"anyOf": [{"type": "integer"}, {"type": "string", "maxLength": 1}]},
        {"oneOf": [{"type": "number"}, {"type": "integer"}]},
        {"allOf": [{"minimum": 1}, {"maximum": 2}]},
        {
            "type": "object",
            "properties": {"n": {"type": "integer"}},
            "required": ["n"],
            "additionalProperties": False,
            "minProperties": 1,
            "maxProperties": 2,
        },
        {"patternProperties": {"^n_": {"type": "integer"}}, "additionalProperties": {"type": "string"}},
        {"type": "boolean", "nullable": True},
        {"not": {"type": "string"}},
        {"if": {"type": "integer"}, "then": {"minimum": 1}, "else": {"type": "string", "minLength": 2}},
        {"contains": {"type": "integer"}, "maxContains": 1},
        {"dependentRequired": {"n": ["m"]}, "propertyNames": {"maxLength": 2}},
        {"$defs": {"s": {"type": "string", "format": "date"}}, "anyOf": [{"$ref": "#/$defs/s"}, {"type": "array"}]},
        {"properties": {"n": {}}, "unevaluatedProperties": False},
        {"oneOf": [{"multipleOf": 0.0001}, {"type": "string"}]},
        {"format": "int32"},
        {"prefixItems": [{"type": "integer"}], "unevaluatedItems": {"type": "string"}},
        {
            "$schema": "http://json-schema.org/draft-07/schema#",
            "items": [{"type": "integer"}],
            "dependencies": {"n": ["a"]},
        },
        False,
        True,
        3,
        # refused in both, with the same list and texts (an invalid pattern's text is ecma_regex's)
        {"type": 7, "minLength": True, "maxItems": -1, "pattern": "("},
        {"pattern": "a{,5}"},
        {"pattern": "(?<=a+)b"},  # valid ECMA-262, refused by toolgen (lookbehind-width)
        {"pattern": "\\p{Script=Greek}"},
        {"patternProperties": {"[": {"type": "integer"}, "^n_": {"type": "integer"}}},
        {"type": "object", "properties": {"q": {"pattern": "(?i:a)"}}, "patternProperties": {"\\1(a)": {}}},
        # ECMA-262 semantics where Python's re reads otherwise: $ before a final newline, \w and
        # . beyond ASCII and the BMP, \p{..}, an unset group's backreference
        {"type": "string", "pattern": "b$"},
        {"type": "string", "pattern": "^\\w+$"},
        {"type": "string", "pattern": "^.$"},
        {"type": "string", "pattern": "^\\p{L}+$"},
        {"type": "string", "pattern": "^(?:(a)|b)\\1$"},
        {"format": "regex"},
    ]
    values = [
        None,
        True,
        0,
        1,
        2,
        0.5,
        7,
        -3,
        "",
        "ab",
        "abcd",
        "AB",
        "aa",
        [],
        [1],
        [1, 1],
        ["a", 1],
        [1, "a", 2],
        {},
        {"n": 1},
        {"n": "1", "m": 2},
        {"n_a": 1, "o": "s"},
        {"n_a": "1", "o": 2},
        {"a": [1, True]},
        {"a": [1, 1]},
        "x" * 80,
        [[1], {"k": 1}],
        "3",
        " 4 ",
        "true",
        "[1]",
        '{"n": 1}',
        "2.5e-1",
        "-2.5",
        0.0075,
        "2024-05-01",
        "2024-02-30",
        [1, "a", "b"],
        {"n": 1, "abc": 2},
        "ab\n",
        "b",
        "\u00e9t\u00e9",
        "\U0001f600",
        "(?<=a+)b",
        "(",
        "^a$",
    ]
    for schema in keyword_cases:
        wrapped = {"type": "object", "properties": {"v": schema}}
        yield {"schema": wrapped, "cases": [({"v": v}, coerce) for v in values for coerce in (False, True)]}
    # texts over MAX_PATTERN_TEXT are not matched, in either runtime (a value, and a property name)
    longest = "a" * MAX_PATTERN_TEXT
    cases = [({"v": text}, False) for text in (longest, longest + "a", longest + "\n")]
    cases += [({"b" + text: 1}, False) for text in (longest[1:], longest)]
    pattern = {"v": {"pattern": "^a*$"}}
    yield {"schema": {"properties": pattern, "patternProperties": {"^b": {"type": "string"}}}, "cases": cases}


def py_validate(given: dict[str, Any]) -> Any:
    try:
        check = validation.arguments_checker(given["schema"], dialect=given.get("dialect", "2020-12"))
    except validation.SchemaRefused as exc:  # TS throws it: both are compared as the error text
        return {"error": f"SchemaRefused: {exc}"}
    return [list(check(params, coerce)) for params, coerce in given["cases"]]


def validation_is_equal(out: Cases) -> None:
    out.run("dispatch", "validate", list(validation_inputs()), py_validate)


# ---- result messages -------------------------------------------------------------------------


def result_messages_are_equal(out: Cases) -> None:
    answers = [
        ({"name": "read_file", "params": {}, "id": "c1"}, {"content": "text", "is_error": False, "denied": False}),
        ({"name": "t", "params": {}, "id": "toolgen-call-1"}, {"content": "bad", "is_error": True, "denied": False}),
        ({"name": "u", "params": {}, "id": "c3"}, {"content": "no\n\u00e4", "is_error": False, "denied": True}),
    ]

    def py_results(given: dict[str, Any]) -> Any:
        pairs = [
            (
                generated.ToolUse(u["name"], u["params"], id=u["id"]),
                generated.ToolResult(r["content"], r["is_error"], r["denied"]),
            )
            for u, r in given["answers"]
        ]
        return {
            "each": [replies.result_message(use, result, given["format"]) for use, result in pairs],
            "all": replies.result_messages(pairs, given["format"]),
            "text": [replies.text_result(use, result, given.get("label")) for use, result in pairs],
        }

    inputs = [{"format": fmt, "answers": answers[:n]} for fmt in FORMATS for n in (0, 1, 3)]
    inputs.append({"format": "anthropic", "answers": answers, "label": "[read_file for 'a']"})
    out.run("dispatch", "results", inputs, py_results)


# ---- the Offer: permission, validation and dispatch of what one request sent --------------------


#: Run-time tools in the shapes of the spec language's unions and combinators, open and closed
#: objects, and patterns that must be dropped (the degraded report): checked per format as sent.
SHAPE_SERVERS: list[dict[str, Any]] = [
    {
        "uid": "sh",
        "name": "shapes",
        "tools": [
            {
                "name": "order",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "status": {"type": "string", "enum": ["open", "shipped", "cancelled"]},
                        "reporter": {
                            "type": "object",
                            "properties": {"email": {"type": "string", "pattern": "^[^@]+@[^@]+$"}},
                            "required": ["email"],
                            "additionalProperties": False,
                        },
                        "note": {"type": ["string", "null"], "maxLength": 5},
                        "target": {
                            "anyOf": [{"type": "integer", "minimum": 1}, {"type": "string", "pattern": "^[A-Z]+$"}]
                        },
                        "contact": {
                            "oneOf": [
                                {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]},
                                {"type": "object", "properties": {"b": {"type": "integer"}}, "required": ["b"]},
                            ]
                        },
                        "window": {
                            "allOf": [{"type": "object", "properties": {"f": {"type": "integer"}}, "required": ["f"]}]
                        },
                        "kind": {"const": "ticket"},
                        "qty": {"type": "number", "multipleOf": 0.5, "exclusiveMinimum": 0},
                        "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True, "maxItems": 2},
                        "labels": {"type": "object", "additionalProperties": {"type": "integer"}, "maxProperties": 2},
                    },
                    "required": ["status", "reporter"],
                },
            },
            {
                "name": "bad_patterns",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "q": {"type": "string", "pattern": "("},
                        "pattern": {"type": "string"},
                        "r": {"type": "string", "pattern": "(?<=a+)b"},
                        "s": {"type": "string", "pattern": "^\\p{Script=Greek}+$"},
                    },
                    "patternProperties": {"[": {"type": "integer"}},
                },
            },
            {  # keywords the validator refuses, dropped one by one (the degraded report)
                "name": "refused_keywords",
                "inputSchema": {
                    "type": "object",
                    "properties": {"a": {"$ref": "https://x/s.json"}, "b": {"type": "text"}, "c": {"required": True}},
                },
            },
            {  # a refusal no keyword's removal cures: the tool is left out, and a call to it says why
                "name": "left_out",
                "inputSchema": {"type": "object", "properties": {"a": {"anyOf": [{"type": "string"}, 5]}}},
            },
        ],
    }
]


def offer_calls(family: str, draw: Draw, text_path: bool) -> list[dict[str, Any]]:
    """Calls to every tool of the family and the run-time tools, offered or not, with drawn arguments."""
    variants = {catalog_data.SPECS[k]["name"]: catalog_data.SPECS[k] for k in catalog_data.FAMILY_SPECS[family]}
    schemas = {
        name: parameters_schema([{**p, "instruction": ""} for p in spec["parameters"]])
        for name, spec in variants.items()
    }
    schemas[f"wx{MCP_SEPARATOR}get_weather"] = OFFER_SERVERS[0]["tools"][0]["inputSchema"]  # type: ignore[index]
    schemas[SUBAGENT_PREFIX + "reviewer"] = {"type": "object", "properties": {"prompt": {"type": "string"}}}
    for tool in SHAPE_SERVERS[0]["tools"]:
        schemas[f"sh{MCP_SEPARATOR}{tool['name']}"] = tool["inputSchema"]
    for name in (
        f"wx{MCP_SEPARATOR}nope",
        f"off{MCP_SEPARATOR}t",
        f"zz{MCP_SEPARATOR}t",
        SUBAGENT_PREFIX + "x",
        "made_up",
    ):
        schemas[name] = {}
    calls: list[dict[str, Any]] = []
    for name, schema in schemas.items():
        for _ in range(3):
            calls.append({"name": name, "params": draw.texts(schema) if text_path else draw.object(schema)})
        calls.append({"name": name, "params": {}, "partial": True})
    calls.append({"name": "read_file", "params": {}, "id": "c", "error": "unreadable"})
    return calls


def offer_inputs() -> Iterator[dict[str, Any]]:
    draw = Draw(SEED + 1)
    contexts = (NATIVE, {**NATIVE, "subagents_enabled": True, "provider_id": "anthropic"}, None)
    for family in catalog_data.FAMILIES:
        for context in contexts:
            for fmt in (None, *FORMATS):
                yield {
                    "family": family,
                    "context": context,
                    "format": fmt,
                    "servers": [*OFFER_SERVERS, *SHAPE_SERVERS],
                    "subagents": SUBAGENTS,
                    "calls": offer_calls(family, draw, fmt is None),
                }
    for fmt in (None, "openai-chat"):  # the server list prepared once (McpServers): the same answers
        yield {
            "family": "native-next-gen",
            "context": NATIVE,
            "format": fmt,
            "servers": [*OFFER_SERVERS, *SHAPE_SERVERS],
            "prepared": True,
            "subagents": SUBAGENTS,
            "calls": offer_calls("native-next-gen", draw, fmt is None),
        }
    yield {"family": "nope", "context": None, "format": None, "servers": [], "subagents": [], "calls": []}
    yield {"family": "generic", "context": NATIVE, "format": "nope", "servers": [], "subagents": [], "calls": []}


def py_offer(given: dict[str, Any]) -> Any:
    try:
        offer = generated.Offer(
            given["family"],
            given["context"],
            format=given["format"],
            mcp_servers=generated.McpServers(given["servers"]) if given.get("prepared") else given["servers"],
            subagents=given["subagents"],
        )
    except Exception as exc:  # a KeyError's text is its message (Python's str() would quote it)
        text = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        return {"error": f"{type(exc).__name__}: {text}"}
    coordinator = Coordinator.from_namespace(namespace([]))
    answers = []
    for call in given["calls"]:
        use = use_from(call)
        answers.append(
            {"refusal": offer.refusal(use.name), "result": result_json(offer.execute(coordinator, None, use))}
        )
    return {"names": list(offer.names()), "skipped": offer.skipped, "degraded": offer.degraded, "answers": answers}


def offers_answer_alike(out: Cases) -> None:
    out.run("dispatch", "offer", list(offer_inputs()), py_offer)


# ---- answering a whole turn: cut-off calls, unknown tool tags, Offer.answer and answer_text ----


def cut_off(fmt: str, response: dict[str, Any], how: str = "stop") -> dict[str, Any]:
    """``response`` marked as stopped at the output limit (``how``: "stop" the response's stop
    value; "status" the last Responses item's own status; "context" the context window)."""
    out = json.loads(json.dumps(response))
    if how == "status":
        out["output"][-1]["status"] = "incomplete"
    elif fmt == "anthropic":
        out["stop_reason"] = "model_context_window_exceeded" if how == "context" else "max_tokens"
    elif fmt == "openai-chat":
        out["choices"][0]["finish_reason"] = "length"
    elif fmt == "openai-responses":
        out.update(status="incomplete", incomplete_details={"reason": "max_output_tokens"})
    elif fmt == "gemini":
        out["candidates"][0]["finishReason"] = "MAX_TOKENS"
    else:
        out["stopReason"] = "model_context_window_exceeded" if how == "context" else "max_tokens"
    return out


def cut_replies(fmt: str) -> Iterator[dict[str, Any]]:
    """Replies cut off by the output limit, and replies that only look so."""
    yield cut_off(fmt, reply(fmt))
    yield cut_off(fmt, reply(fmt, [("c1", "read_file", '{"path": "a')]))  # the arguments cut too
    yield cut_off(fmt, reply(fmt, [("c1", "read_file", {"path": "a"}), ("c1", "list_files", {})]))  # + a reused id
    yield cut_off(fmt, reply(fmt, []))  # cut in the text: no call
    if fmt in ("anthropic", "bedrock-converse"):
        yield cut_off(fmt, reply(fmt), "context")
    text_after = cut_off(fmt, reply(fmt))  # the reply went on after its last call: complete
    if fmt == "anthropic":
        text_after["content"].append({"type": "text", "text": "and then"})
    elif fmt == "gemini":
        text_after["candidates"][0]["content"]["parts"].append({"text": "and then"})
    elif fmt == "bedrock-converse":
        text_after["output"]["message"]["content"].append({"text": "and then"})
    elif fmt == "openai-responses":
        content = [{"type": "output_text", "text": "and then", "annotations": []}]
        text_after["output"].append(
            {"type": "message", "id": "m2", "role": "assistant", "status": "incomplete", "content": content}
        )
    yield text_after
    if fmt == "openai-responses":
        yield cut_off(fmt, reply(fmt), "status")
    other = json.loads(json.dumps(reply(fmt)))  # a stop value that is not the output limit
    if fmt == "anthropic":
        other["stop_reason"] = "refusal"
    elif fmt == "openai-chat":
        other["choices"][0]["finish_reason"] = "content_filter"
    yield other


def cut_off_replies_are_read_alike(out: Cases) -> None:
    inputs = [{"format": fmt, "response": r} for fmt in FORMATS for r in cut_replies(fmt)]
    for fmt in FORMATS:  # entered at the choice / candidate: the stop value is still seen
        response = cut_off(fmt, reply(fmt))
        if fmt == "openai-chat":
            inputs.append({"format": fmt, "response": response["choices"][0]})
        if fmt == "gemini":
            inputs.append({"format": fmt, "response": response["candidates"][0]})
    out.run("dispatch", "readCalls", inputs, py_read)


#: Finished text-path replies: calls, cut-off calls, unknown tools, and prose that is not a call.
REPLY_TEXTS = [
    "",
    "Just prose, no call.",
    "I'll read it.\n<read_file>\n<path>a.py</path>\n</read_file>",
    "<read_file>\n<path>a.py</path>\n</read_file>\n<list_files>\n<path>src</path>\n<recursive>true</recursive>\n",
    "<search_web>\n<query>rate limits</query>\n</search_web>",
    "First <grep_all><pattern>x</pattern></grep_all> then <read_file><path>b</path></read_file>.",
    "<read_file>\n<path>a</path>\n</read_file><run_tests>\n<target>all</target>\n</run_tests>",
    "<ul>\n<li>one</li>\n<li>two</li>\n</ul>",
    "<table><tr><td>1</td></tr></table>",
    "```xml\n<app_config>\n<log_level>debug</log_level>\n</app_config>\n```",
    "   ~~~\n<app_config><a>1</a></app_config>\n   ~~~\n<app_config><a>1</a></app_config>",
    "Use `<my_tool><a>1</a></my_tool>` in docs.",
    "<thinking_hard>I should look first.</thinking_hard>",
    "<my_tool attr='1'><a>1</a></my_tool>",
    "<my_tool>\n<a>1</a>\nprose\n</my_tool>",
    "<my_tool></my_tool>",
    "<my_tool>\n<a>1</a>\n",
    "<my_tool>\n<a> 1 </a>\n<b>x<y>z</b>\n<a>2</a>\n</my_tool>",
    "<my_tool>\n<a>1</a>\n<read_file><path>x</path></read_file></my_tool>",
    "<outer_tool><inner_tool><a>1</a></inner_tool></outer_tool>",
    "<write_to_file>\n<path>a.md</path>\n<content>\n<my_tool><a>1</a></my_tool>\n</content>\n</write_to_file>",
    "Éé 😀 <my_tool>\n<a>😀 ü</a>\n</my_tool> ok",
    "<use_mcp_tool>\n<server_name>wx</server_name>\n<tool_name>get</tool_name>\n<arguments>{}</arguments>\n</use_mcp_tool>",
    "<read_file>\n<path>src/very/long",
    "<web_fetch>\n<url>https://example.com</url>\n</web_fetch>",
]


def finished_replies_are_parsed_alike(out: Cases) -> None:
    tools = {
        "read_file": ["path", "start_line"],
        "list_files": ["path", "recursive"],
        "write_to_file": ["path", "content"],
    }
    inputs = [{"text": text, "tools": tools} for text in REPLY_TEXTS]

    def py_parse(given: dict[str, Any]) -> Any:
        from generated._runtime.xml_calls import parse_reply

        return [use_json(u) for u in parse_reply(given["text"], given["tools"])]

    out.run("dispatch", "parseReply", inputs, py_parse)


def answer_inputs() -> Iterator[dict[str, Any]]:
    for fmt in FORMATS:
        responses = [reply(fmt), reply(fmt, []), *cut_replies(fmt)]
        responses.append(reply(fmt, [("c1", "read_file", {"path": 3}), ("c2", "made_up", {}), ("c2", "read_file", {})]))
        yield {"family": "native-next-gen", "context": NATIVE, "format": fmt, "replies": responses}
    yield {"family": "generic", "context": None, "format": None, "replies": REPLY_TEXTS}
    yield {"family": "generic", "context": None, "format": "anthropic", "replies": ["x"]}  # a native offer: refused
    text = "<read_file><path>a</path></read_file>"
    yield {"family": "native-next-gen", "context": NATIVE, "format": None, "replies": [text]}


def py_answer(given: dict[str, Any]) -> Any:
    import asyncio

    try:
        offer = generated.Offer(given["family"], given["context"], format=given["format"])
    except Exception as exc:
        return {"error": f"{type(exc).__name__}: {exc}"}
    coordinator = Coordinator.from_namespace(namespace([]))
    out = []
    for response in given["replies"]:
        try:
            if given["format"] is None:
                uses = [use_json(u) for u in offer.read_reply(response)]
                sync: Any = offer.answer_text(coordinator, None, response)
                awaited: Any = asyncio.run(offer.answer_text_async(coordinator, None, response, timeout=5))
            else:
                uses = []
                sync = offer.answer(coordinator, None, response)
                awaited = asyncio.run(offer.answer_async(coordinator, None, response, timeout=5))
        except ValueError as exc:
            out.append({"error": f"{type(exc).__name__}: {exc}"})
            continue
        out.append({"uses": uses, "answer": sync, "awaited": awaited})
    return out


def offers_answer_whole_turns_alike(out: Cases) -> None:
    out.run("dispatch", "answer", list(answer_inputs()), py_answer)


def dialect_inputs() -> Iterator[dict[str, Any]]:
    """Schemas read in another dialect (Gemini's, draft 7 by $schema) and keywords that combine."""
    values: list[Any] = [None, 1, 2, "a", [1], {"a": 1}, {"a": 1, "b": None}, True]
    cases = [({"v": v}, coerce) for v in values for coerce in (False, True)]
    gemini = [
        {"type": "INTEGER", "nullable": True},
        {"type": "STRING", "enum": ["a", "b"], "nullable": True},
        {"type": "OBJECT", "properties": {"a": {"type": "INTEGER"}}, "required": ["a"], "nullable": False},
        {"anyOf": [{"type": "INTEGER"}, {"type": "STRING"}]},
    ]
    for schema in gemini:
        yield {"schema": {"type": "OBJECT", "properties": {"v": schema}}, "cases": cases, "dialect": "gemini"}
    for declared in ("http://json-schema.org/draft-07/schema#", "https://json-schema.org/draft/2020-12/schema", "x"):
        schema = {"$schema": declared, "type": "object", "properties": {"v": {"items": [{"type": "integer"}]}}}
        yield {"schema": schema, "cases": cases}
        nested = {"type": "object", "properties": {"v": {"$id": "https://x/v", "$schema": declared, "items": [{}]}}}
        yield {"schema": nested, "cases": cases}
    combined = [
        {"enum": [1, 2, "a"], "const": 1},
        {"dependentSchemas": {"a": {"required": ["b"]}}, "properties": {"a": {}, "b": {}}},
        {"dependentSchemas": {"a": {"minProperties": 2}}, "dependentRequired": {"a": ["b"]}},
    ]
    for schema in combined:
        yield {"schema": {"type": "object", "properties": {"v": schema}}, "cases": cases}


class _AsyncHandlers:
    """A namespace of async handlers (a sync path refuses them with AsyncHandlerError's text)."""

    @staticmethod
    def namespace() -> dict[str, type]:
        def handler_class(class_name: str) -> type:
            async def execute(self: Any, config: Any, block: generated.ToolUse) -> generated.ToolResult:
                return generated.ToolResult.ok(f"{class_name}|{block.name}")

            def init(self: Any, validator: Any = None) -> None:
                self.validator = validator

            return type(class_name, (), {"execute": execute, "__init__": init})

        names = {b["class_name"] for b in HANDLERS.values() if b is not None}
        return {name: handler_class(name) for name in sorted(names)}


def surface_calls(out: Cases) -> None:
    """The dispatch module's own functions: labels, subagent names, the table, async handlers refused."""
    from generated import dispatch

    names = list(dict.fromkeys(tool_names()))
    calls = [call for name in names for call in calls_for(name)]
    out.run("dispatch", "label", [{"call": c} for c in calls], lambda g: dispatch.label(use_from(g["call"])))
    out.run(
        "dispatch",
        "isSubagentToolName",
        [{"name": n} for n in names],
        lambda g: dispatch.is_subagent_tool_name(g["name"]),
    )
    out.run("dispatch", "dispatchTable", [{}], lambda g: dispatch.dispatch_table())

    def on_sync(given: dict[str, Any]) -> Any:
        coordinator = Coordinator.from_namespace(_AsyncHandlers.namespace())
        use = use_from(given["call"])
        return {"result": result_json(coordinator.execute(None, use)), "has": coordinator.has(use.name)}

    out.run("dispatch", "asyncOnSync", [{"call": c} for c in calls[:40]], on_sync)
    out.run("dispatch", "validate", list(dialect_inputs()), py_validate)


def build(out: Cases) -> None:
    """Every case of this module, in a fixed order."""
    for add in (
        dispatch_decisions_are_equal,
        read_calls_are_equal,
        decode_arguments_is_equal,
        streams_are_equal,
        validation_is_equal,
        result_messages_are_equal,
        offers_answer_alike,
        cut_off_replies_are_read_alike,
        finished_replies_are_parsed_alike,
        offers_answer_whole_turns_alike,
        surface_calls,
    ):
        add(out)
