"""The JSON Schema Test Suite through both validators, and docs/validation.md from the results.

``python tests/schema_suite.py`` runs every case of tests/data/json-schema-test-suite through the
Python validator and (one node process, tests/ts_scripts/schema_suite.ts) the TypeScript one, and
rewrites docs/validation.md; tests/test_schema_suite.py checks the verdicts and that the committed
page is what this writes.

Which cases must pass is decided by the keyword table (generator/runtime/validation_keywords.py,
written by tools/make_validation_tables.py): a group of cases whose schema uses only enforced
(or unknown, hence ignored) keywords must match the suite in every case; a group using an
annotation keyword must accept every value the suite accepts (the suite may expect an assertion
toolgen does not make); a group using a refused keyword must be refused with SchemaRefused.
``DEVIATIONS`` lists the few groups where toolgen differs from the suite by design, with why.
Remote documents are served from the suite's remotes/ and from the meta-schemas that the
installed jsonschema-specifications package ships: never from the network.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from generator.runtime.schema_index import dialect_of  # noqa: E402
from generator.runtime.validation import SchemaRefused, compile_schema  # noqa: E402
from generator.runtime.validation_keywords import FORMATS, KEYWORDS  # noqa: E402

SUITE = ROOT / "tests" / "data" / "json-schema-test-suite"
DOC = ROOT / "docs" / "validation.md"

#: Groups where toolgen differs from the suite on purpose: (file, group description or None for
#: the whole file) -> why. Their cases are run and counted, not required.
DEVIATIONS: dict[tuple[str, str | None], str] = {
    ("draft2020-12/format.json", None): "toolgen asserts the formats it knows in every dialect "
    "(the format-assertion vocabulary); the suite's default is annotation only",
    ("draft2020-12/optional/format/hostname.json", "validation of A-label (punycode) host names"): "A-labels "
    "(xn--) are checked as ASCII labels; IDNA2008's code point rules are not checked",
    ("draft7/optional/format/hostname.json", "validation of A-label (punycode) host names"): "A-labels "
    "(xn--) are checked as ASCII labels; IDNA2008's code point rules are not checked",
    ("draft2020-12/optional/format/ecmascript-regex.json", "ECMA 262 lookbehind is valid, including variable "
     "width"): "`format: regex` accepts the patterns toolgen can check ([patterns.md](patterns.md)): a valid "
    "pattern it refuses, such as the variable-width lookbehind `(?<=a+)b`, is reported as not valid",
    ("draft7/optional/format/ecmascript-regex.json", "ECMA 262 lookbehind is valid, including variable "
     "width"): "as in draft 2020-12",
}

_ONE = ("additionalProperties", "unevaluatedProperties", "unevaluatedItems", "additionalItems")
_ONE += ("propertyNames", "contains", "items", "not", "if", "then", "else")
_MANY = ("allOf", "anyOf", "oneOf", "prefixItems", "items")
_MAP = ("properties", "patternProperties", "dependentSchemas", "$defs", "definitions", "dependencies")


@dataclass(frozen=True)
class Group:
    file: str  # relative to the suite's tests/
    description: str
    schema: Any
    tests: tuple[dict[str, Any], ...]
    dialect: str
    keywords: frozenset[str]


def schema_keywords(schema: Any) -> frozenset[str]:
    """The keywords a schema uses at schema places; ``format:<name>`` and ``$schema:custom`` too."""
    found: set[str] = set()
    stack = [schema]
    while stack:
        node = stack.pop()
        if not isinstance(node, dict):
            continue
        for key, value in node.items():
            found.add(key)
            if key == "format" and isinstance(value, str):
                found.add(f"format:{value}")
            if key == "$schema" and isinstance(value, str) and dialect_of(value) is None:
                found.add("$schema:custom")
            if key in _MAP and isinstance(value, dict):
                stack.extend(value.values())
            elif key in _MANY and isinstance(value, list):
                stack.extend(value)
            elif key in _ONE:
                stack.append(value)
    return frozenset(found)


def groups() -> Iterator[Group]:
    for path in sorted(SUITE.glob("tests/**/*.json")):
        rel = path.relative_to(SUITE / "tests").as_posix()
        dialect = "draft7" if rel.startswith("draft7/") else "2020-12"
        for group in json.loads(path.read_text("utf-8")):
            yield Group(
                rel,
                group["description"],
                group["schema"],
                tuple(group["tests"]),
                dialect,
                schema_keywords(group["schema"]),
            )


@cache
def remote_texts() -> dict[str, str]:
    """The documents ``$ref`` may fetch, by URI, as JSON text."""
    import jsonschema_specifications

    texts = {}
    for path in sorted((SUITE / "remotes").rglob("*.json")):
        texts["http://localhost:1234/" + path.relative_to(SUITE / "remotes").as_posix()] = path.read_text("utf-8")
    for uri, resource in jsonschema_specifications.REGISTRY.items():
        texts[uri.rstrip("#")] = json.dumps(resource.contents)
    return texts


def retrieve(uri: str) -> Any:
    return json.loads(remote_texts()[uri])


def status(group: Group) -> str:
    """``refused``, ``annotation`` or ``enforced`` (which the group's cases must then honour)."""
    table = {name: s for name, s, dialects, _ in KEYWORDS if group.dialect in dialects}
    formats = {name: s for name, s, _, _ in FORMATS}
    found = set()
    for key in group.keywords:
        if key == "$schema:custom":
            found.add("refused")
        elif key.startswith("format:"):
            found.add(formats.get(key[7:], "annotation"))
        else:
            found.add(table.get(key, "enforced"))  # an unknown keyword is ignored: nothing to miss
    for level in ("refused", "annotation"):
        if level in found:
            return level
    return "enforced"


def deviation(group: Group) -> str | None:
    return DEVIATIONS.get((group.file, group.description)) or DEVIATIONS.get((group.file, None))


Verdict = dict[str, Any]
"""Per group: ``refused`` (the SchemaRefused text or None) and ``cases`` (True/False per case)."""


def python_verdicts() -> list[Verdict]:
    out: list[Verdict] = []
    for group in groups():
        try:
            check = compile_schema(group.schema, dialect=group.dialect, retrieve=retrieve)
        except SchemaRefused as exc:
            out.append({"refused": str(exc), "cases": []})
            continue
        cases: list[Any] = []
        for case in group.tests:
            problems: list[str] = []
            check(case["data"], "", problems, False)
            cases.append(not problems)
        out.append({"refused": None, "cases": cases})
    return out


def typescript_verdicts() -> list[Verdict]:
    import ts_bridge

    files = list({g.file: g.dialect for g in groups()}.items())
    inputs = []
    for rel, dialect in files:
        text = (SUITE / "tests" / rel).read_text("utf-8")
        needs = any(k in text for k in ('"$ref"', '"$dynamicRef"', '"$schema"'))
        inputs.append({"text": text, "dialect": dialect, "remotes": remote_texts() if needs else {}})
    results = ts_bridge.values("schema_suite", inputs)
    out: list[Verdict] = []
    for (rel, _), result in zip(files, results, strict=True):
        assert not isinstance(result, dict), f"{rel}: {result}"
        out.extend(result)
    return out


def failures(verdicts: list[Verdict]) -> list[str]:
    """Every case the keyword table says must pass and does not, described."""
    found: list[str] = []
    for group, verdict in zip(groups(), verdicts, strict=True):
        level = status(group)
        where = f"{group.file} / {group.description}"
        if deviation(group) is not None:
            continue
        if level == "refused":
            if verdict["refused"] is None:
                found.append(f"{where}: uses a refused keyword but was not refused")
            continue
        if verdict["refused"] is not None:
            found.append(f"{where}: refused ({verdict['refused'][:300]})")
            continue
        for case, got in zip(group.tests, verdict["cases"], strict=True):
            if got is not True and got is not False:
                found.append(f"{where} / {case['description']}: {got}")
            elif got != case["valid"] and (level == "enforced" or case["valid"]):
                found.append(f"{where} / {case['description']}: expected valid={case['valid']}")
    return found


# ---- docs/validation.md ----------------------------------------------------------------------


def _counts(verdicts: list[Verdict], key: str) -> tuple[int, int, int]:
    """(passed, refused, total) over the cases whose schema uses ``key``."""
    passed = refused = total = 0
    for group, verdict in zip(groups(), verdicts, strict=True):
        if key not in group.keywords and key != "*":
            continue
        total += len(group.tests)
        if verdict["refused"] is not None:
            refused += len(group.tests)
            continue
        passed += sum(got is case["valid"] for case, got in zip(group.tests, verdict["cases"], strict=True))
    return passed, refused, total


def _cell(counts: tuple[int, int, int]) -> str:
    passed, refused, total = counts
    if total == 0:
        return "-"
    return f"{passed}/{total}" + (f" ({refused} refused)" if refused else "")


def render(py: list[Verdict], ts: list[Verdict]) -> str:
    lines = [
        "# Argument validation: keywords, formats and the JSON Schema Test Suite",
        "",
        "<!-- Written by `python tests/schema_suite.py`; tests/test_schema_suite.py fails when it is stale. -->",
        "",
        "`Offer.execute` checks a call's arguments against the schema that was sent before the handler runs",
        "(`_runtime/validation.py`, mirrored by `_runtime/validation.ts`; see",
        "[providers.md](providers.md#validation-and-permission)). Each keyword below is **enforced**,",
        "an **annotation** (asserts nothing, as the specification says) or **refused**: a schema using a",
        "refused keyword, a malformed keyword value, a pattern that is not ECMA-262, a `$ref` to another",
        "document without a `retrieve` callback or an unknown `$schema` raises `SchemaRefused`, which lists",
        "every refused place (`schema_refusals(schema)` returns the same list without raising). Keywords",
        "that are not listed for a dialect are ignored there (JSON Schema) or refused (Gemini).",
        "",
        "The counts are the cases of the official JSON Schema Test Suite",
        "(tests/data/json-schema-test-suite: draft 2020-12 and draft 7, with `optional/`) whose schema",
        "uses the keyword, and how many of them each runtime decides as the suite does.",
        "",
        f"Python {_cell(_counts(py, '*'))}, TypeScript {_cell(_counts(ts, '*'))} cases in all.",
        "",
        "| keyword | status | dialects | what toolgen does | Python | TypeScript |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for name, state, dialects, note in KEYWORDS:
        counts = (_cell(_counts(py, name)), _cell(_counts(ts, name)))
        lines.append(f"| `{name}` | {state} | {', '.join(dialects)} | {note} | {counts[0]} | {counts[1]} |")
    lines += [
        "",
        "## Formats",
        "",
        "`format` is asserted for the formats marked enforced, in every dialect; other format names are",
        "annotations.",
        "",
        "| format | status | applies to | what toolgen checks | Python | TypeScript |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for name, state, kind, note in FORMATS:
        key = f"format:{name}"
        counts = (_cell(_counts(py, key)), _cell(_counts(ts, key)))
        lines.append(f"| `{name}` | {state} | {kind} | {note} | {counts[0]} | {counts[1]} |")
    lines += ["", "## Where toolgen differs from the suite on purpose", ""]
    for (file, group), reason in DEVIATIONS.items():
        lines.append(f"- `{file}`{f' ({group})' if group else ''}: {reason}.")
    lines.append(
        "- Cases of annotation keywords (and formats) that the suite expects to fail pass here: "
        "toolgen does not assert them."
    )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "tests"))
    DOC.write_text(render(python_verdicts(), typescript_verdicts()), "utf-8")
    print(f"wrote {DOC.relative_to(ROOT)}")
