"""docs/using-toolgen.md, followed step by step in a folder outside the repository.

The steps come from the page itself: every ``sh`` block is run (``toolgen`` is this interpreter's
installed toolgen, ``python`` this interpreter) and every ``python`` block whose first line is
``# <path>`` is written to that path, in page order. So the page cannot show a command that fails.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from conftest import ROOT

GUIDE = ROOT / "docs" / "using-toolgen.md"
FENCE = re.compile(r"^```(\w+)\n(.*?)^```", re.S | re.M)


def steps() -> list[tuple[str, str]]:
    """("run", command line) and ("write", block) in page order."""
    found: list[tuple[str, str]] = []
    for lang, body in FENCE.findall(GUIDE.read_text("utf-8")):
        if lang == "sh":
            found += [("run", line) for line in body.splitlines() if line.strip()]
        elif lang == "python" and re.match(r"# [\w./]+\.py\n", body):
            found.append(("write", body))
    return found


def _argv(line: str) -> list[str]:
    words = shlex.split(line)
    if words[0] == "toolgen":
        return [sys.executable, "-m", "generator", *words[1:]]
    if words[0] == "python":
        return [sys.executable, *words[1:]]
    return words


def test_the_guide_works_outside_the_repository(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    assert not project.resolve().is_relative_to(ROOT)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "TOOLGEN_DEBUG")}
    env["TOOLGEN_CACHE_DIR"] = ""
    env["PYTHONPATH"] = str(project)  # the project's own package, as running from its root gives
    ran: list[str] = []
    outputs: dict[str, str] = {}
    for kind, text in steps():
        if kind == "write":
            path = project / text.split("\n", 1)[0].removeprefix("# ")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, "utf-8")
            continue
        proc = subprocess.run(_argv(text), cwd=project, env=env, capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, f"`{text}` failed:\n{proc.stdout}\n{proc.stderr}"
        ran.append(text)
        outputs[text] = proc.stdout
    assert [line.split()[:2] for line in ran] == [
        ["git", "init"],
        ["toolgen", "init"],
        ["toolgen", "generate"],
        ["touch", "myapp/__init__.py"],
        ["python", "-m"],
        ["toolgen", "check"],
    ]
    demo = outputs["python -m myapp.demo"].splitlines()
    assert '"tool_result"' in demo[0] and "saved todo.md" in demo[0]
    assert '"role": "tool"' in demo[1] and "buy milk" in demo[1]
    assert demo[2:] == ["[read_note for 'todo.md'] returned:", "buy milk"]
    assert (project / "docs" / "tools.md").is_file()
    assert (project / "config" / "specs" / ".schemas" / "tool.schema.json").is_file()
