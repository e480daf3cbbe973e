"""The format records (generator/runtime/formats.py) are consistent, and one record is a format."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from generator import model
from generator.lower import native as lower_native
from generator.runtime import formats
from generator.runtime.formats import (
    CUSTOM,
    DESCRIBE,
    DESCRIPTION,
    FORMATS,
    KEEP,
    NAME,
    PARAMETERS,
    REFUSE,
    RENAME,
    STRICT,
)
from generator.runtime.native import DESCRIPTION_PATH, PROPERTIES_PATH
from generator.runtime.schema_dialects import (
    HOOKS,
    DialectError,
    check_limits,
    convert,
    tool_entry,
)

ROOT = Path(__file__).resolve().parent.parent
RECORDS = list(FORMATS.values())
SCHEMA = {"type": "object", "properties": {"path": {"type": "string", "minLength": 1}}, "required": ["path"]}


def _at(value, path):
    for key in path:
        value = value[key]
    return value


def test_one_registry_in_declared_order() -> None:
    assert model.FORMATS == tuple(FORMATS) == (
        "anthropic",
        "openai-chat",
        "openai-responses",
        "gemini",
        "bedrock-converse",
    )
    assert [e.dialect for e in lower_native.EMITTERS] == list(FORMATS)
    assert len({r.module for r in RECORDS}) == len(RECORDS)


@pytest.mark.parametrize("rec", RECORDS, ids=lambda r: r.name)
def test_envelope_paths_match_the_entries(rec: formats.FormatRecord) -> None:
    entry = tool_entry(rec.name, "read", "Reads a file.", SCHEMA)
    assert _at(entry, rec.path_to(NAME)) == "read"
    assert _at(entry, DESCRIPTION_PATH[rec.name]) == "Reads a file." == _at(entry, rec.description_path)
    assert list(_at(entry, PROPERTIES_PATH[rec.name])) == ["path"]
    # The strict flag is laid out exactly by the formats that have a strict mode.
    has_slot = True
    try:
        rec.path_to(STRICT)
    except KeyError:
        has_slot = False
    assert has_slot == (rec.strict is not None)
    assert check_limits(rec.name, [entry]) == []


@pytest.mark.parametrize("rec", RECORDS, ids=lambda r: r.name)
def test_keyword_tables_use_known_actions_and_hooks(rec: formats.FormatRecord) -> None:
    for policy in (rec.schema, rec.strict):
        if policy is None:
            continue
        assert policy.hooks in HOOKS
        for keyword, action in [*policy.keywords.items(), ("<default>", policy.default)]:
            assert action in (KEEP, DESCRIBE, REFUSE, CUSTOM) or action.startswith(RENAME), (keyword, action)


@pytest.mark.parametrize("rec", RECORDS, ids=lambda r: r.name)
def test_safe_name_characters_are_taken_by_every_format(rec: formats.FormatRecord) -> None:
    # Rewritten run-time names keep to NAME_SAFE_CHARS (and start with a letter or '_').
    safe = "".join(c for c in map(chr, range(128)) if re.fullmatch(f"[{formats.NAME_SAFE_CHARS}]", c))
    assert rec.tool_name.fullmatch("_x_" + safe[: 64 - 3])


def test_a_new_format_is_one_record(monkeypatch: pytest.MonkeyPatch) -> None:
    acme = replace(
        FORMATS["bedrock-converse"],
        name="acme",
        module="acme",
        envelope=(("kind", "tool"), ("spec", (("id", NAME), ("about", DESCRIPTION), ("args", PARAMETERS)))),
        max_description=10,
        limits_label="",
    )
    monkeypatch.setitem(FORMATS, "acme", acme)
    entry = tool_entry("acme", "read", "Reads a file.", SCHEMA)
    assert entry == {
        "kind": "tool",
        "spec": {"id": "read", "about": "Reads a file.", "args": convert(SCHEMA, "anthropic").schema},
    }
    [notice] = check_limits("acme", [entry])
    assert notice.path == (0, "spec", "about") and "more than 10" in notice.message
    with pytest.raises(DialectError, match="acme: the tool description must not be empty"):
        tool_entry("acme", "read", "", SCHEMA)
    with pytest.raises(DialectError, match="strict mode is only modelled for openai-chat, openai-responses"):
        tool_entry("acme", "read", "Reads.", SCHEMA, strict=True)


def test_unknown_format_is_named() -> None:
    with pytest.raises(ValueError, match="unknown dialect 'nope'; expected one of anthropic, "):
        tool_entry("nope", "read", "Reads.", SCHEMA)


def test_no_format_is_recognised_by_its_name_prefix() -> None:
    # Per-format behaviour comes from the records, never from tests on the format's name.
    offenders = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in sorted((ROOT / "generator").rglob("*.py"))
        for n, line in enumerate(path.read_text("utf-8").splitlines(), 1)
        if re.search(r"""startswith\(["']openai""", line)
    ]
    assert offenders == []
