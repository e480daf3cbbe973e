"""Write tests/data/runtime/interface.json: the public names of both runtimes, side by side.

    .venv/bin/python tools/runtime_interface.py          # rewrite the file
    .venv/bin/python tools/runtime_interface.py --check  # exit 1 when it is stale

Two surfaces are recorded:

- ``runtime``: per module of the shared runtime, the public names of generator/runtime/<m>.py
  (``__all__``, else every top-level definition not starting with ``_`` and not imported) and the
  exports of generator/ts_runtime/<m>.ts;
- ``package``: the generated package, the public names of generated/*.py (the root's ``__all__``
  and each module's own definitions) and the exports of generated-ts/index.ts (followed through
  its re-exports).

A TypeScript name pairs with the Python name it spells in camelCase (``select_family`` ->
``selectFamily``; names in capitals or starting with one pair as they are). Every name without a
counterpart must have a reason in tests/data/runtime/one_sided.json ("<surface>/<module>" -> name
-> reason), except a TypeScript type (an ``interface`` or ``type``: a shape Python checks at run
time or declares with ``typing``, with no run-time value). tests/test_runtime_interface.py fails
on a name without one, on a reason for a name that is not one-sided any more, and on a TypeScript
function or class of a pair that no case of the conformance corpus runs.
"""

from __future__ import annotations

import ast
import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PY_RUNTIME = ROOT / "generator" / "runtime"
TS_RUNTIME = ROOT / "generator" / "ts_runtime"
TS_PACKAGE = ROOT / "generated-ts"
OUT = ROOT / "tests" / "data" / "runtime" / "interface.json"
ONE_SIDED = ROOT / "tests" / "data" / "runtime" / "one_sided.json"

_DECLARED = re.compile(
    r"^export\s+(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(function\*?|class|const|let|type|interface|enum)\s+"
    r"([A-Za-z_$][\w$]*)",
    re.M,
)
_LISTED = re.compile(r"^export\s+(type\s+)?\{([^}]*)\}(?:\s*from\s*\"([^\"]+)\")?", re.M)
_STAR = re.compile(r"^export\s+\*\s+from\s+\"([^\"]+)\"", re.M)
_KINDS = {"function": "function", "function*": "function", "class": "class", "const": "data", "let": "data"}


def camel(name: str) -> str:
    """The TypeScript spelling of a Python name."""
    if name[:1].isupper() or "_" not in name.strip("_"):
        return name
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def python_names(path: Path) -> dict[str, str]:
    """A module's public names -> kind (function, class, data)."""
    tree = ast.parse(path.read_text("utf-8"))
    kinds: dict[str, str] = {}
    listed: list[str] | None = None
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            kinds[node.name] = "function"
        elif isinstance(node, ast.ClassDef):
            kinds[node.name] = "class"
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    if target.id == "__all__" and isinstance(node.value, (ast.List, ast.Tuple)):
                        listed = [e.value for e in node.value.elts if isinstance(e, ast.Constant)]
                    kinds.setdefault(target.id, "data")
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                kinds.setdefault(alias.asname or alias.name, "imported")
    if listed is not None:
        return {name: kinds.get(name, "imported") for name in listed}
    return {n: k for n, k in kinds.items() if not n.startswith("_") and k != "imported" and n != "annotations"}


def ts_names(path: Path, seen: frozenset[Path] = frozenset()) -> dict[str, str]:
    """A module's exports -> kind (function, class, data, type), re-exports followed."""
    text = path.read_text("utf-8")
    names: dict[str, str] = {}
    for keyword, name in _DECLARED.findall(text):
        names[name] = _KINDS.get(keyword, "type")
    for type_only, body, source in _LISTED.findall(text):
        origin = ts_names(path.parent / source.replace(".js", ".ts"), seen | {path}) if source else names
        for part in (p.strip() for p in body.split(",")):
            if not part:
                continue
            is_type = bool(type_only) or part.startswith("type ")
            inner, _, outer = re.sub(r"^type\s+", "", part).partition(" as ")
            name = (outer or inner).strip()
            names[name] = "type" if is_type else origin.get(inner.strip(), "data")
    for source in _STAR.findall(text):
        target = path.parent / source.replace(".js", ".ts")
        if target not in seen:
            names.update(ts_names(target, seen | {path}))
    return names


def pair(python: dict[str, str], typescript: dict[str, str]) -> dict[str, Any]:
    by_ts = {camel(name): name for name in python}
    pairs = [[by_ts[name], name, typescript[name]] for name in sorted(typescript) if name in by_ts]
    paired_py = {p for p, _, _ in pairs}
    return {
        "pairs": pairs,
        "python_only": sorted(n for n in python if n not in paired_py),
        "typescript_only": sorted([n, typescript[n]] for n in typescript if n not in by_ts),
    }


def package_python() -> dict[str, str]:
    """The generated package's public names: its root's ``__all__`` and every generated module's."""
    names: dict[str, str] = {}
    for path in sorted((ROOT / "generated").glob("*.py")):
        for name, kind in python_names(path).items():
            if kind != "imported" or path.name == "__init__.py":
                names.setdefault(name, kind)
    return names


def build() -> dict[str, Any]:
    reasons: dict[str, dict[str, str]] = json.loads(ONE_SIDED.read_text("utf-8"))
    surfaces: dict[str, dict[str, Any]] = {}
    modules = sorted({p.stem for p in PY_RUNTIME.glob("*.py")} | {p.stem for p in TS_RUNTIME.glob("*.ts")})
    for module in modules:
        py_path, ts_path = PY_RUNTIME / f"{module}.py", TS_RUNTIME / f"{module}.ts"
        if module == "__init__":
            ts_path = TS_RUNTIME / "index.ts"
        elif module == "index":
            continue
        python = python_names(py_path) if py_path.is_file() else {}
        typescript = ts_names(ts_path) if ts_path.is_file() else {}
        surfaces[f"runtime/{module}"] = pair(python, typescript)
    surfaces["package/index"] = pair(package_python(), ts_names(TS_PACKAGE / "index.ts"))
    for key, surface in surfaces.items():
        given = reasons.get(key, {})
        one_sided = [*surface["python_only"], *(name for name, _ in surface["typescript_only"])]
        surface["reasons"] = {name: given[name] for name in one_sided if name in given}
    # the file also records, per RUNTIME_VERSION, what generated modules use of the runtime
    # (tests/test_runtime_version.py): those entries are kept as they are
    kept = {k: v for k, v in json.loads(OUT.read_text("utf-8")).items() if k.isdigit()} if OUT.is_file() else {}
    return {
        **kept,
        "//": "surfaces: written by tools/runtime_interface.py, the public names of the Python and the "
        "TypeScript runtime. pairs: [python, typescript, kind of the TS export]; typescript_only: [name, kind]; "
        "reasons come from one_sided.json. The numbered entries: tests/test_runtime_version.py.",
        "surfaces": surfaces,
    }


_SHORT_LIST = re.compile(r"\[\n(?:\s+\"[^\"\n]*\",?\n){1,3}\s*\]")


def text() -> str:
    """The file: JSON with one space of indent, a short list of names (a pair) on one line."""
    dumped = json.dumps(build(), indent=1, ensure_ascii=False)
    return (
        _SHORT_LIST.sub(
            lambda m: "[" + ", ".join(x.strip().rstrip(",") for x in m.group()[1:-1].split("\n") if x.strip()) + "]",
            dumped,
        )
        + "\n"
    )


def main(argv: list[str]) -> int:
    new = text()
    if "--check" in argv:
        if not OUT.is_file() or OUT.read_text("utf-8") != new:
            print(f"stale: {OUT.relative_to(ROOT)} (run tools/runtime_interface.py)")
            return 1
        return 0
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(new, "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
