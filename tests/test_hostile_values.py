"""Hostile values at generation and run time: context field names, context values, usage examples,
missing runtime fields, provider spellings, conditional text joins and streaming cost."""

from __future__ import annotations

import ast
import builtins
import itertools
import json
import keyword
import re
import shutil
import typing
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import BUNDLED_OUT, ROOT, edit, import_package, run_cli, submodule
from generator.diagnostics import shown
from generator.runtime.native import materialize, parameters_schema
from generator.runtime.predicates import normalize
from generator.runtime.schema_common import DIALECTS
from generator.runtime.schema_dialects import tool_entry
from generator.runtime.xml_calls import StreamingParser, parse_tool_calls
from generator.semantics import CONTEXT_NAME_RE, RESERVED_CONTEXT_NAMES, RUNTIME_FIELDS
from test_diagnostics import expect_line

CONTEXT_END = "    doc: Whether this is a subagent's run.\n"  # last line of the fixture's context block
CONTEXT_END_LINE = 57


def _field_yaml(name: str, ftype: str = "boolean", default: str = "false") -> str:
    return f"  {name}:\n    type: {ftype}\n    default: {default}\n    doc: A test field.\n"


def _add_fields(specs: Path, fields: list[tuple[str, str, str]]) -> None:
    edit(specs / "toolgen.yaml", CONTEXT_END, CONTEXT_END + "".join(_field_yaml(*f) for f in fields))


# -- context field names ------------------------------------------------------------------------


def test_every_reserved_name_is_rejected_at_its_key(capsys, specs: Path) -> None:
    names = sorted(RESERVED_CONTEXT_NAMES)
    _add_fields(specs, [(n, "boolean", "false") for n in names])
    rc, _, err = run_cli(capsys, "validate", "--specs", specs)
    assert rc == 2, err
    for i, name in enumerate(names):
        expect_line(err, f"specs/toolgen.yaml:{CONTEXT_END_LINE + 1 + 4 * i}:3", "E303")
        assert f"context field {name!r} would shadow a name the generated Context class uses" in err
    assert "hint: rename the field (e.g. classmethod_value)" in err
    assert "Traceback" not in err


def _names_the_context_module_uses() -> set[str]:
    """Names a Context class attribute could shadow: class-level code, annotations, module names."""
    tree = ast.parse((BUNDLED_OUT / "context.py").read_text("utf-8"))
    used: set[str] = set()

    def names_in(node: ast.AST | None) -> None:
        if node is None:
            return
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name):
                used.add(sub.id)
            elif isinstance(sub, ast.Constant) and isinstance(sub.value, str) and sub.value.isidentifier():
                used.add(sub.value)  # string annotations such as "Context"

    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            used.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            used.add(node.name)
    context_class = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Context")
    # Methods Context inherits from the runtime's ContextBase are attributes a field could shadow.
    base = ast.parse((ROOT / "generator/runtime/context.py").read_text("utf-8"))
    base_class = next(n for n in base.body if isinstance(n, ast.ClassDef) and n.name == "ContextBase")
    used.update(n.name for n in base_class.body if isinstance(n, ast.FunctionDef) and not n.name.startswith("_"))
    for node in ast.walk(tree):
        if isinstance(node, ast.arg):
            names_in(node.annotation)
        elif isinstance(node, ast.FunctionDef):
            names_in(node.returns)
        elif isinstance(node, ast.AnnAssign):
            names_in(node.annotation)
    for node in context_class.body:
        if isinstance(node, ast.FunctionDef):
            used.add(node.name)
            for decorator in node.decorator_list:
                names_in(decorator)
        elif isinstance(node, ast.AnnAssign):
            names_in(node.value)
    return used


def test_reserved_names_cover_every_name_the_context_module_uses() -> None:
    used = _names_the_context_module_uses()
    assert "dataclass" in used and "from_json" in used
    exposed = {n for n in used if CONTEXT_NAME_RE.fullmatch(n) and not keyword.iskeyword(n)}
    assert exposed <= RESERVED_CONTEXT_NAMES, sorted(exposed - RESERVED_CONTEXT_NAMES)


def _accepted_candidates() -> list[str]:
    """Lower-case builtins, typing and dataclass helpers and the template's local names, minus the rejected."""
    pool = set(dir(builtins)) | {n.lower() for n in typing.__all__}
    pool |= {"self", "cls", "data", "values", "value", "problems", "key", "spec", "kind", "nullable"}
    pool |= {"expected", "reason", "text", "exc", "replace", "asdict", "astuple", "eq", "hash", "repr"}
    pool |= {"init", "frozen", "order", "slots", "match_args", "kw_only", "default", "default_factory"}
    pool |= {"mapping", "field_types", "field_docs", "context_error", "max_nesting", "max_safe_integer"}
    return sorted(
        n for n in pool if CONTEXT_NAME_RE.fullmatch(n) and not keyword.iskeyword(n) and n not in RESERVED_CONTEXT_NAMES
    )


def test_every_accepted_name_generates_an_importable_package(capsys, specs: Path) -> None:
    names = _accepted_candidates()
    assert len(names) > 150
    _add_fields(specs, [(n, "boolean", "false") for n in names] + [("ratio", "number", "1.5")])
    out = specs.parent / "generated"
    rc, _, err = run_cli(capsys, "generate", "--specs", specs, "--out", out)
    assert rc == 0, err
    package = import_package(out)
    context = submodule(package, "context")
    Context = context.Context
    typing.get_type_hints(Context)  # annotations resolve: no field shadows str, bool, ...
    every = dict.fromkeys(names, True)
    ctx = Context(**every)
    assert ctx == Context.from_mapping(every) == Context.from_json(json.dumps(every))
    assert all(value is True for key, value in ctx.to_dict().items() if key in every)
    assert hash(ctx) == hash(Context.from_mapping(every))
    assert package.select_family(ctx) == "generic"
    assert submodule(package, "prompt").prompt_section("generic", ctx).startswith("# Tools")
    # the number field of this package: NaN and infinities are refused, finite numbers kept
    for bad in (float("nan"), float("inf"), float("-inf")):
        with pytest.raises(context.ContextError, match=r"ratio: .* is not a finite number"):
            Context.from_mapping({"ratio": bad})
    assert Context.from_mapping({"ratio": 2}).ratio == 2
    with pytest.raises(context.ContextError, match="ratio: integer out of range"):
        Context.from_mapping({"ratio": 10**5000})


FIELD_NAMES = st.from_regex(CONTEXT_NAME_RE, fullmatch=True).filter(
    lambda n: not keyword.iskeyword(n) and n not in RESERVED_CONTEXT_NAMES
)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(names=st.lists(FIELD_NAMES | st.sampled_from(_accepted_candidates()), min_size=1, max_size=6, unique=True))
def test_property_any_accepted_names_give_an_importable_context(tmp_path: Path, names: list[str]) -> None:
    from generator.model import ContextField
    from generator.render import render_python

    fields = [ContextField(n, "string", True, None, "doc") for n in names]
    folder = tmp_path / f"pkg_{abs(hash(tuple(names)))}"
    folder.mkdir()
    (folder / "__init__.py").write_text("", "utf-8")
    shutil.copytree(ROOT / "generator/runtime", folder / "_runtime", ignore=shutil.ignore_patterns("__pycache__"))
    source = render_python(
        "context.py.j2",
        "",
        fields=fields,
        fields_types={f.name: (f.type, f.nullable) for f in fields},
        fields_docs={f.name: f.doc for f in fields},
    )
    (folder / "context.py").write_text(source, "utf-8")
    context = submodule(import_package(folder), "context")
    data = {n: f"value of {n}" for n in names}
    ctx = context.Context.from_json(json.dumps(data))
    assert ctx.to_dict() == data and typing.get_type_hints(context.Context)


# -- one fault, one report ---------------------------------------------------------------------------


def test_inherited_bad_name_is_reported_once_where_declared(capsys, specs: Path) -> None:
    edit(specs / "tools/read_file.yaml", "  generic:\n", "  generic:\n    name: read__mcp__x\n")
    rc, _, err = run_cli(capsys, "validate", "--specs", specs)
    assert rc == 2
    lines = [line for line in err.splitlines() if "error[E303]" in line]
    assert lines == [
        "specs/tools/read_file.yaml:8:11: error[E303]: tool name 'read__mcp__x' contains the MCP separator '__mcp__'"
    ]


# -- usage examples ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "file,old,new,location,message",
    [
        (
            "tools/read_file.yaml",
            "usage: File path here",
            'usage: "a</path>b"',
            "specs/tools/read_file.yaml:13:16",
            "the usage example of parameter 'path' reads back as 'a': it holds the tag </path>",
        ),
        (
            "tools/write_file.yaml",
            "usage: New content",
            'usage: "a</content></write_file>"',
            "specs/tools/write_file.yaml:22:16",
            "parameter 'content' reads back as 'a': it holds the tag </content>",
        ),
        (
            "parameters.yaml",
            "usage: Checklist here",
            'usage: "- [x] done</task_progress>"',
            "specs/parameters.yaml:7:12",
            "parameter 'task_progress' reads back as '- [x] done': it holds the tag </task_progress>",
        ),
    ],
    ids=["own-closing-tag", "content-then-tool-tag", "shared-parameter"],
)
def test_usage_example_that_reads_back_differently_is_refused(capsys, specs, file, old, new, location, message) -> None:
    edit(specs / file, old, new)
    rc, _, err = run_cli(capsys, "validate", "--specs", specs)
    assert rc == 2, err
    expect_line(err, location, "E321")
    assert message in err
    assert "hint: remove the tag from the example" in err
    assert err.count("error[E321]") == 1  # once, even for a shared parameter many tools use


def test_tags_that_read_back_fine_are_accepted(capsys, specs: Path) -> None:
    # inside a non-content value the tool's closing tag is text; a content value may hold its own tag
    edit(specs / "tools/read_file.yaml", "usage: File path here", 'usage: "a</read_file>b"')
    edit(specs / "tools/write_file.yaml", "usage: New content", 'usage: "<x>a</content>b</x>"')
    rc, _, err = run_cli(capsys, "validate", "--specs", specs)
    assert rc == 0, err


def test_parser_reads_every_bundled_example_back_as_declared() -> None:
    package = import_package(BUNDLED_OUT)
    catalog, prompt = submodule(package, "catalog"), submodule(package, "prompt")
    blocks = submodule(package, "_runtime.prompt_blocks")
    checked = 0
    for family, variants in catalog.VARIANTS.items():
        for variant in variants:
            params = [
                blocks.PromptParam(p["name"], p["required"], "", "", p["usage"] or "") for p in variant["parameters"]
            ]
            example = blocks.usage_example(variant["name"], params)
            calls = prompt.parse_calls(example, family)
            assert [(c.name, c.partial) for c in calls] == [(variant["name"], False)], example
            assert dict(calls[0].params) == {p.name: p.usage.strip() for p in params}, example
            checked += 1
    assert checked > 100


# -- context fields the runtime reads -------------------------------------------------------------------


RUNTIME_READS = re.compile(
    r"""field_value\(\s*\w+,\s*"(\w+)"\s*\)|getattr\(ctx,\s*"(\w+)"|\bctx\.(\w+)\b|context\.get\("(\w+)"\)"""
)


def test_runtime_fields_list_every_field_the_runtime_reads() -> None:
    sources = [*(ROOT / "generator/runtime").glob("*.py"), *(ROOT / "templates").glob("*.j2")]
    read = {
        name
        for path in sources
        for match in RUNTIME_READS.finditer(path.read_text("utf-8"))
        for name in match.groups()
        if name
    }
    assert read == set(RUNTIME_FIELDS), read ^ set(RUNTIME_FIELDS)


NATIVE_SWITCH = (
    "  enable_native_tool_calls:\n    type: boolean\n    nullable: true\n    default: null\n"
    "    doc: Whether native tool calling is on, or null.\n"
)


def test_missing_runtime_fields_warn_and_the_runtime_degrades(capsys, specs: Path) -> None:
    edit(specs / "toolgen.yaml", NATIVE_SWITCH, "")
    edit(
        specs / "toolgen.yaml", "  subagents_enabled:\n    type: boolean\n", "  subagents_enabled:\n    type: string\n"
    )
    edit(
        specs / "toolgen.yaml",
        "    default: false\n    doc: Whether subagents may be used.\n",
        '    default: ""\n    doc: Whether subagents may be used.\n',
    )
    out = specs.parent / "generated"
    rc, _, err = run_cli(capsys, "generate", "--specs", specs, "--out", out)
    assert rc == 0, err
    expect_line(err, "specs/toolgen.yaml:13:1", "W306", "warning")
    assert "the context has no field 'enable_native_tool_calls', which the generated runtime reads" in err
    assert "hint: declare 'enable_native_tool_calls' (type: boolean) under context: in toolgen.yaml" in err
    expect_line(err, "specs/toolgen.yaml:46:11", "W306", "warning")
    assert "reads context field 'subagents_enabled' as a boolean, not string" in err
    context = specs.parent / "ctx.json"
    context.write_text('{"provider_id": " Anthropic ", "model_id": "big-model-1"}', "utf-8")
    rc, out_text, err = run_cli(
        capsys, "show", "tools", "--out", out, "--family", "native", "--provider", " Anthropic ", "--context", context
    )
    assert rc == 0, err
    tools = json.loads(out_text)
    assert [t["name"] for t in tools][:1] == ["read_file"] and "input_schema" in tools[0]  # anthropic format
    package = import_package(out)
    assert package.native_tools("native", {"provider_id": "anthropic"})[0]["name"] == "read_file"


# -- context values ------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def bundled():
    return import_package(BUNDLED_OUT)


@pytest.mark.parametrize(
    "value,message",
    [
        (10**5000, "browser_viewport_width: integer out of range (at most 9007199254740991 either side of 0)"),
        (2**53, "integer out of range"),
        (-(2**53), "integer out of range"),
        (1.5, "browser_viewport_width: expected integer, got number"),
        (float("inf"), "browser_viewport_width: expected integer, got number"),
    ],
    ids=["10**5000", "2**53", "-2**53", "float", "inf"],
)
def test_from_mapping_refuses_numbers_no_prompt_can_show(bundled, value, message) -> None:
    with pytest.raises(bundled.ContextError) as info:
        bundled.Context.from_mapping({"browser_viewport_width": value, "cwd": 3})
    assert message in str(info.value)
    assert len(info.value.problems) == 2  # every problem at once


def test_largest_safe_integer_reaches_the_prompt(bundled) -> None:
    ctx = bundled.Context.from_mapping(
        {"browser_viewport_width": 2**53 - 1, "supports_browser_use": True, "model_id": "x", "provider_id": "y"}
    )
    section = submodule(bundled, "prompt").prompt_section(bundled.select_family(ctx), ctx)
    assert "9007199254740991" in section


@pytest.mark.parametrize(
    "text,message",
    [
        ("[" * 100_000, "JSON nested deeper than 100 levels"),
        ('{"a": ' * 50_000 + "1" + "}" * 50_000, "JSON nested deeper than 100 levels"),
        ("[" * 101 + "]" * 101, "JSON nested deeper than 100 levels"),
        ("1" * 5000, "not valid JSON"),
        ('{"browser_viewport_width": ' + "9" * 5000 + "}", "not valid JSON"),
        ('{"browser_viewport_width": 1e999}', "browser_viewport_width: expected integer, got number"),
        ('{"cwd": NaN}', "cwd: expected string, got number"),
        (b"\xff{}", "not valid JSON"),
        ("[]", "expected a JSON object, got list"),
        (None, "expected JSON text, got NoneType"),
    ],
    ids=[
        "open-brackets",
        "deep-objects",
        "101-levels",
        "5000-digits",
        "5000-digit-field",
        "1e999",
        "nan",
        "bad-utf8",
        "array",
        "none",
    ],
)
def test_from_json_raises_context_error_only(bundled, text, message) -> None:
    with pytest.raises(bundled.ContextError) as info:
        bundled.Context.from_json(text)
    assert message in str(info.value)


BAD_CONTEXTS = {
    "huge-int": '{"browser_viewport_width": ' + str(10**20) + "}",
    "digits": '{"browser_viewport_width": ' + "9" * 5000 + "}",
    "deep": "[" * 100_000,
    "infinite": '{"browser_viewport_width": 1e999}',
}


@pytest.mark.parametrize("name", sorted(BAD_CONTEXTS))
@pytest.mark.parametrize(
    "command",
    [
        ("show", "family"),
        ("show", "prompt", "--family", "generic"),
        ("show", "tools", "--family", "native-next-gen", "--provider", "anthropic"),
        ("show", "enabled", "--family", "generic"),
    ],
    ids=["family", "prompt", "tools", "enabled"],
)
def test_show_with_a_bad_context_exits_2(capsys, tmp_path: Path, name: str, command: tuple[str, ...]) -> None:
    path = tmp_path / f"{name}.json"
    path.write_text(BAD_CONTEXTS[name], "utf-8")
    rc, out, err = run_cli(capsys, *command, "--out", BUNDLED_OUT, "--context", path)
    assert rc == 2, err
    assert err.startswith(f"{shown(path)}: error[E137]: invalid context: ")
    assert out == "" and "Traceback" not in err and "internal error" not in err


# -- routing and selection agree on provider spellings ---------------------------------------------


@pytest.mark.parametrize("provider", [" Anthropic ", "ANTHROPIC", "\u00a0anthropic\ufeff", "Vertex", " gemini\n"])
def test_route_normalizes_provider_ids_like_selection(bundled, provider: str) -> None:
    for model in ("claude-sonnet-4-5", "gemini-2.5-pro"):
        assert bundled.route(provider, model) == bundled.route(normalize(provider), model)
        spelled = {"provider_id": provider, "model_id": model}
        plain = {"provider_id": normalize(provider), "model_id": model}
        assert bundled.select_family(spelled) == bundled.select_family(plain)
    assert bundled.route(" Anthropic ") == "anthropic"
    assert bundled.route(3) == bundled.route(None) == "openai-chat"  # type: ignore[arg-type]


def test_provider_ids_that_normalization_can_never_produce_warn(capsys, specs: Path) -> None:
    edit(specs / "toolgen.yaml", "providers: [anthropic]", 'providers: [" Anthropic"]')
    edit(specs / "toolgen.yaml", "local_providers: [ollama, lmstudio]", "local_providers: [Ollama, lmstudio]")
    rc, _, err = run_cli(capsys, "validate", "--specs", specs)
    assert rc == 0, err
    expect_line(err, "specs/toolgen.yaml:64:23", "W307", "warning")
    expect_line(err, "specs/toolgen.yaml:72:20", "W307", "warning")
    assert "provider id ' Anthropic' can never match" in err and "hint: write it as 'anthropic'" in err


# -- conditional text joined with converter sentences -----------------------------------------------------


TEXTS = ["", "Always.", "Line one.\nLine two.", "Trailing blanks.  "]


@pytest.mark.parametrize("dialect", DIALECTS)
def test_conditional_text_joins_like_a_conversion_of_the_resolved_text(dialect: str) -> None:
    def entry(instruction: str) -> dict:
        schema = parameters_schema(
            [{"name": "q", "required": True, "instruction": instruction, "schema": {"type": "string", "minLength": 3}}]
        )
        return tool_entry(dialect, "t", "A tool.", schema, strict=dialect.startswith("openai"))

    for plain, conditional, on in itertools.product(TEXTS, TEXTS + ["Shown only in CLI mode."], (True, False)):
        pieces = tuple(p for p in (plain, (conditional, {"field": "is_cli", "truthy": True})) if p != "")
        resolved = plain + (conditional if on else "")
        meta = {"gates": (), "texts": (("q", plain, pieces),), "placeholders": False}
        got = materialize(dialect, entry(plain), meta, lambda _, on=on: on, lambda _, r=resolved: r, lambda s: s)
        assert got == entry(resolved), (plain, conditional, on)


# -- streaming cost ------------------------------------------------------------------------------------------


TOOLS = {"write_to_file": ("path", "content", "task_progress"), "read_file": ("path", "task_progress")}


@pytest.mark.parametrize(
    "text",
    [
        "<write_to_file><path>a</path><content>x" + " " * 60_000,
        "<read_file><path>" + " \n" * 30_000 + "p" + " " * 30_000,
        "<write_to_file><path>a</path><content>b</content>" + " " * 60_000,
        "<read_file><path>" + "d/" * 30_000,
    ],
    ids=["content-blank-run", "leading-and-trailing-blanks", "blank-after-content", "long-path"],
)
def test_streaming_scans_each_character_a_bounded_number_of_times(text: str) -> None:
    parser = StreamingParser(TOOLS)
    for i in range(0, len(text), 16):
        parser.feed(text[i : i + 16])
    block = parser._reader.block
    assert block is not None
    assert block.scanned <= 3 * len(text), block.scanned
    assert parser.blocks == parse_tool_calls(text, TOOLS)


@pytest.mark.parametrize("chunk", [1, 3, 7])
def test_streaming_results_are_unchanged_around_blank_runs(chunk: int) -> None:
    text = "<write_to_file><path> a </path><content>  x  " + " " * 40 + "y </cont" + "ent>  </write_to_file>"
    parser = StreamingParser(TOOLS)
    for i in range(0, len(text), chunk):
        got = parser.feed(text[i : i + chunk])
        assert got == parse_tool_calls(text[: i + chunk], TOOLS), text[: i + chunk]
