"""The conformance corpus (tests/conformance/): Python writes it, TypeScript replays it.

- the committed corpus is what the Python runtime answers now (else: run generate.py, and review
  the diff as a change of behaviour);
- every documented difference (differences.json) is exercised by a case, and a case names only
  documented differences;
- the TypeScript runner (runner.test.ts under ``node --test``) passes every case; skipped, loudly,
  where node or the pinned toolchain is missing (tests/ts_bridge.py).
"""

from __future__ import annotations

import gzip
import json
import os
import re
import subprocess
import time
from functools import cache
from pathlib import Path

import ts_bridge
from conformance import corpus, differences, generate


@cache
def _outputs() -> dict[Path, bytes]:
    return generate.outputs()  # builds the cases once (generate.build is cached)


def _content(path: Path, data: bytes) -> bytes:
    """A file's content (gzip is compared unpacked: zlib builds may pack the same text otherwise)."""
    return gzip.decompress(data) if path.suffix == ".gz" else data


def test_the_committed_corpus_is_what_python_answers_now() -> None:
    stale = []
    for path, data in _outputs().items():
        if not path.is_file() or _content(path, path.read_bytes()) != _content(path, data):
            stale.append(path.relative_to(generate.ROOT).as_posix())
    extra = [p.name for p in generate.CORPUS.glob("*.jsonl*") if p not in _outputs()]
    assert not stale and not extra, (
        f"stale: {stale}, not written any more: {extra}. Run `.venv/bin/python tests/conformance/generate.py` "
        "and review the diff: it is a change of what the runtime answers."
    )


def test_the_corpus_is_large_and_small() -> None:
    files = generate.build()
    assert sum(len(cases) for cases in files.values()) >= 10_000
    size = sum(len(data) for path, data in _outputs().items() if path.parent == generate.CORPUS)
    assert size < 6_000_000, f"the corpus files hold {size:,} bytes"


def test_every_documented_difference_is_exercised_and_only_those() -> None:
    documented = [entry["id"] for entry in differences.entries()]
    assert len(documented) == len(set(documented))
    used: dict[str, int] = dict.fromkeys(documented, 0)
    for cases in generate.build().values():
        for case in cases:
            for name in case.differences:
                assert name in used, f"a case names {name!r}, which differences.json does not document"
                used[name] += 1
            if case.differences:  # a difference that changes nothing JavaScript sees is no difference
                seen = [differences.js_view(value)[0] for value in (case.expect_ts, case.expect)]
                assert corpus.encode(seen[0], None) != corpus.encode(seen[1], None), case
    unexercised = [name for name, count in used.items() if count == 0]
    assert not unexercised, f"documented differences no case exercises: {unexercised}"


def test_the_corpus_reads_back_as_written() -> None:
    """Tags, shared values, long texts and lone surrogates survive the file format (corpus.py)."""
    records = list(corpus.read(generate.CORPUS))
    files = generate.build()
    cases = [case for name in sorted(files) for case in files[name]]
    assert len(records) == len(cases)
    by_id = {record["id"]: record for record in records}
    assert len(by_id) == len(records)
    for name in sorted(files):
        counters: dict[str, int] = {}
        for case in files[name]:
            counters[case.function] = counters.get(case.function, 0) + 1
            record = by_id[f"{name}/{case.function}/{counters[case.function]}"]
            for key, value in (("input", case.input), ("expect", case.expect)):
                # compared as UTF-16 text: a surrogate pair written as two code points reads back as one
                written = json.dumps(corpus.encode(value, None))
                assert json.dumps(corpus.encode(record[key], None)) == written, (record["id"], key)


@cache
def corpus_run() -> tuple[subprocess.CompletedProcess[str], Path, float]:
    """The TS runner over the corpus, once per session: the process, its V8 coverage folder
    (tests/test_runtime_interface.py reads which functions the cases ran) and the seconds it took."""
    built = ts_bridge.require()
    runner = built.out / "conformance" / "runner.test.js"
    coverage = built.root / "coverage"
    started = time.perf_counter()
    completed = subprocess.run(
        [built.node, "--test", "--test-reporter=tap", str(runner)],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=built.root,
        env={
            **os.environ,
            "TOOLGEN_CONFORMANCE_CORPUS": str(generate.CORPUS),
            "NODE_NO_WARNINGS": "1",
            "NODE_V8_COVERAGE": str(coverage),
        },
    )
    return completed, coverage, time.perf_counter() - started


def test_the_typescript_runtime_passes_the_corpus() -> None:
    completed, _, elapsed = corpus_run()
    output = completed.stdout + completed.stderr
    assert completed.returncode == 0, f"node --test failed after {elapsed:.1f}s:\n{output[-20000:]}"
    assert re.search(r"^# skip(ped)? 0$", output, re.M), "a module of the corpus was skipped:\n" + output[-4000:]
