"""Write what depends on the format records, from their one source: generator/runtime/formats.py.

Run ``.venv/bin/python tools/make_format_tables.py`` after changing a record and commit what it
writes:

- generator/ts_runtime/formats.ts: the records, policies, keyword actions and slots as TypeScript
  data (the types and the few functions over them are hand-written in format_record.ts);
- generator/schemas/project.schema.json: the two enums of format names (``formats`` and
  ``definitions/format``).

tests/test_format_tables.py checks that the committed files are what this script writes. The
CLI's ``--format`` help reads the record names itself (generator/show.py).
"""

from __future__ import annotations

import dataclasses
import json
import re
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator.lower.ts_values import string  # noqa: E402
from generator.runtime import formats  # noqa: E402

TS_OUT = ROOT / "generator" / "ts_runtime" / "formats.ts"
SCHEMA_OUT = ROOT / "generator" / "schemas" / "project.schema.json"
_HEAD = "Written by tools/make_format_tables.py from generator/runtime/formats.py; do not edit."
_WIDTH = 110


def camel(name: str) -> str:
    """``property_key_everywhere`` -> ``propertyKeyEverywhere`` (the TS field names)."""
    first, *rest = name.split("_")
    return first + "".join(part.title() for part in rest)


def _named(kind: type) -> dict[int, str]:
    """The module-level names of formats.py's values of ``kind``, by identity."""
    return {id(value): name for name, value in vars(formats).items() if isinstance(value, kind) and name.isupper()}


_SLOTS = _named(formats.Slot)
_POLICIES = _named(formats.SchemaPolicy)


def literal(value: Any, indent: str = "") -> str:
    """``value`` as a TypeScript expression of the types in format_record.ts."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return string(value)
    if isinstance(value, re.Pattern):
        return f"pattern({string(value.pattern)})"
    if isinstance(value, formats.Slot):
        return _SLOTS[id(value)]
    if isinstance(value, formats.SchemaPolicy) and id(value) in _POLICIES:
        return _POLICIES[id(value)]
    if isinstance(value, formats.Items):
        return f"new Items({literal(value.layout, indent)})"
    if dataclasses.is_dataclass(value):
        pairs = [(camel(f.name), getattr(value, f.name)) for f in dataclasses.fields(value)]
        return _block("{", [f"{key}: {literal(item, indent + '  ')}" for key, item in pairs], "}", indent)
    if isinstance(value, Mapping):
        rows = [f"[{string(key)}, {literal(item, indent + '  ')}]" for key, item in value.items()]
        return "new Map(" + _block("[", rows, "]", indent) + ")"
    if isinstance(value, tuple):
        return _block("[", [literal(item, indent + "  ") for item in value], "]", indent)
    raise TypeError(f"no TypeScript form for {type(value).__name__}: {value!r}")


def _block(opening: str, items: list[str], closing: str, indent: str) -> str:
    """Items on one line when they fit and hold no line break, else one a line."""
    flat = opening + ", ".join(items) + closing
    if len(indent) + len(flat) <= _WIDTH and "\n" not in flat:
        return flat if opening == "[" or not items else "{ " + ", ".join(items) + " }"
    inner = indent + "  "
    return opening + "\n" + "".join(f"{inner}{item},\n" for item in items) + indent + closing


def _changed(value: Any, defaults: Any) -> dict[str, Any]:
    """The fields of a dataclass ``value`` that differ from ``defaults`` (camelCase names)."""
    return {
        camel(f.name): getattr(value, f.name)
        for f in dataclasses.fields(value)
        if getattr(value, f.name) != getattr(defaults, f.name)
    }


def _object(fields: dict[str, Any], spread: str | None = None) -> str:
    """An object literal of ``fields`` (camelCase names), after ``...spread`` when given."""
    rows = [f"...{spread}"] if spread else []
    rows += [f"{key}: {literal(value, '  ')}" for key, value in fields.items()]
    return _block("{", rows, "}", "")


def _defaults(cls: Any, required: tuple[str, ...], given: Any) -> tuple[Any, dict[str, Any]]:
    """An instance of ``cls`` holding its defaults (``given`` fills the required fields), and
    those defaults by camelCase name."""
    instance = cls(**{name: getattr(given, name) for name in required})
    fields = {camel(f.name): getattr(instance, f.name) for f in dataclasses.fields(cls) if f.name not in required}
    return instance, fields


def _by_declaration(names: dict[int, str]) -> list[str]:
    order = list(vars(formats))
    return sorted(names.values(), key=order.index)


_POLICY_REQUIRED = ("hooks", "keywords", "default")
_RECORD_REQUIRED = ("name", "module", "envelope", "schema")


def ts_module() -> str:
    first = next(iter(formats.FORMATS.values()))
    policy_defaults, policy_fields = _defaults(formats.SchemaPolicy, _POLICY_REQUIRED, first.schema)
    record_defaults, record_fields = _defaults(formats.FormatRecord, _RECORD_REQUIRED, first)
    lines = [
        "/**",
        " * One declarative record per native tool-calling format (provider API), as TypeScript data.",
        f" * {_HEAD}",
        " * The types and the functions over them are in format_record.ts.",
        " */",
        "",
        'import { Items, Slot, pathTo, pattern, type FormatRecord, type SchemaPolicy } from "./format_record.js";',
        'import { PyError, pyRepr } from "./pyspell.js";',
        "",
        'export * from "./format_record.js";',
        "",
        "// ---- keyword actions ------------------------------------------------------------------------",
        "",
    ]
    for name in ("KEEP", "DESCRIBE", "REFUSE", "CUSTOM", "RENAME", "NAME_SAFE_CHARS"):
        lines.append(f"export const {name} = {literal(getattr(formats, name))};")
    lines += [
        "",
        "/** Keywords no description text can stand in for (they shape which values validate). */",
        f"export const LOGIC_KEYWORDS: readonly string[] = {literal(formats.LOGIC_KEYWORDS)};",
        "",
        "// ---- slots of the layouts -------------------------------------------------------------------",
        "",
    ]
    for name in _by_declaration(_SLOTS):
        lines.append(f"export const {name} = new Slot({string(vars(formats)[name].name)});")
    lines += [
        "",
        "// ---- the policies ---------------------------------------------------------------------------",
        "",
        f'const POLICY_DEFAULTS: Omit<SchemaPolicy, "hooks" | "keywords" | "default"> = {_object(policy_fields)};',
        "",
    ]
    for name in _by_declaration(_POLICIES):
        policy = vars(formats)[name]
        fields = {key: getattr(policy, key) for key in _POLICY_REQUIRED}
        fields.update(_changed(policy, policy_defaults))
        lines.append(f"export const {name}: SchemaPolicy = {_object(fields, 'POLICY_DEFAULTS')};")
    lines += [
        "",
        "// ---- the records, in declared order ---------------------------------------------------------",
        "",
        f'const RECORD_DEFAULTS: Omit<FormatRecord, "name" | "module" | "envelope" | "schema"> = '
        f"{_object(record_fields)};",
        "",
        "const RECORDS: readonly FormatRecord[] = [",
    ]
    for rec in formats.FORMATS.values():
        fields = {key: getattr(rec, key) for key in _RECORD_REQUIRED}
        fields.update(_changed(rec, record_defaults))
        rows = ["...RECORD_DEFAULTS"] + [f"{key}: {literal(value, '    ')}" for key, value in fields.items()]
        lines.append("  " + _block("{", rows, "}", "  ") + ",")
    lines += [
        "];",
        "",
        "/** Every format by name, in declared order. */",
        "export const FORMATS: ReadonlyMap<string, FormatRecord> = new Map(RECORDS.map((r) => [r.name, r]));",
        "",
        "/** Where a format's entry keeps the tool description. */",
        "export function descriptionPath(rec: FormatRecord): string[] {",
        "  return pathTo(rec, DESCRIPTION);",
        "}",
        "",
        "/** Where a format's entry keeps the parameter properties. */",
        "export function propertiesPath(rec: FormatRecord): string[] {",
        '  return [...pathTo(rec, PARAMETERS), "properties"];',
        "}",
        "",
        "/** The record of format `name`; an Error naming the known formats otherwise. */",
        "export function record(name: unknown): FormatRecord {",
        '  const rec = typeof name === "string" ? FORMATS.get(name) : undefined;',
        "  if (rec === undefined) {",
        "    throw new PyError(",
        '      "ValueError",',
        '      `unknown dialect ${pyRepr(name)}; expected one of ${[...FORMATS.keys()].join(", ")}`,',
        "    );",
        "  }",
        "  return rec;",
        "}",
        "",
    ]
    return "\n".join(lines)


def project_schema(text: str) -> str:
    """project.schema.json with both enums of format names set to the records' names, in order."""
    schema = json.loads(text)
    names = list(formats.FORMATS)
    schema["properties"]["formats"]["items"]["enum"] = names
    schema["definitions"]["format"]["enum"] = names
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def outputs() -> dict[Path, str]:
    """What the script writes, by path."""
    return {TS_OUT: ts_module(), SCHEMA_OUT: project_schema(SCHEMA_OUT.read_text("utf-8"))}


def main() -> None:
    for path, text in outputs().items():
        path.write_text(text, "utf-8")
        print(f"wrote {path.relative_to(ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
