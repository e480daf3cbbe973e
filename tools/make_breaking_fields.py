"""Write the rule and field tables of docs/breaking.md from generator/breaking/.

``python tools/make_breaking_fields.py`` replaces the text between each pair of markers (the
"Policy" section's rule table, the "Every field" section's field table);
tests/test_breaking_fields.py fails while a committed table differs.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator.breaking.fields import rules_table, table  # noqa: E402

DOC = ROOT / "docs" / "breaking.md"
START = "<!-- fields: made by tools/make_breaking_fields.py -->\n"
END = "<!-- fields: end -->\n"
RULES_START = "<!-- rules: made by tools/make_breaking_fields.py -->\n"
RULES_END = "<!-- rules: end -->\n"


def _replace(text: str, start: str, end: str, body: str) -> str:
    head, _, rest = text.partition(start)
    _, _, tail = rest.partition(end)
    return head + start + body + end + tail


def updated(text: str) -> str:
    """``text`` (the doc) with both tables between their markers made anew."""
    return _replace(_replace(text, START, END, table()), RULES_START, RULES_END, rules_table())


def main() -> int:
    text = DOC.read_text("utf-8")
    if any(marker not in text for marker in (START, END, RULES_START, RULES_END)):
        print(f"{DOC}: a table's markers are missing", file=sys.stderr)
        return 1
    DOC.write_text(updated(text), "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
