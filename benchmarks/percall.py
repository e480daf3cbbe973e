"""Per-call timings of a generated package, run in a fresh interpreter by benchmarks/run.py.

``python benchmarks/percall.py ROOT [--quick]`` imports ``generated`` from ROOT (the folder that
holds the generated package) and prints one JSON object:

* ``native``: per (family, format) the median seconds per ``native_tools(family, ctx, format=f)``
  call, and the same for the baseline that converts every enabled spec variant at call time
  (what the modelled system does per request): ``runtime_entry`` -> ``parameters_schema`` +
  ``schema_dialects.tool_entry`` for each variant ``assemble`` returns, parameters filtered by their
  context requirements. ``same_output`` says whether both give identical lists.
* ``prompt``: per family the median seconds per ``prompt_section(family, ctx)`` call.
* ``calls``: per format, for ``native-next-gen`` (14 tools) and ``gemini3`` (the family with the
  most entries holding placeholders), the median seconds of a ``native_tools`` call on a cache
  miss (the result cache emptied before each call: a context seen for the first time), on a hit
  (the same context again), and of the very first call in a process for that family and format.

``python benchmarks/percall.py ROOT --calls`` prints only the ``calls`` table, in microseconds.
"""

from __future__ import annotations

import json
import statistics
import sys
import timeit
from collections.abc import Callable
from typing import Any


def _per_call(func: Callable[[], Any], repeats: int, budget: float) -> float:
    """Median seconds per call over ``repeats`` batches sized to about ``budget`` seconds each."""
    func()  # warm caches (regexes, lazily imported modules)
    timer = timeit.Timer(func)
    number, elapsed = timer.autorange()
    number = max(1, int(number * budget / max(elapsed, 1e-9)))
    return statistics.median(t / number for t in timer.repeat(repeat=repeats, number=number))


#: Families timed for misses and hits: the peers' comparison family, and one rich in placeholders.
CALL_FAMILIES = ("native-next-gen", "gemini3")


#: A context that switches native calls and the optional features on, so the most tools apply.
WANTED: dict[str, Any] = {
    "provider_id": "anthropic",
    "model_id": "claude-sonnet-4-5-20250929",
    "enable_native_tool_calls": True,
    "cwd": "/home/user/project",
    "supports_browser_use": True,
    "focus_chain_enabled": True,
    "has_mcp_hub": True,
    "cline_web_tools_enabled": True,
    "editor_tabs": ["src/main.py", "notes.ipynb"],
    "feature_a": True,
    "feature_c": True,
}


def _calls(ctx: Any, repeats: int, budget: float) -> list[dict[str, Any]]:
    """Miss, hit and first-call medians of ``native_tools`` per format for CALL_FAMILIES."""
    from generated import providers
    from generated.catalog import CATALOG

    results: list[dict[str, Any]] = []
    cache = CATALOG.tool_lists
    # Older packages have neither LRU.clear nor per-format plans.
    forget = getattr(cache, "clear", None) or cache._items.clear
    plans = getattr(CATALOG, "plans", None)
    for family in CALL_FAMILIES:
        for fmt in providers.FORMATS:

            def call(family: str = family, fmt: str = fmt) -> Any:
                return providers.native_tools(family, ctx, format=fmt)

            def miss() -> Any:
                forget()
                return call()

            def first() -> Any:
                forget()
                if plans is not None:
                    plans.clear()
                return call()

            results.append(
                {
                    "family": family,
                    "format": fmt,
                    "tools": len(call()),
                    "miss_s": _per_call(miss, repeats, budget),
                    "hit_s": _per_call(call, repeats, budget),
                    "first_s": _per_call(first, repeats, budget),
                }
            )
    return results


def _table(rows: list[dict[str, Any]]) -> str:
    lines = [f"{'family / format':<36}{'tools':>6}{'miss us':>10}{'hit us':>9}{'first us':>10}"]
    for r in rows:
        lines.append(
            f"{r['family'] + ' / ' + r['format']:<36}{r['tools']:>6}{r['miss_s'] * 1e6:>10.1f}"
            f"{r['hit_s'] * 1e6:>9.1f}{r['first_s'] * 1e6:>10.1f}"
        )
    return "\n".join(lines)


def main() -> None:
    root = sys.argv[1]
    quick = "--quick" in sys.argv[2:]
    repeats, budget = (3, 0.03) if quick else (5, 0.05)
    sys.path.insert(0, root)

    from generated import catalog, providers
    from generated._runtime.native import runtime_entry
    from generated.catalog import assemble, holds, resolve_text
    from generated.context import Context
    from generated.prompt import prompt_section

    names = set(Context.__dataclass_fields__)
    ctx = Context.from_mapping({k: v for k, v in WANTED.items() if k in names})
    calls = _calls(ctx, repeats, budget)
    if "--calls" in sys.argv[2:]:
        print(_table(calls))
        return

    def convert_at_call(family: str, dialect: str) -> list[dict[str, Any]]:
        def text(pieces: Any) -> str:
            return resolve_text(pieces, ctx)

        out = []
        for variant in assemble(family, ctx):
            params = [p for p in variant["parameters"] if holds(p["requires"], ctx)]
            built = runtime_entry(dialect, {**variant, "parameters": params}, text)
            if built is not None:
                out.append(built)
        return out

    native_families = [name for name, data in catalog.FAMILIES.items() if data["use_native_tools"]]
    formats = list(providers.FORMATS)
    if quick:
        native_families = native_families[:2]
    native: list[dict[str, Any]] = []
    for family in native_families:
        for fmt in formats:
            fast = providers.native_tools(family, ctx, format=fmt)
            slow = convert_at_call(family, fmt)
            native.append(
                {
                    "family": family,
                    "format": fmt,
                    "tools": len(fast),
                    "native_tools_s": _per_call(
                        lambda family=family, fmt=fmt: providers.native_tools(family, ctx, format=fmt),
                        repeats,
                        budget,
                    ),
                    "convert_at_call_s": _per_call(
                        lambda family=family, fmt=fmt: convert_at_call(family, fmt), repeats, budget
                    ),
                    "same_output": json.dumps(fast, sort_keys=True) == json.dumps(slow, sort_keys=True),
                }
            )
    text_families = list(catalog.VARIANTS)
    if quick:
        text_families = text_families[:3]
    prompt = [
        {
            "family": family,
            "chars": len(prompt_section(family, ctx)),
            "prompt_section_s": _per_call(lambda family=family: prompt_section(family, ctx), repeats, budget),
        }
        for family in text_families
    ]
    print(json.dumps({"native": native, "prompt": prompt, "calls": calls}))


if __name__ == "__main__":
    main()
