"""Lowering for the TypeScript package's handler side: args.ts and dispatch.ts.

args.ts holds one object type per TypedDict of args.py (the same names and grouping, from
``lower.args.plan``), the literal tool names, and the handler types: ``HandlerMap`` requires a
handler for every tool the specs bind one to, so a map that misses one fails ``tsc``.
dispatch.ts holds the data of bindings.py and a ``Coordinator`` bound to it, as dispatch.py does.
The text is written here, two-space indented, so it is byte-stable without a formatter.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from ..diagnostics import Diagnostics, Location
from ..model import Catalog
from ..render import header
from ..runtime import RUNTIME_VERSION
from .args import Ann, ArgsPlan, TypedDictDef, plan
from .dispatch import binding_data, bindings_values
from .ts_values import RUNTIME_FOLDER, JsWriter, string

_INDENT = "  "
_IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
_SCALARS = {"string": "string", "integer": "number", "number": "number", "boolean": "boolean"}
_ANY_OBJECT = "{ readonly [key: string]: unknown }"
# The names args.ts defines besides the interfaces (an interface of the same name would clash).
ARGS_TS_NAMES = ("ArgsByKey", "ArgsByTool", "HandledTool", "HandlerClasses", "HandlerMap", "ToolHandlerFor", "ToolName")


def doc(text: str, indent: str = "") -> str:
    """A JSDoc comment holding ``text`` (``*/`` cannot end it early); empty for empty text."""
    if not text:
        return ""
    lines = text.replace("*/", "*\\/").split("\n")
    if len(lines) == 1:
        return f"{indent}/** {lines[0]} */\n"
    body = "".join(f"{indent} *{' ' + line if line else ''}\n" for line in lines)
    return f"{indent}/**\n{body}{indent} */\n"


def ts_type(ann: Ann) -> str:
    """The TypeScript type of a field (the counterpart of ``Ann.python``)."""
    if ann.kind == "none":
        return "null"
    if ann.kind == "literal":
        text = " | ".join(string(v) if isinstance(v, str) else json.dumps(v) for v in ann.args)
    elif ann.kind == "list":
        inner = ts_type(ann.args[0]) if ann.args else "unknown"
        text = f"readonly ({inner})[]" if " " in inner else f"readonly {inner}[]"
    elif ann.kind == "ref":
        text = str(ann.args[0])
    elif ann.kind == "dict":
        text = f"{{ readonly [key: string]: {ts_type(ann.args[0])} }}" if ann.args else _ANY_OBJECT
    elif ann.kind == "union":
        text = " | ".join(f"({t})" if t.startswith("readonly ") else t for t in map(ts_type, ann.args))
    else:
        text = _SCALARS.get(str(ann.args[0]), "unknown")
    return f"{text} | null" if ann.nullable else text


def _key(name: str) -> str:
    return name if _IDENTIFIER.fullmatch(name) else string(name)


def _interface(definition: TypedDictDef) -> str:
    # an object type, not an interface: it is then assignable to ToolParams (an index signature)
    lines = [doc(_tagged(definition.text, definition.deprecated)), f"export type {definition.name} = {{\n"]
    for field in definition.fields:
        lines.append(doc(_tagged(field.text, field.deprecated), _INDENT))
        lines.append(f"{_INDENT}readonly {_key(field.key)}{'' if field.required else '?'}: {ts_type(field.type)};\n")
    lines.append("};\n")
    return "".join(lines)


def _tagged(text: str, deprecated: str | None) -> str:
    """A doc comment's text, with JSDoc's @deprecated tag when the thing is deprecated (editors
    strike its uses through; the sentence itself is already in the text)."""
    return text if deprecated is None else f"{text}\n@deprecated"


def _type_map(name: str, comment: str, entries: Iterable[tuple[str, str]]) -> str:
    body = "".join(f"{_INDENT}readonly {string(key)}: {value};\n" for key, value in entries)
    return f"{doc(comment)}export interface {name} {{\n{body}}}\n"


def _union(values: Iterable[str]) -> str:
    """A union of string literals, one member a line."""
    listed = [string(v) for v in values]
    return "".join(f"\n{_INDENT}| {v}" for v in listed) if listed else " never"


def _refs(ann: Ann) -> Iterator[str]:
    """The type names an annotation refers to."""
    if ann.kind == "ref":
        yield str(ann.args[0])
    elif ann.kind in ("list", "dict", "union"):
        for member in ann.args:
            yield from _refs(member)


def clashes(catalog: Catalog, planned: ArgsPlan) -> list[tuple[str, Location]]:
    """Types args.ts cannot define because it uses the name itself, each located at the first
    spec variant whose arguments hold it."""
    owner = {ref: d.name for d in planned.defs for f in d.fields for ref in _refs(f.type)}
    users = {name: key for key, name in sorted(planned.by_key.items(), reverse=True)}
    variants = {v.key: v for t in catalog.tools for v in t.variants}
    found = []
    for definition in planned.defs:
        if definition.name not in ARGS_TS_NAMES:
            continue
        top = definition.name
        while top in owner:  # a nested type: up to the argument type holding it
            top = owner[top]
        variant = variants.get(users.get(top, ""))
        found.append((definition.name, variant.location if variant else Location(catalog.project.source)))
    return found


_CLEAR: dict[str, None] = {}
"""Naming keys (``_naming_key``) of catalogs whose argument types clash with nothing, newest last."""
_CLEAR_LIMIT = 64
_TEXT_KEYS = frozenset({"description", "title", "examples", "default"})


def _naming_key(catalog: Catalog) -> str:
    """All that the argument types' names depend on: tool ids in order, each variant's family and
    parameters (names, required flags, schemas without prose), nothing a prose edit changes."""

    def shape(value: Any) -> Any:
        if isinstance(value, Mapping):
            return {k: shape(v) for k, v in value.items() if k not in _TEXT_KEYS}
        if isinstance(value, (list, tuple)):
            return [shape(v) for v in value]
        return value

    tools = [
        (tool.id, [(v.family, [(p.name, p.required, shape(p.schema)) for p in v.parameters]) for v in tool.variants])
        for tool in catalog.tools
    ]
    return json.dumps(tools, default=repr)


def report_clashes(catalog: Catalog, diags: Diagnostics, planned: ArgsPlan | None = None) -> None:
    """E820 for each argument type named like a type args.ts defines itself.

    A catalog whose names were already found clear is not planned again (the workspace checks
    after every edit, and a prose edit changes no name); one with a clash is always planned, so
    that each error is located afresh."""
    key = _naming_key(catalog) if planned is None else None
    if key is not None and key in _CLEAR:
        return
    found = clashes(catalog, planned if planned is not None else plan(catalog))
    if key is not None and not found:
        _CLEAR[key] = None
        while len(_CLEAR) > _CLEAR_LIMIT:
            del _CLEAR[next(iter(_CLEAR))]
    for name, where in found:
        diags.error(
            where,
            "E820",
            f"the argument type {name!r} has the name of a type args.ts defines itself "
            f"({', '.join(ARGS_TS_NAMES)}), so the TypeScript package cannot hold it",
            "rename the tool or the parameter it is named after, or remove outputs.typescript from toolgen.yaml",
        )


def emit_args(catalog: Catalog, diags: Diagnostics) -> str:
    """args.ts: argument types per tool, the literal tool names and the handler-map types."""
    project = catalog.project
    planned = plan(catalog)
    report_clashes(catalog, diags, planned)
    handlers = {t.id: binding_data(t) for t in catalog.tools}
    handled = [t for t in project.tool_order if handlers.get(t) is not None]
    bound = [b for t in handled if (b := handlers.get(t)) is not None]
    classes = list(dict.fromkeys(str(b["class_name"]) for b in bound))
    root = project.source.split("/", 1)[0]
    parts = [
        header((f"{root}/tools/*.yaml", f"{root}/variants/*.yaml", f"{root}/parameters.yaml"), "//"),
        "/**\n * Typed arguments (as args.py): one object type per distinct parameter set of each tool, for\n"
        " * writing handlers, and the handler-map type that makes a missing handler a compile error.\n"
        " * docs/handlers.md gives the naming rule. At run time a call's arguments are a plain object.\n */\n\n",
        f'import {{ checkVersion }} from "./{RUNTIME_FOLDER}/index.js";\n',
        "import type { ToolResult as _ToolResult, ToolUse as _ToolUse }",
        f' from "./{RUNTIME_FOLDER}/tool_types.js";\n\n',
        f'checkVersion({RUNTIME_VERSION}, "args");\n',
    ]
    parts += ["\n" + _interface(d) for d in planned.defs]
    parts.append(
        "\n"
        + _type_map(
            "ArgsByKey",
            'Spec key ("family/tool_id", as in SPECS) -> its argument type (args.py ARGS).',
            ((key, planned.by_key[key]) for key in sorted(planned.by_key)),
        )
    )
    parts.append(
        "\n"
        + _type_map(
            "ArgsByTool",
            "Tool id -> the argument type most families share (args.py ARGS_BY_TOOL); any object for a tool"
            " without variants.",
            ((t, planned.by_tool.get(t, _ANY_OBJECT)) for t in project.tool_order),
        )
    )
    parts.append(
        "\n/** Every literal tool name. */\nexport type ToolName = keyof ArgsByTool;\n"
        "\n/** The tools the specs bind a handler to (bindings HANDLERS without null). */\n"
        f"export type HandledTool ={_union(handled)};\n"
        "\n/** A handler of tool `K`: `execute` gets the call with its arguments typed. */\n"
        "export interface ToolHandlerFor<K extends ToolName, Config = unknown> {\n"
        f"{_INDENT}readonly name?: string;\n"
        f"{_INDENT}execute(config: Config, block: _ToolUse<ArgsByTool[K], K>): _ToolResult | Promise<_ToolResult>;\n"
        f"{_INDENT}handlePartialBlock?(config: Config, block: _ToolUse<Partial<ArgsByTool[K]>, K>): unknown;\n"
        "}\n"
        "\n/** Handlers by tool name for `Coordinator.fromHandlers`: every handled tool is required. */\n"
        "export type HandlerMap<Config = unknown> = {\n"
        f"{_INDENT}readonly [K in HandledTool]: ToolHandlerFor<K, Config>;\n"
        "};\n"
        "\n/** Handler classes by class name for `Coordinator.fromNamespace` (use with `satisfies`). */\n"
        "export type HandlerClasses = {\n"
        + "".join(f"{_INDENT}readonly {_key(c)}: new (validator?: any) => unknown;\n" for c in classes)
        + "};\n"
    )
    return "".join(parts)


def _literal(value: Any) -> str:
    """A JSON-like TS literal, written as catalog_data.ts writes its values."""
    writer = JsWriter()
    writer.value(value, "dispatch")
    return writer.out.getvalue()


def emit_dispatch(catalog: Catalog) -> str:
    """dispatch.ts: the bindings data (as bindings.py) and the Coordinator bound to it."""
    project = catalog.project
    root = project.source.split("/", 1)[0]
    values = bindings_values(catalog)
    consts = (
        (
            "HANDLERS",
            "{ readonly [toolId: string]: Binding | null }",
            "handlers",
            "Every tool id in enum order: null (no handler), else class_name, takes_validator and shares.",
        ),
        ("MCP_TOOL", "string | null", "mcp_tool", "The tool whose handler receives every MCP tool call."),
        (
            "SUBAGENTS_TOOL",
            "string | null",
            "subagents_tool",
            "The tool whose handler class serves the dynamic subagent tools.",
        ),
        ("MCP_SEPARATOR", "string", "mcp_separator", "Separates server uid and tool name in an MCP tool name."),
        ("SUBAGENT_PREFIX", "string", "subagent_prefix", ""),
        ("SUBAGENT_MAX_LENGTH", "number", "subagent_max_length", ""),
        (
            "LABELS",
            "{ readonly [toolId: string]: string }",
            "labels",
            "Label templates by tool id (specs `label:`), filled by `label(use)`; see _runtime/labels.ts.",
        ),
    )
    parts = [
        header((project.source, f"{root}/tools/*.yaml"), "//"),
        "/**\n * Tool dispatch (as dispatch.py and bindings.py): the static handler table and the coordinator\n"
        " * that routes calls. The handlers belong to the project using this package: build a Coordinator\n"
        " * with `Coordinator.fromHandlers(map)` (a HandlerMap, checked at compile time) or\n"
        " * `Coordinator.fromNamespace(classes)` (classes by name, checked when it runs). See\n"
        " * _runtime/dispatch.ts for the routing order.\n */\n\n",
        f'import {{ checkVersion }} from "./{RUNTIME_FOLDER}/index.js";\n',
        f'import {{ Bindings, Coordinator as RuntimeCoordinator }} from "./{RUNTIME_FOLDER}/dispatch.js";\n',
        f'import type {{ Binding, CoordinatorOptions }} from "./{RUNTIME_FOLDER}/dispatch.js";\n',
        f'import type {{ ToolUse }} from "./{RUNTIME_FOLDER}/tool_types.js";\n',
        'import type { HandlerMap } from "./args.js";\n\n',
        f'checkVersion({RUNTIME_VERSION}, "dispatch");\n\n',
        "export { AsyncHandlerError, Bindings, MissingHandlersError, SharedToolHandler }"
        f' from "./{RUNTIME_FOLDER}/dispatch.js";\n',
        "export type {\n"
        f"{_INDENT}Binding,\n{_INDENT}CoordinatorOptions,\n{_INDENT}HandlerNamespace,\n"
        f"{_INDENT}NamespaceOptions,\n{_INDENT}ToolHandler,\n"
        f'}} from "./{RUNTIME_FOLDER}/dispatch.js";\n',
    ]
    for name, type_, key, comment in consts:
        parts.append(f"\n{doc(comment)}export const {name}: {type_} = {_literal(values[key])};\n")
    parts.append(
        "\nexport const BINDINGS = new Bindings({\n"
        f"{_INDENT}handlers: HANDLERS,\n{_INDENT}mcpTool: MCP_TOOL,\n{_INDENT}subagentsTool: SUBAGENTS_TOOL,\n"
        f"{_INDENT}mcpSeparator: MCP_SEPARATOR,\n{_INDENT}subagentPrefix: SUBAGENT_PREFIX,\n"
        f"{_INDENT}subagentMaxLength: SUBAGENT_MAX_LENGTH,\n{_INDENT}labels: LABELS,\n}});\n"
        "\n/** Routes tool calls to this package's handlers (HANDLERS); see _runtime/dispatch.ts. */\n"
        "export class Coordinator<Config = unknown> extends RuntimeCoordinator<Config> {\n"
        f"{_INDENT}static override bindings: Bindings = BINDINGS;\n\n"
        f"{_INDENT}/** Handler objects by tool name; a handled tool missing from `handlers` fails to compile. */\n"
        f"{_INDENT}static override fromHandlers<T extends typeof RuntimeCoordinator<any>>(\n"
        f"{_INDENT * 2}this: T,\n{_INDENT * 2}handlers: HandlerMap<any>,\n"
        f"{_INDENT * 2}options: CoordinatorOptions = {{}},\n"
        f"{_INDENT}): InstanceType<T> {{\n"
        f"{_INDENT * 2}return super.fromHandlers.call(this, handlers, options) as InstanceType<T>;\n"
        f"{_INDENT}}}\n"
        "}\n"
        "\n/** Whether `name` has the shape of a dynamic subagent tool name. */\n"
        "export function isSubagentToolName(name: string): boolean {\n"
        f"{_INDENT}return BINDINGS.isSubagentToolName(name);\n}}\n"
        "\n/** The static table as JSON-able rows, in enum order. */\n"
        'export function dispatchTable(): ReturnType<Bindings["table"]> {\n'
        f"{_INDENT}return BINDINGS.table();\n}}\n"
        "\n/** A short label for a tool call, e.g. `[read_file for 'src/app.ts']`; never throws. */\n"
        'export function label(use: Pick<ToolUse, "name" | "params">): string {\n'
        f"{_INDENT}return BINDINGS.label(use);\n}}\n"
    )
    return "".join(parts)
