"""The argument validator against fastjsonschema on real tool arguments.

``python benchmarks/validation_speed.py`` (needs the ``bench`` extra: ``pip install -e '.[bench]'``)
prints one JSON object: per schema, median microseconds per call of toolgen's
``arguments_checker`` (every problem collected, typed values returned) and of a fastjsonschema
validator compiled once (stops at the first problem, raises), on valid arguments, and their
ratio; then the geometric mean of the ratios. The schemas are the bundled catalog's static
tools (as the Offer checks them), the MCP tools of tests/data/mcp that both accept, and a
weather tool with an enum, bounds and ``additionalProperties: false``.
"""

from __future__ import annotations

import json
import math
import statistics
import sys
import timeit
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

WEATHER = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "minLength": 1},
        "units": {"type": "string", "enum": ["metric", "imperial"]},
        "days": {"type": "integer", "minimum": 1, "maximum": 14},
    },
    "required": ["city"],
    "additionalProperties": False,
}


def _micros(func: Callable[[], Any], repeats: int = 5) -> float:
    """Median microseconds per call over ``repeats`` batches of about 0.1 s."""
    func()
    timer = timeit.Timer(func)
    number, elapsed = timer.autorange()
    number = max(1, int(number * 0.1 / max(elapsed, 1e-9)))
    return statistics.median(t / number for t in timer.repeat(repeats, number)) * 1e6


def _value(schema: Any) -> Any:
    """A valid value for the simple schemas tools use (the first enum value, a short string, ...)."""
    if not isinstance(schema, dict):
        return "x"
    if "enum" in schema:
        return next(iter(schema["enum"]))
    kind = schema.get("type")
    kind = kind[0] if isinstance(kind, list) else kind
    if kind == "object" or "properties" in schema:
        return {k: _value(s) for k, s in schema.get("properties", {}).items()}
    if kind == "array":
        return [_value(schema.get("items", {})) for _ in range(2)]
    if kind in ("integer", "number"):
        return max(schema.get("minimum", 3), 3)
    if kind == "boolean":
        return True
    return "src/app.ts"


def schemas() -> dict[str, Any]:
    from generated import catalog_data
    from generated._runtime.native import parameters_schema

    found: dict[str, Any] = {"weather (MCP)": WEATHER}
    for key, spec in sorted(catalog_data.SPECS.items()):
        if spec["name"] in {s.split(" ")[0] for s in found}:
            continue
        found[f"{spec['name']} ({key.split('/')[0]})"] = json.loads(
            json.dumps(parameters_schema([{**p, "instruction": ""} for p in spec["parameters"]]))
        )
    return found


def main() -> dict[str, Any]:
    import fastjsonschema

    from generator.runtime.validation import arguments_checker

    rows: dict[str, Any] = {}
    ratios = []
    for name, schema in schemas().items():
        args = _value(schema)
        check = arguments_checker(schema)
        assert check(args, False)[1] == [], (name, check(args, False))
        fast = fastjsonschema.compile(schema)
        fast(args)
        ours = _micros(lambda c=check, a=args: c(a, False))  # type: ignore[misc]
        theirs = _micros(lambda f=fast, a=args: f(a))  # type: ignore[misc]
        ratios.append(ours / theirs)
        rows[name] = {
            "toolgen_us": round(ours, 2),
            "fastjsonschema_us": round(theirs, 2),
            "ratio": round(ours / theirs, 2),
        }
    geomean = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
    return {"schemas": rows, "geometric_mean_ratio": round(geomean, 2), "max_ratio": round(max(ratios), 2)}


if __name__ == "__main__":
    print(json.dumps(main(), indent=1))
