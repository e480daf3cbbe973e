"""`toolgen show ...` and `toolgen parse`: answers come from importing the generated package."""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from importlib import import_module
from pathlib import Path
from types import ModuleType
from typing import Any, NoReturn

from .diagnostics import Diagnostic, Location, argument_location, emit, file_location, one_error
from .runtime.context import closest_name
from .runtime.formats import FORMATS
from .runtime.schema_common import MAX_NESTING, json_text_depth

#: What ``show schema`` declares its plain schemas to be.
JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


class Refused(Exception):
    """Bad input to show/parse (a missing file, bad JSON, a bad context, an unknown name): ``run``
    prints it in the run's --error-format, like every other command's errors, and exits 2."""

    def __init__(self, location: Location, code: str, message: str, hint: str) -> None:
        super().__init__(message)
        self.diagnostic = Diagnostic(location, code, message, hint)



def _one_of(names: list[str]) -> str:
    """``a, b or c``: the --format help, from the format records (a new record is listed here too)."""
    return ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else "".join(names)

def _fail(location: Location, code: str, message: str, hint: str) -> NoReturn:
    raise Refused(location, code, message, hint)


def _file_fail(path: Path, code: str, message: str, hint: str) -> NoReturn:
    """An error about an input file: located on the file, which has no line here."""
    _fail(file_location(path), code, message, hint)


def _unknown(kind: str, option: str, name: str, known: Sequence[str], where: str = "") -> NoReturn:
    """E138 for a name that is not there, on its argument, with the closest known one and the full list."""
    close = closest_name(name, known)
    hint = f"did you mean {close!r}? known: " if close else "known: "
    _fail(argument_location(option, name), "E138", f"unknown {kind} {name!r}{where}", hint + ", ".join(known))


def add_commands(sub: Any, common: argparse.ArgumentParser) -> None:
    show = sub.add_parser("show", help="print what the generated package produces")
    kinds = show.add_subparsers(dest="what", required=True, parser_class=type(show))
    family = kinds.add_parser("family", parents=[common], help="the family selected for a context")
    family.add_argument("--context", type=Path, help="JSON file with context fields")
    enabled = kinds.add_parser("enabled", parents=[common], help="enabled tool ids of a family")
    enabled.add_argument("--family", required=True)
    enabled.add_argument("--context", type=Path)
    tools = kinds.add_parser("tools", parents=[common], help="the request-ready native tools list (JSON)")
    tools.add_argument("--family", required=True)
    target = tools.add_mutually_exclusive_group(required=True)
    target.add_argument("--provider", help="route by provider id (with --model)")
    target.add_argument("--format", help=_one_of(list(FORMATS)))
    tools.add_argument("--model", help="model id, used by routing (e.g. vertex + gemini)")
    tools.add_argument("--context", type=Path)
    _dynamic_args(tools)
    schema = kinds.add_parser("schema", parents=[common], help="one tool's parameters as JSON Schema")
    schema.add_argument("--tool", required=True, help="tool id (as in specs/tools/<id>.yaml)")
    schema.add_argument("--family", help="whose variant of the tool (default: the family the context selects)")
    schema.add_argument("--format", help="as this native format sends them (default: plain JSON Schema)")
    schema.add_argument("--context", type=Path)
    kinds.add_parser("dispatch", parents=[common], help="the handler dispatch table (JSON)")
    prompt = kinds.add_parser("prompt", parents=[common], help="the text-path tools section of a family")
    prompt.add_argument("--family", required=True)
    prompt.add_argument("--context", type=Path)
    _dynamic_args(prompt)
    parse = sub.add_parser("parse", parents=[common], help="read a model reply on stdin, print its tool calls as JSON")
    parse.add_argument("--family", required=True)
    parse.add_argument("--context", type=Path, help="JSON file with context fields (subagent tools need one)")
    _dynamic_args(parse)


def _dynamic_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--mcp-servers", type=Path, help="JSON list of {uid, name, disabled, tools}")
    parser.add_argument("--subagents", type=Path, help="JSON list of {name, description}")


def load_package(out: Path) -> ModuleType:
    """Import the generated package at ``out`` under a private name (relative imports make this work)."""
    init = out / "__init__.py"
    if not init.is_file():
        _file_fail(init, "E135", "not found: no generated package here", "run `toolgen generate` first, or check --out")
    # One private name per folder: an in-process caller (the tests) may show several packages.
    name = "_toolgen_generated_" + hashlib.sha256(os.fsencode(out.resolve())).hexdigest()[:16]
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, init, submodule_search_locations=[str(out)])
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:  # a file deleted or damaged since generate, or not ours at all
        del sys.modules[name]
        message = f"is not a complete generated package: importing it raised {type(exc).__name__}: {exc}"
        _file_fail(out, "E135", message, "check --out, or run `toolgen generate` again")
    return module


def _context(package: ModuleType, path: Path | None) -> Any:
    if path is None:
        return package.Context()
    try:
        return package.Context.from_json(path.read_text("utf-8"))
    except OSError as exc:
        _unreadable(path, exc)
    except UnicodeDecodeError as exc:
        _not_utf8(path, exc)
    except package.ContextError as exc:
        _file_fail(path, "E137", str(exc), "fix the file: a JSON object of the generated Context's fields")


def _json_file(path: Path | None, load: Any = None) -> Any:
    """The JSON in ``path``; ``load`` (instead of a depth check and json.loads) may parse it."""
    if path is None:
        return None
    try:
        text = path.read_text("utf-8")
        if load is not None:
            return load(text)
        if json_text_depth(text) > MAX_NESTING:
            _file_fail(path, "E136", f"JSON nested deeper than {MAX_NESTING} levels", "flatten the file")
        return json.loads(text)
    except OSError as exc:
        _unreadable(path, exc)
    except UnicodeDecodeError as exc:
        _not_utf8(path, exc)
    except ValueError as exc:
        _file_fail(path, "E136", f"not valid JSON: {exc}", "fix the JSON (or pass another file)")


def _unreadable(path: Path, exc: OSError) -> NoReturn:
    _file_fail(path, "E136", f"cannot read: {exc.strerror}", "check the path and its permissions")


def _not_utf8(path: Path, exc: UnicodeDecodeError) -> NoReturn:
    _file_fail(path, "E136", f"not UTF-8 text (byte {exc.start})", "save the file as UTF-8")


def _extra_variants(package: ModuleType, args: argparse.Namespace, context: Any, family: str) -> list[Any]:
    """Run-time tools (subagents, MCP) for --subagents / --mcp-servers, when the package has them."""
    dynamic = import_module(package.__name__ + "._runtime.dynamic_tools")
    # A schema nested past MAX_NESTING costs its tool only: the loader cuts it off before json.loads.
    servers = _json_file(getattr(args, "mcp_servers", None), dynamic.load_servers_json)
    agents = _json_file(getattr(args, "subagents", None))
    for option, data, check in (
        ("subagents", agents, dynamic.validate_subagents),
        ("mcp_servers", servers, dynamic.validate_servers),
    ):
        if data is not None:
            try:
                check(data)
            except ValueError as exc:
                _file_fail(getattr(args, option), "E137", str(exc), "fix the file; see docs/providers.md")
    if servers is None and agents is None:
        return []
    refused: list[dict[str, Any]] = []
    if agents is not None:  # the catalog would drop these silently: report them here
        agents, refused = dynamic.split_subagents(agents)
    # The shape runtime/catalog.py's dynamic_variants returns (the package is imported by path, so untyped).
    extra: list[dict[str, Any]]
    skipped: list[dict[str, Any]]
    extra, skipped = package.catalog.dynamic_variants(
        family, context, mcp_servers=servers or (), subagents=agents or ()
    )
    report_skipped(refused + skipped)
    report_skipped([r for v in extra for r in v.get("degraded", ())], "degraded")
    return extra


def report_skipped(skipped: list[dict[str, Any]], verb: str = "skipped") -> None:
    """One stderr line per run-time tool left out, or (``degraded``) offered with part of its schema
    taken out (stdout stays the command's JSON or text)."""
    for skip in skipped:
        kind = "MCP tool" if skip["uid"] is not None else "run-time tool"
        tool = skip["name"] or skip["tool"]
        label = repr(tool) if tool else "(unnamed)"
        print(f"toolgen: {verb} {kind} {label} of {skip['server']!r}: {skip['reason']}", file=sys.stderr)


def _stdin_text() -> str:
    """The reply on stdin as UTF-8, whatever the locale says stdin is."""
    stream = sys.stdin
    data = stream.buffer.read() if hasattr(stream, "buffer") else stream.read()
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad = data[exc.start : exc.end]
        _fail(
            argument_location("stdin"),
            "E136",
            f"not UTF-8 text (byte {exc.start}: {bad!r})",
            "send the model reply as UTF-8",
        )


def _emit(text: str, fallback: str | None = None) -> None:
    """Print ``text``; where stdout cannot encode it (PYTHONIOENCODING=ascii), print
    ``fallback`` (JSON with ASCII escapes) or the text with backslash escapes instead."""
    try:
        print(text)
    except UnicodeEncodeError:
        encoding = getattr(sys.stdout, "encoding", None) or "ascii"
        print(fallback or text.encode(encoding, "backslashreplace").decode(encoding))


def _emit_json(value: Any) -> None:
    _emit(json.dumps(value, indent=2, ensure_ascii=False), json.dumps(value, indent=2))


def run(args: argparse.Namespace) -> int:
    """Answer one show/parse command; bad input is one diagnostic (E135-E139) and exit 2."""
    try:
        return _answer(args)
    except Refused as exc:
        emit(one_error(exc.diagnostic, args.error_format), args.error_format)
        return 2


def _answer(args: argparse.Namespace) -> int:
    package = load_package(args.out)
    context = _context(package, getattr(args, "context", None))
    family = getattr(args, "family", None)
    if family is not None and family not in package.catalog.FAMILIES:
        _unknown("family", "--family", family, list(package.catalog.FAMILIES))
    try:
        if args.command == "parse":
            prompt = import_module(package.__name__ + ".prompt")
            extra = _extra_variants(package, args, context, args.family)
            calls = prompt.parse_calls(_stdin_text(), args.family, extra)
            out = [{"name": c.name, "params": dict(c.params), "partial": c.partial} for c in calls]
            _emit_json(out)
            return 0
        if args.what == "dispatch":
            dispatch = import_module(package.__name__ + ".dispatch")
            print(json.dumps(dispatch.dispatch_table(), indent=2))
            return 0
        if args.what == "tools":
            providers = import_module(package.__name__ + ".providers")
            fmt = args.format
            if fmt is None:
                fmt = package.route(args.provider, args.model)
            elif fmt not in providers.FORMATS:
                _unknown("format", "--format", fmt, list(providers.FORMATS))
            extra = _extra_variants(package, args, context, args.family)
            skipped: list[dict[str, Any]] = []
            try:
                tools = providers.native_tools(args.family, context, format=fmt, extra_variants=extra, skipped=skipped)
            except providers.NativeToolsUnavailable as exc:
                print(f"toolgen: no native tools: {exc}", file=sys.stderr)
                return 1
            report_skipped(skipped)
            _emit_json(tools)
            return 0
        if args.what == "schema":
            _emit_json(tool_schema(package, args.tool, args.family, context, args.format))
        elif args.what == "family":
            _emit(package.select_family(context))
        elif args.what == "enabled":
            print(json.dumps(list(package.enabled_tools(args.family, context)), indent=2))
        elif args.what == "prompt":
            prompt = import_module(package.__name__ + ".prompt")
            extra = _extra_variants(package, args, context, args.family)
            skipped = []
            section = prompt.prompt_section(args.family, context, extra, skipped)
            report_skipped(skipped)
            _emit(section)
        else:
            return 2
    except KeyError as exc:  # the package refused a name (a provider that routes to no format)
        option, value = ("--provider", args.provider) if getattr(args, "provider", None) else ("--family", family)
        _fail(argument_location(option, value), "E138", str(exc.args[0]), "pass a name the package knows")
    return 0


def tool_schema(package: ModuleType, tool: str, family: str | None, context: Any, fmt: str | None) -> Any:
    """One tool's parameters as ``family`` (default: the context's) resolves them in ``context``.

    Plain: a draft 2020-12 JSON Schema of the parameters whose requirements hold (the set every
    native format sends), with the tool's name as ``title`` and its description. With ``fmt``:
    the parameters part of the tool entry exactly as that format sends it, built the way
    ``native_tools`` builds it but without its gate, so text-path families can be shown too.
    """
    providers = import_module(package.__name__ + ".providers")
    if fmt is not None and fmt not in providers.FORMATS:
        _unknown("format", "--format", fmt, list(providers.FORMATS))
    catalog = package.catalog.CATALOG
    family = family or package.select_family(context)
    variants = {v["id"]: v for v in catalog.variants[family]}
    if tool not in variants:
        _unknown("tool", "--tool", tool, list(variants), f" in family {family!r}")
    variant = variants[tool]
    if not catalog.holds(variant["requires"], context):
        message = f"tool {tool!r} is turned off in family {family!r} by the context (its requirement does not hold)"
        _fail(
            argument_location("--tool", tool),
            "E139",
            message,
            "pass a --context in which the tool is enabled (`toolgen show enabled`)",
        )
    if fmt is not None:
        return _sent_parameters(package, providers.FORMATS[fmt], variant, context)
    runtime = package.__name__ + "._runtime."
    native = import_module(runtime + "native")
    formats = import_module(runtime + "formats")
    dialects = import_module(runtime + "schema_dialects")
    params = [
        {**p, "instruction": catalog.resolve_text(p["instruction"], context)}
        for p in catalog.visible_parameters(variant, context)
    ]
    # Any record with the plain policy: it adds only property-name checks, which spec parameters passed.
    record = next(r for r in formats.FORMATS.values() if r.schema == formats.JSON_SCHEMA)
    converted = dialects.convert_with(native.parameters_schema(params), record, formats.JSON_SCHEMA).schema
    head: dict[str, Any] = {"$schema": JSON_SCHEMA_DIALECT, "title": variant["name"]}
    description = catalog.resolve_text(variant["description"], context)
    if description:
        head["description"] = description
    return {**head, **converted}


def _sent_parameters(package: ModuleType, module: ModuleType, variant: Any, context: Any) -> Any:
    """The parameters of ``variant``'s entry in the format of provider ``module``, as ``native_tools`` sends them."""
    key = f"{variant['spec']}/{variant['id']}"
    entry = module.TOOLS[key]
    if entry is None:
        message = f"this variant of {variant['id']!r} has no description, so no native format sends it"
        _fail(argument_location("--tool", variant["id"]), "E139", message, "leave out --format, or describe the tool")
    catalog = package.catalog.CATALOG
    native = import_module(package.__name__ + "._runtime.native")
    built = native.materialize(
        module.DIALECT,
        entry,
        module.META[key],
        lambda requirement: catalog.holds(requirement, context),
        lambda pieces: catalog.resolve_text(pieces, context),
        lambda text: catalog.resolve_placeholders(text, context),
    )
    formats = import_module(package.__name__ + "._runtime.formats")
    record = formats.FORMATS[module.DIALECT]
    *above, key_name = record.path_to(formats.PARAMETERS)
    holder = built
    for step in above:
        holder = holder[step]
    return holder.get(key_name, holder.get(record.json_schema_key))
