"""`toolgen lsp` latency: a scripted editing session of 100 edits, replayed over stdio.

On a copy of the bundled specs, a real LSP client (pytest-lsp's) opens tools/read_file.yaml
and parameters.yaml and sends, one at a time, the incremental changes an editor sends while
someone types: 40 keystrokes of prose in a description; 10 that break and mend a ``use:``
reference (diagnostics in the file); 20 that type and then delete a half-written, unparsable
line; 30 keystrokes in a shared parameter's instruction (re-checks every tool that uses it).
For each edit it measures the time from sending didChange to receiving the publishDiagnostics
for that file, and reports p50, p95 and the maximum; also the server's resident memory after
10 edits and after the last. Writes benchmarks/out/lsp_session.json.

    .venv/bin/python benchmarks/lsp_session.py [--specs DIR] [--rounds N] [--repeat N]

``--repeat 5`` plays the script five times in one session (500 edits), for the memory figure.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

from lsprotocol import types  # noqa: E402
from pytest_lsp import LanguageClient, make_test_lsp_client  # noqa: E402

from lsp_session import SERVER, insert, mark, open_file, start  # noqa: E402

Edit = tuple[str, int, int, int, str]  # (file, line, character, characters deleted, text typed)


def script(read_file: str, parameters: str) -> Iterator[Edit]:
    """The 100 edits, as (file, line, column, delete, insert) on the text as it is at that point."""
    lines = read_file.split("\n")
    end = next(i for i, line in enumerate(lines) if "First line to return" in line)
    prose = " It also reads PDF and DOCX files."  # 34 characters ...
    prose += " Fast."  # ... and 6: 40 keystrokes
    column = len(lines[end])
    for i, ch in enumerate(prose):
        yield "tools/read_file.yaml", end, column + i, 0, ch
    use = next(i for i, line in enumerate(lines) if line.strip() == "- use: task_progress")
    use_end = len(lines[use])
    for i in range(5):  # backspace five times: 'task_progress' -> 'task_pro' (unknown)
        yield "tools/read_file.yaml", use, use_end - i - 1, 1, ""
    for i, ch in enumerate("gress"):  # and type it back
        yield "tools/read_file.yaml", use, use_end - 5 + i, 0, ch
    broken = "  bogus: [a, "  # a new line that does not parse until it is gone again
    at = len(lines) - 1
    yield "tools/read_file.yaml", at, 0, 0, "\n"
    for i, ch in enumerate(broken[:9]):
        yield "tools/read_file.yaml", at, i, 0, ch
    for i in range(9, 0, -1):
        yield "tools/read_file.yaml", at, i - 1, 1, ""
    yield "tools/read_file.yaml", at, 0, 1, ""  # the line break goes too (a deletion across lines)
    shared = parameters.split("\n")
    row = next(i for i, line in enumerate(shared) if line.strip().startswith('instruction: "Optional. Send'))
    column = shared[row].index("Optional.") + len("Optional.")
    for i, ch in enumerate(" Keep it short, please!!!!!!!!"[:30]):
        yield "parameters.yaml", row, column + i, 0, ch


def _change(client: LanguageClient, uri: str, edit: Edit, version: int) -> None:
    _, line, character, delete, text = edit
    if delete == 0:
        insert(client, uri, line, character, text, version)
        return
    start = types.Position(line, character)
    finish = types.Position(line + 1, 0) if text == "" and character == 0 and delete == 1 else None
    finish = finish or types.Position(line, character + delete)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            [types.TextDocumentContentChangePartial(range=types.Range(start, finish), text=text)],
        )
    )


def _rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def _publish_for(client: LanguageClient, uri: str, before: int, timeout: float = 30.0) -> None:
    log = client.diagnostics.log  # type: ignore[attr-defined]
    deadline = time.perf_counter() + timeout
    while not any(published_uri == uri for published_uri, _ in log[before:]):
        if time.perf_counter() > deadline:
            raise TimeoutError(f"no publishDiagnostics for {uri}")
        await asyncio.sleep(0.0005)


async def session(specs: Path, repeat: int = 1) -> dict[str, object]:
    client = make_test_lsp_client()
    await client.start_io(*SERVER.server_command)
    await start(client)
    pid = client._server.pid if client._server else 0  # the server process, for its memory
    uris = {}
    versions = {}
    opened = time.perf_counter()
    for name in ("tools/read_file.yaml", "parameters.yaml"):
        before = mark(client)
        uris[name] = open_file(client, specs / name)
        versions[name] = 1
        await _publish_for(client, uris[name], before)
    cold = time.perf_counter() - opened
    latencies: list[float] = []
    rss: dict[str, float] = {}
    edits = list(
        script((specs / "tools/read_file.yaml").read_text("utf-8"), (specs / "parameters.yaml").read_text("utf-8"))
    )
    assert len(edits) == 100, len(edits)
    edits *= repeat  # the script leaves the files valid, so it can run again on its own result
    errors_seen = 0
    for count, edit in enumerate(edits, 1):
        name = edit[0]
        versions[name] += 1
        before = mark(client)
        sent = time.perf_counter()
        _change(client, uris[name], edit, versions[name])
        await _publish_for(client, uris[name], before)
        latencies.append(time.perf_counter() - sent)
        errors_seen += any(d.severity == types.DiagnosticSeverity.Error for d in client.diagnostics[uris[name]])
        if count in (10, len(edits)):
            rss[f"after_{count}_edits_mib"] = round(_rss_mib(pid), 1)
    await client.shutdown_session()
    await client.stop()
    ordered = sorted(latencies)
    rounds = [latencies[start : start + 100] for start in range(0, len(latencies), 100)]
    phases = {
        name: [value for one in rounds for value in one[begin:end]]
        for name, begin, end in (("prose", 0, 40), ("use", 40, 50), ("unparsable", 50, 70), ("shared", 70, 100))
    }
    return {
        "edits": len(latencies),
        "edits_with_errors_published": errors_seen,
        "open_two_files_s": round(cold, 4),
        "p50_ms": round(statistics.median(ordered) * 1000, 1),
        "p95_ms": round(ordered[int(0.95 * len(ordered)) - 1] * 1000, 1),
        "max_ms": round(ordered[-1] * 1000, 1),
        "p50_ms_by_phase": {name: round(statistics.median(values) * 1000, 1) for name, values in phases.items()},
        **rss,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--specs", type=Path, default=REPO / "specs", help="spec folder to copy (default: specs/)")
    parser.add_argument("--rounds", type=int, default=1, help="sessions to run (each reported)")
    parser.add_argument("--repeat", type=int, default=1, help="play the 100 edits this many times in each session")
    args = parser.parse_args()
    results = []
    for _ in range(args.rounds):
        with tempfile.TemporaryDirectory(prefix="toolgen-lsp-bench-") as tmp:
            specs = Path(tmp) / "specs"
            shutil.copytree(args.specs, specs)
            results.append(asyncio.run(session(specs, args.repeat)))
    for result in results:
        edits = result["edits"]
        print(
            f"lsp session: {edits} edits, didChange -> publishDiagnostics "
            f"p50 {result['p50_ms']} ms, p95 {result['p95_ms']} ms, max {result['max_ms']} ms; "
            f"open {result['open_two_files_s']} s; server RSS {result.get('after_10_edits_mib')} MiB after 10 edits, "
            f"{result.get(f'after_{edits}_edits_mib')} MiB after {edits}; p50 by phase (ms) {result['p50_ms_by_phase']}"
        )
    out = HERE / "out"
    out.mkdir(exist_ok=True)
    record = {"machine": platform.platform(), "python": platform.python_version(), "sessions": results}
    (out / "lsp_session.json").write_text(json.dumps(record, indent=2) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
