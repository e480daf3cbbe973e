"""`toolgen lsp` end to end: a real LSP client (pytest-lsp) drives the server over stdio."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from conftest import FIXTURE_SPECS, copy_specs
from generator.lsp.text import path_to_uri, uri_to_path
from lsp_session import (
    REGISTRATIONS,
    SERVER,
    cli_diagnostics,
    insert,
    lsp_diagnostics,
    mark,
    open_checked,
    open_file,
    position_of,
    published,
    replace_all,
    start,
    state,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(config=SERVER, scope="module")
async def client(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    await start(lsp_client)
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
def specs(tmp_path: Path) -> Path:
    return copy_specs(FIXTURE_SPECS, tmp_path)


async def test_open_clean_file_publishes_no_diagnostics(client: LanguageClient, specs: Path) -> None:
    uri, _, burst = await open_checked(client, specs / "tools/ask.yaml")
    assert {u: list(d) for u, d in burst.items()} == {uri: []}


async def test_unsaved_typo_is_reported_and_fixing_it_clears_it(
    client: LanguageClient, specs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = specs / "tools/ask.yaml"
    uri, text, _ = await open_checked(client, path)
    broken = text.replace("use: task_progress", "use: task_progres")
    before = mark(client)
    replace_all(client, uri, broken, 2)
    burst = await published(client, before)
    (problem,) = burst[uri]
    assert problem.code == "E308" and problem.message == "unknown shared parameter 'task_progres'"
    assert problem.data["replacement"] == "task_progress"
    assert problem.related_information and "did you mean 'task_progress'?" in problem.related_information[0].message
    assert problem.range == types.Range(position_of(broken, "task_progres"), position_of(broken, "task_progres", 12))
    # the unsaved buffer gives what the command line gives for the same text on disk
    path.write_text(broken, "utf-8")
    assert lsp_diagnostics(state(client, specs), {path: broken}) == cli_diagnostics(capsys, specs)
    path.write_text(text, "utf-8")
    before = mark(client)
    replace_all(client, uri, text, 3)
    assert list((await published(client, before))[uri]) == []


async def test_an_edit_in_one_file_reports_in_the_files_it_breaks_then_clears_them(
    client: LanguageClient, specs: Path
) -> None:
    shared = specs / "parameters.yaml"
    uri, text, _ = await open_checked(client, shared)
    before = mark(client)
    replace_all(client, uri, text.replace("  task_progress:", "  progress:"), 2)
    burst = await published(client, before)
    users = {path_to_uri(specs / f"tools/{name}.yaml") for name in ("ask", "read_file", "write_file")}
    assert users <= {u for u, items in burst.items() if items}
    before = mark(client)
    replace_all(client, uri, text, 3)
    burst = await published(client, before)
    assert all(list(burst.get(u, [None])) == [] for u in users), burst


async def test_utf16_columns_after_non_ascii_text(
    client: LanguageClient, specs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = specs / "tools/ask.yaml"
    text = path.read_text("utf-8").replace(
        "requires: {field: yolo_mode, truthy: false}",
        'requires: {field: yolo_mode, truthy: false, "é😀x": 1, bogus: 1}',
    )
    path.write_text(text, "utf-8")
    uri, _, burst = await open_checked(client, path, text)
    bogus = next(d for d in burst[uri] if "bogus" in d.message)
    line_text = text.split("\n")[bogus.range.start.line]
    # 😀 is two UTF-16 code units: the LSP column is one more than the character column
    assert bogus.range.start.character == line_text.index("bogus") + 1
    assert bogus.range.end.character == bogus.range.start.character + len("bogus")
    assert lsp_diagnostics(state(client, specs), {path: text}) == cli_diagnostics(capsys, specs)


async def test_hover_on_a_variant_shows_every_format_and_the_prompt(client: LanguageClient, specs: Path) -> None:
    path = specs / "tools/read_file.yaml"
    uri, text, _ = await open_checked(client, path)
    value = await _hover(client, uri, position_of(text, "description: Reads a file below"))
    assert "generic/read_file" in value
    for fmt in ("anthropic", "openai-chat", "gemini"):
        assert fmt in value
    assert "```xml\n## read_file\nDescription: Reads a file below /." in value  # {{CWD}} in the default context
    assert "- path: (required) Path of the file, relative to /." in value
    assert "Placeholders (default context): `{{CWD}}` → '/'" in value


async def test_hover_on_a_parameter_shows_its_sent_schema(client: LanguageClient, specs: Path) -> None:
    path = specs / "tools/read_file.yaml"
    uri, text, _ = await open_checked(client, path)
    value = await _hover(client, uri, position_of(text, "minimum: 1"))
    assert "parameter `start_line`" in value
    assert '"type": "integer"' in value and '"minimum": 1' in value


async def _hover(client: LanguageClient, uri: str, position: types.Position) -> str:
    answer = await client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(uri), position))
    assert answer is not None and isinstance(answer.contents, types.MarkupContent)
    return answer.contents.value


async def _labels(client: LanguageClient, uri: str, position: types.Position) -> set[str]:
    answer = await client.text_document_completion_async(
        types.CompletionParams(types.TextDocumentIdentifier(uri), position)
    )
    assert isinstance(answer, types.CompletionList)
    return {item.label for item in answer.items}


async def test_completion_of_keys_and_references(client: LanguageClient, specs: Path) -> None:
    path = specs / "tools/read_file.yaml"
    text = path.read_text("utf-8")
    typing = text.replace("  native:\n    extends: generic\n", "  native:\n    extends: \n    \n", 1)
    uri, _, _ = await open_checked(client, path, typing)
    lines = typing.split("\n")
    extends_line = lines.index("    extends: ")
    assert await _labels(client, uri, types.Position(extends_line, 13)) == {"generic"}
    keys = await _labels(client, uri, types.Position(extends_line + 1, 4))
    assert {"parameters", "requires", "strict"} <= keys and "extends" not in keys and "description" not in keys
    use = await _labels(client, uri, position_of(typing, "use: task_progress", 5))
    assert use == {"task_progress"}
    top = await _labels(client, uri, types.Position(1, 0))
    assert {"label"} <= top and "id" not in top


async def test_completion_of_families_fields_formats_placeholders_and_classes(
    client: LanguageClient, specs: Path
) -> None:
    project = specs / "toolgen.yaml"
    uri, text, _ = await open_checked(client, project)
    assert await _labels(client, uri, position_of(text, "  - compact", 4)) == {"generic", "compact", "native"}
    tool = specs / "tools/ask.yaml"
    tool_uri, tool_text, _ = await open_checked(client, tool)
    fields = await _labels(client, tool_uri, position_of(tool_text, "yolo_mode"))
    assert {"yolo_mode", "cwd", "todo_enabled"} <= fields
    typed = tool_text.replace("The question to ask.", "The question about {{")
    before = mark(client)
    replace_all(client, tool_uri, typed, 2)
    await published(client, before)
    assert await _labels(client, tool_uri, position_of(typed, "{{", 2)) == {"CWD"}
    with_class = tool_text.replace("handler: null", "handler:\n  class: ")
    before = mark(client)
    replace_all(client, tool_uri, with_class, 3)
    await published(client, before)
    classes = await _labels(client, tool_uri, position_of(with_class, "class: ", 7))
    assert classes == {"ReadFileHandler", "TodoHandler"}  # the classes bound in the other tool files


async def _definition(client: LanguageClient, uri: str, position: types.Position) -> list[types.Location]:
    answer = await client.text_document_definition_async(
        types.DefinitionParams(types.TextDocumentIdentifier(uri), position)
    )
    assert isinstance(answer, list), answer
    return answer


async def test_go_to_definition(client: LanguageClient, specs: Path) -> None:
    path = specs / "tools/read_file.yaml"
    uri, text, _ = await open_checked(client, path)
    shared = (specs / "parameters.yaml").read_text("utf-8")
    (use,) = await _definition(client, uri, position_of(text, "task_progress", 3))
    assert use.uri == path_to_uri(specs / "parameters.yaml")
    assert use.range.start == position_of(shared, "task_progress")
    (extends,) = await _definition(client, uri, position_of(text, "extends: generic", 10))
    assert extends.uri == uri and extends.range.start == position_of(text, "generic:")
    project = (specs / "toolgen.yaml").read_text("utf-8")
    (placeholder,) = await _definition(client, uri, position_of(text, "{{CWD}}", 3))
    assert placeholder.uri == path_to_uri(specs / "toolgen.yaml")
    assert placeholder.range.start == position_of(project, "CWD: {field")
    (family,) = await _definition(client, uri, position_of(text, "  native:", 3))
    assert family.uri == path_to_uri(specs / "variants/native.yaml")
    references = await client.text_document_references_async(
        types.ReferenceParams(
            context=types.ReferenceContext(include_declaration=True),
            text_document=types.TextDocumentIdentifier(uri),
            position=position_of(text, "task_progress", 3),
        )
    )
    assert references is not None
    assert {r.uri for r in references} == {
        path_to_uri(specs / name)
        for name in ("parameters.yaml", "tools/ask.yaml", "tools/read_file.yaml", "tools/write_file.yaml")
    }


async def test_rename_a_shared_parameter_everywhere(
    client: LanguageClient, specs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = specs / "tools/ask.yaml"
    uri, text, _ = await open_checked(client, path)
    edit = await client.text_document_rename_async(
        types.RenameParams(types.TextDocumentIdentifier(uri), position_of(text, "task_progress"), "progress_list")
    )
    assert edit is not None and edit.changes is not None
    names = ("parameters.yaml", "tools/ask.yaml", "tools/read_file.yaml", "tools/write_file.yaml")
    assert set(edit.changes) == {path_to_uri(specs / name) for name in names}
    for name in names:  # apply it on disk: the specs stay valid under the new name
        target = specs / name
        lines = target.read_text("utf-8").split("\n")
        for change in sorted(edit.changes[path_to_uri(target)], key=lambda e: e.range.start.character, reverse=True):
            row = change.range.start.line
            line = lines[row]
            lines[row] = line[: change.range.start.character] + change.new_text + line[change.range.end.character :]
        target.write_text("\n".join(lines), "utf-8")
        assert "task_progress" not in target.read_text("utf-8")
    assert cli_diagnostics(capsys, specs) == []


async def _actions(client: LanguageClient, uri: str, diagnostics: list[types.Diagnostic]) -> list[types.CodeAction]:
    answer = await client.text_document_code_action_async(
        types.CodeActionParams(
            types.TextDocumentIdentifier(uri),
            diagnostics[0].range,
            types.CodeActionContext(diagnostics=diagnostics),
        )
    )
    assert answer is not None
    return [a for a in answer if isinstance(a, types.CodeAction)]


def apply(text: str, edits: list[types.TextEdit]) -> str:
    """Apply single-line or whole-line edits (what the server's actions make) to ``text``."""
    lines = text.split("\n")
    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        start, end = edit.range.start, edit.range.end
        head = (
            "\n".join(lines[: start.line] + [lines[start.line][: start.character]]) if start.line < len(lines) else text
        )
        tail_line = lines[end.line] if end.line < len(lines) else ""
        tail = "\n".join([tail_line[end.character :]] + lines[end.line + 1 :])
        lines = (head + edit.new_text + tail).split("\n")
    return "\n".join(lines)


@pytest.mark.parametrize(
    "change, title",
    [
        (("description: Ask", "descripton: Ask"), "Change to 'description'"),
        (("use: task_progress", "use: task_progres"), "Change to 'task_progress'"),
        (("# yaml-language-server: $schema=../../generator/schemas/tool.schema.json\n", ""), "Add the schema modeline"),
        (
            ("      - use: task_progress", "      - use: task_progress\n    requires: {field: cwd, truthy: true}"),
            "Remove the duplicate entry",
        ),
        (("id: ask\n", ""), "Add the missing key 'id'"),
    ],
    ids=["misspelt-key", "misspelt-reference", "modeline", "duplicate-key", "missing-key"],
)
async def test_code_action_fixes_the_diagnostic(
    client: LanguageClient, specs: Path, change: tuple[str, str], title: str
) -> None:
    path = specs / "tools/ask.yaml"
    text = path.read_text("utf-8")
    broken = text.replace(*change)
    uri, _, burst = await open_checked(client, path, broken)
    assert burst[uri], "the broken text must be reported"
    (action,) = await _actions(client, uri, burst[uri][:1])
    assert action.title == title
    assert action.edit is not None and action.edit.changes is not None
    fixed = apply(broken, action.edit.changes[uri])
    before = mark(client)
    replace_all(client, uri, fixed, 2)
    after = (await published(client, before))[uri]
    fixed_problem = (burst[uri][0].code, burst[uri][0].message)
    assert fixed_problem not in {(d.code, d.message) for d in after}
    if title == "Add the missing key 'id'":  # a skeleton: the value is left for the author
        assert fixed.startswith(text.split("\n", 1)[0] + "\nid: \n") and [d.code for d in after] == ["E212"]
    else:
        assert list(after) == []


async def test_document_symbols(client: LanguageClient, specs: Path) -> None:
    uri, _, _ = await open_checked(client, specs / "tools/read_file.yaml")
    answer = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(types.TextDocumentIdentifier(uri))
    )
    assert answer is not None
    (tool,) = answer
    assert isinstance(tool, types.DocumentSymbol) and tool.name == "read_file"
    assert [v.name for v in tool.children or []] == ["generic", "native"]
    assert [p.name for p in (tool.children or [])[0].children or []] == ["path", "start_line", "task_progress"]


async def test_rename_a_placeholder_everywhere(client: LanguageClient, specs: Path) -> None:
    path = specs / "tools/read_file.yaml"
    uri, text, _ = await open_checked(client, path)
    edit = await client.text_document_rename_async(
        types.RenameParams(types.TextDocumentIdentifier(uri), position_of(text, "{{CWD}}", 3), "WORKDIR")
    )
    assert edit is not None and edit.changes is not None
    project = path_to_uri(specs / "toolgen.yaml")
    assert set(edit.changes) == {uri, project}
    assert len(edit.changes[uri]) == 2 and len(edit.changes[project]) == 1
    assert all(change.new_text == "WORKDIR" for changes in edit.changes.values() for change in changes)


def apply_workspace_edit(edit: types.WorkspaceEdit) -> None:
    """Apply a workspace edit on disk as an editor would: text edits (by ``changes`` or
    ``documentChanges``), then file renames."""
    texts: dict[str, list[types.TextEdit]] = dict(edit.changes or {})
    renames = []
    for change in edit.document_changes or []:
        if isinstance(change, types.TextDocumentEdit):
            texts.setdefault(change.text_document.uri, []).extend(
                e for e in change.edits if isinstance(e, types.TextEdit)
            )
        elif isinstance(change, types.RenameFile):
            renames.append(change)
    for uri, edits in texts.items():
        target = uri_to_path(uri)
        assert target is not None
        target.write_text(apply(target.read_text("utf-8"), edits), "utf-8")
    for change in renames:
        old, new = uri_to_path(change.old_uri), uri_to_path(change.new_uri)
        assert old is not None and new is not None and not new.exists()
        old.rename(new)


@pytest.mark.parametrize(
    "file, needle, offset, new_name, renamed",
    [
        ("variants/generic.yaml", "- todo", 3, "checklist", "tools/checklist.yaml"),
        ("toolgen.yaml", "  - native", 5, "big", "variants/big.yaml"),
    ],
    ids=["tool", "family"],
)
async def test_rename_a_tool_or_family_renames_its_file_too(
    client: LanguageClient,
    specs: Path,
    capsys: pytest.CaptureFixture[str],
    file: str,
    needle: str,
    offset: int,
    new_name: str,
    renamed: str,
) -> None:
    uri, text, _ = await open_checked(client, specs / file)
    at = position_of(text, needle, offset)
    prepared = await client.text_document_prepare_rename_async(
        types.PrepareRenameParams(types.TextDocumentIdentifier(uri), at)
    )
    assert prepared is not None
    edit = await client.text_document_rename_async(types.RenameParams(types.TextDocumentIdentifier(uri), at, new_name))
    assert edit is not None
    apply_workspace_edit(edit)
    assert (specs / renamed).is_file()
    assert cli_diagnostics(capsys, specs) == []  # every reference followed the new name
    client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri)))


async def test_formats_completion_and_description_folding(client: LanguageClient, specs: Path) -> None:
    project = specs / "toolgen.yaml"
    text = project.read_text("utf-8").replace("families:\n", "formats:\n  - \nfamilies:\n", 1)
    uri, _, _ = await open_checked(client, project, text)
    formats = await _labels(client, uri, position_of(text, "formats:\n  - ", len("formats:\n  - ")))
    assert {"anthropic", "openai-chat", "openai-responses", "gemini", "bedrock-converse"} <= formats
    bundled = Path(__file__).parent.parent / "specs/tools/read_file.yaml"
    tool_uri = open_file(client, bundled)
    folds = await client.text_document_folding_range_async(
        types.FoldingRangeParams(types.TextDocumentIdentifier(tool_uri))
    )
    assert folds is not None
    lines = bundled.read_text("utf-8").split("\n")
    first = next(f for f in folds if lines[f.start_line].strip() == "description: >-")
    assert first.end_line > first.start_line + 2 and lines[first.end_line + 1].strip().startswith("parameters:")
    client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(tool_uri)))


async def test_hover_on_a_tool_in_a_family_list_shows_that_familys_variant(client: LanguageClient, specs: Path) -> None:
    uri, text, _ = await open_checked(client, specs / "variants/native.yaml")
    value = await _hover(client, uri, position_of(text, "- read_file", 3))
    assert value.startswith("**native/read_file**")
    project_uri, project, _ = await open_checked(client, specs / "toolgen.yaml")
    fallback = await _hover(client, project_uri, position_of(project, "  - read_file", 5))
    assert fallback.startswith("**generic/read_file**")


async def test_the_server_asks_to_be_told_of_spec_files_changed_on_disk(client: LanguageClient) -> None:
    for _ in range(500):  # the request follows `initialized`: give it up to 5 s to arrive
        watched = [r for r in REGISTRATIONS if r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES]
        if watched:
            break
        await asyncio.sleep(0.01)
    assert watched and watched[0].register_options["watchers"][0]["globPattern"] == "**/*.{yaml,yml}"


async def test_hover_prompt_fragment_equals_the_generated_prompt(
    client: LanguageClient, specs: Path, fixture_package
) -> None:  # type: ignore[no-untyped-def]
    """For each tool the generic family offers in the default context, the hover's XML block is
    the block the generated package's prompt_section gives."""
    section = fixture_package.prompt_section("generic", fixture_package.Context())
    blocks = {block.split("\n", 1)[0]: "## " + block.strip() for block in section.split("\n## ")[1:]}
    assert blocks, section
    uri, text, _ = await open_checked(client, specs / "variants/generic.yaml")
    for heading, block in blocks.items():
        value = await _hover(client, uri, position_of(text, f"- {heading}", 3))
        assert value.split("```xml\n", 1)[1].split("\n```", 1)[0] == block


async def test_context_field_definition_and_references(client: LanguageClient, specs: Path) -> None:
    uri, text, _ = await open_checked(client, specs / "tools/ask.yaml")
    at = position_of(text, "yolo_mode", 2)
    project = (specs / "toolgen.yaml").read_text("utf-8")
    (definition,) = await _definition(client, uri, at)
    assert definition.uri == path_to_uri(specs / "toolgen.yaml")
    assert definition.range.start == position_of(project, "yolo_mode:")
    references = await client.text_document_references_async(
        types.ReferenceParams(
            context=types.ReferenceContext(include_declaration=True),
            text_document=types.TextDocumentIdentifier(uri),
            position=at,
        )
    )
    assert references is not None
    mentioned = {(r.uri, r.range.start.line) for r in references}
    assert (uri, at.line) in mentioned and (definition.uri, definition.range.start.line) in mentioned


async def test_a_burst_of_typing_ends_in_the_diagnostics_of_the_last_text(
    client: LanguageClient, specs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Keystrokes sent without waiting: the server checks the latest text (not every keystroke's),
    and what it publishes last equals validate on that text."""
    path = specs / "tools/ask.yaml"
    uri, text, _ = await open_checked(client, path)
    lines = text.split("\n")
    row = next(i for i, line in enumerate(lines) if line.startswith("    requires:"))
    before = mark(client)
    typed = "    bogus_key: 1\n"
    for i, ch in enumerate(typed):
        insert(client, uri, row, i, ch, 2 + i)
    burst = await published(client, before, specs)
    final = "\n".join(lines[:row]) + "\n" + typed + "\n".join(lines[row:])
    path.write_text(final, "utf-8")
    assert lsp_diagnostics(state(client, specs), {path: final}) == cli_diagnostics(capsys, specs)
    assert any("bogus_key" in d.message for d in burst[uri])
    assert mark(client) - before < len(typed)  # not one check per keystroke
