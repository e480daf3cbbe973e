"""What the case modules share: the collector of cases and how a Python answer becomes the expected one."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance.corpus import Case

ROOT = Path(__file__).resolve().parents[2]
GRID = ROOT / "tests" / "data" / "reference" / "cline-v4.0.10-variant-selection-grid.json"


def as_json(value: Any) -> Any:
    """A Python value as JSON holds it (tuples become lists), NaN and huge integers kept."""
    if isinstance(value, dict):
        return {key: as_json(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [as_json(item) for item in value]
    return value


def outcome(run: Callable[[], Any]) -> Any:
    """A Python call's answer as JSON, or its error as ``{"error": "<Name>: <message>"}``
    (a KeyError's message is its argument, as JavaScript's KeyError of the runtime prints it)."""
    try:
        return as_json(run())
    except KeyError as exc:
        return {"error": f"KeyError: {exc.args[0]}"}
    except Exception as exc:
        return {"error": f"{type(exc).__name__}: {exc}"}


@dataclass
class Cases:
    """The cases of one corpus file, in the order they are added."""

    items: list[Case] = field(default_factory=list)
    #: A documented difference: (difference id, applies(module, function, input, expect), TS's answer).
    models: list[tuple[str, Callable[..., bool], Callable[..., Any]]] = field(default_factory=list)

    def add(self, module: str, function: str, given: Any, expect: Any) -> None:
        names: list[str] = []
        expect_ts = expect
        for name, applies, ts_answer in self.models:
            if applies(module, function, given, expect_ts):
                names.append(name)
                expect_ts = ts_answer(module, function, given, expect_ts)
        if names:
            self.items.append(Case(module, function, given, expect, tuple(names), expect_ts))
        else:
            self.items.append(Case(module, function, given, expect))

    def run(
        self, module: str, function: str, inputs: Iterable[Any], python: Callable[[Any], Any]
    ) -> None:
        """One case of ``function`` per input."""
        for given in inputs:
            self.add(module, function, given, outcome(lambda given=given: python(given)))  # type: ignore[misc]

    def each(self, module: str, inputs: Iterable[dict[str, Any]], python: Callable[[dict[str, Any]], Any]) -> None:
        """One case per input; its ``op`` (else ``function``) names the function, the rest is the input."""
        for item in inputs:
            given = dict(item)
            function = given.pop("op")
            self.add(module, function, given, outcome(lambda given=item: python(given)))  # type: ignore[misc]


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)
