"""Pattern runtime benchmarks (``make bench`` runs it; or ``python benchmarks/patterns.py``). Not a test.

* compile time per pattern (translation plus ``re.compile`` / ``new RegExp``, the cache
  bypassed), Python and TS, median and worst, on typical JSON Schema patterns and on 500
  patterns of the differential corpus (tests/regex_corpus.py) that the runtime accepts;
* search time per call against the engines' own regexes on the typical patterns (whose meaning
  is the same in Python's ``re``, ECMA-262 and node) and a few texts;
* what the Unicode table costs the TS package: unicode_data.ts, and the pattern modules, in bytes
  and gzipped.

Needs node and the pinned toolchain for the TS half (tests/ts_bridge.py); without them it says so.
Prints a table and writes benchmarks/out/patterns.json.
"""

from __future__ import annotations

import gzip
import json
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path[:0] = [str(REPO), str(REPO / "tests")]

import ts_bridge  # noqa: E402
from generator.runtime import ecma_regex  # noqa: E402
from generator.runtime.ecma_regex import PatternError, python_source  # noqa: E402
from regex_corpus import generated  # noqa: E402

# Patterns a tool spec might hold; each means the same to re, ECMA-262 and node.
TYPICAL = [
    r"^[a-z0-9_-]{3,16}$",
    r"^\d{4}-\d{2}-\d{2}$",
    r"^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$",
    r"^(?:https?|ftp)://[^\s/$.?#].[^\s]*$",
    r"^#?([a-fA-F0-9]{6}|[a-fA-F0-9]{3})$",
    r"^[^/]+(/[^/]+)*$",
    r"\.(?:py|ts|md)$",
    r"^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$",
]
UNICODE = [r"^\p{L}+$", r"^[\p{L}\p{N} _-]*$", r"\p{Lu}", r"^\P{Cc}*$"]
TEXTS = [
    "user_name-01",
    "2026-12-02",
    "someone@example.com",
    "src/generator/runtime/ecma_regex.py",
    "x" * 200,
    "caf\u00e9 \U0001f600 na\u00efve " * 4,  # not ASCII: the runtime looks for surrogate pairs
]
REPEAT = 2000


def _seconds(run: Any) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def _summary(values: list[float]) -> dict[str, float]:
    return {"median_ms": statistics.median(values) * 1e3, "max_ms": max(values) * 1e3}


def python_numbers(corpus: list[str]) -> dict[str, Any]:
    compile_fresh = ecma_regex._compiled.__wrapped__  # the function under the cache
    python_source(r"\p{L}")  # decode the Unicode table once, as the first \p{..} of a run does
    out: dict[str, Any] = {}
    for name, patterns in (("typical", TYPICAL), ("unicode", UNICODE), ("corpus", corpus)):
        re.purge()
        out[f"compile_{name}"] = _summary([_seconds(lambda p=p: compile_fresh(p)) for p in patterns])
    ours = [compile_fresh(p) for p in TYPICAL]
    plain = [re.compile(p).search for p in TYPICAL]
    calls = REPEAT * len(TYPICAL) * len(TEXTS)
    out["search_ours_ns"] = _seconds(lambda: [m(t) for _ in range(REPEAT) for m in ours for t in TEXTS]) / calls * 1e9
    out["search_re_ns"] = _seconds(lambda: [s(t) for _ in range(REPEAT) for s in plain for t in TEXTS]) / calls * 1e9
    return out


def ts_numbers(corpus: list[str]) -> dict[str, Any] | None:
    if ts_bridge.unavailable_reason() is not None:
        print(f"TS half skipped: {ts_bridge.unavailable_reason()}")
        return None
    out: dict[str, Any] = {}
    for name, patterns in (("typical", TYPICAL), ("unicode", UNICODE), ("corpus", corpus)):
        [result] = ts_bridge.run("bench_patterns", [{"patterns": patterns, "texts": TEXTS, "repeat": 1}])
        out[f"compile_{name}"] = _summary(result["ok"]["compile"])
    [result] = ts_bridge.run("bench_patterns", [{"patterns": TYPICAL, "texts": TEXTS, "repeat": REPEAT}])
    out["search_ours_ns"] = result["ok"]["oursSearch"] * 1e9
    out["search_native_ns"] = result["ok"]["nativeSearch"] * 1e9
    return out


def sizes() -> dict[str, int]:
    folder = REPO / "generator" / "ts_runtime"
    data = (folder / "unicode_data.ts").read_bytes()
    modules = b"".join(path.read_bytes() for path in sorted(folder.glob("ecma_regex*.ts")))
    return {
        "unicode_data_ts_bytes": len(data),
        "unicode_data_ts_gzip_bytes": len(gzip.compress(data, mtime=0)),
        "ecma_regex_ts_bytes": len(modules),
        "ecma_regex_ts_gzip_bytes": len(gzip.compress(modules, mtime=0)),
    }


def main() -> None:
    corpus = []
    for pattern, _ in generated(2000):
        try:
            python_source(pattern)
        except PatternError:
            continue
        corpus.append(pattern)
    corpus = corpus[:500]
    results = {"python": python_numbers(corpus), "typescript": ts_numbers(corpus), "sizes": sizes()}
    for side in ("python", "typescript"):
        for key, value in (results[side] or {}).items():
            shown = ", ".join(f"{k} {v:.3f}" for k, v in value.items()) if isinstance(value, dict) else f"{value:.0f}"
            print(f"{side:10} {key:18} {shown}")
    for key, value in results["sizes"].items():
        print(f"{'size':10} {key:26} {value}")
    out = HERE / "out"
    out.mkdir(exist_ok=True)
    (out / "patterns.json").write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
