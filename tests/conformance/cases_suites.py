"""Conformance cases of the pattern runtime and of a catalog shaped like users' data.

- module "ecma_regex" (tests/ts_scripts/ecma_regex.ts): ``compilePattern`` on the pattern corpus
  of tests/regex_corpus.py (edge cases, invalid patterns and 2,500 seeded grammar walks), each
  with its texts: the verdicts, or the PatternError's message and offset. tests/
  test_ecma_regex_differential.py compares the same corpus with node's RegExp and regress;
- module "orders" (tests/ts_scripts/orders.ts): Offers of the catalog in tests/data/orders
  (enums, nested objects, unions, combinators, patterns, a strict tool) checking and running the
  calls of tests/test_orders_catalog.py in every format and on the text path.
"""

from __future__ import annotations

from typing import Any

from conformance.common import ROOT, Cases, package


def patterns(out: Cases) -> None:
    from generator.runtime.ecma_regex import PatternError, compile_pattern
    from regex_corpus import EDGE_CASES, INVALID, generated

    def outcome(given: dict[str, Any]) -> Any:
        try:
            matches = compile_pattern(given["pattern"])
        except PatternError as error:
            return {"error": {"message": error.message, "offset": error.offset}}
        return {"verdicts": [matches(text) for text in given["texts"]]}

    corpus = [*EDGE_CASES, *[(pattern, ["", "a", "b\n"]) for pattern in INVALID], *generated(2500)]
    out.run("ecma_regex", "compilePattern", [{"pattern": p, "texts": list(t)} for p, t in corpus], outcome)


class _Recorder:
    """A handler appending the arguments it ran with to a shared list."""

    def __init__(self, name: str, ran: list[Any], result: Any) -> None:
        self.name, self.ran, self.result = name, ran, result

    def execute(self, config: Any, block: Any) -> Any:
        self.ran.append(dict(block.params))
        return self.result.ok("ran")


def orders(out: Cases) -> None:
    from test_orders_catalog import CASES, FORMATS, NATIVE, REPORTER, as_text

    orders = package(ROOT / "tests" / "data" / "orders" / "specs", "orders")

    def offer(given: dict[str, Any]) -> Any:
        made = orders.Offer(given["family"], given["context"], format=given["format"])
        answers = []
        for call in given["calls"]:
            use = orders.ToolUse(call["name"], call["params"], id="c")
            typed, problems = made.check(use)
            ran: list[Any] = []
            coordinator = orders.Coordinator()
            for tool_id in ("update_order", "file_ticket", "close_order", "use_mcp_tool"):
                coordinator.register(_Recorder(tool_id, ran, orders.ToolResult))
            result = made.execute(coordinator, None, use)
            shown = None if result is None else {"content": result.content, "is_error": result.is_error}
            answers.append({"typed": typed, "problems": problems, "result": shown, "ran": ran})
        return {"prompt": made.prompt_section(), "degraded": made.degraded, "answers": answers}

    for fmt in (*FORMATS, None):
        calls = [
            {"name": tool, "params": as_text(params) if fmt is None else params} for _, tool, params, _, _ in CASES
        ]
        calls.append(
            {"name": "update_order", "params": {"order_id": 7, "status": "open", "reporter": REPORTER, "z": 1}}
        )
        calls.append({"name": "close_order", "params": {"order_id": 3, "reason": None, "comment": None}})
        context = {"model_id": "m"} if fmt is None else NATIVE
        family = "text" if fmt is None else "native"
        out.add("orders", "offer", {"family": family, "context": context, "format": fmt, "calls": calls}, offer)


def build(out: Cases) -> None:
    """Every case of this module, in a fixed order."""
    patterns(out)
    orders(out)
