"""Lowering for the TypeScript package: the same catalog data as JSON literals, plus the TS runtime.

The TypeScript runtime (generator/ts_runtime/*.ts, its test/ folder excluded) is copied verbatim
into ``_runtime/``; the modules emitted here hold only data (catalog_data.ts is the same data as
catalog_data.py, from ``core.catalog_values``), identifiers and thin bindings. Output is plain text
written by this module, two-space indented, so it is byte-stable without a formatter.

Two things Python holds but JavaScript cannot are refused, as the outputs would not be equal:
integers beyond +-(2**53 - 1) (a JS number rounds them) and object keys that read as array
indexes ("0", "12") in an order other than ascending (JS iterates those first, in numeric order).
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Mapping
from importlib import resources
from typing import Any

from ..diagnostics import Diagnostics, Location
from ..model import Catalog
from ..pyfmt import Code
from ..render import header, render_text
from ..resolve import ResolvedFamily
from ..runtime import RUNTIME_VERSION
from ..semantics import member_name
from .core import catalog_values, spec_sources

RUNTIME_FOLDER = "_runtime"
MAX_SAFE_INTEGER = 2**53 - 1
_INDENT = "  "
_UNSAFE_TEXT = re.compile("[\u2028\u2029\ud800-\udfff]")
_ARRAY_INDEX = re.compile(r"0|[1-9][0-9]{0,9}")

# catalog_data.ts: export name, its type (from _runtime/data.ts), the template variable holding it
DATA_EXPORTS = (
    ("SELECTION", "SelectionData", "selection"),
    ("RULES", "readonly RuleData[]", "rules"),
    ("PRECONDITION", "Predicate | null", "precondition"),
    ("FALLBACK", "string", "fallback"),
    ("FAMILIES", "{ readonly [family: string]: FamilyData }", "families"),
    ("SPECS", "{ readonly [key: string]: SpecData }", "specs"),
    ("FAMILY_SPECS", "{ readonly [family: string]: readonly string[] }", "family_specs"),
    ("PLACEHOLDERS", "{ readonly [name: string]: PlaceholderData }", "placeholders"),
    ("ROUTING", "RoutingData", "routing"),
    ("MCP", "McpData", "mcp"),
    ("SUBAGENTS", "SubagentsData", "subagents"),
)
_DATA_TYPES = "FamilyData, McpData, ParameterData, PlaceholderData, Predicate, RoutingData, RuleData, SelectionData"
_DATA_TYPES += ", SpecData, SubagentsData"
_TS_TYPES = {"string": "string", "boolean": "boolean", "integer": "number", "number": "number"}


def runtime_files() -> dict[str, str]:
    """generator/ts_runtime/*.ts (not its tests) for ``_runtime/``, each under the generated-file header."""
    folder = resources.files("generator").joinpath("ts_runtime")
    names = sorted(p.name for p in folder.iterdir() if p.name.endswith(".ts") and p.is_file())
    return {
        f"{RUNTIME_FOLDER}/{name}": header((f"generator/ts_runtime/{name}",), "//")
        + folder.joinpath(name).read_text("utf-8")
        for name in names
    }


def string(text: str) -> str:
    """A JS string literal: JSON's, with line separators and lone surrogates escaped (valid UTF-8 out)."""
    return _UNSAFE_TEXT.sub(lambda m: f"\\u{ord(m.group()):04x}", json.dumps(text, ensure_ascii=False))


class _Writer:
    """Writes values as JSON-like TS literals and records what JavaScript could not hold as Python does."""

    def __init__(self) -> None:
        self.out = io.StringIO(newline="")
        self.problems: list[str] = []

    def value(self, value: Any, depth: int, where: str) -> None:
        write = self.out.write
        if isinstance(value, Code):
            write(str(value))
        elif value is None or isinstance(value, (bool, str)):
            write(string(value) if isinstance(value, str) else json.dumps(value))
        elif isinstance(value, int):
            if abs(value) > MAX_SAFE_INTEGER:
                self.problems.append(f"{where}: the integer {value} is beyond JavaScript's safe range")
            write(str(value))
        elif isinstance(value, float):
            write(json.dumps(value))  # the loader refuses NaN and infinities
        elif isinstance(value, Mapping):
            self._object(value, depth, where)
        else:
            self._array(list(value), depth, where)

    def _array(self, items: list[Any], depth: int, where: str) -> None:
        if not items:
            self.out.write("[]")
            return
        inner = _INDENT * (depth + 1)
        self.out.write("[\n")
        for index, item in enumerate(items):
            self.out.write(inner)
            self.value(item, depth + 1, f"{where}[{index}]")
            self.out.write(",\n")
        self.out.write(_INDENT * depth + "]")

    def _object(self, data: Mapping[str, Any], depth: int, where: str) -> None:
        if not data:
            self.out.write("{}")
            return
        indexes = [key for key in data if _ARRAY_INDEX.fullmatch(key) and int(key) < 2**32 - 1]
        if indexes != sorted(indexes, key=int) or (indexes and list(data)[: len(indexes)] != indexes):
            self.problems.append(
                f"{where}: the keys {', '.join(map(repr, indexes))} read as array indexes, which JavaScript "
                "iterates first and in ascending order, not in the declared order"
            )
        inner = _INDENT * (depth + 1)
        self.out.write("{\n")
        for key, item in data.items():
            self.out.write(f"{inner}{string(key)}: ")
            self.value(item, depth + 1, f"{where}[{string(key)}]")
            self.out.write(",\n")
        self.out.write(_INDENT * depth + "}")


def _catalog_data(values: dict[str, Any], head: str, writer: _Writer) -> str:
    out = writer.out
    out.write(head)
    out.write(
        "/** The resolved catalog as data, the same values as catalog_data.py: selection rules, families,\n"
        " * spec variants, placeholders, routing. Python tuples are arrays here. */\n\n"
        f'import {{ checkVersion }} from "./{RUNTIME_FOLDER}/index.js";\n'
        f'import type {{ CatalogData, {_DATA_TYPES} }} from "./{RUNTIME_FOLDER}/data.js";\n\n'
        f'checkVersion({RUNTIME_VERSION}, "catalog_data");\n\n'
    )
    out.write("const _PARAMS: readonly (readonly ParameterData[])[] = ")
    writer.value(values["shared"], 0, "_PARAMS")
    out.write(";\n")
    for name, type_, key in DATA_EXPORTS:
        if name == "SPECS":
            out.write('\n/** Every spec variant, keyed "<family>/<tool id>"; families share them by key. */')
        elif name == "FAMILY_SPECS":
            out.write("\n/** Each prompt family's resolved tool list, as SPECS keys in prompt order. */")
        out.write(f"\nexport const {name}: {type_} = ")
        writer.value(values[key], 0, name)
        out.write(";\n")
    out.write("\n/** All of the above as one object, the shape the runtime's catalog reads. */\n")
    out.write("export const CATALOG_DATA: CatalogData = {\n")
    for name, _, key in DATA_EXPORTS:
        field = "familySpecs" if key == "family_specs" else key
        out.write(f"{_INDENT}{field}: {name},\n")
    out.write("};\n")
    return out.getvalue()


def _const_object(name: str, doc: str, members: list[tuple[str, str]]) -> str:
    """A TS 'enum': a frozen object of string literals plus the union type of its values, same name."""
    lines = [f"/** {doc} */", f"export const {name} = {{"]
    lines += [f"{_INDENT}{member}: {string(value)}," for member, value in members]
    lines += ["} as const;", f"export type {name} = (typeof {name})[keyof typeof {name}];", ""]
    return "\n".join(lines)


def _ids(catalog: Catalog) -> str:
    project = catalog.project
    parts = [
        header((project.source,), "//"),
        "/** Tool ids and model families, in the order the specs declare them (as ids.py). */\n\n",
        f'import {{ checkVersion }} from "./{RUNTIME_FOLDER}/index.js";\n\n',
        f'checkVersion({RUNTIME_VERSION}, "ids");\n\n',
        _const_object(
            "ToolId",
            "Every tool id, in enum order (toolgen.yaml `tools`).",
            [(member_name(t), t) for t in project.tool_order],
        ),
        "\n",
        _const_object(
            "Family",
            "Every model family a spec variant may belong to (toolgen.yaml `families`).",
            [(member_name(f), f) for f in project.family_enum],
        ),
        "\n",
        _const_object(
            "PromptFamily",
            "Families with a prompt variant, in selection order.",
            [(member_name(f.name), f.name) for f in catalog.families],
        ),
        "\n/** Every tool-use name the dispatcher registers, in enum order. */\n",
        "export const TOOL_USE_NAMES: readonly ToolId[] = Object.values(ToolId);\n",
    ]
    return "".join(parts)


def _context(catalog: Catalog, writer: _Writer) -> str:
    project = catalog.project
    out = writer.out
    out.write(header((project.source,), "//"))
    out.write(
        "/** The run-time context: what the agent knows about the current request (as context.py).\n"
        " *\n"
        " * Build one with `Context.fromObject(data)`: unknown keys and values of the wrong type or out of\n"
        " * range are refused, every problem at once (see _runtime/context.ts for the behaviour). */\n\n"
        f'import {{ checkVersion }} from "./{RUNTIME_FOLDER}/index.js";\n'
        "import { ContextError, MAX_SAFE_INTEGER, asContext as coerce, contextFromObject }"
        f' from "./{RUNTIME_FOLDER}/context.js";\n'
        f'import type {{ FieldTypes }} from "./{RUNTIME_FOLDER}/context.js";\n\n'
        f'checkVersion({RUNTIME_VERSION}, "context");\n\n'
        "export { ContextError, MAX_SAFE_INTEGER };\n\n"
        "/** Context fields with their types; see FIELD_DOCS for what each one means. */\n"
        "export interface Context {\n"
    )
    for f in project.context:
        kind = "readonly string[]" if f.type == "string_list" else _TS_TYPES[f.type]
        out.write(f"{_INDENT}readonly {f.name}: {kind}{' | null' if f.nullable else ''};\n")
    out.write("}\n\n/** Kind and nullability per field, in declared order. */\nexport const FIELD_TYPES: FieldTypes = ")
    writer.value({f.name: (f.type, f.nullable) for f in project.context}, 0, "FIELD_TYPES")
    out.write(";\n\nexport const FIELD_DOCS: { readonly [field: string]: string } = ")
    writer.value({f.name: f.doc for f in project.context}, 0, "FIELD_DOCS")
    out.write(";\n\n/** Every field at its default. */\nexport const DEFAULTS: Context = ")
    writer.value({f.name: f.default for f in project.context}, 0, "DEFAULTS")
    out.write(
        ";\n\n/** Context.fromObject(data) checks `data` and fills in the defaults; throws ContextError. */\n"
        "export const Context = {\n"
        f"{_INDENT}fromObject(data: unknown): Context {{\n"
        f"{_INDENT * 2}return contextFromObject(FIELD_TYPES, DEFAULTS, data);\n"
        f"{_INDENT}}},\n"
        f"{_INDENT}defaults(): Context {{\n"
        f"{_INDENT * 2}return DEFAULTS;\n"
        f"{_INDENT}}},\n"
        "};\n\n"
        "/** A Context as is; a plain object checked and completed with the defaults; null as all defaults. */\n"
        "export function asContext(value: unknown): Context {\n"
        f"{_INDENT}return coerce(FIELD_TYPES, DEFAULTS, value);\n"
        "}\n"
    )
    return out.getvalue()


def emit(catalog: Catalog, families: tuple[ResolvedFamily, ...], diags: Diagnostics) -> dict[str, str]:
    """Every file of the TypeScript package, relative to its output folder."""
    head = header(spec_sources(catalog), "//")
    files = runtime_files()
    data_writer, context_writer = _Writer(), _Writer()
    files["catalog_data.ts"] = _catalog_data(catalog_values(catalog, families), head, data_writer)
    files["context.ts"] = _context(catalog, context_writer)
    problems = data_writer.problems + context_writer.problems
    for problem in problems:
        diags.error(
            Location(catalog.project.source),
            "E800",
            f"cannot be emitted for TypeScript: {problem}",
            "change the value in the specs, or remove outputs.typescript from toolgen.yaml",
        )
    files["ids.ts"] = _ids(catalog)
    from .ts_dispatch import emit_args, emit_dispatch  # it imports this module's helpers

    files["args.ts"] = emit_args(catalog, diags)
    files["dispatch.ts"] = emit_dispatch(catalog)
    for name in ("catalog", "prompt", "providers", "offer", "index"):  # bindings without data: ts_<name>.ts.j2
        files[f"{name}.ts"] = render_text(f"ts_{name}.ts.j2", header=head, runtime=RUNTIME_FOLDER)
    return dict(sorted(files.items()))
