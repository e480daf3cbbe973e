"""The TypeScript package's return path on the replies of return_path_replies.py (``--ts``).

Compiles the TypeScript package generated from specs/ (tests/ts_bridge.py, the pinned tsc in
tests/ts) and runs tests/ts_scripts/return_path.ts in one node process: a new Offer per reply
and one reused with ``Offer.answer``, ``readCalls``, an Offer for a new and a seen context,
``offer.check`` on the argument objects, ``offer.execute`` and ``resultMessages``, each the
median of ``repeats`` batches of about ``budget`` seconds after a warm-up (V8 compiles hot code).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from return_path_replies import BAD_ARGS, CONTEXT, FAMILY, FORMAT, GOOD_ARGS, MCP_SERVERS

ROOT = Path(__file__).resolve().parent.parent

#: (key in the script's answer, label), in table order.
ROWS = (
    ("answer-new", "TS: new Offer + answer"),
    ("answer-reused", "TS: reused Offer + answer"),
    ("read_calls", "TS: readCalls (4 calls)"),
    ("offer-new-context", "TS: new Offer for a new context"),
    ("offer-seen-context", "TS: new Offer for a context already seen"),
    ("offer-seen-no-mcp", "TS: new Offer for a context already seen, no MCP server"),
    ("check-toolgen", "TS: offer.check x4"),
    ("execute", "TS: offer.execute x4 (calls already read)"),
    ("result_messages", "TS: resultMessages (4 results)"),
)


def ts_timings(
    bodies: dict[str, Any], names: dict[str, str], repeats: int, budget: float
) -> tuple[dict[str, float], dict[str, Any]] | str:
    """(µs per case, what each reply did), or why the TS side cannot run here."""
    sys.path.insert(0, str(ROOT / "tests"))
    import ts_bridge

    reason = ts_bridge.unavailable_reason()
    if reason is not None:
        return f"*** TypeScript timing skipped: {reason} ***"
    request = {
        "bodies": bodies,
        "servers": MCP_SERVERS,
        "context": CONTEXT,
        "family": FAMILY,
        "format": FORMAT,
        "names": names,
        "args": {"good": GOOD_ARGS, "bad": BAD_ARGS},
        "repeats": repeats,
        "budget": budget,
    }
    [result] = ts_bridge.run("return_path", [request])
    if "error" in result:
        return f"*** TypeScript timing failed: {result['error']} ***"
    return result["ok"]["micros"], result["ok"]["behaviour"]


def ts_table(micros: dict[str, float]) -> str:
    lines = ["| TypeScript (node) | good | bad |", "| --- | ---: | ---: |"]
    for key, label in ROWS:
        good = micros.get(f"{key}/good", micros.get(key))
        bad = micros.get(f"{key}/bad")
        cells = [f"{v:,.1f}" if v is not None else "" for v in (good, bad)]
        lines.append(f"| {label} | {cells[0]} | {cells[1]} |")
    return "\n".join(lines)
