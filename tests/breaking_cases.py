"""The spec-tree pairs of the toolgen breaking tests: one mutation per rule, and running the command.

Both trees start as copies of the fixture catalog (the ``breaking_trees`` fixture of conftest.py:
old/specs and specs, with the working folder above them); each case edits one of them.
docs/breaking.md shows what these cases print (tests/test_breaking_docs.py checks it).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import edit, keep_versions, run_cli

Mutate = Callable[[Path, Path], None]


def breaking(capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, dict, str]:
    """Run the command in JSON form; returns (exit code, the report, stderr)."""
    code, out, err = run_cli(
        capsys, "breaking", "--against", "old/specs", "--specs", "specs", "--error-format", "json", *extra
    )
    return code, (json.loads(out) if out.strip() else {}), err


def drop_tool_todo(_: Path, new: Path) -> None:
    """Remove the todo tool everywhere the new specs name it."""
    (new / "tools" / "todo.yaml").unlink()
    edit(new / "toolgen.yaml", "  - todo\n", "")
    edit(new / "parameters.yaml", "    dependencies: [todo]\n", "")
    for family in ("generic", "compact", "native"):
        edit(new / "variants" / f"{family}.yaml", "- todo\n", "")


def rename_tool_todo(_: Path, new: Path) -> None:
    """The todo tool becomes 'tasks' (same parameters): a rename by shape."""
    text = (new / "tools" / "todo.yaml").read_text().replace("id: todo", "id: tasks")
    (new / "tools" / "todo.yaml").unlink()
    (new / "tools" / "tasks.yaml").write_text(text)
    edit(new / "toolgen.yaml", "  - todo\n", "  - tasks\n")
    edit(new / "parameters.yaml", "[todo]", "[tasks]")
    for family in ("generic", "compact", "native"):
        edit(new / "variants" / f"{family}.yaml", "- todo\n", "- tasks\n")


def add_family_extra(_: Path, new: Path) -> None:
    text = (new / "variants" / "compact.yaml").read_text()
    text = text.replace("family: compact", "family: extra").replace("order: 1", "order: 0")
    (new / "variants" / "extra.yaml").write_text(
        text.replace("custom_prompt, equals: compact", "custom_prompt, equals: extra")
    )
    edit(new / "toolgen.yaml", "  - native\ncontext:", "  - native\n  - extra\ncontext:")


def add_context_field(tree: Path, type_: str = "integer") -> None:
    edit(
        tree / "toolgen.yaml",
        "placeholders:\n",
        f"  level:\n    type: {type_}\n    default: 0\n    doc: A level.\nplaceholders:\n",
    )


def read_file_edit(old: str, new_text: str) -> Mutate:
    return lambda _, new: edit(new / "tools" / "read_file.yaml", old, new_text)


def tool_edit(tool: str, old: str, new_text: str) -> Mutate:
    return lambda _, new: edit(new / "tools" / f"{tool}.yaml", old, new_text)


def new_edit(rel: str, old: str, new_text: str) -> Mutate:
    return lambda _, new: edit(new / rel, old, new_text)


# rule -> (mutation, the finding's location, the exit code)
CASES: dict[str, tuple[Mutate, str, int]] = {
    "TOOL_REMOVED": (drop_tool_todo, "specs/toolgen.yaml:4:1", 1),
    "TOOL_RENAMED": (
        tool_edit("ask", "  generic:\n", "  generic:\n    name: ask_user\n"),
        "specs/tools/ask.yaml:5:3",
        1,
    ),
    "TOOL_REMOVED_FROM_FAMILY": (
        new_edit("variants/compact.yaml", "- ask\n", ""),
        "specs/variants/compact.yaml:7:1",
        1,
    ),
    "TOOL_ADDED": (
        new_edit("variants/compact.yaml", "- ask\n", "- ask\n- write_file\n"),
        "specs/variants/compact.yaml:10:3",
        0,
    ),
    "FAMILY_REMOVED": (
        lambda _, new: (new / "variants" / "compact.yaml").unlink(),
        "specs/toolgen.yaml:9:1",
        1,
    ),
    "FAMILY_ADDED": (add_family_extra, "specs/variants/extra.yaml:2:1", 1),  # it takes contexts from others
    "FAMILY_SELECTION_CHANGED": (
        new_edit("variants/compact.yaml", "equals: compact", "equals: tiny"),
        "specs/variants/compact.yaml:13:3",
        1,
    ),
    "FORMAT_REMOVED": (
        new_edit("toolgen.yaml", "name: fixture\n", "name: fixture\nformats: [anthropic, openai-chat]\n"),
        "specs/toolgen.yaml:4:1",
        1,
    ),
    "ROUTING_CHANGED": (
        new_edit(
            "toolgen.yaml", "{providers: [anthropic], format: anthropic}", "{providers: [anthropic], format: gemini}"
        ),
        "specs/toolgen.yaml:72:7",
        1,
    ),
    "PARAMETER_REMOVED": (
        read_file_edit(
            "      - name: start_line\n        type: integer\n        minimum: 1\n"
            '        instruction: First line to read.\n        usage: "1"\n',
            "",
        ),
        "specs/tools/read_file.yaml:10:9",
        1,
    ),
    "PARAMETER_RENAMED": (read_file_edit("name: start_line", "name: first_line"), "specs/tools/read_file.yaml:14:9", 1),
    "PARAMETER_REQUIRED_ADDED": (
        read_file_edit(
            "      - use: task_progress\n",
            "      - name: encoding\n        required: true\n"
            "        instruction: The encoding.\n      - use: task_progress\n",
        ),
        "specs/tools/read_file.yaml:19:9",
        1,
    ),
    "PARAMETER_MADE_REQUIRED": (
        read_file_edit("        type: integer\n", "        type: integer\n        required: true\n"),
        "specs/tools/read_file.yaml:14:9",
        1,
    ),
    "PARAMETER_ADDED": (
        read_file_edit(
            "      - use: task_progress\n",
            "      - name: encoding\n        instruction: The encoding.\n      - use: task_progress\n",
        ),
        "specs/tools/read_file.yaml:19:9",
        0,
    ),
    "PARAMETER_MADE_OPTIONAL": (tool_edit("ask", "required: true", "required: false"), "specs/tools/ask.yaml:9:9", 0),
    "TYPE_CHANGED": (
        read_file_edit("type: integer\n        minimum: 1\n", "type: string\n"),
        "specs/tools/read_file.yaml:14:9",
        1,
    ),
    "TYPE_WIDENED": (read_file_edit("type: integer", "type: number"), "specs/tools/read_file.yaml:14:9", 0),
    "ENUM_VALUE_REMOVED": (
        tool_edit("write_file", "[overwrite, append]", "[overwrite]"),
        "specs/tools/write_file.yaml:23:9",
        1,
    ),
    "ENUM_VALUE_ADDED": (
        tool_edit("write_file", "[overwrite, append]", "[overwrite, append, prepend]"),
        "specs/tools/write_file.yaml:23:9",
        0,
    ),
    "BOUND_TIGHTENED": (read_file_edit("minimum: 1", "minimum: 2"), "specs/tools/read_file.yaml:14:9", 1),
    "BOUND_LOOSENED": (read_file_edit("minimum: 1", "minimum: 0"), "specs/tools/read_file.yaml:14:9", 0),
    "PATTERN_CHANGED": (
        read_file_edit("        usage: File path here\n", "        usage: File path here\n        pattern: '^[^/]'\n"),
        "specs/tools/read_file.yaml:10:9",
        1,
    ),
    "STRICT_CHANGED": (
        read_file_edit("    description: Reads a file.\n", "    description: Reads a file.\n    strict: true\n"),
        "specs/tools/read_file.yaml:20:3",
        1,
    ),
    "DEFAULT_CHANGED": (
        new_edit("toolgen.yaml", 'default: "/"\n    doc: Working', 'default: "/work"\n    doc: Working'),
        "specs/toolgen.yaml:24:3",
        0,
    ),
    "DESCRIPTION_CHANGED": (
        tool_edit("ask", "Ask the user a question.", "Ask the user one question."),
        "specs/tools/ask.yaml:5:3",
        0,
    ),
    "REQUIREMENT_ADDED": (
        read_file_edit(
            "    description: Reads a file.\n",
            "    description: Reads a file.\n    requires: {field: yolo_mode, truthy: false}\n",
        ),
        "specs/tools/read_file.yaml:20:3",
        1,
    ),
    "REQUIREMENT_REMOVED": (
        tool_edit("ask", "    requires: {field: yolo_mode, truthy: false}\n", ""),
        "specs/tools/ask.yaml:5:3",
        0,
    ),
    "HANDLER_CHANGED": (
        read_file_edit("class: ReadFileHandler", "class: ReadHandler"),
        "specs/tools/read_file.yaml:3:1",
        1,
    ),
    "HANDLER_REMOVED": (
        tool_edit("todo", "handler:\n  class: TodoHandler\n", "handler: null\n"),
        "specs/tools/todo.yaml:3:1",
        1,
    ),
    # a class the host already provides (todo's): nothing new to bind
    "HANDLER_ADDED": (
        tool_edit("ask", "handler: null", "handler: {class: TodoHandler}"),
        "specs/tools/ask.yaml:3:1",
        0,
    ),
    "HANDLER_CLASS_ADDED": (
        tool_edit("ask", "handler: null", "handler: {class: AskHandler}"),
        "specs/tools/ask.yaml:3:1",
        1,
    ),
    "MCP_NAME_LIMIT_LOWERED": (
        new_edit("toolgen.yaml", "selection:\n", "mcp: {name_max_length: 48}\nselection:\n"),
        "specs/toolgen.yaml:60:7",
        1,
    ),
    "MCP_NAME_LIMIT_RAISED": (
        lambda old, new: (
            edit(old / "toolgen.yaml", "selection:\n", "mcp: {name_max_length: 40}\nselection:\n"),
            edit(new / "toolgen.yaml", "selection:\n", "mcp: {name_max_length: 48}\nselection:\n"),
        ),
        "specs/toolgen.yaml:60:7",
        0,
    ),
    "SUBAGENT_NAMES_CHANGED": (
        new_edit("toolgen.yaml", "selection:\n", "subagents: {name_prefix: run_subagent_}\nselection:\n"),
        "specs/toolgen.yaml:60:13",
        1,
    ),
    "PLACEHOLDER_CHANGED": (
        new_edit("toolgen.yaml", 'CWD: {field: cwd, default: "/"}', 'CWD: {field: cwd, default: "/work"}'),
        "specs/toolgen.yaml:59:3",
        0,
    ),
    "DEPRECATED": (
        tool_edit("ask", "id: ask\n", "id: ask\ndeprecated: {note: Ask in the chat instead., removal: 2027-06-30}\n"),
        "specs/tools/ask.yaml:3:1",
        0,
    ),
    "FAMILY_VERSION_NOT_BUMPED": (
        lambda _, new: (keep_versions(new), edit(new / "tools" / "read_file.yaml", "minimum: 1", "minimum: 2")),
        "specs/variants/compact.yaml:4:1",
        1,
    ),
    "NPM_PACKAGE_RENAMED": (
        new_edit("toolgen.yaml", "selection:\n", "npm: {name: fixture-tools}\nselection:\n"),
        "specs/toolgen.yaml:60:7",
        1,
    ),
    "MCP_SEPARATOR_CHANGED": (
        new_edit("toolgen.yaml", "selection:\n", 'mcp: {separator: "__x__"}\nselection:\n'),
        "specs/toolgen.yaml:60:7",
        1,
    ),
    "CONTEXT_FIELD_REMOVED": (lambda old, _: add_context_field(old), "specs/toolgen.yaml:13:1", 1),
    "CONTEXT_FIELD_TYPE_CHANGED": (
        lambda old, new: (add_context_field(old), add_context_field(new, "number")),
        "specs/toolgen.yaml:58:3",
        1,
    ),
    "CONTEXT_FIELD_ADDED": (lambda _, new: add_context_field(new), "specs/toolgen.yaml:58:3", 0),
}
