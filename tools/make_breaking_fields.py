"""Write the field table of docs/breaking.md from generator/breaking/fields.py.

``python tools/make_breaking_fields.py`` replaces the text between the two markers of the
"Every field" section; tests/test_breaking_fields.py fails while the committed table differs.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator.breaking.fields import table  # noqa: E402

DOC = ROOT / "docs" / "breaking.md"
START = "<!-- fields: made by tools/make_breaking_fields.py -->\n"
END = "<!-- fields: end -->\n"


def updated(text: str) -> str:
    """``text`` (the doc) with the table between the markers made anew."""
    head, _, rest = text.partition(START)
    _, _, tail = rest.partition(END)
    return head + START + table() + END + tail


def main() -> int:
    text = DOC.read_text("utf-8")
    if START not in text or END not in text:
        print(f"{DOC}: the field table markers are missing", file=sys.stderr)
        return 1
    DOC.write_text(updated(text), "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
