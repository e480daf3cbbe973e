"""What the case modules share: the collector of cases and how a Python answer becomes the expected one."""

from __future__ import annotations

import importlib.util
import json
import sys
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from conformance.corpus import Case

ROOT = Path(__file__).resolve().parents[2]
GRID = ROOT / "tests" / "data" / "reference" / "cline-v4.0.10-variant-selection-grid.json"


@cache
def package(specs: Path, name: str) -> ModuleType:
    """The Python package of a spec set, generated into a temporary folder and imported as ``name``
    (tests/ts_bridge.py compiles the TypeScript one as ``<name>/`` beside ``pkg/``)."""
    from generator import pipeline, write

    result = pipeline.run(specs)
    if result.diagnostics.has_errors:
        raise AssertionError(result.diagnostics.render())
    out = Path(tempfile.mkdtemp(prefix=f"toolgen-{name}-")) / name
    write.write(out, result.files, write.plan(out, result.files))
    spec = importlib.util.spec_from_file_location(
        f"toolgen_conformance_{name}", out / "__init__.py", submodule_search_locations=[str(out)]
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def as_json(value: Any) -> Any:
    """A Python value as JSON holds it (tuples become lists), NaN and huge integers kept."""
    if isinstance(value, dict):
        return {key: as_json(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [as_json(item) for item in value]
    return value


def outcome(run: Callable[[], Any]) -> Any:
    """A Python call's answer as JSON, or its error as ``{"error": "<Name>: <message>"}``.

    A KeyError is spelled as the TS runtime spells its own: a missing key quoted (``'x'``), a
    sentence as it is (Python's ``str()`` would quote the sentence too)."""
    try:
        return as_json(run())
    except KeyError as exc:
        [arg] = exc.args or [""]
        return {"error": f"KeyError: {arg if isinstance(arg, str) and ' ' in arg.strip() else repr(arg)}"}
    except Exception as exc:
        return {"error": f"{type(exc).__name__}: {exc}"}


@dataclass
class Cases:
    """The cases of one corpus file, in the order they are added.

    Each case's TypeScript answer is Python's answer on the input as JavaScript reads it
    (differences.js_view: key order, integral numbers), then the answer models of differences.py;
    where that is not Python's answer, the case records both and the differences that made it."""

    items: list[Case] = field(default_factory=list)

    def add(self, module: str, function: str, given: Any, python: Callable[[Any], Any]) -> None:
        from conformance import differences

        expect = outcome(lambda: python(given))
        seen, names = differences.js_view(given)
        expect_ts = outcome(lambda: python(seen)) if names else expect
        if differences.has_index_keys(expect_ts):
            ordered = differences.js_order(expect_ts)
            if json.dumps(ordered) != json.dumps(expect_ts):
                names.add("integer-like-keys")
                expect_ts = ordered
        for name, applies, ts_answer in differences.MODELS:
            if applies(module, function, given, expect_ts):
                names.add(name)
                expect_ts = ts_answer(module, function, given, expect_ts)
        # equal as JavaScript reads both (1.0 is 1 there): then the case needs no second answer
        if expect_ts is expect or json.dumps(differences.js_view(expect_ts)[0]) == json.dumps(
            differences.js_view(expect)[0]
        ):
            self.items.append(Case(module, function, given, expect))
        else:
            order = [entry["id"] for entry in differences.entries()]
            shown = tuple(sorted(names, key=order.index))
            self.items.append(Case(module, function, given, expect, shown, expect_ts))

    def run(self, module: str, function: str, inputs: Iterable[Any], python: Callable[[Any], Any]) -> None:
        """One case of ``function`` per input."""
        for given in inputs:
            self.add(module, function, given, python)

    def each(self, module: str, inputs: Iterable[dict[str, Any]], python: Callable[[dict[str, Any]], Any]) -> None:
        """One case per input; its ``op`` names the function, the rest is the input."""
        for item in inputs:
            given = dict(item)
            function = given.pop("op")
            self.add(module, function, given, lambda g, op=function: python({"op": op, **g}))  # type: ignore[misc]


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)
