"""Tests written to kill mutants that survived the rest of the suite (issue 12).

Each test pins behaviour an obvious one-token change would break: the ``in``/``contains``/
``ends_with`` predicate operators and strict boolean equality (at run time and through a generated
package), Gemini's refusal of logic keywords, the null forms in every dialect, the partial JSON
array reader, and where an open content value ends in the XML call parser.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import FIXTURE_SPECS, copy_specs, edit, import_package, run_cli
from generator import pipeline, write
from generator.runtime.predicates import MatcherError, evaluate
from generator.runtime.schema_dialects import DIALECTS, DialectError, convert_parameters
from generator.runtime.tool_types import ToolUse
from generator.runtime.xml_calls import (
    StreamingParser,
    parse_partial_json_array,
    parse_tool_calls,
)

# --------------------------------------------------------------------------- predicates (run time)


@pytest.mark.parametrize(
    "value, options, expected",
    [
        ("ollama", ["ollama", "lmstudio"], True),
        ("lmstudio", ["ollama", "lmstudio"], True),
        ("Ollama", ["ollama", "lmstudio"], False),  # exact, not normalized
        ("ollama ", ["ollama"], False),
        ("other", ["ollama", "lmstudio"], False),
        (None, ["ollama"], False),
        (None, [None], True),
        (1, [1, 2], True),
        (1.0, [1, 2], True),  # numbers compare by value
        (True, [1, 2], False),  # a boolean is not the number 1
        (1, [True], False),
        (0, [False], False),
        (False, [False], True),
        ("1", [1], False),
        (3, [1, 2], False),
        ("a", [], False),
    ],
)
def test_in_operator(value: Any, options: list, expected: bool) -> None:
    assert evaluate({"field": "f", "in": options}, {"f": value}) is expected


@pytest.mark.parametrize(
    "value, needle, expected",
    [
        ("Hello World", "world", True),  # case-insensitive both ways
        ("hello", "HELL", True),
        ("hello", "xyz", False),
        (["a.py", "README.md"], "readme", True),  # any element of a list
        (("a.py", "b.py"), ".PY", True),
        (["a.py", "b.py"], "c", False),
        ([], "a", False),
        (None, "a", False),
        (5, "5", False),  # only strings are searched
        ([5, "x"], "5", False),
    ],
)
def test_contains_operator(value: Any, needle: str, expected: bool) -> None:
    assert evaluate({"field": "f", "contains": needle}, {"f": value}) is expected


@pytest.mark.parametrize(
    "value, suffix, expected",
    [
        ("notebook.ipynb", ".ipynb", True),
        ("notebook.IPYNB", ".ipynb", False),  # case-sensitive
        ("x.ipynb.bak", ".ipynb", False),  # a suffix, not a substring
        (".ipynb", ".ipynb", True),
        (["a.py", "b.ipynb"], ".ipynb", True),
        (["a.ipynb.py", "b.py"], ".ipynb", False),
        ([], ".ipynb", False),
        (None, ".ipynb", False),
        (["x", 1], "1", False),
    ],
)
def test_ends_with_operator(value: Any, suffix: str, expected: bool) -> None:
    assert evaluate({"field": "f", "ends_with": suffix}, {"f": value}) is expected


@pytest.mark.parametrize(
    "value, wanted, expected",
    [
        (True, True, True),
        (False, False, True),
        (True, False, False),
        (1, True, False),  # True == 1 in Python; not here
        (True, 1, False),
        (0, False, False),
        (False, 0, False),
        (1, 1.0, True),
        ("true", True, False),
        (None, False, False),
        (None, None, True),
        ("a", "a", True),
        ("a", "A", False),
    ],
)
def test_equals_is_strict_about_booleans(value: Any, wanted: Any, expected: bool) -> None:
    assert evaluate({"field": "f", "equals": wanted}, {"f": value}) is expected


def test_field_predicate_without_comparison_raises() -> None:
    with pytest.raises(MatcherError):
        evaluate({"field": "f"}, {"f": 1})


# --------------------------------------------------------------------------- predicates (generated)


@pytest.fixture(scope="module")
def operators_package(tmp_path_factory: pytest.TempPathFactory):
    """The fixture catalog with a requirement using each operator, generated and imported."""
    base = tmp_path_factory.mktemp("operators")
    specs = copy_specs(FIXTURE_SPECS, base)
    edit(  # native tool calls on by default, so native_tools answers for a bare context
        specs / "toolgen.yaml",
        "  enable_native_tool_calls:\n    type: boolean\n    nullable: true\n    default: null\n",
        "  enable_native_tool_calls:\n    type: boolean\n    nullable: true\n    default: true\n",
    )
    edit(
        specs / "toolgen.yaml",
        "  custom_prompt:\n",
        "  level:\n    type: integer\n    default: 0\n    doc: A level.\n"
        "  custom_prompt:\n",
    )
    tools = specs / "tools"
    edit(
        tools / "ask.yaml",
        "requires: {field: yolo_mode, truthy: false}",
        "requires: {field: provider_id, in: [ollama, lmstudio]}",
    )
    edit(
        tools / "todo.yaml",
        "requires: {field: todo_enabled, truthy: true}",
        "requires: {field: level, in: [1, 2]}",
    )
    edit(
        tools / "read_file.yaml",
        "        minimum: 1\n",
        "        minimum: 1\n        requires: {field: editor_tabs, contains: READ}\n",
    )
    edit(
        tools / "write_file.yaml",
        "requires: {field: yolo_mode, truthy: true}",
        "requires: {field: yolo_mode, equals: true}",
    )
    edit(
        tools / "write_file.yaml",
        "      - use: task_progress\n",
        "      - name: note\n        requires: {field: cwd, ends_with: /src}\n"
        "        instruction: A note.\n      - use: task_progress\n",
    )
    result = pipeline.run(specs)
    assert not result.diagnostics.has_errors, result.diagnostics.render()
    out = base / "generated"
    write.write(out, result.files, write.plan(out, result.files))
    return import_package(out)


def _params(package: Any, family: str, context: Any, tool: str) -> list[str]:
    """Parameter names of one tool's Usage block in the generated prompt section."""
    section = package.prompt_section(family, context)
    block = section.split(f"\n<{tool}>\n", 1)[1].split(f"\n</{tool}>", 1)[0]
    return [line[1 : line.index(">")] for line in block.splitlines()]


def test_generated_in_on_tool(operators_package: Any) -> None:
    ctx = operators_package.Context
    assert "ask" in operators_package.enabled_tools("generic", ctx(model_id="m", provider_id="ollama"))
    assert "ask" in operators_package.enabled_tools("generic", ctx(model_id="m", provider_id="lmstudio"))
    assert "ask" not in operators_package.enabled_tools("generic", ctx(model_id="m", provider_id="Ollama"))
    assert "ask" not in operators_package.enabled_tools("generic", ctx(model_id="m"))


def test_generated_in_is_strict_about_booleans(operators_package: Any) -> None:
    # Context() takes values as given (only mappings are checked), so a stray bool reaches the test.
    ctx = operators_package.Context
    assert "todo" in operators_package.enabled_tools("generic", ctx(model_id="m", level=1))
    assert "todo" in operators_package.enabled_tools("generic", ctx(model_id="m", level=2))
    assert "todo" not in operators_package.enabled_tools("generic", ctx(model_id="m", level=True))
    assert "todo" not in operators_package.enabled_tools("generic", ctx(model_id="m", level=3))


def test_generated_contains_on_parameter(operators_package: Any) -> None:
    ctx = operators_package.Context
    assert _params(operators_package, "generic", ctx(model_id="m", editor_tabs=("x/ReadMe.md",)), "read_file") == [
        "path",
        "start_line",
    ]
    assert _params(operators_package, "generic", ctx(model_id="m", editor_tabs=("x/notes.md",)), "read_file") == [
        "path"
    ]
    assert _params(operators_package, "generic", ctx(model_id="m"), "read_file") == ["path"]


def test_generated_ends_with_and_equals_on_parameters(operators_package: Any) -> None:
    ctx = operators_package.Context
    both = ctx(model_id="m", cwd="/x/src", yolo_mode=True)
    assert _params(operators_package, "generic", both, "write_file") == ["path", "content", "mode", "note"]
    # ends_with is case-sensitive and a suffix test; equals true does not accept 1
    neither = ctx(model_id="m", cwd="/x/SRC", yolo_mode=1)
    assert _params(operators_package, "generic", neither, "write_file") == ["path", "content"]
    inside = ctx(model_id="m", cwd="/src/x", yolo_mode=False)
    assert _params(operators_package, "generic", inside, "write_file") == ["path", "content"]


@pytest.mark.parametrize("fmt", DIALECTS)
def test_generated_native_tools_follow_the_operators(operators_package: Any, fmt: str) -> None:
    ctx = operators_package.Context
    package = operators_package

    def native(context: Any) -> dict[str, list[str]]:
        tools = package.native_tools("native", context, format=fmt)
        named = {}
        for tool in tools:
            body = tool.get("function", tool.get("toolSpec", tool))
            params = body.get("parameters") or body.get("input_schema") or body["inputSchema"]["json"]
            named[body["name"]] = list(params["properties"])
        return named

    # (native declarations ignore parameter dependencies, so task_progress is always there)
    on = native(ctx(model_id="big-model-1", cwd="/a/src", yolo_mode=True, level=2, editor_tabs=("READ",)))
    assert on["write_file"] == ["path", "content", "mode", "note", "task_progress"]
    assert on["read_file"] == ["path", "start_line", "task_progress"]
    assert "todo" in on
    off = native(ctx(model_id="big-model-1", cwd="/a/src/", yolo_mode=1, level=True, editor_tabs=("x",)))
    assert off["write_file"] == ["path", "content", "task_progress"]
    assert off["read_file"] == ["path", "task_progress"]
    assert "todo" not in off


# --------------------------------------------------------------------------- Gemini refusals

_LOGIC_CASES = {
    "not": {"not": {"type": "string"}},
    "if": {"if": {"properties": {"b": {"const": "x"}}}, "then": {"required": ["b"]}},
    "patternProperties": {"patternProperties": {"^x_": {"type": "string"}}},
}


@pytest.mark.parametrize("keyword", sorted(_LOGIC_CASES))
def test_gemini_refuses_logic_keywords(keyword: str) -> None:
    inner = {"type": "object", "properties": {"b": {"type": "string"}}, **_LOGIC_CASES[keyword]}
    schema = {"type": "object", "properties": {"a": inner}}
    with pytest.raises(DialectError) as info:
        convert_parameters(schema, "gemini")
    assert info.value.path == ("properties", "a", keyword)
    assert repr(keyword) in info.value.message
    assert info.value.hint
    # the JSON-Schema dialects take the keyword as it is
    assert convert_parameters(schema, "anthropic")["properties"]["a"][keyword] == _LOGIC_CASES[keyword][keyword]


@pytest.mark.parametrize("keyword", sorted(_LOGIC_CASES))
def test_gemini_refuses_logic_keywords_at_the_root(keyword: str) -> None:
    schema = {"type": "object", "properties": {"b": {"type": "string"}}, **_LOGIC_CASES[keyword]}
    with pytest.raises(DialectError) as info:
        convert_parameters(schema, "gemini")
    assert info.value.path == (keyword,)


def test_spec_with_logic_keywords_is_refused_at_generate_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    specs = copy_specs(FIXTURE_SPECS, tmp_path)
    edit(
        specs / "tools" / "read_file.yaml", "        minimum: 1\n", "        minimum: 1\n        not: {type: string}\n"
    )
    edit(
        specs / "tools" / "ask.yaml",
        "        required: true\n",
        "        required: true\n        type: object\n"
        "        properties: {a: {type: string, if: {type: string}}}\n"
        "        patternProperties: {'^x': {type: string}}\n",
    )
    out = tmp_path / "generated"
    code, _, err = run_cli(capsys, "generate", "--specs", specs, "--out", out)
    assert code == 2
    assert not out.exists()
    assert "specs/tools/read_file.yaml:17:9: error[E210]: unknown key 'not'" in err
    assert "specs/tools/ask.yaml:12:40: error[E210]: unknown key 'if'" in err
    assert "specs/tools/ask.yaml:13:9: error[E210]: unknown key 'patternProperties'" in err
    assert "Traceback" not in err


# --------------------------------------------------------------------------- null forms, every dialect

#: (dialect, strict) for every converter there is.
_CONVERTERS = [(d, False) for d in DIALECTS] + [("openai-chat", True), ("openai-responses", True)]
_JSON = {"anthropic", "openai-chat", "openai-responses", "bedrock-converse"}

_NULL_BRANCH = {
    "description": "outer",
    "anyOf": [{"type": "string"}, {"type": "null", "description": "none", "title": "Nothing"}],
}


def _convert_property(schema: dict, dialect: str, strict: bool, required: bool = True) -> dict:
    root = {"type": "object", "properties": {"v": schema}, "required": ["v"] if required else []}
    return convert_parameters(root, dialect, strict=strict)["properties"]["v"]


@pytest.mark.parametrize("dialect, strict", _CONVERTERS)
def test_null_type_alone(dialect: str, strict: bool) -> None:
    expected = {"type": "NULL"} if dialect == "gemini" else {"type": "null"}
    assert _convert_property({"type": "null"}, dialect, strict) == expected
    if strict:  # an optional property that is already null-only stays as it is
        assert _convert_property({"type": "null"}, dialect, strict, required=False) == expected


@pytest.mark.parametrize("dialect, strict", _CONVERTERS)
def test_null_any_of_branch_with_annotations(dialect: str, strict: bool) -> None:
    got = _convert_property(_NULL_BRANCH, dialect, strict)
    if dialect == "gemini":
        # the null branch becomes nullable; the other branch collapses into the property
        assert got == {"type": "STRING", "description": "outer", "nullable": True}
    else:
        assert got == _NULL_BRANCH
    if strict:
        # optional in strict mode: already nullable, so no second null branch is added
        assert _convert_property(_NULL_BRANCH, dialect, strict, required=False) == _NULL_BRANCH


@pytest.mark.parametrize("dialect, strict", _CONVERTERS)
def test_default_null(dialect: str, strict: bool) -> None:
    described = {"type": "string", "description": "d", "default": None}
    bare = {"type": "integer", "default": None}
    if dialect == "gemini":
        assert _convert_property(described, dialect, strict) == {"type": "STRING", "description": "d Default: null."}
        assert _convert_property(bare, dialect, strict) == {"type": "INTEGER", "description": "Default: null."}
    elif strict:
        assert _convert_property(described, dialect, strict) == {"type": "string", "description": "d Default: null."}
        assert _convert_property(bare, dialect, strict) == {"type": "integer", "description": "Default: null."}
        assert _convert_property(bare, dialect, strict, required=False) == {
            "type": ["integer", "null"],
            "description": "Default: null.",
        }
    else:
        assert dialect in _JSON
        assert _convert_property(described, dialect, strict) == described
        assert _convert_property(bare, dialect, strict) == bare


# --------------------------------------------------------------------------- partial JSON array


@pytest.mark.parametrize(
    "text, expected",
    [
        ('{"a": 1}', []),  # an object is not an array: its keys are not elements
        ('{"a"', []),
        (' {"a": "b"}', []),
        ('"a", "b"', []),
        ("a", []),
        ('[["a"], "b"]', []),  # a nested array is not a string element
        ('["a", ["b"], "c"]', ["a"]),
        ('["a", {"b": "c"}]', ["a"]),
        ('["a", null]', ["a"]),
        ('["a" "b"]', ["a"]),  # a missing comma ends the reading
        ('["a",, "b"]', ["a"]),
        ('["a"] ["b"]', ["a"]),
        ('["a"', ["a"]),
        ('["', []),
        ('["a\\"', []),  # the escaped quote does not end the string
        ('["a\\\\"', ["a\\"]),  # an escaped backslash does
        ('["a\\"b"]', ['a"b']),
        ('["tab\\tnew\\nline\\/slash"]', ["tab\tnew\nline/slash"]),
        ('["\\u0041\\u00e9"]', ["Aé"]),
        ('["\\u004"]', []),
        ('["raw\ttab"]', ["raw\ttab"]),  # control characters inside strings are tolerated
        ("[\n]", []),
    ],
)
def test_partial_json_array_shapes(text: str, expected: list[str]) -> None:
    assert parse_partial_json_array(text) == expected


def test_partial_json_array_non_text() -> None:
    assert parse_partial_json_array(None) == []  # type: ignore[arg-type]
    assert parse_partial_json_array(["a"]) == []  # type: ignore[arg-type]


# --------------------------------------------------------------------------- content boundaries

_WRITE = {"write_to_file": ["path", "content", "task_progress"]}


def _parse(text: str) -> list[ToolUse]:
    return parse_tool_calls(text, _WRITE)


def _complete(params: dict[str, str]) -> list[ToolUse]:
    return [ToolUse("write_to_file", params, False)]


def _open(params: dict[str, str]) -> list[ToolUse]:
    return [ToolUse("write_to_file", params, True)]


@pytest.mark.parametrize(
    "text, expected",
    [
        # the later </content> has only whitespace after it: it is the end; the <path> before
        # it is part of the content
        (
            "<write_to_file><content>x</content><path>p</path></content>\n</write_to_file>",
            _complete({"content": "x</content><path>p</path>"}),
        ),
        # no candidate leaves a well-formed rest: the LAST one wins
        (
            "<write_to_file><content>a</content>x</content>y\n</write_to_file>",
            _complete({"content": "a</content>x"}),
        ),
        # the last well-formed candidate wins over a later, ill-formed one
        (
            "<write_to_file><content>a</content>\n<path>p</path>\n"
            "<task_progress>t</content>z</task_progress></write_to_file>",
            _complete({"content": "a", "path": "p", "task_progress": "t</content>z"}),
        ),
        # documented ambiguity: another parameter's value holding </content> + well-formed text
        (
            "<write_to_file><content>C</content>\n"
            "<task_progress></content><task_progress></task_progress>\n</write_to_file>",
            _complete({"content": "C</content>\n<task_progress>", "task_progress": ""}),
        ),
        # another parameter's closing tag inside the content does not end it
        (
            "<write_to_file><content>a</path>b</task_progress>c</content></write_to_file>",
            _complete({"content": "a</path>b</task_progress>c"}),
        ),
        # a parameter before the content may hold </content>: it only ends at its own tag
        (
            "<write_to_file><path>a</content></path><content>b</content></write_to_file>",
            _complete({"path": "a</content>", "content": "b"}),
        ),
        # the tool's closing tag inside an open content value is part of it
        (
            "<write_to_file><content>a</path>b</write_to_file>",
            _open({"content": "a</path>b</write_to_file>"}),
        ),
        # cut mid-tag: the fragment of the closing tag is held back
        ("<write_to_file><content>abc</cont", _open({"content": "abc"})),
        ("<write_to_file><content>abc</content", _open({"content": "abc"})),
        ("<write_to_file><content>abc</content>", _open({"content": "abc"})),
        ("<write_to_file><content>abc</content></write_to_f", _open({"content": "abc"})),
        # open call: a seen </content> ends the value only while what follows is well formed
        ("<write_to_file><content>a</content>\n<pa", _open({"content": "a"})),
        ("<write_to_file><content>a</content>\n<path>p", _open({"content": "a", "path": "p"})),
        ("<write_to_file><content>a</content>\nzz", _open({"content": "a</content>\nzz"})),
        (
            "<write_to_file><content>a</content>\n<path>p</path>zz",
            _open({"content": "a</content>\n<path>p</path>zz"}),
        ),
        (
            "<write_to_file><content>a</content>\nzz<path>p</path>",
            _open({"content": "a</content>\nzz<path>p</path>"}),
        ),
        ("<write_to_file><content>a</content>zz<path>p", _open({"content": "a</content>zz<path>p"})),
        # ... while once the call is complete, the only candidate is taken even if ill formed
        (
            "<write_to_file><content>a</content>\nzz<path>p</path>\n</write_to_file>",
            _complete({"content": "a", "path": "p"}),
        ),
        ("<write_to_file><content>a</content>b</content>\n", _open({"content": "a</content>b"})),
        (
            "<write_to_file><content>a</content>b</content>\n<path>q</path>",
            _open({"content": "a</content>b", "path": "q"}),
        ),
    ],
)
def test_content_value_end(text: str, expected: list[ToolUse]) -> None:
    assert _parse(text) == expected
    # the streaming parser agrees with a fresh parse at every prefix, fed one character at a time
    parser = StreamingParser(_WRITE)
    for i, char in enumerate(text):
        assert parser.feed(char) == _parse(text[: i + 1]), text[: i + 1]
