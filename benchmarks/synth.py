"""Deterministic synthetic spec catalogs for the benchmarks.

``write_catalog(root, n_tools, seed)`` writes ``root/specs/`` (toolgen.yaml, parameters.yaml,
tools/<id>.yaml, variants/<family>.yaml) with ``n_tools`` tools. The same (n_tools, seed) always
gives byte-identical files, so timings of different runs compare the same input.

What a catalog exercises, so that every stage of the pipeline does real work:

* six families: four text-path families and two with ``use_native_tools: 1``; ``generic`` lists
  every tool, the others list seeded subsets, some in a shuffled prompt order;
* every parameter kind: string (with minLength/maxLength/pattern, or format), boolean, integer and
  number with bounds, string enums, arrays with item schemas (scalar and object items), objects with
  properties and required members, nullable values, defaults;
* shared parameters from parameters.yaml with ``use:`` (some with overrides);
* ``extends:`` variants (some changing only the description, some only the parameters), renamed
  variants (``name:``), variants that do not extend anything;
* tool-level and parameter-level ``requires:``, parameter ``dependencies:`` on other tools;
* conditional text (``when:`` pieces) in descriptions and instructions, and ``{{PLACEHOLDERS}}``;
* handlers of all three kinds (class, shares, none) and all five native formats.

Run as a script to write one catalog: ``python benchmarks/synth.py 1000 /tmp/cat``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import yaml

FORMATS = ["anthropic", "openai-chat", "openai-responses", "gemini", "bedrock-converse"]
# (family, native?) in file order; generic is the fallback and lists every tool.
FAMILIES = [
    ("generic", False),
    ("compact", False),
    ("alpha", False),
    ("beta", False),
    ("native_one", True),
    ("native_two", True),
]
# The enum of families also names two families without a variants file (as in the Cline catalog).
FAMILY_ENUM = [name for name, _ in FAMILIES] + ["legacy", "experimental"]
# Native families stay within one OpenAI request (128 tools), as a real catalog would.
NATIVE_MAX_TOOLS = 120
FEATURES = ["feature_a", "feature_b", "feature_c", "feature_d"]

_WORDS = [
    "file",
    "workspace",
    "command",
    "result",
    "value",
    "entry",
    "record",
    "index",
    "buffer",
    "option",
    "request",
    "response",
    "change",
    "branch",
    "commit",
    "query",
    "filter",
    "range",
    "page",
    "token",
    "session",
    "project",
    "module",
    "resource",
    "report",
    "summary",
    "snippet",
    "pattern",
    "target",
    "source",
    "output",
    "input",
    "config",
    "setting",
    "message",
    "status",
    "label",
    "owner",
    "scope",
    "window",
    "limit",
    "offset",
    "cursor",
    "handle",
    "channel",
    "stream",
    "batch",
]
_VERBS = [
    "read",
    "write",
    "list",
    "find",
    "fetch",
    "apply",
    "create",
    "delete",
    "update",
    "merge",
    "split",
    "sort",
    "render",
    "check",
    "scan",
    "sync",
    "load",
    "store",
    "move",
    "copy",
    "link",
    "open",
    "close",
    "start",
    "stop",
    "watch",
    "parse",
    "build",
    "explain",
]
_ADVERBS = ["quickly", "carefully", "exactly", "safely", "only", "always", "never", "directly", "lazily"]


def _sentence(rng: random.Random, words: int) -> str:
    picked = [rng.choice(_WORDS if i % 3 else _VERBS) for i in range(words)]
    if rng.random() < 0.3:
        picked.insert(rng.randrange(len(picked)), rng.choice(_ADVERBS))
    text = " ".join(picked)
    return text[0].upper() + text[1:] + "."


def _prose(rng: random.Random, sentences: tuple[int, int], words: tuple[int, int] = (6, 16)) -> str:
    return " ".join(_sentence(rng, rng.randint(*words)) for _ in range(rng.randint(*sentences)))


def _tool_id(i: int, rng: random.Random) -> str:
    return f"{rng.choice(_VERBS)}_{rng.choice(_WORDS)}_{i:05d}"


# ---------------------------------------------------------------------------------------------
# Parameters


# Parameter kinds with weights close to a real catalog: mostly plain strings, every kind present.
_KINDS = {
    "string": 35,
    "string_bounds": 8,
    "string_format": 6,
    "boolean": 8,
    "integer": 8,
    "number": 5,
    "enum": 8,
    "array_scalar": 7,
    "array_object": 3,
    "object": 4,
    "nullable_string": 4,
    "nullable_integer": 4,
}


def _parameter(rng: random.Random, kind: str, name: str, tool_ids: list[str], self_index: int) -> dict[str, Any]:
    p: dict[str, Any] = {"name": name}
    if rng.random() < 0.4:
        p["required"] = True
    if kind == "string_bounds":
        p.update(minLength=1, maxLength=rng.choice([64, 256, 4096]))
        if rng.random() < 0.5:
            p["pattern"] = rng.choice([r"^[a-z0-9_]+$", r"^\S+$", r"^[A-Za-z][\w.-]*$"])
    elif kind == "string_format":
        p["format"] = rng.choice(["uri", "date-time", "email", "uuid"])
    elif kind == "boolean":
        p.update(type="boolean", default=rng.random() < 0.5)
    elif kind == "integer":
        low = rng.randint(0, 5)
        p.update(type="integer", minimum=low, maximum=low + rng.choice([10, 100, 1000]))
        if rng.random() < 0.5:
            p["default"] = low + 1
    elif kind == "number":
        p.update(type="number", exclusiveMinimum=0, exclusiveMaximum=rng.choice([1, 2.5, 100]))
    elif kind == "enum":
        values = sorted(rng.sample(_WORDS, rng.randint(2, 6)))
        p["enum"] = values
        if rng.random() < 0.5:
            p["default"] = values[0]
    elif kind == "array_scalar":
        p.update(
            type="array",
            items={"type": rng.choice(["string", "integer"]), "description": _sentence(rng, 5)},
            minItems=rng.choice([0, 1]),
            maxItems=rng.choice([8, 32, 100]),
        )
    elif kind == "array_object":
        p.update(
            type="array",
            items={
                "type": "object",
                "properties": {
                    "key": {"type": "string", "description": _sentence(rng, 4)},
                    "weight": {"type": "number", "minimum": 0},
                    "mode": {"type": "string", "enum": ["add", "remove", "keep"]},
                },
                "required": ["key"],
            },
            maxItems=50,
        )
    elif kind == "object":
        p.update(
            type="object",
            properties={
                "path": {"type": "string", "description": _sentence(rng, 5)},
                "line": {"type": "integer", "minimum": 1},
                "tags": {"type": "array", "items": {"type": "string"}},
                "flag": {"type": "boolean"},
            },
            member_required=["path"],
        )
    elif kind == "nullable_string":
        p.update(nullable=True, default=None)
    elif kind == "nullable_integer":
        p.update(type="integer", nullable=True, minimum=0)
    # Text: plain, with a placeholder, or conditional pieces.
    roll = rng.random()
    if roll < 0.15:
        p["instruction"] = [
            {"text": _prose(rng, (1, 2))},
            {"when": {"field": "editor_tabs", "ends_with": ".ipynb"}, "text": " " + _prose(rng, (1, 1))},
        ]
    elif roll < 0.3:
        p["instruction"] = _prose(rng, (1, 2)) + " Paths are relative to {{CWD}}.{{MULTI_ROOT_HINT}}"
    else:
        p["instruction"] = _prose(rng, (1, 3))
    if rng.random() < 0.2:
        p["description"] = _prose(rng, (1, 1))
    if rng.random() < 0.8:
        p["usage"] = _sentence(rng, rng.randint(2, 5))
    if rng.random() < 0.12:
        p["requires"] = {"field": rng.choice(FEATURES), "truthy": True}
    if rng.random() < 0.08 and self_index > 0:
        p["dependencies"] = [tool_ids[rng.randrange(self_index)]]
    return p


def _parameters(rng: random.Random, tool_ids: list[str], index: int) -> list[dict[str, Any]]:
    kinds = rng.choices(list(_KINDS), weights=list(_KINDS.values()), k=rng.randint(1, 5))
    params = []
    for j, kind in enumerate(kinds):
        params.append(_parameter(rng, kind, f"{rng.choice(_WORDS)}_{j}", tool_ids, index))
    roll = rng.random()
    if roll < 0.5:
        params.append({"use": "task_progress"})
    elif roll < 0.65:
        params.append({"use": "page_size", "required": True})
    elif roll < 0.8:
        params.append({"use": "labels", "instruction": _prose(rng, (1, 1))})
    return params


# ---------------------------------------------------------------------------------------------
# Tools


def _description(rng: random.Random, index: int) -> Any:
    roll = rng.random()
    if roll < 0.15:
        return [
            {"text": _prose(rng, (2, 5))},
            {"when": {"field": "feature_c", "truthy": True}, "text": " " + _prose(rng, (1, 2))},
            {"when": {"not": {"field": "feature_c", "truthy": True}}, "text": " " + _prose(rng, (1, 1))},
        ]
    text = _prose(rng, (2, 6))
    if roll < 0.35:
        text += " The working directory is {{CWD}} and the viewport is {{VIEWPORT_WIDTH}} pixels wide."
    return text


def _tool(rng: random.Random, tool_ids: list[str], index: int, handler_classes: list[int]) -> dict[str, Any]:
    tool_id = tool_ids[index]
    roll = rng.random()
    if roll < 0.15 and handler_classes:
        handler: Any = {"shares": tool_ids[rng.choice(handler_classes[-20:])]}
    elif roll < 0.25:
        handler = None
    else:
        handler = {"class": f"Handler{index:05d}", "validator": rng.random() < 0.5}
        handler_classes.append(index)
    generic: dict[str, Any] = {"description": _description(rng, index), "parameters": _parameters(rng, tool_ids, index)}
    if rng.random() < 0.15:
        generic["requires"] = rng.choice(
            [
                {"field": rng.choice(FEATURES), "truthy": True},
                {"any": [{"field": "feature_a", "truthy": True}, {"provider_in": "local_providers"}]},
                {"all": [{"field": "yolo_mode", "truthy": False}, {"model_matches": "large_models"}]},
            ]
        )
    variants: dict[str, Any] = {"generic": generic}
    # Native variants: extends with a shorter description, own parameters, or a rename.
    for family in ("native_one", "native_two"):
        roll = rng.random()
        if roll < 0.35:
            variants[family] = {"extends": "generic", "description": _prose(rng, (1, 3))}
        elif roll < 0.55:
            variants[family] = {"extends": "generic", "parameters": _parameters(rng, tool_ids, index)}
        elif roll < 0.65:
            variants[family] = {"extends": "generic", "name": f"{tool_id}_v2"}
        elif roll < 0.7:
            variants[family] = {"description": _prose(rng, (1, 2)), "parameters": _parameters(rng, tool_ids, index)}
        if family == "native_two" and family in variants and rng.random() < 0.1:
            variants[family]["strict"] = False
    if rng.random() < 0.3:
        variants["compact"] = {"extends": "generic", "description": _prose(rng, (1, 1))}
    if rng.random() < 0.1 and "native_one" in variants:
        variants["beta"] = {"extends": "native_one"}
    return {"id": tool_id, "handler": handler, "variants": variants}


# ---------------------------------------------------------------------------------------------
# Project, shared parameters and families


def _project(tool_ids: list[str]) -> dict[str, Any]:
    context: dict[str, Any] = {
        "provider_id": {"type": "string", "nullable": True, "default": None, "doc": "API provider id."},
        "model_id": {
            "type": "string",
            "nullable": True,
            "default": None,
            "doc": "Model id as the provider reports it.",
        },
        "cwd": {"type": "string", "default": "/", "doc": "Working directory."},
        "viewport_width": {"type": "integer", "default": 900, "doc": "Viewport width in pixels."},
        "temperature": {"type": "number", "default": 0.5, "doc": "Sampling temperature."},
        "is_multi_root_enabled": {"type": "boolean", "default": False, "doc": "Several workspace roots."},
        "enable_native_tool_calls": {
            "type": "boolean",
            "nullable": True,
            "default": None,
            "doc": "Native tool calling.",
        },
        "yolo_mode": {"type": "boolean", "default": False, "doc": "Auto-approve everything."},
        "editor_tabs": {"type": "string_list", "default": [], "doc": "Open editor tabs."},
        "custom_prompt": {"type": "string", "nullable": True, "default": None, "doc": "Custom prompt setting."},
    }
    for feature in FEATURES:
        context[feature] = {"type": "boolean", "default": False, "doc": f"Synthetic switch {feature}."}
    return {
        "toolgen": 1,
        "name": "synthetic",
        "formats": FORMATS,
        "tools": tool_ids,
        "families": FAMILY_ENUM,
        "context": context,
        "placeholders": {
            "CWD": {"field": "cwd", "default": "/"},
            "VIEWPORT_WIDTH": {"field": "viewport_width", "default": 900},
            "MULTI_ROOT_HINT": {
                "field": "is_multi_root_enabled",
                "default": "",
                "map": [
                    {"when": True, "text": " Qualify a path with its root as @root:path."},
                    {"when": False, "text": ""},
                ],
            },
        },
        "mcp": {"separator": "__mcp__", "name_max_length": 64},
        "subagents": {"name_prefix": "use_subagent_", "max_length": 64},
        "selection": {
            "fallback": "generic",
            "precondition": {"field": "model_id", "truthy": True},
            "provider_sets": {
                "native_providers": ["anthropic", "openai", "gemini", "bedrock"],
                "local_providers": ["ollama", "lmstudio"],
            },
            "model_sets": {"big_models": ["model-xl", "model-xxl", "model-ultra"]},
            "model_predicates": {
                "large_models": {"any": [{"in_set": "big_models"}, {"any_contains": ["-xl", "large"]}]},
                "alpha_models": {"any_contains": ["alpha"]},
                "beta_models": {"all_contains": ["beta"], "none_contains": ["preview"]},
                "versioned": {"regex_first_match": {"pattern": r"-v(\d+)", "group": 1, "gte": 2}},
            },
        },
        "routing": {
            "default": "openai-chat",
            "rules": [
                {"providers": ["anthropic"], "format": "anthropic"},
                {"providers": ["bedrock"], "format": "bedrock-converse"},
                {"providers": ["gemini"], "format": "gemini"},
                {"providers": ["openai"], "when": {"model_raw_contains": "responses"}, "format": "openai-responses"},
            ],
        },
    }


def _shared(tool_ids: list[str]) -> dict[str, Any]:
    return {
        "parameters": {
            "task_progress": {
                "required": False,
                "dependencies": [tool_ids[0]],
                "instruction": "Optional. The progress of the overall task as a markdown checklist.",
                "usage": "Task checklist (markdown)",
            },
            "page_size": {
                "type": "integer",
                "minimum": 1,
                "maximum": 500,
                "default": 50,
                "instruction": "How many results to return per page.",
                "usage": "50",
            },
            "labels": {
                "type": "array",
                "items": {"type": "string", "enum": ["bug", "feature", "docs"]},
                "instruction": "Labels to attach.",
                "requires": {"field": "feature_d", "truthy": True},
            },
        }
    }


def _family(rng: random.Random, name: str, native: bool, order: int, tool_ids: list[str]) -> dict[str, Any]:
    if name == "generic":
        tools = list(tool_ids)
    else:
        share = {"compact": 0.2, "alpha": 0.5, "beta": 0.35, "native_one": 0.3, "native_two": 0.15}[name]
        tools = [t for t in tool_ids if rng.random() < share] or tool_ids[:1]
        if native:
            tools = tools[:NATIVE_MAX_TOOLS]
        if name in ("alpha", "native_two"):
            rng.shuffle(tools)  # a prompt order different from the enum order
    labels: dict[str, int] = {"stable": 1}
    if native:
        labels["use_native_tools"] = 1
    rules = {
        "generic": {"field": "model_id", "truthy": False},
        "compact": {"all": [{"field": "custom_prompt", "equals": "compact"}, {"provider_in": "local_providers"}]},
        "alpha": {"model_matches": "alpha_models"},
        "beta": {"any": [{"model_matches": "beta_models"}, {"model_matches": "versioned"}]},
        "native_one": {
            "all": [
                {"field": "enable_native_tool_calls", "truthy": True},
                {"provider_in": "native_providers"},
                {"model_matches": "large_models"},
            ]
        },
        "native_two": {
            "all": [{"field": "enable_native_tool_calls", "truthy": True}, {"provider_in": "native_providers"}]
        },
    }[name]
    return {
        "family": name,
        "description": f"Synthetic family {name}.",
        "version": 1,
        "tags": [name, "synthetic"] + (["native_tools"] if native else []),
        "labels": labels,
        "tools": tools,
        "selection": {"order": order, "rule": rules},
    }


_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def _dump(path: Path, schema: str, data: dict[str, Any]) -> None:
    text = yaml.dump(data, Dumper=_DUMPER, sort_keys=False, allow_unicode=True, width=100)
    path.write_text(f"# yaml-language-server: $schema={schema}\n{text}", "utf-8")


def write_catalog(root: Path, n_tools: int, seed: int = 1234) -> Path:
    """Write a catalog of ``n_tools`` tools under ``root/specs`` and return that folder."""
    rng = random.Random(f"toolgen-bench-{seed}-{n_tools}")
    specs = root / "specs"
    (specs / "tools").mkdir(parents=True, exist_ok=True)
    (specs / "variants").mkdir(parents=True, exist_ok=True)
    tool_ids = [_tool_id(i, rng) for i in range(n_tools)]
    _dump(specs / "toolgen.yaml", "../generator/schemas/project.schema.json", _project(tool_ids))
    _dump(specs / "parameters.yaml", "../generator/schemas/parameters.schema.json", _shared(tool_ids))
    handler_classes: list[int] = []
    for index, tool_id in enumerate(tool_ids):
        _dump(
            specs / "tools" / f"{tool_id}.yaml",
            "../../generator/schemas/tool.schema.json",
            _tool(rng, tool_ids, index, handler_classes),
        )
    for order, (name, native) in enumerate(FAMILIES):
        order_value = 100 if name == "generic" else order + 1
        _dump(
            specs / "variants" / f"{name}.yaml",
            "../../generator/schemas/family.schema.json",
            _family(rng, name, native, order_value, tool_ids),
        )
    return specs


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: synth.py N_TOOLS OUT_DIR")
    print(write_catalog(Path(sys.argv[2]), int(sys.argv[1])))
