"""Timings of the XML tool-call parser (``generator/runtime/xml_calls.py``). Not a test.

``python benchmarks/parser.py [--module DIR] [--chunk N] [--limit SECONDS]``

Times ``parse_tool_calls`` on the whole text and ``StreamingParser`` fed ``N``-character chunks
(default 20, about one streamed token batch) on:

* ``feed-K``: a ``write_to_file`` of an XML feed with ``K`` entries
  ``<entry><content>hello world</content></entry>`` -- every entry holds the content
  parameter's own opening and closing tags (K = 500, 2,000, 8,000);
* ``plain-200k``: a ``write_to_file`` of a 200 KB source file without any tags;
* ``calls-2000``: 2,000 small ``read_file`` calls with prose between them;
* ``blank-300k``: a ``write_to_file`` whose content holds a 300 KB run of blanks (streamed, the
  open value's trimming once rescanned the whole run on every feed: quadratic);
* ``open-300k``: a 300 KB ``path`` value (a non-content parameter) streamed while still open.

``--module DIR`` times another copy of the module instead (a folder holding ``xml_calls.py`` and
the runtime modules it imports, e.g. ``generated/_runtime`` or an older checkout's
``generator/runtime``). Once a case
takes longer than ``--limit`` seconds (default 30), its larger sizes are skipped. Every result is
checked against the expected blocks.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

TOOLS = {
    "read_file": ("path", "task_progress"),
    "write_to_file": ("path", "content", "task_progress"),
    "replace_in_file": ("path", "diff", "task_progress"),
}

ENTRY = "<entry><content>hello world</content></entry>\n"


def load(module_dir: str | None) -> Any:
    if module_dir is None:
        sys.path.insert(0, str(ROOT))
        return importlib.import_module("generator.runtime.xml_calls")
    package = types.ModuleType("_bench_xml")  # a package without running any __init__
    package.__path__ = [str(Path(module_dir).resolve())]  # type: ignore[attr-defined]
    sys.modules["_bench_xml"] = package
    return importlib.import_module("_bench_xml.xml_calls")


def feed_case(entries: int) -> tuple[str, list[tuple[str, dict[str, str]]]]:
    content = ENTRY * entries
    text = f"<write_to_file><path>feed.xml</path><content>{content}</content></write_to_file>"
    return text, [("write_to_file", {"path": "feed.xml", "content": content.strip()})]


def plain_case(size: int) -> tuple[str, list[tuple[str, dict[str, str]]]]:
    line = "    total = compute(values[index], offset=3) + 1  # keep going\n"
    content = (line * (size // len(line) + 1))[:size].strip()
    text = (
        "I'll write the file.\n<write_to_file>\n<path>src/big.py</path>\n"
        f"<content>\n{content}\n</content>\n</write_to_file>"
    )
    return text, [("write_to_file", {"path": "src/big.py", "content": content})]


def calls_case(count: int) -> tuple[str, list[tuple[str, dict[str, str]]]]:
    parts, expected = [], []
    for i in range(count):
        path = f"src/module_{i}.py"
        parts.append(f"Next I read {path}.\n<read_file>\n<path>{path}</path>\n</read_file>\n")
        expected.append(("read_file", {"path": path}))
    return "".join(parts), expected


def blank_case(size: int) -> tuple[str, list[tuple[str, dict[str, str]]]]:
    content = "start" + " " * size + "end"
    text = f"<write_to_file><path>a.txt</path><content>{content}</content></write_to_file>"
    return text, [("write_to_file", {"path": "a.txt", "content": content})]


def open_value_case(size: int) -> tuple[str, list[tuple[str, dict[str, str]]]]:
    path = "d/" * (size // 2)
    return f"<read_file><path>{path}</path></read_file>", [("read_file", {"path": path})]


def timed(func: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = func()
    return time.perf_counter() - start, result


def check(blocks: list[Any], expected: list[tuple[str, dict[str, str]]], what: str) -> None:
    got = [(b.name, dict(b.params)) for b in blocks]
    if got != expected or any(b.partial for b in blocks):
        raise SystemExit(f"{what}: unexpected result")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--module", help="folder holding xml_calls.py and the runtime modules it imports (e.g. generator/runtime)"
    )
    parser.add_argument("--chunk", type=int, default=20)
    parser.add_argument("--limit", type=float, default=30.0)
    args = parser.parse_args()
    xml_calls = load(args.module)
    print(f"module: {xml_calls.__file__}; streaming chunk: {args.chunk} characters\n")

    families = [
        ("feed", [(f"feed-{k}", lambda k=k: feed_case(k)) for k in (500, 2000, 8000)]),
        ("plain", [("plain-200k", lambda: plain_case(200_000))]),
        ("calls", [("calls-2000", lambda: calls_case(2000))]),
        ("blank", [("blank-300k", lambda: blank_case(300_000))]),
        ("open", [("open-300k", lambda: open_value_case(300_000))]),
    ]
    header = f"{'case':<12} {'KB':>7} {'parse s':>9} {'stream s':>9} {'feeds':>7}"
    print(header)
    print("-" * len(header))
    for _family, cases in families:
        skip = False
        for name, make in cases:
            text, expected = make()
            size = f"{len(text.encode()) / 1000:.0f}"
            if skip:
                print(f"{name:<12} {size:>7} {'skipped':>9} {'skipped':>9}")
                continue
            parse_s, blocks = timed(lambda text=text: xml_calls.parse_tool_calls(text, TOOLS))
            check(blocks, expected, f"{name} parse")
            streamer = xml_calls.StreamingParser(TOOLS)
            chunks = [text[i : i + args.chunk] for i in range(0, len(text), args.chunk)]

            def stream(chunks: list[str] = chunks, streamer: Any = streamer) -> list[Any]:
                for chunk in chunks:
                    streamer.feed(chunk)
                return streamer.blocks

            stream_s, blocks = timed(stream)
            check(blocks, expected, f"{name} stream")
            print(f"{name:<12} {size:>7} {parse_s:>9.3f} {stream_s:>9.3f} {len(chunks):>7}")
            skip = max(parse_s, stream_s) > args.limit


if __name__ == "__main__":
    main()
