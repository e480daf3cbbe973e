"""toolgen's return path next to the agent SDKs', in one process, on the same replies.

``python benchmarks/return_path.py [--quick] [--repeats N] [--budget S] [--profile]`` (run by
``make bench``) times, in microseconds per reply, going from an OpenAI Chat completion body (four
parallel calls, return_path_replies.py) to every handler run and every result message built:

* toolgen with a new ``Offer`` per reply (``Offer(...)``, ``read_calls``, ``offer.execute`` per
  call, ``result_messages``), the same with the server list prepared once (``McpServers``, made
  at set-up as the peers register their tools at set-up), with one ``Offer`` reused, and
  ``Offer.answer`` when the package has it;
* openai-agents, pydantic-ai and LangChain, each with the tools registered from the JSON schemas
  the Offer sent and from typed functions (return_path_peers.py says exactly what is called);

and the parts: ``read_calls`` against ``json.loads`` of the argument strings (the floor), an
``Offer`` for a new context and for one already seen, validation alone (toolgen's checker on
the four argument objects against ``fastjsonschema`` and ``jsonschema`` on the same schemas),
``execute`` and ``result_messages`` alone. Every case is timed on the good and the bad reply.

Method: each case is calibrated with ``timeit`` autorange to batches of about ``--budget``
seconds; then the cases take turns, one batch each per round (A B C ... A B C ...), so a drift
of the shared machine hits all of them alike; the figure is the median over ``--repeats``
rounds. Handlers return "ok" at once in every framework. A peer that does not install or import
is reported as such, never skipped silently. The table goes to stdout, everything (machine,
versions, load, every batch) to benchmarks/out/return_path.json. ``--profile`` instead runs
toolgen's paths under cProfile and writes each stage's share and the listings to
benchmarks/out/return_path_profile.txt.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import importlib.metadata
import inspect
import io
import json
import os
import platform
import pstats
import statistics
import sys
import timeit
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from return_path_peers import SDKS, Peer
from return_path_replies import (
    BAD_ARGS,
    CONTEXT,
    FAMILY,
    FORMAT,
    GOOD_ARGS,
    MCP_SERVERS,
    replies,
    tool_calls,
    tool_names,
)

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "benchmarks" / "out"


@dataclass
class Case:
    """One timed function; ``seconds`` holds one figure (seconds per call) per round."""

    key: str
    func: Callable[[], Any]
    number: int = 0
    seconds: list[float] = field(default_factory=list)

    @property
    def micros(self) -> float:
        return statistics.median(self.seconds) * 1e6


def calibrate(cases: list[Case], budget: float) -> None:
    for case in cases:
        case.func()  # warm: lazy imports, caches, compiled plans
        number, elapsed = timeit.Timer(case.func).autorange()
        case.number = max(1, int(number * budget / max(elapsed, 1e-9)))


def run_rounds(cases: list[Case], repeats: int) -> None:
    """One batch per case per round, cases in turn, so machine drift spreads over all."""
    timers = [(case, timeit.Timer(case.func)) for case in cases]
    for _ in range(repeats):
        for case, timer in timers:
            case.seconds.append(timer.timeit(case.number) / case.number)


# ---- toolgen ------------------------------------------------------------------------------


@dataclass
class Toolgen:
    """toolgen's package and the objects every toolgen case shares."""

    generated: Any
    coordinator: Any
    context: Any
    offer: Any
    names: dict[str, str]
    bodies: dict[str, dict[str, Any]]

    prepared: Any = None
    """The server list prepared once (``McpServers``), when the package has it."""

    def new_offer(self, context: Any = None) -> Any:
        return self.generated.Offer(
            FAMILY, context or self.context, format=FORMAT, mcp_servers=MCP_SERVERS
        )

    def new_offer_prepared(self) -> Any:
        return self.generated.Offer(FAMILY, self.context, format=FORMAT, mcp_servers=self.prepared)

    def answer(self, offer: Any, body: dict[str, Any]) -> list[dict[str, Any]]:
        g = self.generated
        uses = g.read_calls(body, format=FORMAT)
        return g.result_messages([(u, offer.execute(self.coordinator, None, u)) for u in uses], format=FORMAT)


def load_toolgen() -> Toolgen:
    sys.path.insert(0, str(ROOT))
    import generated

    class Quick:
        """A handler that returns at once."""

        def __init__(self, name: str) -> None:
            self.name = name

        def execute(self, config: Any, block: Any) -> Any:
            return generated.ToolResult.ok("ok")

    coordinator = generated.Coordinator()
    for tool_id in generated.Coordinator.bindings.handlers:
        coordinator.register(Quick(tool_id))
    separator = generated.catalog.CATALOG.mcp["separator"]
    context = generated.Context(**CONTEXT)
    offer = generated.Offer(FAMILY, context, format=FORMAT, mcp_servers=MCP_SERVERS)
    tg = Toolgen(generated, coordinator, context, offer, tool_names(separator), replies(separator))
    prepare = getattr(generated, "McpServers", None)
    tg.prepared = prepare(MCP_SERVERS) if prepare is not None else None
    return tg


def sent_tools(tg: Toolgen) -> dict[str, tuple[str, dict[str, Any]]]:
    """Every tool the Offer sent: name -> (description, parameters schema)."""
    out = {}
    for entry in tg.offer.tools():
        function = entry["function"]
        out[function["name"]] = (function.get("description", ""), function["parameters"])
    return out


def toolgen_paths(tg: Toolgen) -> tuple[dict[str, Callable[[dict[str, Any]], Any]], list[str]]:
    """toolgen's whole-path functions by key, and lines about what was not measured."""
    paths: dict[str, Callable[[dict[str, Any]], Any]] = {
        "toolgen-new": lambda body: tg.answer(tg.new_offer(), body),
        "toolgen-reused": lambda body: tg.answer(tg.offer, body),
    }
    notes: list[str] = []
    if tg.prepared is not None:
        paths["toolgen-new-prepared"] = lambda body: tg.answer(tg.new_offer_prepared(), body)
    else:
        notes.append("McpServers: not in this package (a new Offer with prepared servers not measured)")
    method = getattr(tg.generated.Offer, "answer", None)
    if method is None:
        notes.append("Offer.answer: not in this package (not measured)")
        return paths, notes
    try:
        got = tg.offer.answer(tg.coordinator, None, tg.bodies["good"])
    except TypeError as exc:
        notes.append(
            f"*** Offer.answer{inspect.signature(method)} exists but answer(coordinator, config, "
            f"response) failed ({exc}); update benchmarks/return_path.py to measure it ***"
        )
        return paths, notes
    if isinstance(got, list):
        paths["toolgen-answer-new"] = lambda body: tg.new_offer().answer(tg.coordinator, None, body)
        paths["toolgen-answer-reused"] = lambda body: tg.offer.answer(tg.coordinator, None, body)
        if tg.prepared is not None:
            paths["toolgen-answer-new-prepared"] = lambda body: tg.new_offer_prepared().answer(
                tg.coordinator, None, body
            )
    else:
        notes.append(f"*** Offer.answer returned {type(got).__name__}, not a list of messages; not measured ***")
    return paths, notes


def context_pool(tg: Toolgen, size: int = 4096) -> Callable[[], Any]:
    """A function returning a context not among the last ``size - 1`` it returned (a cache miss:
    toolgen's tool-list cache holds 256), all built before the timing."""
    base = dict(CONTEXT)
    pool = [tg.generated.Context(**{**base, "cwd": f"/home/user/project-{n}"}) for n in range(size)]
    state = {"next": 0}

    def fresh() -> Any:
        n = state["next"]
        state["next"] = (n + 1) % size
        return pool[n]

    return fresh


# ---- validation peers ---------------------------------------------------------------------


def validators(schemas: dict[str, dict[str, Any]]) -> tuple[dict[str, Any], list[str]]:
    """Per library, a function checking the four argument objects of a kind ("good"/"bad")."""
    found: dict[str, Any] = {}
    notes: list[str] = []
    try:
        import fastjsonschema
    except ImportError as exc:
        notes.append(f"*** fastjsonschema not importable ({exc}): install the bench extra ***")
    else:
        compiled = {key: fastjsonschema.compile(schema) for key, schema in schemas.items()}
        failure = fastjsonschema.JsonSchemaValueException

        def fast(args: dict[str, dict[str, Any]]) -> int:
            problems = 0  # stops at the first problem of each object
            for key, validate in compiled.items():
                try:
                    validate(args[key])
                except failure:
                    problems += 1
            return problems

        found["fastjsonschema"] = fast
    try:
        import jsonschema
    except ImportError as exc:
        notes.append(f"*** jsonschema not importable ({exc}) ***")
    else:
        checkers = {key: jsonschema.Draft202012Validator(schema) for key, schema in schemas.items()}

        def full(args: dict[str, dict[str, Any]]) -> int:
            return sum(len(list(checker.iter_errors(args[key]))) for key, checker in checkers.items())

        found["jsonschema"] = full
    return found, notes


# ---- the run ------------------------------------------------------------------------------


def sanity(reply: Callable[[dict[str, Any]], list[dict[str, Any]]], body: dict[str, Any]) -> dict[str, Any]:
    """What a path did with a body: result messages, handlers run ("ok"), calls answered otherwise."""
    messages = reply(body)
    ran = sum(1 for m in messages if m.get("content") == "ok")
    return {"messages": len(messages), "handlers_run": ran, "refused": len(messages) - ran}


def build_cases(tg: Toolgen, peers: list[Peer], notes: list[str]) -> tuple[list[Case], dict[str, Any]]:
    """Every timed case, and what each whole path did with each reply."""
    paths, answer_notes = toolgen_paths(tg)
    notes.extend(answer_notes)
    paths.update({peer.key: peer.reply for peer in peers})
    cases: list[Case] = []
    behaviour: dict[str, Any] = {}
    for key, reply in paths.items():
        try:
            behaviour[key] = {kind: sanity(reply, body) for kind, body in tg.bodies.items()}
        except Exception as exc:
            notes.append(f"*** {key}: failed on the replies ({type(exc).__name__}: {exc}); not measured ***")
            continue
        if behaviour[key]["good"]["handlers_run"] != len(GOOD_ARGS):
            notes.append(f"*** {key}: the good reply did not run every handler: {behaviour[key]['good']} ***")
        for kind, body in tg.bodies.items():
            cases.append(Case(f"{key}/{kind}", lambda reply=reply, body=body: reply(body)))
    g = tg.generated
    fresh = context_pool(tg)
    cases.append(Case("offer-new-context", lambda: tg.new_offer(fresh())))
    cases.append(Case("offer-seen-context", lambda: tg.new_offer()))
    if tg.prepared is not None:
        cases.append(Case("offer-seen-prepared", tg.new_offer_prepared))
    cases.append(Case("offer-seen-no-mcp", lambda: g.Offer(FAMILY, tg.context, format=FORMAT)))
    schemas = {key: sent_tools(tg)[name][1] for key, name in tg.names.items()}
    checkers, validator_notes = validators(schemas)
    notes.extend(validator_notes)
    for kind, body in tg.bodies.items():
        calls = tool_calls(body)
        cases.append(Case(f"read_calls/{kind}", lambda body=body: g.read_calls(body, format=FORMAT)))
        cases.append(Case(f"json.loads/{kind}", lambda calls=calls: _loads_floor(calls)))
        uses = g.read_calls(body, format=FORMAT)
        cases.append(
            Case(f"execute/{kind}", lambda uses=uses: [tg.offer.execute(tg.coordinator, None, u) for u in uses])
        )
        answers = [(u, tg.offer.execute(tg.coordinator, None, u)) for u in uses]
        cases.append(Case(f"result_messages/{kind}", lambda a=answers: g.result_messages(a, format=FORMAT)))
        args = GOOD_ARGS if kind == "good" else BAD_ARGS
        checks = [g.ToolUse(tg.names[key], value, id="c") for key, value in args.items()]
        cases.append(Case(f"check-toolgen/{kind}", lambda checks=checks: [tg.offer.check(u) for u in checks]))
        for library, check in checkers.items():
            cases.append(Case(f"check-{library}/{kind}", lambda check=check, args=args: check(args)))
    behaviour["validation_problems"] = {
        "toolgen": {k: len(tg.offer.check(g.ToolUse(tg.names[k], v, id="c"))[1]) for k, v in BAD_ARGS.items()},
        **{library: check(BAD_ARGS) for library, check in checkers.items()},
    }
    return cases, behaviour


def _loads_floor(calls: list[dict[str, Any]]) -> list[Any]:
    out = []
    for call in calls:
        try:
            out.append(json.loads(call["function"]["arguments"]))
        except ValueError:
            out.append(None)
    return out


def load_peers(tg: Toolgen, notes: list[str]) -> tuple[list[Peer], dict[str, str]]:
    """Every SDK route that imports and builds; a line in ``notes`` for each that does not."""
    tools = sent_tools(tg)
    peers: list[Peer] = []
    versions: dict[str, str] = {}
    for distribution, build in SDKS:
        try:
            versions[distribution] = importlib.metadata.version(distribution)
        except importlib.metadata.PackageNotFoundError:
            notes.append(f"*** {distribution} is not installed (pip install -e '.[bench]'): not measured ***")
            continue
        for typed in (False, True):
            try:
                peers.append(build(tools, tg.names, typed))
            except Exception as exc:
                kind = "typed" if typed else "schema"
                notes.append(f"*** {distribution} ({kind}) failed to load: {type(exc).__name__}: {exc} ***")
    for extra in ("fastjsonschema", "jsonschema", "pydantic"):
        with contextlib.suppress(importlib.metadata.PackageNotFoundError):
            versions[extra] = importlib.metadata.version(extra)
    return peers, versions


# ---- the report ---------------------------------------------------------------------------

LABELS = {
    "toolgen-new": "toolgen, new Offer per reply",
    "toolgen-new-prepared": "toolgen, new Offer per reply, servers prepared once (McpServers)",
    "toolgen-reused": "toolgen, one Offer reused",
    "toolgen-answer-new": "toolgen, new Offer + Offer.answer",
    "toolgen-answer-new-prepared": "toolgen, new Offer (McpServers) + Offer.answer",
    "toolgen-answer-reused": "toolgen, reused Offer + Offer.answer",
}

PARTS = (
    ("read_calls", "read_calls (4 calls)"),
    ("json.loads", "json.loads of the 4 argument strings (floor)"),
    ("offer-new-context", "Offer(...) for a new context"),
    ("offer-seen-context", "Offer(...) for a context already seen"),
    ("offer-seen-prepared", "Offer(...) for a context already seen, servers prepared (McpServers)"),
    ("offer-seen-no-mcp", "Offer(...) for a context already seen, no MCP server"),
    ("check-toolgen", "validation: toolgen offer.check x4 (every problem)"),
    ("check-fastjsonschema", "validation: fastjsonschema x4 (first problem only)"),
    ("check-jsonschema", "validation: jsonschema iter_errors x4 (every problem)"),
    ("execute", "offer.execute x4 (reused Offer, calls already read)"),
    ("result_messages", "result_messages (4 results)"),
)


def _fmt(value: float | None) -> str:
    if value is None:
        return ""
    return f"{value:,.1f}" if value < 1000 else f"{value:,.0f}"


def _ratio(value: float | None, base: float | None) -> str:
    return "" if value is None or not base else f"{value / base:.2f}x"


def report(
    micros: dict[str, float], behaviour: dict[str, Any], labels: dict[str, str]
) -> tuple[str, list[dict[str, Any]]]:
    """The Markdown tables, and the targets with their status."""
    lines = [
        "Whole path, µs per reply (4 calls); ratio = this path / toolgen's (above 1: toolgen faster).",
        "",
        "| path | good | ÷ new Offer | ÷ reused | bad | ÷ new Offer | ÷ reused | bad reply: ran / refused |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    new_good, new_bad = micros.get("toolgen-new/good"), micros.get("toolgen-new/bad")
    reused_good, reused_bad = micros.get("toolgen-reused/good"), micros.get("toolgen-reused/bad")
    for key, label in labels.items():
        good, bad = micros.get(f"{key}/good"), micros.get(f"{key}/bad")
        if good is None:
            continue
        seen = behaviour[key]["bad"]
        lines.append(
            f"| {label} | {_fmt(good)} | {_ratio(good, new_good)} | {_ratio(good, reused_good)} | {_fmt(bad)} "
            f"| {_ratio(bad, new_bad)} | {_ratio(bad, reused_bad)} | {seen['handlers_run']} / {seen['refused']} |"
        )
    lines += ["", "Parts, µs:", "", "| part | good | bad |", "| --- | ---: | ---: |"]
    for key, label in PARTS:
        good = micros.get(f"{key}/good", micros.get(key))
        bad = micros.get(f"{key}/bad")
        if good is not None:
            lines.append(f"| {label} | {_fmt(good)} | {_fmt(bad)} |")
    problems = behaviour["validation_problems"]
    lines += ["", f"Problems found in the four bad argument objects: {json.dumps(problems)}"]
    return "\n".join(lines), targets(micros)


def targets(micros: dict[str, float]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []

    def add(name: str, measured: float | None, limit: float | None, text: str) -> None:
        if measured is None or limit is None:
            out.append({"target": name, "measured": text, "status": "not measured"})
            return
        out.append({"target": name, "measured": text, "status": "met" if measured <= limit else "NOT met"})

    for toolgen in LABELS:
        for peer in ("openai-agents-schema", "openai-agents-typed", "pydantic-ai-schema", "pydantic-ai-typed"):
            for kind in ("good", "bad"):
                mine, theirs = micros.get(f"{toolgen}/{kind}"), micros.get(f"{peer}/{kind}")
                add(
                    f"{toolgen} faster than {peer} ({kind})",
                    mine,
                    theirs,
                    f"{_fmt(mine)} vs {_fmt(theirs)} µs",
                )
    for kind in ("good", "bad"):
        mine, floor = micros.get(f"read_calls/{kind}"), micros.get(f"json.loads/{kind}")
        add(f"read_calls within 3x of json.loads ({kind})", mine, floor and 3 * floor, f"{_ratio(mine, floor)}")
    seen = micros.get("offer-seen-context")
    add("Offer for a context already seen <= 20 µs", seen, 20.0, f"{_fmt(seen)} µs")
    for kind in ("good", "bad"):
        mine, fast = micros.get(f"check-toolgen/{kind}"), micros.get(f"check-fastjsonschema/{kind}")
        add(f"validation within 2x of fastjsonschema ({kind})", mine, fast and 2 * fast, f"{_ratio(mine, fast)}")
    return out


def machine() -> dict[str, Any]:
    return {
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


# ---- profiling ----------------------------------------------------------------------------

#: Functions whose cumulative time splits toolgen's path into its stages: (label, file, function).
STAGES = (
    ("Offer.__init__", "_runtime/offer.py", "__init__"),
    ("  catalog.dynamic_variants (MCP variants)", "_runtime/catalog.py", "dynamic_variants"),
    ("  tool_lists.build_tools (the tools list)", "_runtime/tool_lists.py", "build_tools"),
    ("    native.runtime_entry (MCP entry)", "_runtime/native.py", "runtime_entry"),
    ("  catalog.assemble", "_runtime/catalog.py", "assemble"),
    ("read_calls", "_runtime/replies.py", "read_calls"),
    ("  decode_arguments", "_runtime/replies.py", "decode_arguments"),
    ("    _loads (the JSON scan)", "_runtime/replies.py", "_loads"),
    ("    json_text_too_deep (depth bound past the count)", "_runtime/schema_common.py", "json_text_too_deep"),
    ("Offer.execute", "_runtime/offer.py", "execute"),
    ("  Offer.refusal (permission)", "_runtime/offer.py", "refusal"),
    ("  Offer.check (validation)", "_runtime/offer.py", "check"),
    ("    Offer._checker (lookup or build)", "_runtime/offer.py", "_checker"),
    ("      validation.arguments_checker (build)", "_runtime/validation.py", "arguments_checker"),
    ("  tool_use (the typed call)", "_runtime/tool_types.py", "tool_use"),
    ("  Coordinator.execute (dispatch)", "_runtime/dispatch.py", "execute"),
    ("result_messages", "_runtime/results.py", "result_messages"),
)


def _cumulative(stats: Any, filename: str, name: str) -> float:
    return float(
        sum(row[3] for (path, _line, func), row in stats.items() if path.endswith(filename) and func == name)
    )


def profile(tg: Toolgen, paths: dict[str, Callable[[dict[str, Any]], Any]], calls: int) -> tuple[str, str]:
    """cProfile listings of toolgen's whole paths, led by each stage's share of a reply.

    Profiling slows Python calls unevenly (about 2-4x here), so the shares matter, not the µs.
    Returns the stage summaries, and the summaries with the listings.
    """
    parts: list[str] = []
    summary: list[str] = []
    for key in ("toolgen-new", "toolgen-new-prepared", "toolgen-reused"):
        for kind, body in tg.bodies.items():
            reply = paths.get(key)
            if reply is None:
                continue
            reply(body)
            profiler = cProfile.Profile()
            profiler.enable()
            for _ in range(calls):
                reply(body)
            profiler.disable()
            stream = io.StringIO()
            stats = pstats.Stats(profiler, stream=stream)
            rows = stats.stats  # type: ignore[attr-defined]
            total = sum(row[2] for row in rows.values())
            lines = [f"==== {key} / {kind}: {calls} replies, {total / calls * 1e6:.1f} profiled µs per reply"]
            for label, filename, name in STAGES:
                spent = _cumulative(rows, filename, name)
                lines.append(f"{label:48s} {spent / calls * 1e6:8.1f} µs {100 * spent / total:5.1f}%")
            summary += lines + [""]
            parts += lines
            stats.sort_stats("tottime").print_stats(25)
            stats.sort_stats("cumulative").print_stats(40)
            parts.append(stream.getvalue())
    return "\n".join(summary), "\n".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 rounds of 0.02 s batches")
    parser.add_argument("--repeats", type=int, default=9, help="rounds (the median is reported)")
    parser.add_argument("--budget", type=float, default=0.05, help="seconds per batch")
    parser.add_argument(
        "--profile", action="store_true", help="only profile toolgen's paths (no timing, no peers)"
    )
    parser.add_argument(
        "--ts", action="store_true", help="only time the TypeScript package's paths (return_path_ts.py)"
    )
    args = parser.parse_args(argv)
    repeats, budget = (3, 0.02) if args.quick else (args.repeats, args.budget)
    notes: list[str] = []
    tg = load_toolgen()
    if args.ts:
        return _ts_main(tg, repeats, budget)
    if args.profile:
        OUT.mkdir(parents=True, exist_ok=True)
        summary, text = profile(tg, toolgen_paths(tg)[0], 2000)
        (OUT / "return_path_profile.txt").write_text(text)
        print(summary)
        print(f"written: {(OUT / 'return_path_profile.txt').relative_to(ROOT)}")
        return 0
    peers, versions = load_peers(tg, notes)
    cases, behaviour = build_cases(tg, peers, notes)
    for note in notes:
        print(note)
    load_before = machine()["load_average"]
    calibrate(cases, budget)
    run_rounds(cases, repeats)
    micros = {case.key: case.micros for case in cases}
    labels = {**{k: v for k, v in LABELS.items() if f"{k}/good" in micros}, **{p.key: p.label for p in peers}}
    table, goals = report(micros, behaviour, labels)
    info = {**machine(), "load_average_before": load_before}
    print(
        f"\n{info['cores']} cores, Python {info['python']}; load average {load_before[0]} before, "
        f"{info['load_average'][0]} after; {repeats} rounds of ~{budget} s batches; family {FAMILY}, "
        f"format {FORMAT}\n"
    )
    print(table)
    print("\n| target | measured | status |\n| --- | --- | --- |")
    for goal in goals:
        print(f"| {goal['target']} | {goal['measured']} | {goal['status']} |")
    for note in notes:  # again under the tables, where a missing peer cannot be overlooked
        print(note)
    OUT.mkdir(parents=True, exist_ok=True)
    result = {
        "machine": info,
        "versions": versions,
        "method": {"repeats": repeats, "budget_seconds": budget, "family": FAMILY, "format": FORMAT},
        "notes": notes,
        "peers": {p.key: p.calls for p in peers},
        "micros": {k: round(v, 3) for k, v in micros.items()},
        "batches_micros": {c.key: [round(s * 1e6, 3) for s in c.seconds] for c in cases},
        "batch_size": {c.key: c.number for c in cases},
        "behaviour": behaviour,
        "targets": goals,
    }
    (OUT / "return_path.json").write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n")
    print(f"\nwritten: {(OUT / 'return_path.json').relative_to(ROOT)}")
    return 0


def _ts_main(tg: Toolgen, repeats: int, budget: float) -> int:
    from return_path_ts import ts_table, ts_timings

    load_before = machine()["load_average"]
    got = ts_timings(tg.bodies, tg.names, repeats, budget)
    if isinstance(got, str):
        print(got)
        return 1
    micros, behaviour = got
    info = {**machine(), "load_average_before": load_before}
    after = info["load_average"][0]
    print(f"\nload average {load_before[0]} before, {after} after; {repeats} batches of ~{budget} s\n")
    print(ts_table(micros))
    print(f"\nWhat each reply did (reused Offer): {json.dumps(behaviour)}")
    OUT.mkdir(parents=True, exist_ok=True)
    result = {"machine": info, "micros": {k: round(v, 3) for k, v in micros.items()}, "behaviour": behaviour}
    (OUT / "return_path_ts.json").write_text(json.dumps(result, indent=1) + "\n")
    print(f"\nwritten: {(OUT / 'return_path_ts.json').relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
