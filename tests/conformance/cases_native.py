"""Conformance cases of native tool lists, skip reports and the schema converter (module "native",
tests/ts_scripts/native.ts). The inputs: every family, every format (and the routed one), feature
toggles of the golden context, provider/model routing, the 276 contexts of the selection grid
(with the family Python selects), and the run-time tools of the test data: each MCP file of
tests/data/mcp (hostile.json included, read by each side's own ``load_servers_json``) and a set
of subagent configs. Compared as JSON text, key order included: the tools list, the skip
report (``dynamic_variants`` plus ``native_tools``'s own), or the error (type and message, e.g.
NativeToolsUnavailable). A second group fuzzes the schema converter itself on random schemas,
every format, strict on and off. A JavaScript number cannot tell 1 from 1.0: the corpus holds JSON,
where both read as the same number (text that quotes a number, "Default: 1.0.", stays text).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import behaviour
from behaviour import FORMATS
from conformance.common import GRID, Cases
from golden import GOLDEN_FIELDS

ROOT = Path(__file__).resolve().parent.parent
MCP_DIR = ROOT / "tests" / "data" / "mcp"
#: The golden context's toggles of tests/behaviour.py, and one more the native lists read.
TOGGLES = (*behaviour.TOGGLES, "is_subagent_run")
#: Subagent configs: plain, long, duplicate, separator inside, a lone surrogate, not an object.
SUBAGENTS_TEXT = json.dumps(
    [
        {"name": "Code Reviewer", "description": "Reviews a diff and lists problems."},
        {"name": "planner"},
        {"name": "PLANNER", "description": "Same name once sanitized."},
        {"name": "x" * 90, "description": "Too long: trimmed with a hash."},
        {"name": "a0mcp0b", "description": "Holds the MCP separator."},
        {"name": "bad\ud800name", "description": "A lone surrogate."},
        {"name": "", "description": "No name."},
        5,
    ]
)
#: Edge cases hostile.json lacks: over-long integers (in a schema, as the schema, elsewhere in a
#: tool), lone surrogates in names and text, floats, non-ASCII, "__proto__" and "constructor"
#: as property names, uids that hold or end with a start of the separator, text as "disabled",
#: tools that are not a list, a server that is not an object, numbers as uid and name.
_EDGE_SERVERS: list[Any] = [
    {
        "uid": "e1",
        "name": "edge",
        "tools": [
            {"name": "too_long_default", "inputSchema": {"type": "object", "properties": {"n": {"default": "@BIG@"}}}},
            {"name": "too_long_schema", "description": "inputSchema is an over-long integer.", "inputSchema": "@BIG@"},
            {"name": "too_long_elsewhere", "description": "Outside the schema.", "annotations": {"x": "@BIG@"}},
            {"name": "surrogate\ud800", "description": "A lone surrogate in the name."},
            {"name": "surrogate_text", "description": "A lone surrogate \udc00 in the text."},
            {"name": 5, "description": "A number as name."},
            {
                "name": "floats",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "x": {"type": "number", "minimum": 0.5, "exclusiveMaximum": 2.5, "multipleOf": 0.25}
                    },
                },
            },
            {"name": "unicode", "description": "Ünïcödé \u2028 😀", "inputSchema": {"properties": {"é": {}}}},
            {
                "name": "nullable",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "a": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
                        "b": {"type": ["integer", "null"], "enum": [1, 2, None]},
                    },
                    "required": ["a"],
                },
            },
            {
                "name": "proto",
                "inputSchema": {
                    "type": "object",
                    "properties": {"__proto__": {"type": "string"}, "constructor": {"type": "string"}},
                    "required": ["__proto__"],
                },
            },
        ],
    },
    {"uid": "a0mcp", "name": "ends-with-a-start", "tools": [{"name": "t"}]},
    {"uid": "x0mcp0y", "name": "holds-the-separator", "tools": [{"name": "t"}]},
    {"uid": "e2", "name": "disabled-as-text", "disabled": "yes", "tools": [{"name": "t"}]},
    {"uid": "e3", "name": "tools-not-a-list", "tools": {"name": "t"}},
    "a server that is a string",
    {"uid": "", "name": "no-uid", "tools": [{"name": "t"}]},
    {"uid": 7, "name": 8, "tools": [{"name": "numeric_uid"}]},
]
# "\\ud800" above is text; un-doubling its backslash in the JSON makes it an escape (a lone surrogate).
EDGE_TEXT = json.dumps(_EDGE_SERVERS).replace("\\\\u", "\\u").replace('"@BIG@"', "9" * 4301)


def _golden() -> dict[str, Any]:
    return {k: list(v) if isinstance(v, tuple) else v for k, v in GOLDEN_FIELDS.items()}


def _contexts() -> list[tuple[str, dict[str, Any]]]:
    """Named context objects: golden, each toggle flipped, models, routing, placeholder values."""
    golden = _golden()
    out = [("golden", golden), ("defaults", {})]
    out += [(f"golden-{t}", {**golden, t: not golden.get(t, False)}) for t in TOGGLES]
    out.append(("golden-native-unset", {**golden, "enable_native_tool_calls": None}))
    for model in ("claude-sonnet-4-5", "gpt-5.1", "gemini-3-pro", "devstral", "glm-4.6", "qwen3"):
        for native in (True, False):
            out.append((f"golden-{model}-{native}", {**golden, "model_id": model, "enable_native_tool_calls": native}))
    routes = [
        ("anthropic", "claude-sonnet-4-5"),
        ("openai", "gpt-5"),
        ("gemini", "gemini-2.5-pro"),
        ("vertex", "gemini-2.5-pro"),
        ("vertex", "claude-sonnet-4-5"),
        ("bedrock", "anthropic.claude"),
        ("  Anthropic ", None),
        ("openrouter", "x"),
        (None, None),
    ]
    out += [(f"route-{p}-{m}", {**golden, "provider_id": p, "model_id": m}) for p, m in routes]
    out.append(
        (
            "placeholders",
            {**golden, "cwd": 'C:\\work "q"', "browser_viewport_width": 1280, "is_multi_root_enabled": True},
        )
    )
    # A value holding placeholders and JavaScript's replacement patterns ($&, $1, $$) is filled literally.
    out.append(("placeholder-text", {**golden, "cwd": "/w/$& $1 $$ {{CWD}} {{BROWSER_VIEWPORT_WIDTH}}\n"}))
    out.append(("lists", {**golden, "skills": [], "editor_tabs": ["a.py", "b.ts"], "custom_prompt": "compact"}))
    return out


def _fields() -> set[str]:
    from generated import context

    return set(context.FIELD_TYPES)


def _known(ctx: dict[str, Any]) -> dict[str, Any]:
    fields = _fields()
    return {k: v for k, v in ctx.items() if k in fields}


#: Server files read once per session (mcp_tools never changes what it is given).
_SERVERS: dict[str, Any] = {}


def _python(case: dict[str, Any]) -> Any:
    """What the Python package answers for one case (the same shape the TS script returns)."""
    import generated
    from generated import catalog
    from generated._runtime.dynamic_tools import load_servers_json

    try:
        ctx = generated.Context.from_mapping(case["context"])
        extra: list[Any] = []
        skipped: list[Any] = []
        if case["servers"] is not None or case["subagents"] is not None:
            servers = _SERVERS.get(case["servers"]) if case["servers"] is not None else []
            if servers is None:
                servers = _SERVERS[case["servers"]] = load_servers_json(case["servers"])
            servers = servers if isinstance(servers, list) else [servers]
            subagents = json.loads(case["subagents"]) if case["subagents"] is not None else []
            extra, skipped = catalog.dynamic_variants(case["family"], ctx, mcp_servers=servers, subagents=subagents)
        tools = generated.native_tools(
            case["family"], ctx, format=case["format"], extra_variants=extra, skipped=skipped
        )
        return {"tools": tools, "skipped": skipped}
    except Exception as exc:
        return {"error": f"{type(exc).__name__}: {exc}"}


def _families() -> list[str]:
    from generated import catalog

    return list(catalog.FAMILIES)


def _case(name: str, family: str, fmt: str | None, ctx: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "name": name,
        "family": family,
        "format": fmt,
        "context": _known(ctx),
        "servers": extra.get("servers"),
        "server_file": extra.get("server_file"),
        "subagents": extra.get("subagents"),
    }


def _static_cases() -> Iterator[dict[str, Any]]:
    for name, ctx in _contexts():
        for family in [*_families(), "no-such-family"]:
            for fmt in (*FORMATS, None):
                yield _case(name, family, fmt, ctx)


def _grid_cases() -> Iterator[dict[str, Any]]:
    import generated

    fields = _fields()
    for i, row in enumerate(json.loads(GRID.read_text("utf-8"))["cases"]):
        data = {k: v for k, v in row["context"].items() if k in fields}
        family = str(generated.select_family(generated.Context.from_mapping(data)))
        for fmt in (*FORMATS, None):
            yield _case(f"grid{i:03d}", family, fmt, data)


def _runtime_tool_cases() -> Iterator[dict[str, Any]]:
    golden = _golden()
    contexts = [
        ("golden", golden),
        ("golden-subagents", {**golden, "subagents_enabled": True}),
        ("golden-subagent-run", {**golden, "subagents_enabled": True, "is_subagent_run": True}),
    ]
    texts = [(path.name, path.read_text("utf-8")) for path in sorted(MCP_DIR.glob("*.json"))]
    texts.append(("EDGE_TEXT", EDGE_TEXT))
    for name, ctx in contexts:
        for family in _families():
            for fmt in (*FORMATS, None):
                for label, text in texts:
                    yield _case(name, family, fmt, ctx, servers=text, server_file=label, subagents=SUBAGENTS_TEXT)
                yield _case(name, family, fmt, ctx, subagents=SUBAGENTS_TEXT)


# ---- the converter on random schemas --------------------------------------------------------

_TYPES = ["string", "number", "integer", "boolean", "array", "object", "null"]
_KEYWORDS = [
    "type", "description", "title", "enum", "const", "properties", "required", "items", "anyOf",
    "oneOf", "allOf", "nullable", "additionalProperties", "format", "minimum", "maximum",
    "exclusiveMinimum", "exclusiveMaximum", "default", "examples", "pattern", "minLength",
    "maxItems", "uniqueItems", "deprecated", "$ref", "not", "$defs", "prefixItems", "multipleOf",
    "readOnly", "propertyNames", "dependencies",
]  # fmt: skip


def _random_schema(rng: random.Random, depth: int = 0) -> dict[str, Any]:
    """A schema mixing valid, unusual and malformed keyword values (property names are never
    integer-like: JavaScript orders those first, a documented difference)."""
    values: list[Any] = [1, 2.5, "x", None, True, [1, "a"], {"k": 1}, 0, -3, "date-time", "uuid"]
    deeper = depth < 4 and rng.random() < 0.85
    s: dict[str, Any] = {}
    for k in rng.sample(_KEYWORDS, rng.randint(0, 5)):
        if k == "type":
            s[k] = rng.choice([*_TYPES, ["string", "null"], ["integer", "number"], ["object"], [], "text"])
        elif k in ("description", "title", "pattern"):
            s[k] = rng.choice(["d", "line\nline", "", "x y ", "é \u2028"])
        elif k == "enum":
            s[k] = rng.choice(
                [["a", "b"], [1, 2], ["a", None], [None], [1.5, "x"], [], "ab", 5, [True, 1], [[1], {"a": None}]]
            )
        elif k in ("const", "default", "examples"):
            s[k] = rng.choice(values)
        elif k == "properties":
            names = ["a", "b", "c d", "_x", "é"]
            s[k] = (
                {rng.choice(names): _random_schema(rng, depth + 1) for _ in range(rng.randint(0, 3))}
                if deeper
                else rng.choice([[], "x", {"a": None}, {"a": False}])
            )
        elif k == "required":
            s[k] = (
                rng.sample(["a", "b", "c"], rng.randint(0, 2))
                if rng.random() < 0.7
                else rng.choice(["ab", 5, None, {"a": 1}, [1], [["a"]]])
            )
        elif k == "items":
            s[k] = (
                rng.choice([_random_schema(rng, depth + 1), [_random_schema(rng, depth + 1)], True])
                if deeper
                else rng.choice([5, "x", False, None])
            )
        elif k in ("anyOf", "oneOf", "allOf"):
            s[k] = (
                [rng.choice([_random_schema(rng, depth + 1), {"type": "null"}]) for _ in range(rng.randint(1, 3))]
                if deeper
                else rng.choice([{}, "x", 5, [5], [True], [False]])
            )
        elif k == "nullable":
            s[k] = rng.choice([True, False, "yes"])
        elif k == "additionalProperties":
            s[k] = rng.choice([False, True, {"type": "string"}])
        elif k == "format":
            s[k] = rng.choice(["date-time", "uri", "int32", "float", "enum", "email"])
        elif k in ("minimum", "maximum", "minLength", "maxItems", "multipleOf"):
            s[k] = rng.choice([0, 1, 2.5, -1, 1e20, 1e-7])
        elif k in ("exclusiveMinimum", "exclusiveMaximum"):
            s[k] = rng.choice([True, False, 3, 2.5])
        elif k in ("uniqueItems", "deprecated", "readOnly"):
            s[k] = rng.choice([True, False])
        elif k == "$ref":
            s[k] = rng.choice(
                ["#/$defs/n", "#", "#/properties/a", "#/$defs/missing", "http://x", "#/$defs/n%20x", "#anchor"]
            )
        elif k == "$defs":
            s[k] = {
                "n": rng.choice([{"type": "string"}, {"type": "object", "properties": {"c": {"$ref": "#/$defs/n"}}}])
            }
        elif k == "not":
            s[k] = {"type": "string"}
        elif k == "prefixItems":
            s[k] = [{"type": "string"}]
        elif k == "propertyNames":
            s[k] = {"pattern": "^a"}
        elif k == "dependencies":
            s[k] = {"a": ["b"], "b": {"required": ["a"]}}
    return s


def _schema_cases(seed: int, count: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    cases = []
    for _ in range(count):
        root = _random_schema(rng)
        if rng.random() < 0.7:
            root["type"] = "object"
            if not isinstance(root.get("properties"), dict):
                root["properties"] = {"a": _random_schema(rng, 1), "b": _random_schema(rng, 1)}
        if rng.random() < 0.3:
            root["$defs"] = {
                "n": {"type": "object", "properties": {"c": {"$ref": "#/$defs/n"}, "v": _random_schema(rng, 2)}}
            }
        cases.append({"schema": root, "strict": rng.random() < 0.5})
    return cases


def _convert_python(case: dict[str, Any]) -> dict[str, Any]:
    from generated._runtime.native import runtime_entry
    from generated._runtime.schema_dialects import check_limits, convert, convert_parameters

    out: dict[str, Any] = {}
    for fmt in FORMATS:
        for strict in (False, True):
            try:
                conv = convert(case["schema"], fmt, strict=strict)
                notices = [[list(n.path), n.message] for n in conv.notices]
                out[f"{fmt}/{strict}"] = {"ok": {"schema": conv.schema, "notices": notices}}
            except Exception as exc:
                out[f"{fmt}/{strict}"] = {"error": f"{type(exc).__name__}: {exc}"}
        try:
            out[f"params/{fmt}"] = {"ok": convert_parameters(case["schema"], fmt)}
        except Exception as exc:
            out[f"params/{fmt}"] = {"error": f"{type(exc).__name__}: {exc}"}
        variant = {
            "name": "t",
            "description": ["D."],
            "strict": case["strict"],
            "parameters": [],
            "input_schema": case["schema"],
        }
        try:
            entry = runtime_entry(fmt, variant, "".join)
            out[f"runtime/{fmt}"] = {"ok": entry}
        except Exception as exc:
            out[f"runtime/{fmt}"] = {"error": f"{type(exc).__name__}: {exc}"}
            continue
        if entry is not None:
            try:
                out[f"limits/{fmt}"] = {"ok": [[list(n.path), n.message] for n in check_limits(fmt, [entry])]}
            except Exception as exc:
                out[f"limits/{fmt}"] = {"error": f"{type(exc).__name__}: {exc}"}
    return out


def _native_input(case: dict[str, Any]) -> dict[str, Any]:
    """A case as the adapter reads it (the names of the context and server file are for people)."""
    return {k: case[k] for k in ("family", "format", "context", "servers", "subagents")}


def build(out: Cases) -> None:
    """Every case of this module, in a fixed order: the lists, then the converter."""
    for case in [*_static_cases(), *_grid_cases(), *_runtime_tool_cases()]:
        out.add("native", "nativeTools", _native_input(case), _python)
    for seed in (1, 2, 3):
        for case in _schema_cases(seed, 500):
            out.add("native", "convert", case, _convert_python)
    # Integer-like property names: JavaScript orders them first (a documented difference).
    schema = {"type": "object", "properties": {"b": {"type": "string"}, "0": {"type": "string"}}}
    for strict in (False, True):
        case = {"schema": schema, "strict": strict}
        out.add("native", "convert", case, _convert_python)
    # The entries the TS runtime makes at first use, per format, against the ones Python bakes.
    from generated import catalog_data
    from generated._runtime.formats import FORMATS as RECORDS

    def baked(given: dict[str, Any]) -> Any:
        import importlib

        module = importlib.import_module(f"generated.{RECORDS[given['static']].module}")
        return {key: {"entry": module.TOOLS[key], "meta": module.META[key]} for key in catalog_data.SPECS}

    for name in RECORDS:
        out.add("native", "static", {"static": name}, baked)
