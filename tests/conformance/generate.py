"""Write the conformance corpus: every case's input and the Python runtime's answer, as data.

    .venv/bin/python tests/conformance/generate.py          # rewrite tests/conformance/corpus/
    .venv/bin/python tests/conformance/generate.py --check  # exit 1 when the files are stale

The cases come from the case modules (cases_*.py), whose generators are seeded: the same bytes
every run, under any hash seed or locale. Another runtime replays the files with no Python in the
loop (tests/conformance/runner.test.ts for TypeScript). The documented differences between the
runtimes (differences.json) give TypeScript's expected answer where it is not Python's; their
table is rendered into docs/conformance.md.
"""

from __future__ import annotations

import logging
import sys
from functools import cache
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
for path in (ROOT, ROOT / "tests"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from conformance import corpus, differences  # noqa: E402
from conformance.common import Cases  # noqa: E402

CORPUS = HERE / "corpus"
DOC = ROOT / "docs" / "conformance.md"


@cache
def build() -> dict[str, list[corpus.Case]]:
    """Every corpus file's cases (file name -> cases); built once per process."""
    from conformance import cases_core, cases_dispatch, cases_native, cases_special, cases_suites

    files: dict[str, list[corpus.Case]] = {}
    for name, module in (
        ("core", cases_core),
        ("dispatch", cases_dispatch),
        ("native", cases_native),
        ("special", cases_special),
        ("suites", cases_suites),
    ):
        out = Cases()
        module.build(out)
        files[name] = out.items
    return files


def outputs() -> dict[Path, bytes]:
    """Every file this script writes, with its bytes."""
    files = build()
    written = {CORPUS / name: data for name, data in corpus.write(CORPUS, files).items()}
    written[DOC] = differences.render(files).encode("utf-8")
    return written


def main(argv: list[str]) -> int:
    logging.disable(logging.CRITICAL)  # the runtimes log what they refuse; the corpus records it
    check = "--check" in argv
    written = outputs()
    stale = [path for path, data in written.items() if not path.is_file() or path.read_bytes() != data]
    extra = [path for path in CORPUS.glob("*.jsonl*") if path not in written]
    if check:
        for path in [*stale, *extra]:
            print(f"stale: {path.relative_to(ROOT).as_posix()} (run tests/conformance/generate.py)")
        return 1 if stale or extra else 0
    for path in stale:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(written[path])
    for path in extra:
        path.unlink()
    print(f"{len(stale)} file(s) written, {len(extra)} removed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
