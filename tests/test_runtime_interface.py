"""tests/data/runtime/interface.json: both runtimes' public names side by side (tools/runtime_interface.py).

- the file is what the script writes now;
- every name without a counterpart has a reason in tests/data/runtime/one_sided.json (a TypeScript
  type excepted: it has no run-time value), and every reason there belongs to such a name;
- every TypeScript function and class that pairs with a Python name is run by a case of the
  conformance corpus (the V8 coverage of tests/test_conformance.py's run; skipped without node).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from test_conformance import corpus_run

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import runtime_interface  # noqa: E402


def _surfaces() -> dict[str, Any]:
    surfaces: dict[str, Any] = runtime_interface.build()["surfaces"]
    return surfaces


def test_the_record_is_what_the_script_writes() -> None:
    assert runtime_interface.OUT.read_text("utf-8") == runtime_interface.text(), (
        "tests/data/runtime/interface.json is stale: run `.venv/bin/python tools/runtime_interface.py` "
        "and give every new one-sided name a reason in tests/data/runtime/one_sided.json"
    )


def test_every_one_sided_name_has_a_reason_and_every_reason_a_name() -> None:
    missing = []
    for key, surface in _surfaces().items():
        for name in surface["python_only"]:
            if name not in surface["reasons"]:
                missing.append(f"{key}: Python's {name}")
        for name, kind in surface["typescript_only"]:
            if kind != "type" and name not in surface["reasons"]:
                missing.append(f"{key}: TypeScript's {name} ({kind})")
    assert not missing, "names with no counterpart and no reason in one_sided.json:\n" + "\n".join(missing)
    reasons = json.loads(runtime_interface.ONE_SIDED.read_text("utf-8"))
    surfaces = _surfaces()
    stale = [
        f"{key}: {name}"
        for key, names in reasons.items()
        for name in names
        if key not in surfaces or name not in surfaces[key]["reasons"]
    ]
    assert not stale, "reasons for names that are not one-sided (any more):\n" + "\n".join(stale)


def _covered(coverage: Path, out: Path) -> dict[Path, list[tuple[int, int, int, str]]]:
    """Per compiled file: (start, end, count, name) of every function V8 saw."""
    found: dict[Path, list[tuple[int, int, int, str]]] = {}
    for report in coverage.glob("*.json"):
        for script in json.loads(report.read_text("utf-8"))["result"]:
            url = script["url"]
            if not url.startswith("file://"):
                continue
            path = Path(url.removeprefix("file://"))
            if out not in path.parents:
                continue
            for function in script["functions"]:
                first = function["ranges"][0]
                entry = (first["startOffset"], first["endOffset"], first["count"], function["functionName"])
                found.setdefault(path, []).append(entry)
    return found


def _declared(files: list[Path], name: str, kind: str) -> tuple[Path, int, int] | None:
    """Where ``name`` is declared in the compiled files: (file, start, end of its top-level block)."""
    keyword = "class" if kind == "class" else r"(?:async )?function\*?"
    pattern = re.compile(rf"^export {keyword} {re.escape(name)}\b", re.M)
    for path in files:
        text = path.read_text("utf-8")
        match = pattern.search(text)
        if match:
            end = text.find("\n}", match.start())
            return path, match.start(), len(text) if end < 0 else end
    return None


def test_every_paired_typescript_function_and_class_runs_in_the_corpus() -> None:
    completed, coverage, _ = corpus_run()
    assert completed.returncode == 0, "the corpus run failed (tests/test_conformance.py says why)"
    out = coverage.parent / "out" / "pkg"
    seen = _covered(coverage, out)
    files = [*sorted((out / "_runtime").glob("*.js")), *sorted(out.glob("*.js"))]
    unrun = []
    for key, surface in _surfaces().items():
        for python, name, kind in surface["pairs"]:
            if kind not in ("function", "class"):
                continue
            module = key.split("/", 1)[1]
            own = out / "_runtime" / f"{'index' if module == '__init__' else module}.js"
            where = _declared([own, *files] if key.startswith("runtime/") else files, name, kind)
            if where is None:
                unrun.append(f"{key}: {name} ({kind}) is not declared in the compiled package")
                continue
            path, start, end = where
            # a function runs when V8 counted a call of it; a class when any code in its body ran
            ran = any(
                start <= s < end and c > 0 and (kind == "class" or n == name) for s, _, c, n in seen.get(path, [])
            )
            if not ran:
                unrun.append(f"{key}: {name} ({kind}, Python's {python})")
    assert not unrun, f"{len(unrun)} paired TypeScript names no corpus case runs:\n" + "\n".join(unrun)
