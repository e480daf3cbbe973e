"""TypeScript target benchmarks (``make bench`` runs it after run.py; or ``python benchmarks/ts.py``). Not a test.

* generation: the pipeline (render, in process) with and without the TS target,
  on the bundled catalog and a synthetic 1,000-tool catalog (benchmarks/synth.py); median of runs;
* the XML call parser, Python vs TS (node): ``parse_tool_calls``/``parseToolCalls`` on the whole
  text and the streaming parser fed 20-character chunks, on benchmarks/parser.py's cases, each
  result checked against the expected calls; and ``parse_calls``/``parseCalls`` per call on a
  short three-call reply.

Needs node and the pinned toolchain for the TS half (tests/ts_bridge.py); without them it says so
and times only the generation. Prints a table and writes benchmarks/out/ts.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path[:0] = [str(REPO), str(HERE), str(REPO / "tests")]

import parser as cases  # noqa: E402  (benchmarks/parser.py)
import synth  # noqa: E402
import ts_bridge  # noqa: E402
from generator import pipeline  # noqa: E402

REPLY = (
    "I'll look at the project first.\n<read_file>\n<path>src/main.py</path>\n</read_file>\n"
    "Then list it.\n<list_files>\n<path>src</path>\n<recursive>true</recursive>\n</list_files>\n"
    "<execute_command>\n<command>npm test</command>\n<requires_approval>false</requires_approval>\n"
    "</execute_command>"
)


def median_seconds(run: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def generation(specs: Path, repeat: int) -> dict[str, float]:
    pipeline.run(specs, targets={"typescript": True})  # warm: black's skeleton cache, imports
    python_only = median_seconds(lambda: pipeline.run(specs), repeat)
    with_ts = median_seconds(lambda: pipeline.run(specs, targets={"typescript": True}), repeat)
    return {"python_s": python_only, "python_and_ts_s": with_ts, "ts_share": (with_ts - python_only) / with_ts}


def parser_cases(chunk: int, quick: bool) -> list[tuple[str, str, list[Any]]]:
    made = [
        ("feed-2000", *cases.feed_case(2000)),
        ("plain-200k", *cases.plain_case(200_000)),
        ("calls-2000", *cases.calls_case(2000)),
        ("blank-300k", *cases.blank_case(300_000)),
        ("open-300k", *cases.open_value_case(300_000)),
    ]
    if not quick:
        made.insert(1, ("feed-8000", *cases.feed_case(8000)))
    return [(name, text, [[n, p, False] for n, p in expected]) for name, text, expected in made]


def python_parser(text: str, chunk: int) -> tuple[float, float, list[Any]]:
    from generator.runtime.xml_calls import StreamingParser, parse_tool_calls

    start = time.perf_counter()
    blocks = parse_tool_calls(text, cases.TOOLS)
    parse_s = time.perf_counter() - start
    start = time.perf_counter()
    streamer = StreamingParser(cases.TOOLS)
    for index in range(0, len(text), chunk):
        streamer.feed(text[index : index + chunk])
    stream_s = time.perf_counter() - start
    got = [[b.name, dict(b.params), b.partial] for b in blocks]
    if got != [[b.name, dict(b.params), b.partial] for b in streamer.blocks]:
        raise SystemExit("python: streamed blocks differ from parsed ones")
    return parse_s, stream_s, got


def python_per_call(repeat: int) -> float:
    from generated import prompt

    for _ in range(200):
        prompt.parse_calls(REPLY, "generic")
    return median_seconds(lambda: [prompt.parse_calls(REPLY, "generic") for _ in range(repeat)], 3) / repeat * 1e6


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--quick", action="store_true", help="fewer runs and cases")
    options.add_argument("--chunk", type=int, default=20)
    args = options.parse_args()
    repeat = 2 if args.quick else 5
    results: dict[str, Any] = {"generation": {}}
    with tempfile.TemporaryDirectory(prefix="toolgen-bench-ts-") as tmp:
        targets = {"bundled": REPO / "specs", "synthetic-1000": synth.write_catalog(Path(tmp), 1000)}
        for name, specs in targets.items():
            results["generation"][name] = row = generation(specs, 1 if name != "bundled" and args.quick else repeat)
            print(
                f"generate {name:<15} python {row['python_s']:7.3f} s   python+ts {row['python_and_ts_s']:7.3f} s"
                f"   ts share {row['ts_share']:6.1%}"
            )
    reason = ts_bridge.unavailable_reason()
    if reason is not None:
        print(f"TS parser timings skipped: {reason}")
    else:
        table = []
        made = parser_cases(args.chunk, args.quick)
        ts_rows = ts_bridge.run("bench", [{"text": t, "tools": cases.TOOLS, "chunk": args.chunk} for _, t, _ in made])
        print(f"\n{'case':<12} {'py parse':>9} {'ts parse':>9} {'py stream':>10} {'ts stream':>10}  (seconds)")
        for (name, text, expected), ts_row in zip(made, ts_rows, strict=True):
            ts = ts_row["ok"]
            py_parse, py_stream, got = python_parser(text, args.chunk)
            if not (got == expected == ts["blocks"] == ts["streamed"]):
                raise SystemExit(f"{name}: a parser gave unexpected blocks")
            table.append({"case": name, "py_parse_s": py_parse, "ts_parse_s": ts["parseS"]})
            table[-1].update({"py_stream_s": py_stream, "ts_stream_s": ts["streamS"]})
            print(f"{name:<12} {py_parse:9.3f} {ts['parseS']:9.3f} {py_stream:10.3f} {ts['streamS']:10.3f}")
        results["parser"] = table
        count = 2000 if args.quick else 20000
        [per_call] = ts_bridge.run("bench", [{"op": "perCall", "text": REPLY, "repeat": count}])
        results["parse_calls_per_call_us"] = {"python": python_per_call(count), "ts": per_call["ok"]["perCallUs"]}
        row = results["parse_calls_per_call_us"]
        print(f"\nparseCalls per call (3-call reply): python {row['python']:.1f} us, ts {row['ts']:.1f} us")
    out = HERE / "out"
    out.mkdir(exist_ok=True)
    (out / "ts.json").write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
