"""black, pinned in the test extra, judges the layout toolgen writes without it.

Generation never runs black (docs/performance.md): templates are written black-stable, and every
line whose length depends on the specs is laid out by pyfmt (data, assignments) or typelayout
(args.py's annotations, TypedDict headers). Here black must leave every generated file unchanged
for spec sets chosen to reach those lines (64-character names and ids, long defaults and enum
values, wide characters, keys that force the functional TypedDict syntax, the injection corpus),
and the two layout modules are compared with black on seeded random shapes.
tests/test_determinism.py does the same for specs/ and the plain fixture catalog.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import black
import pytest

from conftest import FIXTURE_SPECS, ROOT, copy_specs, edit
from generator import pipeline, pyfmt
from generator.typelayout import Annotation, Sub, Union, class_header, field, functional
from test_injection import write_corpus_specs

MODE = black.Mode(target_versions={black.TargetVersion.PY311}, line_length=pyfmt.LINE_LENGTH)
DATA = ROOT / "tests" / "data"

# Context fields whose lines cannot stay whole: black splits a 64-character field's
# ``tuple[str, ...]`` annotation, wraps a long default in parentheses, or explodes a tuple.
LONG_FIELDS = f"""\
  {"f" * 56}_context:
    type: string_list
    default: []
    doc: A 64-character string list field.
  {"g" * 64}:
    type: string_list
    default: [aaaaaaaaaaaaaaaaaaaa, bbbbbbbbbbbbbbbbbbbbbbbbbbbbbb, cccccccccccccccccc, dddddddddddddd]
    doc: Another one, with a long default.
  {"h" * 40}:
    type: string_list
    default: [aaaaaaaaaaaaaaaaaaaa, bbbbbbbbbbbbbbbbbbbbbbbbbbbbbb]
    doc: A shorter name with a long default.
  {"i" * 64}:
    type: string
    nullable: true
    default: "a default string value that is long enough to need its own line"
    doc: A long string default.
  {"j" * 64}:
    type: boolean
    nullable: true
    default: null
    doc: A nullable boolean.
  {"k" * 64}:
    type: integer
    default: 123456789012345
    doc: A long integer.
"""


def _stress(specs: Path) -> None:
    todo = specs / "tools" / "todo.yaml"
    extra = (DATA / "args_odd_parameters.yaml").read_text("utf-8") + (DATA / "black_judge_parameters.yaml").read_text(
        "utf-8"
    )
    todo.write_text(todo.read_text("utf-8") + extra, "utf-8")
    edit(specs / "toolgen.yaml", "placeholders:\n", LONG_FIELDS + "placeholders:\n")
    edit(specs / "toolgen.yaml", "  - native\n", f"  - native\n  - {'F' * 64}\n  - family-{'x' * 55}\n")


def _corpus(specs: Path) -> None:
    write_corpus_specs(specs)


@pytest.mark.parametrize("build", [_stress, _corpus], ids=["long-names-and-values", "injection-corpus"])
def test_black_leaves_every_generated_file_unchanged(tmp_path: Path, build: Callable[[Path], None]) -> None:
    specs = copy_specs(FIXTURE_SPECS, tmp_path)
    build(specs)
    result = pipeline.run(specs)
    assert not result.diagnostics.has_errors, result.diagnostics.render()
    changed = []
    for rel, data in sorted(result.files.items()):
        if rel.endswith(".py"):
            source = data.decode("utf-8")
            if black.format_str(source, mode=MODE) != source:
                changed.append(rel)
    assert not changed, f"black would change {changed}"


def test_the_stress_specs_reach_the_split_layouts(tmp_path: Path) -> None:
    """Guards the test above: its specs really produce the lines that need a layout rule."""
    specs = copy_specs(FIXTURE_SPECS, tmp_path)
    _stress(specs)
    files = pipeline.run(specs).files
    context, args = files["context.py"].decode(), files["args.py"].decode()
    assert f"    {'g' * 64}: tuple[\n        str, ...\n    ] = (\n" in context
    assert f"    {'f' * 56}_context: tuple[\n        str, ...\n    ] = ()\n" in context
    assert f"    {'i' * 64}: str | None = (\n" in context
    assert "TypedDict(\n" in args and "    | None\n" in args and "Literal[\n" in args


# ---- the layout modules against black on random shapes ----------------------------------------


def _name(rng: random.Random, low: int, high: int) -> str:
    return "N" + "".join(rng.choice("abcdefgh_0") for _ in range(rng.randint(low, high) - 1))


def _literal(rng: random.Random) -> str:
    size = rng.choice([rng.randint(0, 40), rng.randint(70, 100)])
    return pyfmt.string("".join(rng.choice("abxyz-日") for _ in range(size)))


def _annotation(rng: random.Random, depth: int = 0) -> Annotation:
    roll = rng.random()
    if depth > 3 or roll < 0.25:
        return rng.choice(["str", "int", "Any", _name(rng, 3, 60)])
    if roll < 0.45:
        return Sub("Literal", tuple(_literal(rng) for _ in range(rng.randint(1, 6))))
    if roll < 0.6:
        return Sub("list", (_annotation(rng, depth + 1),))
    if roll < 0.7:
        return Sub("dict", ("str", "Any"))
    if roll < 0.85:
        inner = _annotation(rng, depth + 1)
        return inner if isinstance(inner, Union) else Union((inner, "None"))
    return Sub("NotRequired", (_annotation(rng, depth + 1),))


@pytest.mark.parametrize("seed", range(4))
def test_typelayout_matches_black(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(150):
        if rng.random() < 0.5:
            source = class_header(_name(rng, 1, 130), rng.choice(["TypedDict", "TypedDict, total=False"]))
            source += "\n" + field(_name(rng, 1, 64).lower(), _annotation(rng)) + "\n"
        else:
            entries = tuple((pyfmt.string(_name(rng, 1, 64)), _annotation(rng)) for _ in range(rng.randint(1, 5)))
            target = _name(rng, 1, 130)
            keyword = rng.choice(["total=True", "total=False"])
            source = functional(target, (pyfmt.string(target),), entries, keyword) + "\n"
        assert black.format_str(source, mode=MODE) == source


@pytest.mark.parametrize("seed", range(2))
def test_annotated_class_fields_match_black(seed: int) -> None:
    """pyfmt.write_assignment for Context fields: long names split ``tuple[str, ...]`` as black does."""
    rng = random.Random(seed)
    for _ in range(200):
        name = "f" * rng.randint(40, 64)
        target, value = rng.choice(
            [
                (f"{name}: tuple[str, ...]", tuple("x" * rng.randint(0, 30) for _ in range(rng.choice([0, 1, 2, 5])))),
                (f"{name}: str | None", rng.choice([None, "y" * rng.randint(0, 40)])),
                (f"{name}: int", 10 ** rng.randint(1, 30)),
                (f"{name}: bool | None", rng.choice([None, True])),
            ]
        )
        source = "class C:\n" + pyfmt.assignment(target, value, 1) + "\n"
        assert black.format_str(source, mode=MODE) == source
