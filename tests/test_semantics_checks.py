"""The semantic checks test_diagnostics.py leaves out: one case per message of a code, at its exact line:col.

Each case is a one-edit mistake in the fixture catalog that passes the meta-schema, so what
reports it is generator/semantics (predicates, toolgen.yaml, schema keywords, names).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import edit, run_cli

# (code, file, old text, new text, expected "path:line:col", expected message)
CASES = [
    pytest.param(
        "E312",
        "tools/ask.yaml",
        "{field: yolo_mode, truthy: false}",
        "{provider_in: local_providers, model_matches: native_family}",
        "specs/tools/ask.yaml:7:15",
        "a predicate needs exactly one operator, found 2 (provider_in, model_matches)",
        id="two ops",
    ),
    pytest.param(
        "E311",
        "tools/ask.yaml",
        "{field: yolo_mode, truthy: false}",
        "{field: yolo_mode, contains: x}",
        "specs/tools/ask.yaml:7:44",
        "'contains' compares text but context field 'yolo_mode' is boolean",
        id="contains on bool",
    ),
    pytest.param(
        "E311",
        "tools/ask.yaml",
        "{field: yolo_mode, truthy: false}",
        "{field: yolo_mode, equals: 3}",
        "specs/tools/ask.yaml:7:42",
        "3 can never equal context field 'yolo_mode' of type boolean",
        id="equals 3 on bool",
    ),
    pytest.param(
        "E311",
        "tools/ask.yaml",
        "{field: yolo_mode, truthy: false}",
        "{field: yolo_mode, in: [true, x]}",
        "specs/tools/ask.yaml:7:38",
        "'x' can never equal context field 'yolo_mode' of type boolean",
        id="in on bool",
    ),
    pytest.param(
        "E311",
        "tools/ask.yaml",
        "{field: yolo_mode, truthy: false}",
        "{field: editor_tabs, equals: a}",
        "specs/tools/ask.yaml:7:44",
        "'equals' compares a whole value, but context field 'editor_tabs' is a list",
        id="equals on list",
    ),
    pytest.param(
        "E313",
        "toolgen.yaml",
        "{in_set: native_models}",
        "{in_set: native_modls}",
        "specs/toolgen.yaml:68:29",
        "unknown model set 'native_modls'",
        id="unknown model set",
    ),
    pytest.param(
        "E313",
        "toolgen.yaml",
        "{in_set: native_models}",
        "{model_matches: nope}",
        "specs/toolgen.yaml:68:36",
        "unknown model predicate 'nope'",
        id="unknown model pred",
    ),
    pytest.param(
        "E313",
        "toolgen.yaml",
        "{in_set: native_models}",
        "{any: [{in_set: native_models}, {model_matches: native_family}]}",
        "specs/toolgen.yaml:68:20",
        "model predicate 'native_family' refers to itself through model_matches",
        id="cycle",
    ),
    pytest.param(
        "E320",
        "toolgen.yaml",
        "{in_set: native_models}",
        "{regex_first_match: {pattern: 'a(b)', group: 2, gte: 1}}",
        "specs/toolgen.yaml:68:65",
        "regex group number is larger than the number of groups",
        id="regex group",
    ),
    pytest.param(
        "E320",
        "toolgen.yaml",
        "{in_set: native_models}",
        "{regex_first_match: {pattern: 'a(', group: 1, gte: 1}}",
        "specs/toolgen.yaml:68:50",
        "invalid regular expression: missing ), unterminated subpattern at position 1",
        id="regex bad",
    ),
    pytest.param(
        "E311",
        "toolgen.yaml",
        "name: fixture\n",
        "name: fixture\nformats: []\n",
        "specs/toolgen.yaml:4:10",
        "'formats' is empty",
        id="formats empty",
    ),
    pytest.param(
        "E310",
        "toolgen.yaml",
        "name: fixture\n",
        "name: fixture\nformats: [anthropic]\n",
        "specs/toolgen.yaml:71:12",
        "routing sends requests to format 'openai-chat', which 'formats' leaves out",
        id="route outside formats",
    ),
    pytest.param(
        "E305",
        "toolgen.yaml",
        "{providers: [anthropic], format: anthropic}",
        "{providers: [anthropic], format: anthropic, when: {field: cwd, equals: x}}",
        "specs/toolgen.yaml:72:65",
        "routing sees only provider_id and model_id, not 'cwd'",
        id="routing field",
    ),
    pytest.param(
        "E305",
        "toolgen.yaml",
        '{field: cwd, default: "/"}',
        '{field: cwdx, default: "/"}',
        "specs/toolgen.yaml:59:16",
        "placeholder CWD reads unknown context field 'cwdx'",
        id="placeholder field",
    ),
    pytest.param(
        "E311",
        "toolgen.yaml",
        '{field: cwd, default: "/"}',
        "{field: yolo_mode, default: 3}",
        "specs/toolgen.yaml:59:36",
        "default 3 of placeholder CWD is neither text nor a boolean value",
        id="placeholder default",
    ),
    pytest.param(
        "E311",
        "toolgen.yaml",
        '{field: cwd, default: "/"}',
        "{field: yolo_mode, default: x, map: [{when: 1, text: y}]}",
        "specs/toolgen.yaml:59:52",
        "map value 1 can never equal field 'yolo_mode' of type boolean",
        id="placeholder map",
    ),
    pytest.param(
        "E303",
        "toolgen.yaml",
        "name: fixture\n",
        "name: fixture\nsubagents: {name_prefix: a__mcp__}\n",
        "specs/toolgen.yaml:4:26",
        "the subagent prefix contains the MCP separator '__mcp__'",
        id="subagent prefix",
    ),
    pytest.param(
        "E303",
        "tools/ask.yaml",
        "  generic:\n",
        "  generic:\n    name: a__mcp__b\n",
        "specs/tools/ask.yaml:6:11",
        "tool name 'a__mcp__b' contains the MCP separator '__mcp__'",
        id="tool name mcp",
    ),
    pytest.param(
        "E311",
        "tools/read_file.yaml",
        "        minimum: 1\n",
        "        minimum: 1\n        items: {type: string}\n",
        "specs/tools/read_file.yaml:17:9",
        "'items' needs type array, not integer",
        id="items on int",
    ),
    pytest.param(
        "E311",
        "tools/read_file.yaml",
        "        minimum: 1\n",
        "        minimum: 1\n        properties: {a: {type: string}}\n",
        "specs/tools/read_file.yaml:17:9",
        "'properties' needs type object, not integer",
        id="properties on int",
    ),
    pytest.param(
        "E311",
        "tools/read_file.yaml",
        "        required: true\n        instruction: Path",
        "        required: true\n        minimum: 0\n        instruction: Path",
        "specs/tools/read_file.yaml:12:9",
        "'minimum' needs a numeric type, not string",
        id="minimum on string",
    ),
    pytest.param(
        "E311",
        "tools/read_file.yaml",
        "        minimum: 1\n",
        "        minimum: 1\n        maxLength: 3\n",
        "specs/tools/read_file.yaml:17:9",
        "'maxLength' needs type string, not integer",
        id="maxLength on int",
    ),
    pytest.param(
        "E311",
        "tools/read_file.yaml",
        "        minimum: 1\n",
        "        minimum: 1\n        member_required: [a]\n",
        "specs/tools/read_file.yaml:17:27",
        "required member 'a' is not among the properties",
        id="member required",
    ),
    pytest.param(
        "E311",
        "tools/read_file.yaml",
        "        minimum: 1\n",
        "        minimum: 1\n        default: true\n",
        "specs/tools/read_file.yaml:17:18",
        "default True does not fit type integer",
        id="default bool on int",
    ),
    pytest.param(
        "E311",
        "tools/read_file.yaml",
        "        type: integer\n        minimum: 1\n",
        "        type: array\n        items: {type: integer, default: x, nullable: true, description: d}\n",
        "specs/tools/read_file.yaml:16:41",
        "default 'x' does not fit type integer",
        id="nested default",
    ),
]


@pytest.mark.parametrize("code,file,old,new,location,message", CASES)
def test_semantic_check(capsys, specs: Path, code, file, old, new, location, message) -> None:
    edit(specs / file, old, new)
    rc, out, err = run_cli(capsys, "validate", "--specs", specs)
    assert rc == 2, err
    assert f"{location}: error[{code}]: {message}" in err.splitlines(), err
    assert "Traceback" not in err + out


def test_duplicate_tool_file(capsys, specs: Path) -> None:
    """Two files declaring one tool id: the second is reported (and its name), the first is kept."""
    shutil.copy(specs / "tools" / "ask.yaml", specs / "tools" / "ask2.yaml")
    rc, _, err = run_cli(capsys, "validate", "--specs", specs)
    assert rc == 2
    lines = err.splitlines()
    assert "specs/tools/ask2.yaml:2:5: error[E316]: tool 'ask' is in a file named ask2.yaml" in lines, err
    assert (
        "specs/tools/ask2.yaml:2:5: error[E302]: duplicate tool id 'ask' (also in specs/tools/ask.yaml)" in lines
    ), err


def test_plain_use_is_checked_once(capsys, specs: Path) -> None:
    """A mistake in a shared parameter is reported once, where it is defined, not at each of its three 'use:'."""
    edit(specs / "parameters.yaml", "The task checklist", "The {{NOPE}} checklist")
    rc, _, err = run_cli(capsys, "validate", "--specs", specs)
    assert rc == 2
    reported = [line for line in err.splitlines() if "[E306]" in line]
    assert reported == ["specs/parameters.yaml:6:18: error[E306]: unknown placeholder {{NOPE}}"], err


def test_usage_examples_read_back_plainly_exactly_when_the_parser_says_so() -> None:
    """check_usage skips parsing an example without '<' in its values (and no parameter named like
    the tool); the parser must read every such example back as declared."""
    import random

    from generator.model import Parameter
    from generator.runtime.predicates import JS_WHITESPACE
    from generator.runtime.prompt_blocks import PromptParam, usage_example
    from generator.runtime.xml_calls import parse_tool_calls
    from generator.semantics.text import _reads_back_plainly

    rng = random.Random(5)
    names = ["path", "p", "pa", "content", "diff", "read_file", "read", "file", "task_progress"]
    alphabet = ["a", " ", "\n", "\t", "\u3000", "\ufeff", "\x85", ">", "/", "`", "```", "&", "</", "x>", "~~~"]
    alphabet += ["\r"]
    checked = 0
    for _ in range(3000):
        tool = rng.choice(names)
        chosen = rng.sample(names, rng.randint(1, 4))
        params = tuple(
            Parameter(
                name=n,
                required=True,
                instruction=(),
                description=(),
                schema={},
                usage="".join(rng.choice(alphabet) for _ in range(rng.randint(0, 6))).replace("<", ""),
            )
            for n in chosen
        )
        if not _reads_back_plainly(tool, params):
            continue
        checked += 1
        example = usage_example(tool, [PromptParam(p.name, True, "", "", p.usage or "") for p in params])
        calls = parse_tool_calls(example, {tool: [p.name for p in params]})
        assert len(calls) == 1 and not calls[0].partial, example
        assert dict(calls[0].params) == {p.name: (p.usage or "").strip(JS_WHITESPACE) for p in params}, example
    assert checked > 1000
