"""TypeScript ``nativeTools`` per call, next to the Python figures (issue 16).

``python benchmarks/ts_percall.py [--quick]`` compiles the TypeScript package generated from
specs/ (tests/ts_bridge.py, pinned tsc in tests/ts), then times, per format, for the families of
benchmarks/percall.py (``native-next-gen``, 14 tools, and ``gemini3``, the family with the most
placeholders), in one node process:

* miss: the list cache emptied before each call (a context seen for the first time);
* hit: the same context again;
* first: every cache emptied, the static entries included (the first call of a process: the
  TypeScript package converts its entries on first use, where Python loads them converted).

The Python figures come from benchmarks/percall.py's ``_calls`` on the package generated from
the same specs, in this process, with the same context. Medians, microseconds per call.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))


def main() -> None:
    import ts_bridge

    quick = "--quick" in sys.argv[1:]
    reason = ts_bridge.unavailable_reason()
    if reason is not None:
        print(f"TypeScript benchmark skipped: {reason}")
        return
    import percall

    sys.path.insert(0, str(ROOT))
    from generated.context import Context

    fields = set(Context.__dataclass_fields__)
    context = {k: v for k, v in percall.WANTED.items() if k in fields}
    repeats, budget = (3, 0.03) if quick else (5, 0.05)
    python = {(r["family"], r["format"]): r for r in percall._calls(Context.from_mapping(context), repeats, budget)}
    [result] = ts_bridge.run(
        "native",
        [
            {
                "bench": {
                    "families": list(percall.CALL_FAMILIES),
                    "context": context,
                    "repeats": repeats,
                    "budget": budget,
                }
            }
        ],
    )
    if "error" in result:
        raise SystemExit(f"TypeScript benchmark failed: {result['error']}")
    rows = json.loads(result["ok"]["text"])
    head = f"{'family / format':<36}{'tools':>6}{'TS miss':>9}{'Py miss':>9}{'TS hit':>8}{'Py hit':>8}"
    head += f"{'TS first':>10}{'Py first':>10}"
    print("microseconds per nativeTools / native_tools call (medians)")
    print(head)
    for r in rows:
        p = python[(r["family"], r["format"])]
        assert r["tools"] == p["tools"], (r, p)
        print(
            f"{r['family'] + ' / ' + r['format']:<36}{r['tools']:>6}"
            f"{r['miss_us']:>9.1f}{p['miss_s'] * 1e6:>9.1f}{r['hit_us']:>8.1f}{p['hit_s'] * 1e6:>8.1f}"
            f"{r['first_us']:>10.1f}{p['first_s'] * 1e6:>10.1f}"
        )


if __name__ == "__main__":
    main()
