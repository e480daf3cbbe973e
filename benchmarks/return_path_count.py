"""Instructions per reply on the return path, counted by callgrind (no load disturbs a count).

``python benchmarks/return_path_count.py [CASE ...] [--replies N]`` runs return_path.py's cases
(set up as it sets them up, each warmed up first) in one process under ``valgrind
--tool=callgrind``, and brackets ``N`` runs of each case with callgrind's client requests (zero
the counters, run, dump): the dump's total divided by ``N`` is what one reply (or one part)
costs, start-up, set-up and the other cases excluded. The requests come from a few lines of C
compiled here with ``cc`` against valgrind's ``callgrind.h`` (outside valgrind they do nothing).
Default cases: toolgen with a new and with a reused Offer and openai-agents' schema route, on
the good and the bad reply; ``--all`` adds ``Offer.answer``, the typed route and the parts.

Instructions are not time (a cache miss costs more than an add), but they do not move with the
other jobs on a shared machine, so a change of a few percent shows where timings cannot.
``--run FOLDER N CASE ...`` is the child's own entry point.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent

DEFAULT = (
    "toolgen-new/good",
    "toolgen-new/bad",
    "toolgen-new-prepared/good",
    "toolgen-new-prepared/bad",
    "toolgen-reused/good",
    "toolgen-reused/bad",
    "openai-agents-schema/good",
    "openai-agents-schema/bad",
)
MORE = (
    "toolgen-answer-new/good",
    "toolgen-answer-new/bad",
    "toolgen-answer-new-prepared/good",
    "toolgen-answer-new-prepared/bad",
    "toolgen-answer-reused/good",
    "toolgen-answer-reused/bad",
    "openai-agents-typed/good",
    "openai-agents-typed/bad",
    "offer-seen-context",
    "offer-seen-prepared",
    "offer-seen-no-mcp",
    "read_calls/good",
    "read_calls/bad",
    "json.loads/good",
    "check-toolgen/good",
    "check-toolgen/bad",
    "check-fastjsonschema/good",
    "check-fastjsonschema/bad",
    "execute/good",
    "execute/bad",
    "result_messages/good",
)

_REQUESTS = """
#include <valgrind/callgrind.h>
void toolgen_zero(void) { CALLGRIND_ZERO_STATS; }
void toolgen_dump(const char *name) { CALLGRIND_DUMP_STATS_AT(name); }
"""


def _requests(folder: str) -> ctypes.CDLL:
    source, library = os.path.join(folder, "requests.c"), os.path.join(folder, "requests.so")
    Path(source).write_text(_REQUESTS)
    subprocess.run(["cc", "-O1", "-shared", "-fPIC", "-o", library, source], check=True)
    return ctypes.CDLL(library)


def run(folder: str, replies: int, wanted: list[str]) -> None:
    """The child: every case in ``wanted``, each bracketed by a zero and a dump."""
    sys.path.insert(0, str(HERE))
    from return_path import build_cases, load_toolgen

    requests = _requests(folder)
    tg = load_toolgen()
    peers = []
    if any(c.startswith("openai-agents") for c in wanted):  # the one peer counted (its import is slow)
        from return_path import sent_tools
        from return_path_peers import openai_agents

        peers = [openai_agents(sent_tools(tg), tg.names, typed) for typed in (False, True)]
    cases, _ = build_cases(tg, peers, [])
    found = {c.key: c.func for c in cases}
    for case in wanted:
        if case not in found:
            raise SystemExit(f"unknown case {case!r}; known: {', '.join(sorted(found))}")
    for case in wanted:
        func = found[case]
        for _ in range(200):  # warm: lazy imports, compiled plans, caches, specialised bytecode
            func()
        requests.toolgen_zero()
        for _ in range(replies):
            func()
        requests.toolgen_dump(case.encode())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="*", help=f"default: {' '.join(DEFAULT)}; also: {' '.join(MORE)}")
    parser.add_argument("--all", action="store_true", help="every case listed")
    parser.add_argument("--replies", type=int, default=500, help="runs of each case counted")
    parser.add_argument("--run", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.run:
        run(args.run[0], int(args.run[1]), args.run[2:])
        return 0
    cases = args.cases or (list(DEFAULT) + list(MORE) if args.all else list(DEFAULT))
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "callgrind.out")
        subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, __file__,
             "--run", folder, str(args.replies), *cases],
            check=True, env={**os.environ, "PYTHONHASHSEED": "0"},
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        totals: dict[str, int] = {}
        for path in Path(folder).glob("callgrind.out.*"):
            text = path.read_text(errors="replace")
            trigger = re.search(r"^desc: Trigger: Client Request: (.*)$", text, re.MULTILINE)
            total = re.search(r"^(?:summary|totals):\s*(\d+)", text, re.MULTILINE)
            if trigger and total:
                totals[trigger.group(1).strip()] = int(total.group(1))
    print(f"instructions per run, {args.replies} runs of each case counted\n")
    print("| case | instructions |\n| --- | ---: |")
    for case in cases:
        count = totals.get(case)
        shown = "not counted" if count is None else f"{count / args.replies / 1000:,.1f}k"
        print(f"| {case} | {shown} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
