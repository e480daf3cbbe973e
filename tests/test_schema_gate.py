"""The meta-schema check's fast step (jsonschema-rs) and jsonschema give the same verdict.

A file the fast step accepts is never checked again, so it must never accept what jsonschema
refuses; one it refuses is checked by jsonschema, so a stricter verdict would only cost time,
but the two are held to the same answer on every file. The specs are the bundled and fixture
ones, each mutated many times (a key dropped, an unknown key added, a value of another type).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

import pytest

from conftest import BUNDLED_SPECS, FIXTURE_SPECS
from generator import validate
from generator.diagnostics import Diagnostics
from generator.load import SourceFile, load_file
from generator.workspace import kind_of_spec

VALUES: list[Any] = [None, True, False, 0, 1, -1, 1.5, "", "x", "Abc", "a\n", "A_1", "0.1.0", [], [1], ["x"], {}]
VALUES += [{"a": 1}, {"name": "x"}, 10**20, 10**400, "1" * 70, float("nan"), {"field": "x", "truthy": True}]
KEYS = ["extra", "nme", "descripton", "use", "requires", "extends", "when"]


def _corpus() -> list[tuple[str, Any]]:
    found = []
    for root in (BUNDLED_SPECS, FIXTURE_SPECS):
        for path in sorted(root.rglob("*.yaml")):
            kind = kind_of_spec(path.relative_to(root).as_posix())
            data = load_file(path, "x", Diagnostics()).data
            if kind is not None and data is not None:
                found.append((kind[0], data))
    return found


def _paths(data: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield at
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for key, value in items:
        yield from _paths(value, at + (key,))


def _mutated(data: Any, rng: random.Random) -> Any:
    data = copy.deepcopy(data)
    paths = [p for p in _paths(data) if p]
    for _ in range(rng.randint(1, 2)):
        at = rng.choice(paths)
        parent = data
        try:
            for key in at[:-1]:
                parent = parent[key]
            roll = rng.random()
            if roll < 0.3 and isinstance(parent, dict):
                parent.pop(at[-1], None)
            elif roll < 0.45 and isinstance(parent, dict):
                parent[rng.choice(KEYS)] = copy.deepcopy(rng.choice(VALUES))
            else:
                parent[at[-1]] = copy.deepcopy(rng.choice(VALUES))
        except (KeyError, IndexError, TypeError):
            pass  # an earlier mutation removed or replaced the way there
    return data


def _jsonschema_accepts(kind: str, data: Any) -> bool:
    return not any(True for _ in validate.validator(kind).iter_errors(data))


@pytest.mark.parametrize("seed", range(4))
def test_fast_step_and_jsonschema_agree_on_mutated_specs(seed: int) -> None:
    rng = random.Random(seed)
    corpus = _corpus()
    refused = 0
    for _ in range(400):
        kind, data = rng.choice(corpus)
        mutated = _mutated(data, rng)
        expected = _jsonschema_accepts(kind, mutated)
        assert validate._passes(kind, mutated) == expected, (kind, mutated)
        refused += not expected
    assert refused > 100  # the mutations do reach invalid files


def test_every_error_of_a_refused_file_is_reported_with_its_place() -> None:
    corpus = dict(reversed(_corpus()))
    data = copy.deepcopy(corpus["tool"])
    data["nme"] = 1
    data["handler"] = 3
    diags = Diagnostics()
    assert not validate.check_schema(SourceFile("specs/tools/x.yaml", data), "tool", 1, diags)
    assert {d.code for d in diags.items if d.severity == "error"} == {"E210", "E212"}
