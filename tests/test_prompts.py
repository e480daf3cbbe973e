"""The text path of the committed generated/ package: the '# Tools' prompt section and reading
calls written in its Usage format back with generated.prompt.parse_calls.

Parity facts come from tests/data/reference/cline-v4.0.10-golden-structure.json (vendored from
the shared reference); everything else is checked against generated.catalog directly.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import GOLDEN_FIELDS, ROOT, reference_file
from generated import catalog, prompt
from generated._runtime.prompt_blocks import PromptParam, tool_block, tools_section
from generated._runtime.xml_calls import DEFAULT_CONTENT_PARAMS, StreamingParser
from generated.context import Context
from generated.providers import native_tools

FAMILIES = tuple(catalog.VARIANTS)

#: The context the reference skeletons were taken in (see the file's "$about").
GOLDEN = Context(**GOLDEN_FIELDS)


def golden() -> dict[str, Any]:
    return json.loads(reference_file("golden-structure").read_text("utf-8"))


# ---- the skeleton reducer ------------------------------------------------------------------

_PARAM_LINE = re.compile(r"- ([A-Za-z0-9_]+): \((required|optional)\) .*", re.S)
_USAGE_LINE = re.compile(r"<([A-Za-z0-9_]+)>(.*)</\1>", re.S)
_TAG_LINE = re.compile(r"</?[A-Za-z0-9_]+>")
_HEADING = re.compile(r"## [A-Za-z0-9_]+")
_FIXED = ("# Tools", "Parameters:", "Parameters: None", "Usage:")


def skeleton(text: str) -> list[str]:
    """Reduce prompt text to its line skeleton: structural lines kept, other text lines -> '…'."""
    out: list[str] = []
    for line in text.split("\n"):
        if line == "":
            out.append("")
        elif line in _FIXED or _HEADING.fullmatch(line) or _TAG_LINE.fullmatch(line):
            out.append(line)
        elif line.startswith("Description:"):
            out.append("Description: …")
        elif m := _PARAM_LINE.fullmatch(line):
            out.append(f"- {m[1]}: ({m[2]}) …")
        elif m := _USAGE_LINE.fullmatch(line):
            out.append(f"<{m[1]}>{'…' if m[2] else ''}</{m[1]}>")
        else:
            out.append("…")
    return out


def test_skeleton_reducer():
    text = (
        "# Tools\n\n## t\nDescription: words\nmore words\n\nParameters:\n"
        "- a: (required) x (y)\n- b: (optional) z\nUsage:\n<t>\n<a>v</a>\n<b></b>\n</t>"
    )
    assert skeleton(text) == [
        "# Tools", "", "## t", "Description: …", "…", "", "Parameters:",
        "- a: (required) …", "- b: (optional) …", "Usage:", "<t>", "<a>…</a>", "<b></b>", "</t>",
    ]
    assert skeleton("## u\nDescription: d\nParameters: None") == ["## u", "Description: …", "Parameters: None"]


def _enabled_ids(family: str, context: Any) -> tuple[str, ...] | None:
    # Keys of base specs that are no prompt family themselves (e.g. "gpt/...") have no enabled
    # set: they are rendered without dependency filtering (focus chain is on in the golden
    # context, so that is what the modelled system shows).
    if family not in catalog.VARIANTS:
        return None
    return tuple(v["id"] for v in catalog.assemble(family, context))


# ---- parity with the reference skeletons ---------------------------------------------------


def test_reference_covers_every_spec_and_family():
    ref = golden()
    assert set(ref["prompt_text_skeleton"]) == set(catalog.SPECS)
    assert set(ref["tools_section_skeleton"]) == set(FAMILIES)


@pytest.mark.parametrize("key", sorted(catalog.SPECS))
def test_spec_block_skeleton(key):
    expected = golden()["prompt_text_skeleton"].get(key)
    if expected is None:
        pytest.fail(f"{key} has no reference skeleton")
    family = key.split("/", 1)[0]
    block = prompt.variant_block(catalog.SPECS[key], GOLDEN, _enabled_ids(family, GOLDEN))
    assert skeleton(block) == expected


@pytest.mark.parametrize("family", FAMILIES)
def test_tools_section_skeleton(family):
    """Equal to the reference, except for one documented, deliberate difference.

    The modelled system joins every enabled tool's block, including focus_chain's empty one,
    with blank lines, so an empty block shows as two extra blank lines ("\\n\\n\\n\\n"). We emit
    no block for a tool with neither description nor parameters.
    """
    reference = "\n".join(golden()["tools_section_skeleton"][family])
    section = prompt.prompt_section(family, GOLDEN)
    collapsed = reference.replace("\n\n\n\n", "\n\n")
    assert skeleton(section) == collapsed.split("\n")

    # ... and that is the only difference: joining the empty blocks the way the modelled system
    # does reproduces the reference exactly, and the empty blocks are exactly the extra lines.
    variants = catalog.assemble(family, GOLDEN)
    ids = tuple(v["id"] for v in variants)
    blocks = [prompt.variant_block(v, GOLDEN, ids) for v in variants]
    assert skeleton("\n\n".join(["# Tools", *blocks])) == reference.split("\n")
    empty = [v["id"] for v, b in zip(variants, blocks, strict=True) if not b]
    assert reference.count("\n\n\n\n") == len(empty)
    assert empty == (["focus_chain"] if "focus_chain" in ids else [])
    assert section == tools_section(blocks)


# ---- parameters, placeholders, conditional text -------------------------------------------


def _block(section: str, name: str) -> str:
    """The block of tool ``name`` inside a tools section ('' when it has none)."""
    for chunk in section.split("\n\n## "):
        if chunk.startswith((f"{name}\n", f"## {name}\n")):
            return chunk if chunk.startswith("## ") else "## " + chunk
    return ""


def _params(block: str) -> list[str]:
    return [m[1] for m in re.finditer(r"^- ([A-Za-z0-9_]+): \(", block, re.M)]


def test_task_progress_follows_focus_chain_per_family():
    """task_progress depends on focus_chain: shown only when that tool is enabled in the family.

    (As in the modelled system, gpt-5-native's and native-next-gen's plan_mode_respond declare
    task_progress without the dependency, so it is always shown there.)
    """
    checked = 0
    for family in FAMILIES:
        has_focus = any(v["id"] == "focus_chain" for v in catalog.VARIANTS[family])
        for enabled in (False, True):
            ctx = Context(model_id="x", focus_chain_enabled=enabled, has_mcp_hub=True)
            section = prompt.prompt_section(family, ctx)
            for v in catalog.enabled_variants(family, ctx):
                (tp,) = [p for p in v["parameters"] if p["name"] == "task_progress"] or [None]
                if tp is None:
                    continue
                block = _block(section, v["name"])
                expected = not tp["dependencies"] or (enabled and has_focus)
                assert ("task_progress" in _params(block)) == expected, (family, v["name"], enabled)
                assert ("<task_progress>" in block) == expected
                checked += 1
    assert checked > 50
    # xs offers no focus_chain tool, so its read_file never shows task_progress even when on
    assert "focus_chain" not in {v["id"] for v in catalog.VARIANTS["xs"]}
    xs = prompt.prompt_section("xs", Context(focus_chain_enabled=True))
    assert "task_progress" not in _params(_block(xs, "read_file"))
    assert "task_progress" in prompt.known_tools("xs")["read_file"]  # the parser still accepts it


def test_parameter_context_requirement_timeout_only_in_yolo():
    off = _block(prompt.prompt_section("generic", Context()), "execute_command")
    on = _block(prompt.prompt_section("generic", Context(yolo_mode=True)), "execute_command")
    assert _params(off) == ["command", "requires_approval"]
    assert _params(on) == ["command", "requires_approval", "timeout"]
    assert "<timeout>" in on and "<timeout>" not in off


def test_tool_requirements_select_tools():
    base = {"model_id": "x"}
    assert "## browser_action" not in prompt.prompt_section("generic", Context(**base))
    assert "## browser_action" in prompt.prompt_section("generic", Context(supports_browser_use=True, **base))
    web = Context(provider_id="cline", cline_web_tools_enabled=True, **base)
    assert "## web_fetch" in prompt.prompt_section("next-gen", web)
    assert "## web_fetch" not in prompt.prompt_section("next-gen", Context(cline_web_tools_enabled=True, **base))


def test_placeholders_resolved_from_context():
    ctx = Context(cwd="/home/ada/project", supports_browser_use=True, has_mcp_hub=True, skills=("s",))
    for family in FAMILIES:
        section = prompt.prompt_section(family, ctx)
        assert "{{" not in section, family
        assert "/home/ada/project" in _block(section, "read_file"), family
    multi = prompt.prompt_section("generic", Context(cwd="/w", is_multi_root_enabled=True))
    hint = catalog.PLACEHOLDERS["MULTI_ROOT_HINT"]["map"][0][1]
    assert hint and hint in _block(multi, "read_file")
    assert hint not in prompt.prompt_section("generic", Context(cwd="/w"))
    # the documented default for cwd
    assert "Each command starts in the working folder /." in _block(prompt.prompt_section("generic"), "execute_command")


def _desc(block: str) -> str:
    return block.split("\nDescription: ", 1)[1].split("\nParameters:", 1)[0]


@pytest.mark.parametrize(
    "context, size",
    [
        ({"supports_browser_use": True, "enable_native_tool_calls": True}, "900x600"),
        (Context(supports_browser_use=True, enable_native_tool_calls=True), "900x600"),
        (
            Context(
                supports_browser_use=True,
                enable_native_tool_calls=True,
                browser_viewport_width=1280,
                browser_viewport_height=800,
            ),
            "1280x800",
        ),
    ],
)
def test_viewport_default_matches_native_path(context, size):
    section = prompt.prompt_section("native-next-gen", context)
    block = _block(section, "browser_action")
    (native,) = [
        t for t in native_tools("native-next-gen", context, format="anthropic") if t["name"] == "browser_action"
    ]
    assert f"{size} pixels" in _desc(block)
    assert _desc(block) == native["description"]
    coordinate = native["input_schema"]["properties"]["coordinate"]["description"]
    assert f"- coordinate: (optional) {coordinate}" in block
    assert f"{size} viewport" in coordinate


def _notebook_text(key: str) -> str:
    (diff,) = [p for p in catalog.SPECS[key]["parameters"] if p["name"] == "diff"]
    (piece,) = [p for p in diff["instruction"] if not isinstance(p, str)]
    return piece[0]


@pytest.mark.parametrize(
    "tabs, shown",
    [((), False), (("src/a.py",), False), (("nb/analysis.ipynb.bak",), False), (("a.py", "nb/analysis.ipynb"), True)],
)
def test_notebook_text_in_replace_in_file(tabs, shown):
    seen = 0
    for family in FAMILIES:
        variant = next((v for v in catalog.VARIANTS[family] if v["id"] == "replace_in_file"), None)
        if variant is None:
            continue
        note = _notebook_text(f"{variant['spec']}/replace_in_file")
        block = _block(prompt.prompt_section(family, Context(editor_tabs=tabs)), "replace_in_file")
        assert (note in block) is shown, family
        if shown:  # inside the diff parameter's instruction, before the next parameter
            diff = block.split("- diff: (required) ", 1)[1]
            rest = diff.split("\nUsage:", 1)[0]
            assert note.strip() in rest and "- task_progress:" not in rest.split(note.strip())[0]
        seen += 1
    assert seen >= 3


SERVER = {
    "uid": "srv001",
    "name": "notes",
    "disabled": False,
    "tools": [
        {
            "name": "find",
            "description": "Find notes under {{CWD}}",
            "inputSchema": {
                "type": "object",
                "properties": {"q": {"type": "string", "description": "width {{BROWSER_VIEWPORT_WIDTH}}"}},
                "required": ["q"],
            },
        }
    ],
}
AGENTS = [{"name": "Code Reviewer", "description": "Reviews the diff in {{CWD}}"}]


def test_run_time_tools_subagents_replace_static_then_mcp():
    ctx = Context(cwd="/ws", subagents_enabled=True, has_mcp_hub=True, focus_chain_enabled=True)
    static = prompt.prompt_section("generic", ctx)
    assert "## use_subagents" in static

    extra, skipped = catalog.dynamic_variants("generic", ctx, mcp_servers=[SERVER], subagents=AGENTS)
    assert skipped == []
    section = prompt.prompt_section("generic", ctx, extra)
    headings = re.findall(r"^## (\S+)$", section, re.M)
    static_names = [
        v["name"] for v in catalog.enabled_variants("generic", ctx) if v["id"] not in ("use_subagents", "focus_chain")
    ]
    sep = catalog.MCP["separator"]
    assert headings == [*static_names, "use_subagent_code_reviewer", f"srv001{sep}find"]

    agent = _block(section, "use_subagent_code_reviewer")
    mcp = _block(section, f"srv001{sep}find")
    assert "Reviews the diff in {{CWD}}" in agent  # run-time text: placeholders left alone
    assert "Find notes under {{CWD}}" in mcp and "width {{BROWSER_VIEWPORT_WIDTH}}" in mcp
    assert "/ws" in _block(section, "read_file")  # static text still resolved
    assert "- task_progress:" not in mcp

    # MCP tools alone keep the static use_subagents tool
    only_mcp, _ = catalog.dynamic_variants("generic", ctx, mcp_servers=[SERVER])
    assert "## use_subagents" in prompt.prompt_section("generic", ctx, only_mcp)
    # and the parser knows the run-time names
    calls = prompt.parse_calls(f"<srv001{sep}find>\n<q>x</q>\n</srv001{sep}find>", "generic", extra)
    assert [(c.name, dict(c.params), c.partial) for c in calls] == [(f"srv001{sep}find", {"q": "x"}, False)]


def test_tool_without_params_or_description_has_no_block():
    assert tool_block("nothing", "", []) == ""
    focus = catalog.SPECS["generic/focus_chain"]
    assert not focus["parameters"] and not "".join(p for p in focus["description"] if isinstance(p, str))
    assert prompt.variant_block(focus, GOLDEN) == ""
    section = prompt.prompt_section("generic", Context(focus_chain_enabled=True))
    assert "focus_chain" in catalog.enabled_tools("generic", Context(focus_chain_enabled=True))
    assert "## focus_chain" not in section and "\n\n\n" not in section
    # a description alone is enough for a block
    assert tool_block("x", "does x", []) == "## x\nDescription: does x\nParameters: None\nUsage:\n<x>\n</x>"


# ---- review files ---------------------------------------------------------------------------

PROMPTS = ROOT / "generated" / "prompts"


def _review_text(family: str) -> str:
    """What generated/prompts/<family>.xml holds below its header: unconditional text, every param."""
    blocks = []
    for v in catalog.VARIANTS[family]:
        params = [
            PromptParam(
                p["name"],
                p["required"],
                catalog.resolve_text(p["instruction"], None),
                catalog.resolve_text(p["description"], None),
                p["usage"] or "",
            )
            for p in v["parameters"]
        ]
        blocks.append(tool_block(v["name"], catalog.resolve_text(v["description"], None), params))
    return tools_section(blocks)


def test_review_files_one_per_family():
    assert sorted(p.stem for p in PROMPTS.glob("*.xml")) == sorted(FAMILIES)


@pytest.mark.parametrize("family", FAMILIES)
def test_review_file(family):
    text = (PROMPTS / f"{family}.xml").read_text("utf-8")
    header, about, body = text.split("\n", 2)
    assert header.startswith("<!-- Code generated by toolgen from ") and header.endswith(". DO NOT EDIT. -->")
    assert "specs/" in header
    assert about.startswith("<!-- ") and about.endswith(" -->")
    assert "{{CWD}}" in body
    listed = re.findall(r"^## (\S+)$", body, re.M)
    resolved = [
        v["name"] for v in catalog.VARIANTS[family] if v["parameters"] or catalog.resolve_text(v["description"], None)
    ]
    assert listed == resolved
    assert body == _review_text(family) + "\n"


# ---- round trip: a call written in the Usage format parses back ---------------------------

_EDGE_WS = set(" \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff") | {
    chr(c) for c in range(0x2000, 0x200B)
}


def _value(tool: str, param: str, params: tuple[str, ...]) -> st.SearchStrategy[str]:
    fragments = [
        "<",
        ">",
        "</",
        "/>",
        "\n",
        "\r\n",
        "&lt;",
        "é",
        "日本",
        "😀",
        "\u2028",
        "\ufeff",
        f"<{tool}>",
        f"</{tool}>",
    ]
    fragments += [f"<{p}>" for p in params] + [f"</{p}>" for p in params]
    value = st.lists(st.one_of(st.text(max_size=6), st.sampled_from(fragments)), max_size=8).map("".join)
    content_tool = any(p in DEFAULT_CONTENT_PARAMS for p in params)
    forbidden = []
    if param not in DEFAULT_CONTENT_PARAMS:
        forbidden.append(f"</{param}>")  # a non-content parameter ends at its first closing tag
    if content_tool:
        # the documented ambiguities of content parameters (as in the modelled system): the
        # tool's closing tag inside a value may end the call early, and another parameter's
        # value holding the content parameter's closing tag may be read as the content's end
        # (the last well-formed one wins)
        forbidden.append(f"</{tool}>")
        forbidden += [f"</{p}>" for p in params if p in DEFAULT_CONTENT_PARAMS and p != param]
    edge = "".join(_EDGE_WS)

    def clean(v: str) -> str:
        # mapped, not filtered: removing may create a new occurrence, so repeat until stable
        while True:
            before = v
            for tag in forbidden:
                v = v.replace(tag, "")
            v = v.strip(edge)  # values are trimmed like JS .trim()
            if v == before:
                return v

    return value.map(clean)


@st.composite
def _calls(draw, family: str):
    tools = catalog.VARIANTS[family]
    order = draw(st.permutations(range(len(tools))))
    calls = []
    for i in order:
        v = tools[i]
        names = tuple(p["name"] for p in v["parameters"])
        chosen = [n for n in names if draw(st.booleans())]
        calls.append((v["name"], {n: draw(_value(v["name"], n, names)) for n in chosen}))
    return calls


def _write(name: str, params: dict[str, str]) -> str:
    return "\n".join([f"<{name}>", *(f"<{k}>{v}</{k}>" for k, v in params.items()), f"</{name}>"])


@pytest.mark.parametrize("family", FAMILIES)
def test_round_trip_every_tool(family):
    @settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    @given(calls=_calls(family), between=st.sampled_from(["\n\n", "\nI'll do that.\n", " ", ""]))
    def check(calls, between):
        text = "Let me work on it.\n" + between.join(_write(n, p) for n, p in calls) + "\nDone."
        parsed = prompt.parse_calls(text, family)
        assert [(b.name, dict(b.params), b.partial) for b in parsed] == [(n, p, False) for n, p in calls]

    check()


# ---- streaming ------------------------------------------------------------------------------


def _streaming_text(family: str) -> tuple[str, list[tuple[str, dict[str, str]]]]:
    calls = []
    for v in catalog.VARIANTS[family][:4]:
        params = {}
        for p in v["parameters"][:3]:
            params[p["name"]] = f"a <b>{p['name']}</b>\n  é {p['usage'] or 'x'}"[:40].strip()
        calls.append((v["name"], params))
    text = "Plan:\n" + "\nthen\n".join(_write(n, p) for n, p in calls) + "\nok"
    return text, calls


@pytest.mark.parametrize("family", FAMILIES)
def test_streaming_every_prefix(family):
    text, calls = _streaming_text(family)
    ends = []
    pos = 0
    for name, _ in calls:
        pos = text.index(f"</{name}>", pos) + len(f"</{name}>")
        ends.append(pos)
    final = prompt.parse_calls(text, family)
    assert [(b.name, dict(b.params)) for b in final] == calls
    parser = StreamingParser(prompt.known_tools(family))
    for i in range(len(text) + 1):
        blocks = prompt.parse_calls(text[:i], family)
        done = [b for b in blocks if not b.partial]
        assert len(done) == sum(end <= i for end in ends), i
        assert done == final[: len(done)]
        assert all(not b.partial for b in blocks[:-1])
        if blocks and blocks[-1].partial:
            assert blocks[-1].name == calls[len(done)][0]
        if i:
            assert parser.feed(text[i - 1]) == blocks
