"""Conformance cases of values JavaScript treats specially (issue 22).

- module "js_names" (tests/ts_scripts/special.ts): the spec set tests/data/js_names, whose tools,
  parameters, families and context fields are named as Object.prototype's members and reserved
  words (``__proto__``, ``constructor``, ``toString``, ``class``, ``delete`` ...), through every
  public API that reads a name: selection, enabled tools, prompt sections, native tools per format,
  the text parser, reading calls, the Offer's checks and dispatch;
- module "dispatch" and "core": numbers near and past 2**53 (as JSON text and as parsed values),
  NaN and the infinities, lone surrogates and non-BMP text in replies, arguments, contexts and
  validation.
"""

from __future__ import annotations

import json
import random
from types import ModuleType
from typing import Any

from conformance.common import ROOT, Cases, package
from replies_data import FORMATS, anthropic_events, gemini_chunks, openai_chat_chunks, openai_responses_events, reply

SPECS = ROOT / "tests" / "data" / "js_names" / "specs"
#: Object.prototype's names and reserved words, as names a model or a host may send.
NAMES = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf", "class", "default", "delete"]
NAMES += ["prototype", "isPrototypeOf", "__defineGetter__", "then", "length", "plain", "new", "typeof"]
SEED = 2026_12_02


def use_json(use: Any) -> dict[str, Any]:
    return {"name": use.name, "params": dict(use.params), "partial": use.partial, "id": use.id, "error": use.error}


def contexts() -> list[dict[str, Any] | None]:
    """Contexts that select each family, with the special fields set and left at their defaults."""
    base: list[dict[str, Any] | None] = [None, {}, {"enable_native_tool_calls": True}, {"delete": True}]
    base += [{"model_id": "m"}, {"constructor": "x", "default": "", "new": 7, "typeof": ["a", "__proto__"]}]
    base += [{"enable_native_tool_calls": True, "constructor": None, "provider_id": "anthropic"}]
    return base


def arguments(rng: random.Random) -> dict[str, Any]:
    """Arguments under the special names, well and badly typed (seeded)."""
    values: list[Any] = ["p", "", 3, 2.5, True, None, [1], {"__proto__": 1}, "\U0001f600", "\ud800"]
    names = rng.sample(NAMES, rng.randint(0, len(NAMES)))
    return {name: rng.choice(values) for name in names}


def js_names(out: Cases) -> None:
    pkg = package(SPECS, "js_names")
    from importlib import import_module

    replies = import_module(f"{pkg.__name__}._runtime.replies")
    dispatch = import_module(f"{pkg.__name__}.dispatch")
    families = [*pkg.catalog_data.FAMILY_SPECS, "hasOwnProperty", "valueOf", "prototype", "__proto__ "]
    calls = {
        "selectFamily": lambda g: pkg.select_family(g["context"]),
        "context": lambda g: pkg.Context.from_mapping(g["data"] or {}).to_dict(),
        "enabledTools": lambda g: pkg.enabled_tools(g["family"], g["context"]),
        "promptSection": lambda g: pkg.prompt_section(g["family"], g["context"]),
        "nativeTools": lambda g: pkg.native_tools(g["family"], g["context"], format=g["format"]),
        "parseCalls": lambda g: [use_json(u) for u in pkg.parse_calls(g["text"], g["family"])],
        "readCalls": lambda g: [use_json(u) for u in replies.read_calls(g["response"], g["format"])],
        "check": lambda g: _check(pkg, g),
        "handlers": lambda g: {k: (v or {}).get("class_name") for k, v in dispatch.HANDLERS.items()},
        "toolIds": lambda g: [str(t.value) for t in pkg.ToolId],
        "answer": lambda g: _answer(pkg, dispatch, g),
    }

    def add(function: str, given: dict[str, Any]) -> None:
        out.add("js_names", function, given, calls[function])

    for context in contexts():
        add("selectFamily", {"context": context})
        add("context", {"data": context})
        for family in families:
            add("enabledTools", {"family": family, "context": context})
            add("promptSection", {"family": family, "context": context})
            for fmt in (*FORMATS, None):
                add("nativeTools", {"family": family, "context": context, "format": fmt})
    for data in ({"__proto__": "x"}, {"toString": True}, {"constructor": 3}, {"hasOwnProperty": 1}, {"class": 1}):
        add("context", {"data": data})
    rng = random.Random(SEED)
    tools = ["constructor", "toString", "delete", "plain", "__proto__", "hasOwnProperty"]
    for _ in range(120):
        tool = rng.choice(tools)
        params = arguments(rng)
        as_text = {k: v if isinstance(v, str) else json.dumps(v) for k, v in params.items()}
        text = f"<{tool}>\n" + "".join(f"<{k}>{v}</{k}>\n" for k, v in as_text.items())
        cut = text[: rng.randint(0, len(text))] if rng.random() < 0.3 else text + f"</{tool}>"
        add("parseCalls", {"text": cut, "family": rng.choice(families[:3])})
        fmt = rng.choice(FORMATS)
        response = reply(fmt, [("c1", tool, params), ("c2", "plain", {"__proto__": "a", "constructor": 1})])
        add("readCalls", {"format": fmt, "response": response})
        for family, fmt2 in (("__proto__", fmt), ("class", None)):
            context = {"enable_native_tool_calls": True} if fmt2 is not None else {"model_id": "m"}
            call = {"name": tool, "params": params if fmt2 is not None else as_text}
            add("check", {"family": family, "context": context, "format": fmt2, "call": call})
    add("handlers", {})
    add("toolIds", {})
    for fmt in FORMATS:
        made = [(f"c{i}", tool, {"__proto__": "p", "constructor": i, "valueOf": 0.5}) for i, tool in enumerate(tools)]
        add("answer", {"family": "__proto__", "format": fmt, "response": reply(fmt, made)})


def _answer(pkg: ModuleType, dispatch: ModuleType, given: dict[str, Any]) -> Any:
    """An Offer's answer to a reply, each handler echoing its class, tool and arguments."""

    def handler_class(class_name: str) -> type:
        def execute(self: Any, config: Any, block: Any) -> Any:
            params = json.dumps(dict(block.params), separators=(",", ":"), ensure_ascii=False)
            return pkg.ToolResult.ok(f"{class_name}|{block.name}|{params}")

        return type(class_name, (), {"execute": execute})

    names = sorted({b["class_name"] for b in dispatch.HANDLERS.values() if b is not None})
    coordinator = pkg.Coordinator.from_namespace({name: handler_class(name) for name in names})
    offer = pkg.Offer(given["family"], {"enable_native_tool_calls": True}, format=given["format"])
    return offer.answer(coordinator, None, given["response"])


def _check(pkg: ModuleType, given: dict[str, Any]) -> Any:
    offer = pkg.Offer(given["family"], given["context"], format=given["format"])
    use = pkg.ToolUse(given["call"]["name"], given["call"]["params"], id="c")
    typed, problems = offer.check(use)
    return {"names": offer.names(), "typed": typed, "problems": problems}


# ---- numbers past 2**53, NaN, surrogates -------------------------------------------------------

BIG = [2**53 - 1, 2**53, 2**53 + 1, -(2**53) - 1, 2**64, 10**30, -(10**30)]


def _stream(fmt: str) -> Any:
    return {
        "anthropic": anthropic_events,
        "openai-chat": openai_chat_chunks,
        "openai-responses": openai_responses_events,
        "gemini": gemini_chunks,
    }[fmt]


def numbers(out: Cases) -> None:
    from conformance.cases_dispatch import py_read, py_stream
    from generated._runtime import replies

    texts = [str(n) for n in BIG] + ["1e20", "-1e300", "9007199254740993.0", "1" * 40, "123456789012345678901234567890"]
    for fmt in FORMATS:
        for n in BIG:
            calls = [("c1", "read_file", {"path": "a", "n": n}), ("c2", "read_file", {"deep": [{"x": n}]})]
            out.run("dispatch", "readCalls", [{"format": fmt, "response": reply(fmt, calls)}], py_read)
        raw = [(f"c{i}", "t", '{"n": ' + t + "}") for i, t in enumerate(texts)]
        if fmt.startswith("openai"):  # arguments as JSON text: the OpenAI formats send them so
            out.run("dispatch", "readCalls", [{"format": fmt, "response": reply(fmt, raw)}], py_read)
        for f in (1e20, -9007199254740993.0, 2.0**60, 1.5, float(2**53 - 1)):
            out.run("dispatch", "readCalls", [{"format": fmt, "response": reply(fmt, [("c", "t", {"f": f})])}], py_read)
    for fmt in ("anthropic", "openai-chat", "openai-responses", "gemini"):
        for n in (2**53 + 1, 2**64):
            events = _stream(fmt)([("c1", "t", {"n": n, "s": "\U0001f600"})], 3)
            out.run("dispatch", "stream", [{"format": fmt, "events": events}], py_stream)
    decode = [{"value": '{"n": ' + t + "}"} for t in texts] + [{"value": {"n": n}} for n in BIG]
    out.run("dispatch", "decode", decode, lambda g: replies.decode_arguments(g["value"], replies.MAX_ARGUMENT_CHARS))


def specials(out: Cases) -> None:
    """NaN, infinities, lone surrogates and non-BMP text where the APIs read values and text."""
    from conformance.cases_core import uses
    from conformance.cases_dispatch import py_validate

    nan, inf = float("nan"), float("inf")
    values: list[Any] = [
        nan,
        inf,
        -inf,
        0.1,
        -0.0,
        2**53,
        2**53 + 1,
        10**20,
        1e308,
        5e-324,
        "\ud800",
        "\udfff",
        "a\ud83d",
        "\U0001f600",
        "\U0001f600" * 3,
        "e\u0301",
        "\u2028",
        "\x00",
        "",
        "[NaN]",
        "NaN",
        "Infinity",
        "[1e999]",
        "-Infinity",
        "[1, NaN]",
    ]
    schemas: list[Any] = [
        {"type": "integer"},
        {"type": "number", "maximum": 2**53},
        {"type": "integer", "multipleOf": 3},
        {"type": "string", "maxLength": 2},
        {"type": "string", "minLength": 2},
        {"type": "string", "pattern": "^.$"},
        {"type": "string", "pattern": "^[\\ud800-\\udfff]$"},
        {"type": "string", "pattern": "^\\p{Emoji}+$"},
        {"type": "string", "pattern": "^\\u{1F600}$"},
        {"enum": [2**53, "\ud800", "\U0001f600"]},
        {"const": 9007199254740993},
        {"type": "array", "uniqueItems": True},
    ]
    for schema in schemas:
        wrapped = {"type": "object", "properties": {"v": schema}}
        # 1e308 is left to the contexts: a message cuts its 309 digits short (number-text's model needs them all)
        cases = [({"v": v}, coerce) for v in values if v != 1e308 for coerce in (False, True)]
        cases += [({"v": [v, v]}, False) for v in values[:6]]
        out.run("dispatch", "validate", [{"schema": wrapped, "cases": cases}], py_validate)
    from generated.context import Context

    for value in values:
        for field in ("browser_viewport_width", "cwd", "skills", "custom_prompt"):
            data = {field: [value] if field == "skills" else value}
            out.run("core", "context", [{"data": data}], lambda g: Context.from_mapping(g["data"]).to_dict())
    from generator.runtime.xml_calls import parse_tool_calls

    tools = {"read_file": ["path"], "\U0001f600": ["\ud800"], "a\u2028b": ["x"]}
    texts = [
        "<read_file><path>\ud800</path></read_file>",
        "<\U0001f600><\ud800>v</\ud800></\U0001f600>",
        "<read_file><path>\U0001f600\U0001f600</path></read_file>",
        "<a\u2028b><x>1</x></a\u2028b>",
        "<read_file><path>\udc00\ud800</path>",
    ]
    out.run(
        "core",
        "parsePrefixes",
        [{"text": t, "tools": tools} for t in texts],
        lambda g: [uses(parse_tool_calls(g["text"][:i], tools)) for i in range(len(g["text"]) + 1)],
    )
    for fmt in FORMATS:
        calls = [
            ("c", "read_file", {"path": "\ud800\U0001f600"}),
            ("d", "t", '{"s": "\\ud800", "t": "\\ud83d\\ude00"}'),
        ]
        from conformance.cases_dispatch import py_read

        out.run("dispatch", "readCalls", [{"format": fmt, "response": reply(fmt, calls)}], py_read)


#: Run-time data under the special names: MCP servers, tools and properties, subagents.
RUNTIME_SERVERS = [
    {
        "uid": uid,
        "name": uid,
        "tools": [
            {
                "name": tool,
                "description": f"A tool named {tool}.",
                "inputSchema": {
                    "type": "object",
                    "properties": {name: {"type": "string"} for name in NAMES[:8]},
                    "required": ["__proto__", "constructor"],
                },
            }
            for tool in NAMES[:8]
        ],
    }
    for uid in ("__proto__", "constructor", "toString")
]
RUNTIME_SUBAGENTS = [{"name": name, "description": f"Named {name}."} for name in NAMES[:8]]
#: Names whose lower-casing is special somewhere (dotted I, final sigma, sharp s, ligatures, Deseret).
CASED_NAMES = ["\u0130stanbul", "\u0391\u03a3", "\u1e9e", "\ufb03x", "\U00010400b", "K\u212a", "\u01c5"]
#: Integer literals in MCP data past what a double holds (and past what it can hold at all).
BIG_LITERALS = [str(2**53 + 1), str(10**20), str(2**64 + 1), "1" + "0" * 308, "-" + "9" * 320]


def runtime_names(out: Cases) -> None:
    from conformance.cases_native import _golden, _python

    servers = json.dumps(RUNTIME_SERVERS)
    subagents = json.dumps(RUNTIME_SUBAGENTS)
    context = {**_golden(), "subagents_enabled": True}
    for family in ("native-next-gen", "next-gen", "generic"):
        for fmt in (*FORMATS, None):
            given = {"family": family, "format": fmt, "context": context, "servers": servers, "subagents": subagents}
            out.add("native", "nativeTools", given, _python)


def runtime_values(out: Cases) -> None:
    """Subagent names whose lower-casing is special; MCP schemas holding integers past 2**53."""
    from conformance.cases_native import _golden, _python

    context = {**_golden(), "subagents_enabled": True}
    subagents = json.dumps([{"name": name, "description": "Cased."} for name in CASED_NAMES])
    for fmt in (*FORMATS, None):
        given = {
            "family": "native-next-gen",
            "format": fmt,
            "context": context,
            "servers": None,
            "subagents": subagents,
        }
        out.add("native", "nativeTools", given, _python)
    for literal in BIG_LITERALS:
        schema = (
            '{"type": "object", "properties": {"n": {"type": "integer", "default": LIT, "maximum": LIT},'
            ' "e": {"enum": [LIT, 1]}}}'
        ).replace("LIT", literal)
        servers = '[{"uid": "b", "name": "big", "tools": [{"name": "t", "inputSchema": ' + schema + "}]}]"
        for fmt in (*FORMATS, None):
            given = {
                "family": "native-next-gen",
                "format": fmt,
                "context": context,
                "servers": servers,
                "subagents": None,
            }
            out.add("native", "nativeTools", given, _python)


def build(out: Cases) -> None:
    """Every case of this module, in a fixed order."""
    js_names(out)
    runtime_names(out)
    runtime_values(out)
    numbers(out)
    specials(out)
