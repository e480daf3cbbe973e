"""A catalog shaped like users' data (tests/data/orders/specs), through every format and the text path.

The specs use an enum (``status: [open, shipped, cancelled]``), a nested object with a required
member (``reporter.email``), a type list (``note: [string, null]``, ``severity``), anyOf and oneOf
(``target``, ``contact``), allOf (``window``), const (``kind``), an array of objects (``lines``),
patterns, numbers with bounds and a multiple, unique items, and a strict tool (``close_order``).
Each case is checked by the Python Offer in every format and on the text path (the TypeScript Offer
answers alike: the conformance corpus holds these Offers, tests/conformance/cases_suites.py); the
generated args types are checked by mypy --strict (tsc --strict compiles the TS package in
tests/ts_bridge.py).
"""

from __future__ import annotations

import importlib
import json
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, Literal, get_type_hints

import pytest

import ts_bridge
from conftest import ROOT, import_package

ORDERS = ROOT / "tests" / "data" / "orders" / "specs"
FORMATS = ("anthropic", "openai-chat", "openai-responses", "gemini", "bedrock-converse")
NATIVE = {"provider_id": "openai", "model_id": "m", "enable_native_tool_calls": True}
CLOSED = ("openai-chat", "openai-responses")
REPORTER = {"email": "ana@example.com"}
LINES = [{"sku": "AB-100", "qty": 2}]


@pytest.fixture(scope="module")
def orders_out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from generator import pipeline, write

    result = pipeline.run(ORDERS)
    assert not result.diagnostics.has_errors, result.diagnostics.render()
    out = tmp_path_factory.mktemp("orders") / "generated"
    write.write(out, result.files, write.plan(out, result.files))
    return out


@pytest.fixture(scope="module")
def orders(orders_out: Path) -> ModuleType:
    return import_package(orders_out)


def as_text(params: dict[str, Any]) -> dict[str, str]:
    """The arguments as the XML reader gives them: every value a string (JSON for the others)."""
    return {k: v if isinstance(v, str) else json.dumps(v) for k, v in params.items()}


# (name, tool, arguments, problem expected or None, typed arguments expected for a good call)
CASES: list[tuple[str, str, dict[str, Any], str | None, dict[str, Any] | None]] = [
    (
        "good update",
        "update_order",
        {"order_id": 7, "status": "shipped", "reporter": REPORTER, "quantity": 2.5, "tags": ["gift"]},
        None,
        {"order_id": 7, "status": "shipped", "reporter": REPORTER, "quantity": 2.5, "tags": ["gift"]},
    ),
    (
        "status lost",
        "update_order",
        {"order_id": 7, "status": "lost", "reporter": REPORTER},
        "status: must be one of",
        None,
    ),
    (
        "reporter without email",
        "update_order",
        {"order_id": 7, "status": "open", "reporter": {"name": "Ana"}},
        "reporter.email: required, but missing",
        None,
    ),
    (
        "reporter email pattern",
        "update_order",
        {"order_id": 7, "status": "open", "reporter": {"email": "no at sign"}},
        "reporter.email: must match the pattern",
        None,
    ),
    (
        "order id bound",
        "update_order",
        {"order_id": 0, "status": "open", "reporter": REPORTER},
        "order_id: must be at least 1",
        None,
    ),
    (
        "good ticket",
        "file_ticket",
        {
            "kind": "ticket",
            "target": "OPS-12",
            "lines": LINES,
            "contact": {"phone": "+33 1 23 45"},
            "window": {"from_day": 3},
        },
        None,
        {
            "kind": "ticket",
            "target": "OPS-12",
            "lines": LINES,
            "contact": {"phone": "+33 1 23 45"},
            "window": {"from_day": 3},
        },
    ),
    ("const", "file_ticket", {"kind": "bug", "target": "OPS-12", "lines": LINES}, "kind: must be", None),
    (
        "anyOf",
        "file_ticket",
        {"kind": "ticket", "target": "ops12", "lines": LINES},
        # the problem summarises each branch: 1) expected integer ...; 2) must match the pattern ...
        'target: must match at least one of these schemas (got "ops12"): 1) expected integer',
        None,
    ),
    (
        "array of objects",
        "file_ticket",
        {"kind": "ticket", "target": "OPS-1", "lines": [{"sku": "AB-100"}]},
        "lines[0].qty: required, but missing",
        None,
    ),
    (
        "oneOf",
        "file_ticket",
        {"kind": "ticket", "target": "OPS-1", "lines": LINES, "contact": {"email": "a@b.c", "phone": "123456"}},
        "contact: must match exactly one",
        None,
    ),
    (
        "allOf",
        "file_ticket",
        {"kind": "ticket", "target": "OPS-1", "lines": LINES, "window": {"to_day": 4}},
        "window.from_day: required, but missing",
        None,
    ),
]


#: Cases whose sent schema accepts the call on one format, and why (the call is checked as sent).
ACCEPTED_AS_SENT = {
    ("oneOf", "gemini"): "Gemini sends oneOf as anyOf and cannot close an object: both branches match",
}


def answers(orders: ModuleType, fmt: str | None, tool: str, params: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    offer = orders.Offer("text" if fmt is None else "native", {"model_id": "m"} if fmt is None else NATIVE, format=fmt)
    typed, problems = offer.check(orders.ToolUse(tool, params, id="c"))
    return typed, problems


@pytest.mark.parametrize("fmt", [*FORMATS, None])
@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_every_format_and_the_text_path(orders: ModuleType, fmt: str | None, case: tuple[Any, ...]) -> None:
    name, tool, params, problem, typed_expected = case
    typed, problems = answers(orders, fmt, tool, as_text(params) if fmt is None else params)
    if (name, fmt) in ACCEPTED_AS_SENT:
        assert problems == []
    elif problem is None:
        assert problems == []
        assert typed == typed_expected  # typed values, on the text path too (JSON text decoded)
    else:
        assert any(p.startswith(problem) for p in problems), problems


@pytest.mark.parametrize("fmt", [*FORMATS, None])
def test_unknown_parameters_are_refused_on_openai_only(orders: ModuleType, fmt: str | None) -> None:
    params = {"order_id": 7, "status": "open", "reporter": REPORTER, "colour": "red"}
    _, problems = answers(orders, fmt, "update_order", as_text(params) if fmt is None else params)
    assert (problems == ["colour: unknown parameter"]) == (fmt in CLOSED)
    assert (problems == []) == (fmt not in CLOSED)


@pytest.mark.parametrize("fmt", [*FORMATS, None])
def test_nested_closed_objects_refuse_unknown_members_everywhere_they_are_sent_closed(
    orders: ModuleType, fmt: str | None
) -> None:
    """``reporter`` says additionalProperties: false itself; Gemini's subset cannot say it."""
    params = {"order_id": 7, "status": "open", "reporter": {**REPORTER, "x": 1}}
    _, problems = answers(orders, fmt, "update_order", as_text(params) if fmt is None else params)
    assert (problems == ["reporter.x: unknown parameter"]) == (fmt != "gemini")


@pytest.mark.parametrize("fmt", CLOSED)
def test_strict_nulls_for_optional_parameters_are_removed(orders: ModuleType, fmt: str) -> None:
    sent = orders.Offer("native", NATIVE, format=fmt).tools()
    strict = next(t for t in sent if "close_order" in json.dumps(t))
    assert json.dumps(strict).count('"strict": true') == 1
    typed, problems = answers(orders, fmt, "close_order", {"order_id": 3, "reason": None, "comment": None})
    assert (typed, problems) == ({"order_id": 3}, [])
    _, problems = answers(orders, fmt, "close_order", {"order_id": 3})
    assert problems == ["reason: required, but missing", "comment: required, but missing"]  # as sent


def test_args_types(orders: ModuleType) -> None:
    args = importlib.import_module(f"{orders.__name__}.args")
    update = get_type_hints(args.UpdateOrderArgs)
    ticket = get_type_hints(args.FileTicketArgs)
    assert update["status"] == Literal["open", "shipped", "cancelled"]
    assert update["reporter"] is args.UpdateOrderReporter
    assert args.UpdateOrderReporter.__required_keys__ == frozenset({"email"})
    assert update["note"] == str | None
    assert ticket["kind"] == Literal["ticket"]
    assert ticket["target"] == int | str
    assert ticket["contact"] == args.FileTicketContact | args.FileTicketContact2
    assert args.FileTicketWindow.__required_keys__ == frozenset({"from_day"})


MYPY_GOOD = """\
from generated.args import FileTicketArgs, UpdateOrderArgs

def handle(args: UpdateOrderArgs, ticket: FileTicketArgs) -> str:
    email: str = args["reporter"]["email"]
    status: str = args["status"]
    target: int | str = ticket["target"]
    return f"{email} {status} {target} {ticket['lines'][0]['qty'] + 1}"

good: UpdateOrderArgs = {"order_id": 1, "status": "open", "reporter": {"email": "a@b.c"}}
"""
MYPY_BAD = """\
from generated.args import UpdateOrderArgs

lost: UpdateOrderArgs = {"order_id": 1, "status": "lost", "reporter": {"email": "a@b.c"}}
no_email: UpdateOrderArgs = {"order_id": 1, "status": "open", "reporter": {"name": "x"}}
"""


def test_generated_python_types_pass_mypy_strict_and_catch_misuse(orders_out: Path, tmp_path: Path) -> None:
    shutil.copytree(orders_out, tmp_path / "generated", ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "good.py").write_text(MYPY_GOOD)
    (tmp_path / "bad.py").write_text(MYPY_BAD)
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "good.py", "bad.py", "generated"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    errors = [line for line in run.stdout.splitlines() if ": error:" in line]
    assert all(line.startswith("bad.py:") for line in errors), run.stdout
    assert any(line.startswith("bad.py:3:") for line in errors), run.stdout  # "lost" is not a status
    assert any(line.startswith("bad.py:4:") for line in errors), run.stdout  # reporter needs email


def test_what_a_format_does_not_send_is_reported_where_it_was_written(capsys: pytest.CaptureFixture[str]) -> None:
    from conftest import run_cli

    code, _, err = run_cli(capsys, "validate", "--specs", ORDERS)
    assert code == 0, err
    lines = [line for line in err.splitlines() if "warning[W50" in line]
    assert any(
        ":40:9: warning[W502]: parameter 'quantity' of native/update_order: 'multipleOf' at quantity/multipleOf "
        "is not sent to gemini " in line
        for line in lines
    ), err
    assert any("warning[W502]: parameter 'tags'" in line and "'uniqueItems'" in line for line in lines), err
    # Gemini's objects go out open: a closed nested object is not closed there, and that is said
    assert any(
        ":20:9: warning[W502]: parameter 'reporter' of native/update_order: 'additionalProperties' at "
        "reporter/additionalProperties is not sent to gemini (the format cannot say it)" in line
        for line in lines
    ), err
    assert any(
        "warning[W503]: native/file_ticket on gemini: contact/oneOf: oneOf emitted as anyOf" in line for line in lines
    )
    assert not any("text/" in line for line in lines)  # the text family sends no native schema


def test_a_map_is_a_located_refusal_on_gemini_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from conftest import copy_specs, edit, run_cli

    specs = copy_specs(ORDERS, tmp_path)
    edit(
        specs / "tools" / "close_order.yaml",
        "      - name: comment\n        type: string\n",
        "      - name: comment\n        type: object\n        additionalProperties: {type: string}\n",
    )
    code, _, err = run_cli(capsys, "validate", "--specs", specs)
    errors = [line for line in err.splitlines() if ": error[" in line]
    assert code == 2 and errors, err
    assert all("[E500]" in line for line in errors), err
    assert any("for gemini: gemini: free-form maps" in line for line in errors), err
    assert any("openai-chat" in line and "strict" in line for line in errors), err  # strict cannot say it either


def test_the_text_prompt_shows_what_a_schema_says_beyond_its_type(orders: ModuleType) -> None:
    section = orders.Offer("text", {"model_id": "m"}).prompt_section()
    assert (
        '- status: (required) The new status. (JSON Schema: {"type":"string","enum":["open","shipped","cancelled"]})'
        in section
    )
    assert '- target: (required) The order number, or a ticket key such as OPS-12. (JSON Schema: {"anyOf":[' in section
    assert "- comment: (optional) Anything else to keep.\n" in section  # a plain string: no note


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_entry_passes_the_providers_own_types(orders: ModuleType, fmt: str) -> None:
    from sdk_validators import check_json_schema, validate_tool

    for entry in orders.Offer("native", NATIVE, format=fmt).tools():
        validate_tool(fmt, entry)
        schema, dialect = importlib.import_module(f"{orders.__name__}._runtime.sent_schema").sent_parameters(fmt, entry)
        if dialect == "json":
            check_json_schema(schema)


TS_GOOD = """\
import type { FileTicketArgs, UpdateOrderArgs } from "../../../generated-ts/args.js";

export function handle(args: UpdateOrderArgs, ticket: FileTicketArgs): string {
  const email: string = args.reporter.email;
  const target: number | string = ticket.target;
  return `${email} ${args.status} ${target} ${ticket.lines[0]!.qty + 1}`;
}

export const good: UpdateOrderArgs = { order_id: 1, status: "open", reporter: { email: "a@b.c" } };
"""
TS_BAD = """\
import type { UpdateOrderArgs } from "../../../generated-ts/args.js";

export const lost: UpdateOrderArgs = { order_id: 1, status: "lost", reporter: { email: "a@b.c" } };
export const noEmail: UpdateOrderArgs = { order_id: 1, status: "open", reporter: { name: "x" } };
"""


def test_generated_typescript_types_pass_tsc_strict_and_catch_misuse() -> None:
    from test_ts_handlers import typecheck

    found = typecheck(ts_bridge.render_package(ORDERS), {"good.ts": TS_GOOD, "bad.ts": TS_BAD})
    assert set(found) == {"bad.ts"}, found
    assert "3," in found["bad.ts"] and '"lost"' in found["bad.ts"], found  # not a status
    assert "4," in found["bad.ts"] and "email" in found["bad.ts"], found  # reporter needs email
