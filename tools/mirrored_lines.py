"""Count the TypeScript runtime lines written by hand beside their Python twins (issue 22).

``.venv/bin/python tools/mirrored_lines.py [REV ...]`` prints, for the working tree or each git
revision, the lines of generator/ts_runtime/*.ts (its tests left out) that no script writes: a
file whose header says "do not edit" is emitted data (formats.ts, validation_keywords.ts,
unicode_data.ts) and is not counted. ``lines`` is every line; ``code`` leaves out blank lines and
comment-only lines. Each such line mirrors Python by hand: a fix to the behaviour is written twice.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDER = "generator/ts_runtime"


def _sources(rev: str | None) -> dict[str, str]:
    if rev is None:
        return {p.name: p.read_text("utf-8") for p in sorted((ROOT / FOLDER).glob("*.ts"))}
    names = subprocess.run(
        ["git", "ls-tree", "--name-only", f"{rev}:{FOLDER}"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    show = ["git", "show"]
    return {
        name: subprocess.run([*show, f"{rev}:{FOLDER}/{name}"], cwd=ROOT, capture_output=True, text=True).stdout
        for name in names
        if name.endswith(".ts")
    }


def count(text: str) -> tuple[int, int]:
    """(lines, code lines): code leaves out blank lines and lines inside or starting a comment."""
    code, in_comment = 0, False
    for line in text.splitlines():
        stripped = line.strip()
        if in_comment:
            in_comment = "*/" not in stripped
            continue
        if not stripped or stripped.startswith("//"):
            continue
        if stripped.startswith("/*"):
            in_comment = "*/" not in stripped
            continue
        code += 1
    return len(text.splitlines()), code


def main() -> None:
    for rev in sys.argv[1:] or [None]:
        lines = code = 0
        emitted = []
        for name, text in _sources(rev).items():
            if "do not edit" in text[:600]:
                emitted.append(name)
                continue
            file_lines, file_code = count(text)
            lines, code = lines + file_lines, code + file_code
        print(f"{rev or 'working tree'}: {lines} lines, {code} code lines by hand; emitted: {', '.join(emitted)}")


if __name__ == "__main__":
    main()
