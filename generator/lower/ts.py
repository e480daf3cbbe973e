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
from ..runtime.formats import FORMATS
from ..semantics import member_name
from . import ts_package
from .core import catalog_values, spec_sources
from .ts_dispatch import emit_args, emit_dispatch, report_clashes
from .ts_values import RUNTIME_FOLDER, Call, JsChecker, JsWriter, shared_values, string

_INDENT = "  "

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


_SHARED_REF = re.compile(r"_PARAMS\[([0-9]+)\]")

# catalog_data.ts writes a parameter and a spec variant as a call of a function taking their fields
# in this order (the keys of core.param_data and core.variant_data, as _runtime/data.ts types them)
# instead of spelling every key of every record: about a sixth of the data was key names. A record
# whose keys are other (a field added on one side only) is written as an object; a spec's keys after
# these fields (its host-facing ones) go to _s's last argument, an object.
_PARAM_FIELDS = ("name", "required", "instruction", "description", "usage", "schema", "dependencies", "requires")
_SPEC_FIELDS = ("id", "spec", "name", "description", "requires", "strict", "parameters")
_BUILDERS = (
    (
        "/** A parameter from its fields, in ParameterData's order. */",
        "_p",
        "ParameterData",
        _PARAM_FIELDS,
        "",
    ),
    (
        "/** A spec variant from its fields, in SpecData's order; the host-facing fields (title, ...) last. */",
        "_s",
        "SpecData",
        _SPEC_FIELDS,
        f"extra: Omit<SpecData, {' | '.join(map(string, _SPEC_FIELDS))}> = {{}}",
    ),
)


def _builders() -> str:
    lines = []
    for doc, name, type_, fields, rest in _BUILDERS:
        params = ", ".join([*(f"{field}: {type_}[{string(field)}]" for field in fields), *([rest] if rest else [])])
        members = ", ".join([*fields, *(["...extra"] if rest else [])])
        head = f"/* @__NO_SIDE_EFFECTS__ */ function {name}({params}): {type_} {{"
        lines += [doc, head, f"{_INDENT}return {{ {members} }};", "}"]
    return "\n".join(lines) + "\n"


def _param_record(data: Mapping[str, Any]) -> Any:
    return Call("_p", tuple(data.values())) if tuple(data) == _PARAM_FIELDS else data


def _spec_records(specs: Mapping[str, Any], shared: tuple[Any, ...]) -> dict[str, Any]:
    """SPECS as records (``_s`` and ``_p`` calls), each shared parameter list written in place: the
    TS writer writes a repeated list once by itself (ts_values.shared_values)."""
    out: dict[str, Any] = {}
    for key, data in specs.items():
        ref = data["parameters"]
        if isinstance(ref, Code):  # a list the Python module writes once: _PARAMS[i]
            match = _SHARED_REF.fullmatch(ref)
            if match is None:
                raise ValueError(f"toolgen: {key}: parameters {ref!r} name no shared list")
            ref = shared[int(match.group(1))]
        data = {**data, "parameters": [_param_record(p) for p in ref]}
        keys = tuple(data)
        if keys[: len(_SPEC_FIELDS)] == _SPEC_FIELDS:
            extra = {k: data[k] for k in keys[len(_SPEC_FIELDS) :]}
            args = tuple(data[k] for k in _SPEC_FIELDS) + ((extra,) if extra else ())
            out[key] = Call("_s", args)
        else:
            out[key] = data
    return out


def _native_part(values: dict[str, Any], specs: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The families that use native tool calling, with their spec lists, and the records of those
    lists' variants (in SPECS order)."""
    families = values["families"]
    native = {name: keys for name, keys in values["family_specs"].items() if families[name]["use_native_tools"]}
    used = {key for keys in native.values() for key in keys}
    return native, {key: record for key, record in specs.items() if key in used}


def _data_object(out: Any, name: str, instead: dict[str, str]) -> None:
    """``export const <name>: CatalogData`` naming the exports (or, by key, the constants ``instead``)."""
    out.write(f"export const {name}: CatalogData = {{\n")
    for export, _, key in DATA_EXPORTS:
        field = "familySpecs" if key == "family_specs" else key
        out.write(f"{_INDENT}{field}: {instead.get(key, export)},\n")
    out.write("};\n")


def _check_data(values: dict[str, Any], checker: JsWriter) -> None:
    """Record in ``checker`` what of catalog_data JavaScript cannot hold, at its place in the
    values as catalog_data.py holds them (_report locates the problems from there)."""
    for index, params in enumerate(values["shared"]):
        checker.check(params, "_PARAMS", index)
    for name, _, key in DATA_EXPORTS:
        checker.check(values[key], name)


def _catalog_data(values: dict[str, Any], head: str) -> tuple[str, bool]:
    """catalog_data.ts, and whether JavaScript cannot hold something in it (``_check_data`` then
    says what, and where: here a problem is seen once per value written, not per place in the data)."""
    writer = JsWriter()
    out = writer.out
    out.write(head)
    out.write(
        "/** The resolved catalog as data, the same values as catalog_data.py: selection rules, families,\n"
        " * spec variants, placeholders, routing. Python tuples are arrays here. */\n\n"
        f'import {{ checkVersion }} from "./{RUNTIME_FOLDER}/index.js";\n'
        f'import type {{ CatalogData, {_DATA_TYPES} }} from "./{RUNTIME_FOLDER}/data.js";\n\n'
        f'checkVersion({RUNTIME_VERSION}, "catalog_data");\n\n'
    )
    out.write(_builders())
    names = [name for name, _, _ in DATA_EXPORTS]
    exported = [values[key] for _, _, key in DATA_EXPORTS]
    specs = exported[names.index("SPECS")] = _spec_records(values["specs"], values["shared"])
    native, native_specs = _native_part(values, specs)
    shared = shared_values([*exported, native_specs, native])
    if shared.texts or shared.values:
        out.write("\n// Texts and values the data below holds more than once, written once.\n")
    for index, text in enumerate(shared.texts):
        out.write(f"const _T{index} = ")
        writer.value(text, f"_T{index}")
        out.write(";\n")
    for index, value in enumerate(shared.values):
        out.write(f"const _V{index} = ")
        writer.value(value, f"_V{index}", compact=True)
        out.write(";\n" if isinstance(value, Call) else " as const;\n")
    *exported, native_specs, native = shared.out
    for (name, type_, _key), value in zip(DATA_EXPORTS, exported, strict=True):
        if name == "SPECS":
            out.write('\n/** Every spec variant, keyed "<family>/<tool id>"; families share them by key. */')
        elif name == "FAMILY_SPECS":
            out.write("\n/** Each prompt family's resolved tool list, as SPECS keys in prompt order. */")
        out.write(f"\nexport const {name}: {type_} = ")
        writer.value(value, name)
        out.write(";\n")
    out.write("\n/** All of the above as one object, the shape the runtime's catalog reads. */\n")
    _data_object(out, "CATALOG_DATA", {})
    out.write(
        "\n/** The spec variants of the families that use native tool calling, and their lists: what\n"
        " * NATIVE_CATALOG_DATA holds instead of SPECS and FAMILY_SPECS. */\n"
        "const NATIVE_SPECS: { readonly [key: string]: SpecData } = "
    )
    writer.value(native_specs, "NATIVE_SPECS")
    out.write(";\nconst NATIVE_FAMILY_SPECS: { readonly [family: string]: readonly string[] } = ")
    writer.value(native, "NATIVE_FAMILY_SPECS")
    out.write(
        ";\n\n/** CATALOG_DATA with only the variants of the families that use native tool calling: what\n"
        " * native tool lists read (native_catalog.ts, for the one-format modules anthropic.ts, ...), as\n"
        " * the others' lists are refused before their variants are read. A bundle of one format then\n"
        " * leaves out SPECS, FAMILY_SPECS and what only they hold (the functions above are marked free\n"
        " * of side effects for that). Not exported by index.ts. */\n"
    )
    _data_object(out, "NATIVE_CATALOG_DATA", {"specs": "NATIVE_SPECS", "family_specs": "NATIVE_FAMILY_SPECS"})
    return out.getvalue(), bool(writer.problems)


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


def _context(catalog: Catalog, writer: JsWriter) -> str:
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
    writer.value({f.name: (f.type, f.nullable) for f in project.context}, "FIELD_TYPES")
    # `as const`: the tuples keep their type even under a key the contextual type misreads
    # ("constructor" is looked up on Object, not in the index signature: a context field so named).
    out.write(" as const;\n\nexport const FIELD_DOCS: { readonly [field: string]: string } = ")
    writer.value({f.name: f.doc for f in project.context}, "FIELD_DOCS")
    out.write(";\n\n/** Every field at its default. */\nexport const DEFAULTS: Context = ")
    writer.value({f.name: f.default for f in project.context}, "DEFAULTS")
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


def _report(
    catalog: Catalog, values: dict[str, Any], problems: list[tuple[tuple[Any, ...], str]], diags: Diagnostics
) -> None:
    """E800 per problem, at the spec variant the value comes from (else at toolgen.yaml)."""
    variants = {v.key: v for t in catalog.tools for v in t.variants}
    # a shared parameter list _PARAMS[i] is reported at the first variant using it
    users: dict[str, str] = {}
    for key, spec in values["specs"].items():
        users.setdefault(str(spec["parameters"]), key)
    for path, what in problems:
        root, *rest = path
        key = users.get(f"_PARAMS[{rest[0]}]") if root == "_PARAMS" and rest else None
        key = rest[0] if root == "SPECS" and rest else key
        variant = variants.get(key) if isinstance(key, str) else None
        where = variant.location if variant is not None else Location(catalog.project.source)
        shown = root + "".join(f"[{item}]" if isinstance(item, int) else f"[{string(str(item))}]" for item in rest)
        diags.error(
            where,
            "E800",
            f"cannot be emitted for TypeScript: {shown}: {what}",
            "change the value in the specs, or remove outputs.typescript from toolgen.yaml",
        )


# Python regular-expression syntax JavaScript reads differently or not at all (outside character
# classes, after an even number of backslashes); the runtime compiles regex_first_match patterns
# with JavaScript's RegExp (no flags) where Python uses re.ASCII.
_UNPORTABLE_SYNTAX = (
    (re.compile(r"\(\?P[<=]"), "(?P<name>...) and (?P=name) are Python's named-group syntax"),
    (re.compile(r"\(\?#"), "(?#...) comments"),
    (re.compile(r"\(\?[aiLmsux-]+[):]"), "inline flags such as (?i)"),
    (re.compile(r"\(\?>|[*+?}]\+"), "atomic groups and possessive quantifiers"),
    (re.compile(r"\{,"), "{,n} (JavaScript reads it as literal text)"),
)
_UNPORTABLE_ESCAPES = (
    (re.compile(r"\\[AZ]"), "\\A and \\Z"),
    (re.compile(r"\\[sS]"), "\\s (JavaScript also matches Unicode spaces; Python's re.ASCII does not)"),
    (re.compile(r"\\[NUu]"), "\\N{...}, \\U and \\u escapes"),
)
_CLASS = re.compile(r"\[(?:\\.|[^\]\\])*\]")


def _unportable_regex(pattern: str) -> str | None:
    """Why ``pattern`` would not match in JavaScript as it does in Python, or None (a conservative
    check of the syntax whose meaning differs; escapes count inside character classes too)."""
    escaped = pattern.replace("\\\\", "_")  # an escaped backslash escapes nothing after it
    outside = _CLASS.sub("[]", escaped)
    found = [why for test, why in _UNPORTABLE_SYNTAX if test.search(outside)]
    found += [why for test, why in _UNPORTABLE_ESCAPES if test.search(escaped)]
    return found[0] if found else None


def _check_regexes(catalog: Catalog, diags: Diagnostics) -> None:
    """E801 for each regex_first_match pattern JavaScript would read differently."""
    pending: list[tuple[str, Any]] = list(catalog.project.model_predicates.items())
    while pending:
        name, node = pending.pop()
        if isinstance(node, Mapping):
            spec = node.get("regex_first_match")
            pattern = str(spec["pattern"]) if isinstance(spec, Mapping) else ""
            why = _unportable_regex(pattern) if pattern else None
            if why is not None:
                diags.error(
                    Location(catalog.project.source),
                    "E801",
                    f"model predicate {name!r}: the pattern {pattern!r} cannot be used in TypeScript: {why}",
                    "write it with syntax both Python and JavaScript read alike, or remove outputs.typescript",
                )
            pending += [(name, child) for key in ("any", "all") for child in node.get(key) or ()]
        elif isinstance(node, (list, tuple)):
            pending += [(name, child) for child in node]


def check(catalog: Catalog, families: tuple[ResolvedFamily, ...], diags: Diagnostics) -> None:
    """What :func:`emit` reports (E800, E801, E820), without rendering a template: the catalog data
    is checked as emit checks it, and context.ts written as emit writes it (where its values are
    checked), then dropped."""
    data_writer, context_writer = JsChecker(), JsChecker()
    values = catalog_values(catalog, families)
    _check_data(values, data_writer)
    _context(catalog, context_writer)
    _report(catalog, values, data_writer.problems + context_writer.problems, diags)
    _check_regexes(catalog, diags)
    report_clashes(catalog, diags)


def _placeholder(head: str, what: str) -> str:
    return head + f"/** {what} (to come). */\n\nexport {{}};\n"


def emit(catalog: Catalog, families: tuple[ResolvedFamily, ...], diags: Diagnostics) -> dict[str, str]:
    """Every file of the TypeScript package, relative to its output folder."""
    head = header(spec_sources(catalog), "//")
    files = runtime_files()
    data_writer, context_writer = JsChecker(), JsWriter()
    values = catalog_values(catalog, families)
    files["catalog_data.ts"], unfit = _catalog_data(values, head)
    if unfit:
        _check_data(values, data_writer)
    files["context.ts"] = _context(catalog, context_writer)
    _report(catalog, values, data_writer.problems + context_writer.problems, diags)
    _check_regexes(catalog, diags)
    files["ids.ts"] = _ids(catalog)
    files["args.ts"] = emit_args(catalog, diags)
    files["dispatch.ts"] = emit_dispatch(catalog)
    public = [name for name, _, _ in DATA_EXPORTS] + ["CATALOG_DATA"]  # NATIVE_CATALOG_DATA: the modules' own
    for name in ("catalog", "native_catalog", "prompt", "providers", "offer", "index"):  # ts_<name>.ts.j2
        files[f"{name}.ts"] = render_text(f"ts_{name}.ts.j2", header=head, runtime=RUNTIME_FOLDER, data_exports=public)
    files.update(ts_package.emit(catalog))
    for rec in FORMATS.values():  # one entry module per format generated, as generated/<module>.py
        if rec.name in catalog.project.formats:
            files[f"{rec.module}.ts"] = render_text(
                "ts_format.ts.j2",
                header=head,
                runtime=RUNTIME_FOLDER,
                dialect=rec.name,
                dialect_literal=string(rec.name),
                module=rec.module,
            )
    return dict(sorted(files.items()))
