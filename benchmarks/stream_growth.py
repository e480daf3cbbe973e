"""How streaming cost grows with one open value: a write_to_file whose content keeps arriving.

Linear streaming doubles the time when the value doubles; a feed that copies the open value
would quadruple it. Not a test; run with ``python benchmarks/stream_growth.py``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator.runtime.xml_calls import StreamingParser


def main() -> int:
    print("open value KB   seconds (16-character chunks)")
    for kb in (300, 600, 1200, 2400):
        text = "<write_to_file><path>a</path><content>" + "abcdefghij" * (kb * 100)
        parser = StreamingParser({"write_to_file": ["path", "content"]})
        start = time.perf_counter()
        for i in range(0, len(text), 16):
            blocks = parser.feed(text[i : i + 16])
        elapsed = time.perf_counter() - start
        assert len(blocks[-1].params["content"]) == kb * 1000
        print(f"{kb:>13}   {elapsed:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
