"""A tool's title, MCP annotations and output schema: checked at load, carried to the listing.

The listing is read in-process from the generated package (``tools_offer``), which needs no MCP
SDK; tests/test_mcp_server.py serves the same entries to the SDK's client.
"""

from __future__ import annotations

from pathlib import Path

import jsonschema
import pytest

from conftest import ROOT, edit, generate_package, import_package, run_cli, submodule

MCP_SPECS = ROOT / "tests" / "fixtures" / "mcp_specs"


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory):
    out = generate_package(MCP_SPECS, tmp_path_factory.mktemp("host-fields"), "pkg")
    return import_package(out)


def test_listing_carries_title_annotations_and_output_schema(package) -> None:
    offer = submodule(package, "mcp_server").tools_offer("main", package.Context())
    lookup = offer.listed[0]
    assert list(lookup) == ["name", "title", "description", "inputSchema", "outputSchema", "annotations"]
    assert lookup["title"] == "Look up a city"
    assert lookup["annotations"] == {"readOnlyHint": True, "openWorldHint": False}
    assert lookup["outputSchema"] == {
        "type": "object",
        "required": ["city", "population"],
        "properties": {"city": {"type": "string"}, "population": {"type": "integer", "minimum": 0}},
    }
    noisy = next(e for e in offer.listed if e["name"] == "noisy")
    assert list(noisy) == ["name", "description", "inputSchema"]  # nothing set, nothing listed
    for entry in offer.listed:
        jsonschema.Draft202012Validator.check_schema(entry["inputSchema"])


def test_calls_are_checked_as_json_against_the_listed_schema(package) -> None:
    offer = submodule(package, "mcp_server").tools_offer("main", package.Context())
    typed, problems = offer.check(package.ToolUse("lookup", {"city": "Oslo", "limit": 3}))
    assert (typed, problems) == ({"city": "Oslo", "limit": 3}, [])
    _, problems = offer.check(package.ToolUse("lookup", {"city": "Oslo", "limit": "3"}))
    assert problems == ['limit: expected integer, got string "3"']  # no text coercion on the JSON path


def test_structured_results_are_checked(package) -> None:
    offer = submodule(package, "mcp_server").tools_offer("main", package.Context())
    assert offer.structured("lookup", '{"city": "Oslo", "population": 7}') == ({"city": "Oslo", "population": 7}, None)
    value, why = offer.structured("lookup", '{"city": "Oslo"}')
    assert value is None and why is not None and "population" in why
    assert (
        offer.structured("lookup", "[1]")[1]
        == "Tool lookup declares an output schema, but its handler returned a JSON list, not an object"
    )
    assert offer.structured("noisy", "anything") == (None, None)


@pytest.mark.parametrize(
    "schema, words",
    [
        ("{type: array}", ['its root must be "type": "object"']),
        ("{type: object, properties: {a: {type: 7}}}", ["not valid JSON Schema 2020-12 at /properties/a/type"]),
        ("{type: object, properties: {a: {$ref: 'other.json'}}}", ["the validator cannot enforce"]),
    ],
)
def test_bad_output_schemas_are_refused(
    schema: str, words: list[str], specs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edit(specs / "tools" / "todo.yaml", "id: todo\n", f"id: todo\noutput_schema: {schema}\n")
    code, _, err = run_cli(capsys, "validate", "--specs", specs)
    assert code == 2
    assert "specs/tools/todo.yaml:3:" in err and "error[E332]: output_schema: " in err, err
    for word in words:
        assert word in err, err


def test_unknown_annotation_is_refused(specs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit(specs / "tools" / "todo.yaml", "id: todo\n", "id: todo\nannotations: {readOnly: true}\n")
    code, _, err = run_cli(capsys, "validate", "--specs", specs)
    assert code == 2 and "readOnly" in err, err
