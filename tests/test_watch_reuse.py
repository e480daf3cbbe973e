"""``generate --watch`` renders from what its last run kept (generator/lower/reuse.py): after any
sequence of edits, the output it renders is byte for byte what a fresh run renders, diagnostics
included. Edits are drawn at random (seeded) from what a spec author does: a description, a shared
parameter, a family's tool list, a tool renamed, removed or deprecated, parameters reordered."""

from __future__ import annotations

import io
import random
import shutil
import sys
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest
import yaml

from conftest import BUNDLED_SPECS, copy_specs
from generator import cli, commands, pipeline, pyfmt, watch
from generator.lower.reuse import Reuse
from generator.workspace import Workspace

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import synth

Edit = Callable[[random.Random, Path, int], None]


def _load(path: Path) -> Any:
    return yaml.safe_load(path.read_text("utf-8"))


def _dump(path: Path, data: Any) -> None:
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), "utf-8")


def _tool_files(specs: Path) -> list[Path]:
    return sorted((specs / "tools").glob("*.yaml"))


def describe(rng: random.Random, specs: Path, n: int) -> None:
    """A tool's own description text changed (the one-line edit of the benchmarks)."""
    path = rng.choice(_tool_files(specs))
    data = _load(path)
    for variant in data["variants"].values():
        text = variant.get("description")
        if isinstance(text, str):
            variant["description"] = f"Edited {n}. {text}"
            break
        if isinstance(text, list) and text and isinstance(text[0], dict):
            text[0]["text"] = f"Edited {n}. {text[0]['text']}"
            break
    _dump(path, data)


def shared(rng: random.Random, specs: Path, n: int) -> None:
    """A shared parameter's instruction changed: every tool using it changes."""
    path = specs / "parameters.yaml"
    data = _load(path)
    name = rng.choice(sorted(data["parameters"]))
    data["parameters"][name]["instruction"] = f"Shared edit {n}."
    _dump(path, data)


def family(rng: random.Random, specs: Path, n: int) -> None:
    """A family's tool list reordered and one tool dropped from it."""
    path = rng.choice([p for p in sorted((specs / "variants").glob("*.yaml")) if p.stem != "generic"])
    data = _load(path)
    tools = data.get("tools")
    if isinstance(tools, list) and len(tools) > 2:
        tools.reverse()
        tools.pop(rng.randrange(len(tools)))
    _dump(path, data)


def rename(rng: random.Random, specs: Path, n: int) -> None:
    """A tool id renamed everywhere (its file, the enum, the families, references)."""
    path = rng.choice(_tool_files(specs))
    old = path.stem
    new = f"renamed_{n}_{old}"
    for each in specs.rglob("*.yaml"):
        text = each.read_text("utf-8")
        if old in text:
            each.write_text(text.replace(old, new), "utf-8")
    path.rename(path.with_name(f"{new}.yaml"))


def remove(rng: random.Random, specs: Path, n: int) -> None:
    """A tool no other tool's handler shares removed, with every list entry naming it."""
    files = _tool_files(specs)
    lines = [line for p in files for line in p.read_text("utf-8").splitlines()]
    shared_ids = {line.split(":", 1)[1].strip() for line in lines if "shares:" in line}
    candidates = [p for p in files if p.stem not in shared_ids]
    if len(candidates) < 3:
        return
    path = rng.choice(candidates)
    path.unlink()
    for each in specs.rglob("*.yaml"):
        lines = each.read_text("utf-8").splitlines(keepends=True)
        kept = [line for line in lines if line.strip() != f"- {path.stem}"]
        if kept != lines:
            each.write_text("".join(kept), "utf-8")


def deprecate(rng: random.Random, specs: Path, n: int) -> None:
    """A tool deprecated (or no longer)."""
    path = rng.choice(_tool_files(specs))
    data = _load(path)
    if "deprecated" in data:
        del data["deprecated"]
    else:
        data["deprecated"] = {"note": f"Use another tool ({n})."}
    _dump(path, data)


def reorder(rng: random.Random, specs: Path, n: int) -> None:
    """Two parameters of a variant swapped (the TypedDicts and the entries change)."""
    path = rng.choice(_tool_files(specs))
    data = _load(path)
    for variant in data["variants"].values():
        params = variant.get("parameters")
        if isinstance(params, list) and len(params) > 1:
            params[0], params[1] = params[1], params[0]
            break
    _dump(path, data)


def strip(rng: random.Random, specs: Path, n: int) -> None:
    """An early tool's parameters all removed: every later shared parameter list is renumbered."""
    path = rng.choice(_tool_files(specs)[:4])
    data = _load(path)
    for variant in data["variants"].values():
        variant.pop("parameters", None)
    _dump(path, data)


EDITS: list[Edit] = [describe, shared, family, rename, remove, deprecate, reorder, strip]


def _rendered(result: pipeline.Result) -> tuple[str, dict[str, bytes], dict[str, bytes]]:
    return result.diagnostics.render("json"), result.files, result.docs


def _check_sequence(specs: Path, rng: random.Random, steps: int) -> list[str]:
    """Edit ``steps`` times; after each, the watch workspace's render must equal a fresh one."""
    ws = Workspace(specs)
    assert not pipeline.run(specs, workspace=ws).diagnostics.has_errors
    done = []
    for n in range(steps):
        edit = rng.choice(EDITS)
        edit(rng, specs, n)
        done.append(edit.__name__)
        ws.refresh()
        again = _rendered(pipeline.run(specs, workspace=ws))
        fresh = _rendered(pipeline.run(specs))
        assert again[0] == fresh[0], done
        assert again[1].keys() == fresh[1].keys(), done
        for name in fresh[1]:
            assert again[1][name] == fresh[1][name], (done, name)
        assert again[2] == fresh[2], done
    return done


@pytest.mark.parametrize("seed", range(4))
def test_watch_render_equals_a_fresh_one_after_random_edits(tmp_path: Path, seed: int) -> None:
    specs = synth.write_catalog(tmp_path / "catalog", 24, seed)
    done = _check_sequence(specs, random.Random(seed), 7)
    assert len(done) == 7


def test_a_name_taken_by_an_edited_tool_moves_an_unchanged_one(tmp_path: Path) -> None:
    """args.py names are handed out in tool order: when an edit makes an earlier tool claim the name
    a later, unchanged tool had, the later one's remembered part must not be taken as it was."""
    specs = synth.write_catalog(tmp_path / "catalog", 10, 5)
    order = _load(specs / "toolgen.yaml")["tools"]
    first, last = order[0], order[-1]
    twin = f"{first}_compact"  # camel(twin) + "Args" == camel(first) + "Compact" + "Args"
    for each in specs.rglob("*.yaml"):
        each.write_text(each.read_text("utf-8").replace(last, twin), "utf-8")
    (specs / "tools" / f"{last}.yaml").rename(specs / "tools" / f"{twin}.yaml")
    path = specs / "tools" / f"{first}.yaml"
    data = _load(path)
    data["variants"] = {"generic": {"description": "First.", "parameters": [{"name": "p", "instruction": "P."}]}}
    _dump(path, data)
    ws = Workspace(specs)
    before = pipeline.run(specs, workspace=ws)
    assert not before.diagnostics.has_errors, before.diagnostics.render("text")
    assert f"class {''.join(w.capitalize() for w in twin.split('_'))}Args(" in before.files["args.py"].decode()
    data["variants"]["compact"] = {"description": "Compact.", "parameters": [{"name": "q", "instruction": "Q."}]}
    _dump(path, data)
    ws.refresh()
    again, fresh = pipeline.run(specs, workspace=ws), pipeline.run(specs)
    assert not fresh.diagnostics.has_errors, fresh.diagnostics.render("text")
    assert "Compact2Args(" in fresh.files["args.py"].decode()  # the twin moved aside
    assert _rendered(again) == _rendered(fresh)


def test_every_edit_kind_on_the_bundled_specs(tmp_path: Path) -> None:
    specs = copy_specs(BUNDLED_SPECS, tmp_path)
    ws = Workspace(specs)
    rng = random.Random(7)
    pipeline.run(specs, workspace=ws)
    for n, edit in enumerate([describe, shared, reorder, deprecate, family, rename, describe]):
        edit(rng, specs, n)
        ws.refresh()
        assert _rendered(pipeline.run(specs, workspace=ws)) == _rendered(pipeline.run(specs)), edit.__name__


def test_watch_writes_what_a_fresh_generate_writes(tmp_path: Path) -> None:
    """Through the watch loop's own run (workspace refreshed, CLI generate, atomic swap)."""
    root = tmp_path / "catalog"
    specs = synth.write_catalog(root, 16, 3)
    out, fresh = root / "generated", root / "fresh"
    parser = cli._parser()
    args = parser.parse_args(["generate", "--specs", str(specs), "--out", str(out), "--no-docs"])
    args.specs_given, args.watch = args.specs, False
    once = watch._generate_with(Workspace(specs))
    rng = random.Random(3)
    sink = io.StringIO()
    for n, edit in enumerate([None, describe, shared, rename, reorder]):
        if edit is not None:
            edit(rng, specs, n)
        with redirect_stdout(sink), redirect_stderr(sink):
            assert once(args) == 0, sink.getvalue()
            shutil.rmtree(fresh, ignore_errors=True)
            plain = parser.parse_args(["generate", "--specs", str(specs), "--out", str(fresh), "--no-docs"])
            plain.specs_given, plain.watch = plain.specs, False
            assert commands.run_once(plain) == 0, sink.getvalue()
        written = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
        assert written == {p.relative_to(fresh): p.read_bytes() for p in fresh.rglob("*") if p.is_file()}


def _value(rng: random.Random, depth: int) -> Any:
    kind = rng.randrange(6 if depth < 3 else 3)
    if kind == 0:
        return rng.choice(["", "x", "a 'quoted' \"word\"", "long " * rng.randrange(30), "é\n\t"])
    if kind == 1:
        return rng.choice([0, 1, -7, 2**40, 1.5, True, None])
    if kind == 2:
        return pyfmt.Code(f"_ENTRIES[{rng.randrange(100)}]")
    if kind == 3:
        return {f"k{i}" * rng.randrange(1, 6): _value(rng, depth + 1) for i in range(rng.randrange(6))}
    if kind == 4:
        return tuple(_value(rng, depth + 1) for _ in range(rng.randrange(6)))
    return [_value(rng, depth + 1) for _ in range(rng.randrange(6))]


@pytest.mark.parametrize("seed", range(30))
def test_layouts_give_the_same_text(seed: int) -> None:
    """pyfmt with remembered element layouts writes what it writes without, on the first pass and
    after elements were replaced, added or dropped."""
    rng = random.Random(seed)
    reuse = Reuse()
    value = {f"tool_{i}": _value(rng, 1) for i in range(rng.randrange(1, 12))}
    for _ in range(4):
        reuse.sweep()
        for depth in (0, 1):
            assert pyfmt.assignment("X: dict[str, Any]", value, depth) == _with_layouts(reuse, value, depth)
        value = dict(value)
        key = rng.choice(sorted(value))
        value[key] = _value(rng, 1)
        value[f"new_{rng.randrange(100)}"] = _value(rng, 1)
        value.pop(rng.choice(sorted(value)))


def _with_layouts(reuse: Reuse, value: Any, depth: int) -> str:
    out = io.StringIO(newline="")
    pyfmt.write_assignment(out, "X: dict[str, Any]", value, depth, reuse.layouts)
    return out.getvalue()


def test_docstring_fast_path_equals_the_escaping_one() -> None:
    """args.docstring's shortcut for plain text gives what escaping character by character gives
    (the reference, escaped_docstring, is the function as it was before the shortcut)."""
    from generator.lower import args

    rng = random.Random(5)
    alphabet = " a\"\\b\n\t\x01é'x"
    for _ in range(20000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(7)))
        assert args.docstring(text) == args.escaped_docstring(text), text
