"""Write the validator's keyword and format tables for both runtimes, from the one list below.

Run ``.venv/bin/python tools/make_validation_tables.py`` and commit the two files it writes:
generator/runtime/validation_keywords.py and generator/ts_runtime/validation_keywords.ts.
tests/test_schema_suite.py checks that the committed files are what this script writes, and
reads the same table to decide which cases of the JSON Schema Test Suite must pass.

Each keyword has one status: ``enforced`` (checked), ``annotation`` (asserts nothing, by the
specification) or ``refused`` (a schema using it is refused with SchemaRefused, because toolgen
does not check it). A keyword of a dialect that is not in its row is unknown there: JSON
Schema dialects ignore unknown keywords, Gemini's Schema refuses them. Formats have the same
statuses; a format name that is not listed is an annotation.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY_OUT = ROOT / "generator" / "runtime" / "validation_keywords.py"
TS_OUT = ROOT / "generator" / "ts_runtime" / "validation_keywords.ts"

JSON = ("2020-12", "2019-09", "draft7")
MODERN = ("2020-12", "2019-09")
ALL = JSON + ("gemini",)

# (keyword, status, dialects, what toolgen does with it)
KEYWORDS: tuple[tuple[str, str, tuple[str, ...], str], ...] = (
    ("$schema", "enforced", JSON, "selects the dialect at a resource root; an unknown dialect is refused"),
    ("$id", "enforced", JSON, "sets the base URI of an embedded resource (draft 7: '#name' is an anchor)"),
    ("$ref", "enforced", JSON, "local pointers, $id URIs, anchors; remote only with a retrieve callback"),
    ("$defs", "enforced", JSON, "holds schemas for $ref"),
    ("definitions", "enforced", JSON, "holds schemas for $ref (draft 7's $defs)"),
    ("$anchor", "enforced", MODERN, "names a schema for $ref"),
    ("$dynamicRef", "enforced", ("2020-12",), "resolved in the dynamic scope"),
    ("$dynamicAnchor", "enforced", ("2020-12",), "names a schema for $ref and $dynamicRef"),
    ("$recursiveRef", "refused", ("2019-09",), "draft 2019-09's dynamic reference is not implemented"),
    ("$recursiveAnchor", "refused", ("2019-09",), "draft 2019-09's dynamic reference is not implemented"),
    ("$vocabulary", "annotation", MODERN, "read only in meta-schemas; custom meta-schemas are refused"),
    ("$comment", "annotation", JSON, "asserts nothing"),
    ("type", "enforced", ALL, "a type or a list of types; Gemini's UPPERCASE names"),
    ("nullable", "enforced", ALL, "OpenAPI's nullable: true adds null (Gemini: null passes the node)"),
    ("enum", "enforced", ALL, "JSON equality: 1 equals 1.0, true is not 1"),
    ("const", "enforced", JSON, "JSON equality: 1 equals 1.0, true is not 1"),
    ("multipleOf", "enforced", JSON, "exact decimal arithmetic"),
    ("maximum", "enforced", ALL, "exact comparison, draft 4's exclusiveMaximum flag too"),
    ("exclusiveMaximum", "enforced", JSON, "a number, or draft 4's flag beside maximum"),
    ("minimum", "enforced", ALL, "exact comparison, draft 4's exclusiveMinimum flag too"),
    ("exclusiveMinimum", "enforced", JSON, "a number, or draft 4's flag beside minimum"),
    ("maxLength", "enforced", ALL, "in code points"),
    ("minLength", "enforced", ALL, "in code points"),
    ("pattern", "enforced", ALL, "ECMA-262 (patterns.md); a pattern toolgen refuses is a refused place"),
    ("format", "enforced", ALL, "the formats below; others are annotations"),
    ("maxItems", "enforced", ALL, "a count (2.0 is 2)"),
    ("minItems", "enforced", ALL, "a count (2.0 is 2)"),
    ("uniqueItems", "enforced", JSON, "JSON equality"),
    ("items", "enforced", ALL, "one schema; the array form is draft 7's (with additionalItems)"),
    ("prefixItems", "enforced", ("2020-12",), "one schema per position"),
    ("additionalItems", "enforced", JSON, "after the array form of items (draft 7's, read in every dialect)"),
    ("contains", "enforced", JSON, "with minContains and maxContains"),
    ("maxContains", "enforced", MODERN, "a count"),
    ("minContains", "enforced", MODERN, "a count; 0 lets contains match nothing"),
    ("unevaluatedItems", "enforced", MODERN, "items no adjacent or nested keyword evaluated"),
    ("maxProperties", "enforced", ALL, "a count"),
    ("minProperties", "enforced", ALL, "a count"),
    ("required", "enforced", ALL, "names that must be present"),
    ("properties", "enforced", ALL, "Gemini (OpenAPI): objects are open, an undeclared property is allowed"),
    ("patternProperties", "enforced", JSON, "ECMA-262 patterns (ecma_regex)"),
    ("additionalProperties", "enforced", JSON, "false reports each unknown parameter"),
    ("unevaluatedProperties", "enforced", MODERN, "properties no adjacent or nested keyword evaluated"),
    ("propertyNames", "enforced", JSON, "a schema for each name"),
    ("dependentRequired", "enforced", MODERN, "names required when a property is present"),
    ("dependentSchemas", "enforced", MODERN, "a schema applied when a property is present"),
    ("dependencies", "enforced", JSON, "draft 7: a list of names or a schema per property"),
    ("allOf", "enforced", JSON, "every schema"),
    ("anyOf", "enforced", ALL, "at least one schema; problems summarise the branches"),
    ("oneOf", "enforced", JSON, "exactly one schema"),
    ("not", "enforced", JSON, "the schema must fail"),
    ("if", "enforced", JSON, "with then and else"),
    ("then", "enforced", JSON, "applies when if passes"),
    ("else", "enforced", JSON, "applies when if fails"),
    ("title", "annotation", ALL, "asserts nothing"),
    ("description", "annotation", ALL, "asserts nothing"),
    ("default", "annotation", ALL, "asserts nothing"),
    ("examples", "annotation", JSON, "asserts nothing"),
    ("example", "annotation", ("gemini",), "asserts nothing"),
    ("deprecated", "annotation", MODERN, "asserts nothing"),
    ("readOnly", "annotation", JSON, "asserts nothing"),
    ("writeOnly", "annotation", JSON, "asserts nothing"),
    ("contentEncoding", "annotation", JSON, "asserts nothing, by the specification"),
    ("contentMediaType", "annotation", JSON, "asserts nothing, by the specification"),
    ("contentSchema", "annotation", MODERN, "asserts nothing, by the specification"),
    ("propertyOrdering", "annotation", ("gemini",), "the order Gemini writes properties in"),
)

# (format, status, the JSON type it applies to, what toolgen checks)
FORMATS: tuple[tuple[str, str, str, str], ...] = (
    ("date-time", "enforced", "string", "RFC 3339 date-time, leap seconds at 23:59:60 UTC"),
    ("date", "enforced", "string", "RFC 3339 full-date, real days of the month"),
    ("time", "enforced", "string", "RFC 3339 full-time with an offset"),
    ("duration", "enforced", "string", "RFC 3339 appendix A (ISO 8601) duration"),
    ("email", "enforced", "string", "RFC 5321 mailbox: dot-atom or quoted local part, host or address literal"),
    ("hostname", "enforced", "string", "RFC 1123 host name (ASCII labels)"),
    ("ipv4", "enforced", "string", "dotted quad, no leading zeros"),
    ("ipv6", "enforced", "string", "RFC 4291 text form, no zone"),
    ("uuid", "enforced", "string", "RFC 4122 text form"),
    ("uri", "enforced", "string", "RFC 3986 URI (with a scheme)"),
    ("uri-reference", "enforced", "string", "RFC 3986 URI or relative reference"),
    ("json-pointer", "enforced", "string", "RFC 6901"),
    ("relative-json-pointer", "enforced", "string", "draft-handrews relative JSON pointer"),
    ("regex", "enforced", "string", "an ECMA-262 pattern toolgen can check (one it refuses is not valid here)"),
    ("int32", "enforced", "number", "an integer from -2**31 to 2**31-1 (OpenAPI, Gemini)"),
    ("int64", "enforced", "number", "an integer from -2**63 to 2**63-1 (OpenAPI, Gemini)"),
    ("float", "enforced", "number", "within the range of a 32-bit float (OpenAPI, Gemini)"),
    ("double", "enforced", "number", "a finite 64-bit float (OpenAPI, Gemini)"),
    ("enum", "enforced", "string", "Gemini: one of the node's enum values"),
    ("idn-email", "annotation", "string", "internationalised forms are not checked"),
    ("idn-hostname", "annotation", "string", "internationalised forms are not checked"),
    ("iri", "annotation", "string", "internationalised forms are not checked"),
    ("iri-reference", "annotation", "string", "internationalised forms are not checked"),
    ("uri-template", "annotation", "string", "not checked"),
)

_HEAD = "Written by tools/make_validation_tables.py from its one list; do not edit."


def _py_rows(rows: tuple[tuple[str, str, tuple[str, ...] | str, str], ...]) -> list[str]:
    lines = []
    for name, status, third, note in rows:
        third_text = (
            "(" + ", ".join(f'"{d}"' for d in third) + ("," if len(third) == 1 else "") + ")"
            if isinstance(third, tuple)
            else f'"{third}"'
        )
        lines += [
            "    (",
            f'        "{name}",',
            f'        "{status}",',
            f"        {third_text},",
            f'        "{note}",',
            "    ),",
        ]
    return lines


def python_module() -> str:
    lines = [
        '"""The keyword and format tables of the argument validator (validation.py).',
        "",
        _HEAD,
        "",
        "Each row: name, status (enforced, annotation or refused), the dialects that have the",
        "keyword (formats: the JSON type they apply to), and what toolgen does with it.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "KEYWORDS: tuple[tuple[str, str, tuple[str, ...], str], ...] = (",
        *_py_rows(KEYWORDS),
        ")",
        "",
        "FORMATS: tuple[tuple[str, str, str, str], ...] = (",
        *_py_rows(FORMATS),
        ")",
        "",
    ]
    return "\n".join(lines)


def _ts_rows(rows: tuple[tuple[str, str, tuple[str, ...] | str, str], ...]) -> list[str]:
    lines = []
    for name, status, third, note in rows:
        third_text = "[" + ", ".join(f'"{d}"' for d in third) + "]" if isinstance(third, tuple) else f'"{third}"'
        lines.append(f'  ["{name}", "{status}", {third_text}, "{note}"],')
    return lines


def ts_module() -> str:
    lines = [
        "/**",
        " * The keyword and format tables of the argument validator (validation.ts).",
        f" * {_HEAD}",
        " */",
        "",
        "export const KEYWORDS: readonly (readonly [string, string, readonly string[], string])[] = [",
        *_ts_rows(KEYWORDS),
        "];",
        "",
        "export const FORMATS: readonly (readonly [string, string, string, string])[] = [",
        *_ts_rows(FORMATS),
        "];",
        "",
    ]
    return "\n".join(lines)


def outputs() -> dict[Path, str]:
    """What the script writes, by path."""
    return {PY_OUT: python_module(), TS_OUT: ts_module()}


def main() -> None:
    for path, text in outputs().items():
        path.write_text(text, "utf-8")
        print(f"wrote {path.relative_to(ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
