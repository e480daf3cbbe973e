"""Conformance cases of the catalog and the text path (module "core", tests/ts_scripts/core.ts).

Selection (the vendored 276-case grid and a grid generated from the selection data), enabled tools
and prompt sections of every family under feature toggles, routing, context checks, spec text, and
the XML call parser on a corpus of replies, complete and cut at every position, and streamed in
chunks. Each case's expected answer is the Python runtime's (tests/conformance/generate.py).
"""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

from conformance.common import GRID, ROOT, Cases


def uses(blocks: list[Any]) -> list[dict[str, Any]]:
    return [
        {"name": b.name, "params": dict(b.params), "partial": b.partial, "id": b.id, "error": b.error} for b in blocks
    ]


# --------------------------------------------------------------------------- inputs


def families() -> list[str]:
    from generated import catalog_data

    return list(catalog_data.FAMILY_SPECS)


def grid_contexts() -> list[dict[str, Any]]:
    """The vendored 276-case selection grid, plus a grid generated from the selection data."""
    cases = json.loads(GRID.read_text("utf-8"))["cases"]
    contexts = [case["context"] for case in cases]
    return contexts + generated_grid()


def generated_grid() -> list[dict[str, Any]]:
    """Providers and models drawn from the selection data (sets, predicate substrings, routing),
    with case and whitespace variations, under every native-tool-call setting."""
    from generated import catalog_data

    selection = catalog_data.SELECTION
    providers: list[Any] = [p for s in selection["provider_sets"].values() for p in s]
    providers += [p for rule in catalog_data.ROUTING["rules"] for p in rule["providers"]]
    providers += ["together", " OpenAI ", "ANTHROPIC", "\ufeffgemini\u3000", "", None, "xai"]
    models: list[Any] = [m for s in selection["model_sets"].values() for m in s]

    def substrings(node: Any) -> list[str]:
        if isinstance(node, dict):
            return [s for key, value in node.items() if key != "regex_first_match" for s in substrings(value)]
        if isinstance(node, (list, tuple)):
            return [s for value in node for s in substrings(value)]
        return [node] if isinstance(node, str) else []

    models += substrings(selection["model_predicates"])
    models += ["claude-3-5-sonnet", "claude-sonnet-4", "claude-opus-4.5", "gpt-4o", "gpt-5-chat", "gpt-5.1-codex"]
    models += ["GPT-5", " gemini-3-pro ", "openrouter/z-ai/glm-4.6", "deepseek-v3.2-speciale", "sonnet", ""]
    models += [None, "claude_7_sonnet", "haiku-4.5", "qwen3-coder", "x-ai/grok-4", "devstral-small-2507"]
    rng = random.Random(16)
    unique_models = list(dict.fromkeys(models))
    contexts = []
    for provider in dict.fromkeys(providers):
        for model in rng.sample(unique_models, min(12, len(unique_models))):
            for native in (None, True, False):
                contexts.append({"provider_id": provider, "model_id": model, "enable_native_tool_calls": native})
    return contexts


def toggled_contexts() -> list[dict[str, Any] | None]:
    """Every boolean field switched on alone and all together, lists filled, placeholders moved."""
    from generated.context import FIELD_TYPES

    booleans = [name for name, (kind, _) in FIELD_TYPES.items() if kind == "boolean"]
    base = {"provider_id": "anthropic", "model_id": "claude-sonnet-4-5-20250929"}
    contexts: list[dict[str, Any] | None] = [None, {}, base]
    contexts += [{**base, name: True} for name in booleans]
    contexts.append({**base, **dict.fromkeys(booleans, True)})
    contexts.append(
        {
            **base,
            "skills": ["pdf", "review"],
            "editor_tabs": ["src/a.ts", "b.md"],
            "cwd": "/work/{{CWD}}/é",
            "browser_viewport_width": 1280,
            "browser_viewport_height": 7,
            "supports_browser_use": True,
            "is_multi_root_enabled": True,
            "enable_native_tool_calls": True,
            "custom_prompt": "compact",
        }
    )
    return contexts


def random_contexts(count: int, seed: int = 16) -> list[dict[str, Any]]:
    """Contexts with every field drawn at random (fixed seed): providers and models of the grid,
    booleans, nulls where allowed, lists, integers and text with placeholders in it."""
    from generated.context import FIELD_TYPES

    rng = random.Random(seed)
    grid = generated_grid()
    texts = ["", "compact", "/w", "{{CWD}}", "é 🙂", " x "]
    contexts = []
    for _ in range(count):
        context = dict(rng.choice(grid))
        for name, (kind, nullable) in FIELD_TYPES.items():
            if name in context or rng.random() < 0.3:
                continue
            if nullable and rng.random() < 0.2:
                context[name] = None
            elif kind == "boolean":
                context[name] = rng.random() < 0.5
            elif kind == "integer":
                context[name] = rng.choice([0, 1, 7, 1280, -3, 2**53 - 1])
            elif kind == "number":
                context[name] = rng.choice([0.5, 2.0, -1.25])
            elif kind == "string_list":
                context[name] = rng.sample(["a.md", "b.ts", "pdf", ""], rng.randint(0, 3))
            else:
                context[name] = rng.choice(texts)
        contexts.append(context)
    return contexts


# --------------------------------------------------------------------------- selection and tools


def select_family_on_the_selection_grids(out: Cases) -> None:
    from generated import catalog

    contexts = grid_contexts() + [c for c in toggled_contexts() if c is not None] + random_contexts(300)
    assert len(contexts) > 276
    out.each(
        "core", [{"op": "selectFamily", "context": c} for c in contexts], lambda i: catalog.select_family(i["context"])
    )


def enabled_tools_every_family_and_toggle(out: Cases) -> None:
    from generated import catalog

    inputs = [
        {"op": "enabledTools", "family": family, "context": context}
        for family in [*families(), "no-such-family", "it's"]
        for context in toggled_contexts()
    ]
    out.each("core", inputs, lambda i: catalog.enabled_tools(i["family"], i["context"]))


def enabled_tools_variants_and_sections_on_random_contexts(out: Cases) -> None:
    from generated import catalog, prompt

    contexts = random_contexts(60, seed=61)
    calls = {
        "enabledTools": catalog.enabled_tools,
        "enabledVariants": catalog.enabled_variants,
        "promptSection": prompt.prompt_section,
    }
    inputs = [
        {"op": op, "family": family, "context": context}
        for op in calls
        for family in families()
        for context in contexts[: 60 if op != "promptSection" else 15]
    ]
    out.each("core", inputs, lambda i: calls[i["op"]](i["family"], i["context"]))


def prompt_section_every_family_and_toggle(out: Cases) -> None:
    from generated import prompt

    inputs = [
        {"op": "promptSection", "family": family, "context": context}
        for family in families()
        for context in toggled_contexts()
    ]
    out.each("core", inputs, lambda i: prompt.prompt_section(i["family"], i["context"]))


def prompt_section_with_mcp_servers_and_subagents(out: Cases) -> None:
    """promptSection with the run-time tools of tests/data/mcp/servers.json and subagent configs."""

    from generated import catalog, prompt

    servers = json.loads((ROOT / "tests" / "data" / "mcp" / "servers.json").read_text("utf-8"))
    agents: list[Any] = [{"name": "researcher", "description": "Finds things."}, {"name": "bad name!"}, "not an object"]
    on = {"provider_id": "anthropic", "model_id": "claude-sonnet-4-5-20250929", "subagents_enabled": True}
    inputs = [
        {"op": "promptSectionDynamic", "family": family, "context": context, "mcpServers": mcp, "subagents": subs}
        for family in families()
        for context in (on, {**on, "subagents_enabled": False, "has_mcp_hub": True})
        for mcp, subs in ((servers, []), ([], agents), (servers, agents))
    ]

    def run(item: dict[str, Any]) -> dict[str, Any]:
        extra, skipped = catalog.dynamic_variants(
            item["family"], item["context"], mcp_servers=item["mcpServers"], subagents=item["subagents"]
        )
        left: list[dict[str, Any]] = []
        section = prompt.prompt_section(item["family"], item["context"], extra, left)
        return {"section": section, "skipped": skipped, "skippedPrompt": left}

    out.each("core", inputs, run)


def route_every_provider(out: Cases) -> None:
    from generated import catalog

    pairs = {(c.get("provider_id"), c.get("model_id")) for c in generated_grid()}
    inputs = [{"op": "route", "provider": p, "model": m} for p, m in sorted(pairs, key=repr)]
    out.each("core", inputs, lambda i: catalog.route(i["provider"], i["model"]))


def resolve_text_of_every_spec_variant(out: Cases) -> None:
    from generated import catalog, catalog_data

    pieces = [v["description"] for v in catalog_data.SPECS.values()]
    pieces += [p["instruction"] for v in catalog_data.SPECS.values() for p in v["parameters"]]
    pieces.append(("{{CWD}} {{BROWSER_VIEWPORT_WIDTH}}x{{BROWSER_VIEWPORT_HEIGHT}}{{MULTI_ROOT_HINT}} {{UNKNOWN}}",))
    unique = list({json.dumps(p): p for p in pieces}.values())
    contexts = [None, *toggled_contexts()[-2:]]
    inputs = [{"op": "resolveText", "pieces": p, "context": c} for p in unique for c in contexts]
    out.each("core", inputs, lambda i: catalog.resolve_text(i["pieces"], i["context"]))


def context_checks_and_messages(out: Cases) -> None:
    from generated.context import Context

    bad: list[Any] = [
        {"provider": "x"},
        {"model": "x", "cwdd": "/"},
        {"yolo": True, "skils": []},
        {"zzz": 1},
        {"modle_id": "x", "provder_id": "y", "is_cli_": True, "custom": None, "editor_tab": []},
        {"supports_browser": True, "browser_viewport": 1, "focus_chain": True, "mcp_hub": True},
        {"cwd" * 80: 1, "skills" + "s" * 250: 1, "": 1, "é": 1, "has_mcp_hub ": True},
        {"browser_viewport_width": 2**53},
        {"browser_viewport_width": -(2**53 - 1)},
        {"browser_viewport_width": 1.5},
        {"browser_viewport_width": True},
        {"cwd": None, "provider_id": 3, "skills": ["a", 1], "editor_tabs": "x"},
        {"custom_prompt": "\ud800"},
        {"skills": ["ok", "\udc00"]},
        [],
        "text",
        None,
    ]
    good = [c for c in toggled_contexts() if c is not None]
    out.each(
        "core",
        [{"op": "context", "data": data} for data in bad + good],
        lambda i: Context.from_mapping(i["data"]).to_dict(),
    )


def labels_fill_like_python(out: Cases) -> None:
    from generator.runtime.labels import fill_label

    templates = ["[read {path}]", "{a|b} and {{x}}", "{bad", "}", "{path} {missing}", "{ é_ü }"]
    values: list[Any] = [{"path": "src/app.ts"}, {"b": "  two\n\tlines  "}, {"path": "x" * 100}, {"a": ""}, {"é_ü": 1}]
    values += [None, {"path": ["a", "b"]}, {"path": {"k": "v"}}, {"a": "🙂" * 70}]
    inputs = [{"op": "label", "template": t, "params": v} for t in templates for v in values]
    out.each("core", inputs, lambda i: fill_label(i["template"], i["params"]))


# --------------------------------------------------------------------------- the XML call parser

TOOLS = {
    "read_file": ["path", "start_line", "task_progress"],
    "write_to_file": ["path", "content", "task_progress"],
    "replace_in_file": ["path", "diff"],
    "apply_patch": ["input"],
    "execute_command": ["command", "requires_approval"],
    "condense": [],
    "a<b": ["x>y", "p"],
    "p": ["pp", "p"],
}

CORPUS = [
    "",
    "No calls here, only <b>markup</b> and <read_file without closing.",
    "I'll read it.\n<read_file>\n<path>src/main.py</path>\n</read_file>",
    "<read_file><path>  a b \u00a0</path><start_line>3</start_line></read_file> then <condense></condense>",
    "<write_to_file>\n<path>x.html</path>\n<content>\n<p>a</content> b</p>\n</content>\n</write_to_file>",
    "<write_to_file><content>a</content>b</content><task_progress>- [x] one</task_progress></write_to_file>",
    "<write_to_file><path>p</path><content>x</content></write_to_file><write_to_file><content>y",
    "<replace_in_file><path>f</path><diff>------- SEARCH\na\n=======\nb\n+++++++ REPLACE</diff></replace_in_file>",
    "<apply_patch><input>*** Begin Patch\n</input> inside\n*** End Patch</input></apply_patch>",
    "<execute_command><command>echo '</command>'</command><requires_approval>no</requires_approval></execute_command>",
    "<read_file><path>first</path><path>second</path></read_file>",
    "<read_file><path>日本/ファイル 🙂</path></read_file>\ufeff<read_file><path>\u2028x\u2029</path></read_file>",
    "<read_file><path>a</path></write_to_file></read_file>",
    "<a<b><x>y>1</x>y><p>2</p></a<b>",
    "<p><pp>1</pp><p>2</p></p><p><p>3",
    "<write_to_file><content>only text</content> tail <task_progress>t</task_progress></write_to_file>",
    "text <read_file>\n<path>a</path>\n</read_file> more <execute_command><command>ls -la</command></execute_command>",
]


def corpus_of_the_python_tests() -> list[str]:
    """Every string literal holding a tag in tests/test_xml_calls.py (the Python parser's own cases)."""
    import ast

    source = (ROOT / "tests" / "test_xml_calls.py").read_text("utf-8")
    found = [
        node.value
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and "<" in node.value
    ]
    return sorted(set(found), key=lambda text: (len(text), text))


def random_replies(count: int, seed: int = 1616) -> list[str]:
    """Replies made of tool tags, parameter tags and tricky text (fixed seed: reproducible)."""
    rng = random.Random(seed)
    alphabet = list("ab <>/\n\t=\"'&é日🙂") + ["\u00a0", "\u2028", "\ufeff", "\u0085", "\u001c"]
    names = [n for n in TOOLS if "<" not in n]
    replies = []
    for _ in range(count):
        parts = []
        for _ in range(rng.randint(1, 12)):
            roll = rng.random()
            tool = rng.choice(names)
            params = TOOLS[tool] or ["none"]
            if roll < 0.25:
                parts.append(f"<{tool}>")
            elif roll < 0.4:
                parts.append(f"</{tool}>")
            elif roll < 0.6:
                parts.append(f"<{rng.choice(params)}>")
            elif roll < 0.75:
                parts.append(f"</{rng.choice(params)}>")
            else:
                parts.append("".join(rng.choice(alphabet) for _ in range(rng.randint(1, 6))))
        replies.append("".join(parts))
    return replies


def prefixes(text: str) -> list[str]:
    return [text[:i] for i in range(len(text) + 1)]


def parse_calls_on_every_cut_of_the_corpus(out: Cases) -> None:
    from generator.runtime.xml_calls import parse_tool_calls

    texts = CORPUS + random_replies(150)
    inputs = [{"op": "parsePrefixes", "text": text, "tools": TOOLS} for text in texts]
    out.each("core", inputs, lambda i: [uses(parse_tool_calls(p, TOOLS)) for p in prefixes(i["text"])])


def parse_calls_on_every_cut_of_the_python_parser_cases(out: Cases) -> None:
    from generator.runtime.xml_calls import parse_tool_calls
    from test_xml_calls import TOOLS as PARSER_TOOLS

    tools = {name: list(params) for name, params in PARSER_TOOLS.items()}
    texts = corpus_of_the_python_tests()
    assert len(texts) > 20
    inputs = [{"op": "parsePrefixes", "text": text, "tools": tools} for text in texts]
    out.each("core", inputs, lambda i: [uses(parse_tool_calls(p, tools)) for p in prefixes(i["text"])])


def parse_calls_with_every_family_tools(out: Cases) -> None:
    from generated import prompt

    inputs = [{"op": "parsePrefixes", "text": text, "family": family} for family in families() for text in CORPUS[:6]]
    out.each("core", inputs, lambda i: [uses(prompt.parse_calls(p, i["family"])) for p in prefixes(i["text"])])


def streaming_parser_in_chunks(out: Cases) -> None:
    from generator.runtime.xml_calls import StreamingParser

    def chunked(text: str, sizes: list[int]) -> list[str]:
        chunks, index = [], 0
        for size in itertools.cycle(sizes):
            if index >= len(text):
                return chunks
            chunks.append(text[index : index + size])
            index += size
        return chunks

    def run(item: dict[str, Any]) -> list[Any]:
        parser = StreamingParser(item["tools"])
        return [uses(parser.feed(chunk)) for chunk in item["chunks"]]

    texts = CORPUS + random_replies(60, seed=7)
    inputs = [
        {"op": "stream", "tools": TOOLS, "chunks": chunked(text, sizes)}
        for text in texts
        for sizes in ([1], [3], [7, 1, 2], [1000])
    ]
    out.each("core", inputs, run)


def partial_json_array_reader(out: Cases) -> None:
    from generator.runtime.xml_calls import parse_partial_json_array

    samples = ['["a", "b"]', ' [ "x\\n\\u00e9\\ud83d\\ude00" , "y', '["a\\q"]', '["\\u12"]', '["ok", 1, "no"]']
    samples += ['["raw\ttab"]', '["\\ud800"]', "garbage", "", '["a"] trailing', '[  "a"  ,  ]', '["\\"quoted\\""]']
    texts = [p for s in samples for p in prefixes(s)]
    out.each("core", [{"op": "partialJson", "text": t} for t in texts], lambda i: parse_partial_json_array(i["text"]))


def label_names_and_known_tools(out: Cases) -> None:
    from generated import dispatch, prompt
    from generator.runtime.labels import label_names

    templates = ["[read {path}]", "{a|b} and {{x}}", "{bad", "}", "{path} {missing}", "{ é_ü }", "", "{a}{a}{b|a}"]
    templates += list(dispatch.LABELS.values())
    out.run("core", "labelNames", [{"template": t} for t in templates], lambda g: label_names(g["template"]))
    names = [*families(), "no-such-family", "__proto__"]
    out.run("core", "knownTools", [{"family": f} for f in names], lambda g: prompt.known_tools(g["family"]))
    from generator.runtime.json_values import json_equal

    values: list[Any] = [None, True, False, 0, 1, 1.5, -0.0, "", "1", [], [1], [1, [True]], {}, {"a": 1}, {"a": True}]
    values += [{"a": 1, "b": [None]}, {"b": [None], "a": 1}, float("nan"), "\ud800", "\U0001f600"]
    pairs = [{"a": a, "b": b} for a in values for b in values]
    out.run("core", "jsonEqual", pairs, lambda g: json_equal(g["a"], g["b"]))


def catalog_data_and_ids(out: Cases) -> None:
    """The catalog tables and the tool ids, as each package holds them."""
    from generated import catalog_data, ids

    def data(given: dict[str, Any]) -> Any:
        return {
            "selection": catalog_data.SELECTION,
            "rules": catalog_data.RULES,
            "precondition": catalog_data.PRECONDITION,
            "fallback": catalog_data.FALLBACK,
            "families": catalog_data.FAMILIES,
            "specs": catalog_data.SPECS,
            "familySpecs": catalog_data.FAMILY_SPECS,
            "placeholders": catalog_data.PLACEHOLDERS,
            "routing": catalog_data.ROUTING,
            "mcp": catalog_data.MCP,
            "subagents": catalog_data.SUBAGENTS,
        }

    out.run("core", "data", [{}], data)
    out.run("core", "toolIds", [{}], lambda g: [str(t.value) for t in ids.ToolId])


def build(out: Cases) -> None:
    """Every case of this module, in a fixed order."""
    for add in (
        select_family_on_the_selection_grids,
        enabled_tools_every_family_and_toggle,
        enabled_tools_variants_and_sections_on_random_contexts,
        prompt_section_every_family_and_toggle,
        prompt_section_with_mcp_servers_and_subagents,
        route_every_provider,
        resolve_text_of_every_spec_variant,
        context_checks_and_messages,
        labels_fill_like_python,
        parse_calls_on_every_cut_of_the_corpus,
        parse_calls_on_every_cut_of_the_python_parser_cases,
        parse_calls_with_every_family_tools,
        streaming_parser_in_chunks,
        partial_json_array_reader,
        label_names_and_known_tools,
        catalog_data_and_ids,
    ):
        add(out)
