"""What depends on the format records is written from them (tools/make_format_tables.py), not by hand."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import re
from pathlib import Path
from typing import Any

import pytest

from generator.runtime import formats

ROOT = Path(__file__).resolve().parent.parent


def _script() -> Any:
    spec = importlib.util.spec_from_file_location("make_format_tables", ROOT / "tools" / "make_format_tables.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_committed_files_are_what_the_script_writes() -> None:
    for path, text in _script().outputs().items():
        assert path.read_text("utf-8") == text, f"{path.name} is stale: run tools/make_format_tables.py"


def test_project_schema_lists_the_records() -> None:
    schema = json.loads((ROOT / "generator" / "schemas" / "project.schema.json").read_text("utf-8"))
    assert schema["properties"]["formats"]["items"]["enum"] == list(formats.FORMATS)
    assert schema["definitions"]["format"]["enum"] == list(formats.FORMATS)


def test_every_record_field_is_written_for_typescript() -> None:
    """A field added to a record reaches the TS records under its camelCase name (tsc then asks
    for it in format_record.ts), and a value of a new kind is refused rather than written wrong."""
    script = _script()
    text = script.ts_module()
    for cls in (formats.FormatRecord, formats.SchemaPolicy, formats.CallFields, formats.CutOff):
        types = (ROOT / "generator" / "ts_runtime" / "format_record.ts").read_text("utf-8")
        body = re.search(rf"export interface {cls.__name__} \{{(.*?)\n\}}", types, re.S)
        assert body is not None, cls.__name__
        for field in dataclasses.fields(cls):
            assert f"readonly {script.camel(field.name)}" in body.group(1), (cls.__name__, field.name)
    for rec in formats.FORMATS.values():
        assert f'name: "{rec.name}"' in text
    with pytest.raises(TypeError, match="no TypeScript form"):
        script.literal(object())


def test_a_sixth_format_is_one_record(monkeypatch: pytest.MonkeyPatch) -> None:
    """A new record (here a copy of anthropic's under another name) appears in every output."""
    script = _script()
    extra = dataclasses.replace(formats.FORMATS["anthropic"], name="acme", module="acme")
    monkeypatch.setitem(formats.FORMATS, "acme", extra)
    assert 'name: "acme"' in script.ts_module()
    schema = json.loads(script.project_schema(script.SCHEMA_OUT.read_text("utf-8")))
    assert schema["definitions"]["format"]["enum"][-1] == "acme"
