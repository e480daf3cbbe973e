"""The native tool-list cache: keyed on the fields a family depends on, LRU, fresh copies per call.

Behaviour only (no timings; benchmarks/percall.py measures speed). Output equality with the
uncached path is guarded by test_behaviour_snapshot.py; here: what the key holds, eviction
order, placeholder paths, and that callers cannot reach the cache through what they get.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest

from generated import providers
from generated._runtime.cache import LRU
from generated._runtime.formats import FORMATS as RECORDS
from generated._runtime.native import adapt, fast_copy
from generated.catalog import CATALOG, FAMILIES
from generated.context import FIELD_TYPES, Context

NATIVE = [name for name, data in FAMILIES.items() if data["use_native_tools"]]
FORMATS = list(providers.FORMATS)
BASE: dict[str, Any] = {
    "provider_id": "anthropic",
    "model_id": "claude-sonnet-4-5-20250929",
    "enable_native_tool_calls": True,
    "cwd": "/home/user/project",
    "supports_browser_use": True,
    "focus_chain_enabled": True,
    "has_mcp_hub": True,
    "editor_tabs": ("src/main.py",),
}
# Other values of each field type, to change one field at a time.
OTHER: dict[str, list[Any]] = {
    "string": ["/srv/{{cwd}}", "", "x" * 40],
    "integer": [1, 4096],
    "boolean": [False, True],
    "string_list": [(), ("a.ipynb", "b.md"), ("{{cwd}}",), ("src/other.py",)],
}


@pytest.fixture(autouse=True)
def empty_cache() -> Iterator[None]:
    CATALOG.tool_lists.clear()
    yield
    CATALOG.tool_lists.clear()


def _ctx(**changes: Any) -> Context:
    return Context.from_mapping({**BASE, **changes})


def _uncached(family: str, ctx: Context, fmt: str) -> list[dict[str, Any]]:
    CATALOG.tool_lists.clear()
    return providers.native_tools(family, ctx, format=fmt)


@pytest.mark.parametrize("family", NATIVE)
def test_fields_outside_the_key_never_change_the_output(family: str) -> None:
    """A field out of ``context_fields`` changes the list only where a ``context_tests`` outcome changes."""
    fields = set(FAMILIES[family]["context_fields"])
    tests = FAMILIES[family]["context_tests"]
    outside = [name for name in FIELD_TYPES if name not in fields]
    assert "custom_prompt" in outside  # the text path's concern, never the tool list's
    for fmt in FORMATS:
        seen: dict[tuple[bool, ...], list[dict[str, Any]]] = {}
        for ctx in [_ctx()] + [_ctx(**{n: v}) for n in outside for v in OTHER[FIELD_TYPES[n][0]]]:
            outcomes = tuple(CATALOG.holds(test, ctx) for test in tests)
            assert seen.setdefault(outcomes, _uncached(family, ctx, fmt)) == _uncached(family, ctx, fmt), (fmt, ctx)
        assert len(seen) > 1 or not tests


def test_editor_tabs_are_keyed_on_what_the_specs_ask_of_them() -> None:
    # Open editor tabs change as the user works; the specs only ask whether one is a notebook.
    assert "editor_tabs" not in FAMILIES["native-next-gen"]["context_fields"]
    first = providers.native_tools("native-next-gen", _ctx(), format="anthropic")
    keys = CATALOG.tool_lists.in_use_order()
    again = providers.native_tools("native-next-gen", _ctx(editor_tabs=("other.py", "b.md")), format="anthropic")
    assert again == first and again is not first
    assert CATALOG.tool_lists.in_use_order() == keys  # no new entry: the second call was served from it
    notebook = providers.native_tools("native-next-gen", _ctx(editor_tabs=("n.ipynb",)), format="anthropic")
    assert len(CATALOG.tool_lists) == 2 and notebook != first


def test_a_relevant_field_is_a_new_key() -> None:
    home = providers.native_tools("native-next-gen", _ctx(), format="openai-chat")
    assert len(CATALOG.tool_lists) == 1
    elsewhere = providers.native_tools("native-next-gen", _ctx(cwd="/srv/elsewhere"), format="openai-chat")
    assert len(CATALOG.tool_lists) == 2
    assert "/srv/elsewhere" in repr(elsewhere) and "/srv/elsewhere" not in repr(home)
    # A switch read only by a requirement: the list changes, and so does the key.
    no_browser = providers.native_tools("native-next-gen", _ctx(supports_browser_use=False), format="openai-chat")
    assert len(CATALOG.tool_lists) == 3 and len(no_browser) < len(home)


def test_lru_evicts_the_least_recently_used() -> None:
    cache: LRU[str] = LRU(limit=2)
    cache.put("a", "A")
    cache.put("b", "B")
    assert cache.get("a") == "A"  # a is now the most recent
    cache.put("c", "C")
    assert cache.in_use_order() == ["a", "c"] and cache.get("b") is None
    cache.put(["unhashable"], "x")  # type: ignore[arg-type]
    assert cache.get(["unhashable"]) is None and len(cache) == 2  # type: ignore[arg-type]


def test_tool_lists_are_kept_in_use_order() -> None:
    contexts = [_ctx(cwd=f"/w/{i}") for i in range(3)]
    for ctx in contexts:
        providers.native_tools("xs", ctx, format="anthropic")
    oldest = CATALOG.tool_lists.in_use_order()[0]
    providers.native_tools("xs", contexts[0], format="anthropic")  # a hit moves it to the end
    assert CATALOG.tool_lists.in_use_order()[-1] == oldest
    limit = CATALOG.tool_lists.limit
    try:
        CATALOG.tool_lists.limit = 3
        providers.native_tools("xs", _ctx(cwd="/w/new"), format="anthropic")
        assert oldest in CATALOG.tool_lists.in_use_order() and len(CATALOG.tool_lists) == 3
    finally:
        CATALOG.tool_lists.limit = limit


def _vandalize(tools: list[dict[str, Any]]) -> None:
    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for item in list(value.values()):
                walk(item)
            value["vandal"] = True
            value.pop("description", None)
        elif isinstance(value, list):
            for item in value:
                walk(item)
            value.append("vandal")

    walk(tools)
    tools.clear()


@pytest.mark.parametrize(
    ("fmt", "cache_control"),
    [(fmt, False) for fmt in FORMATS] + [(fmt, True) for fmt in FORMATS if RECORDS[fmt].cache_control],
)
def test_mutating_a_result_never_reaches_the_next_call(fmt: str, cache_control: bool) -> None:
    ctx = _ctx()
    tools = providers.FORMATS[fmt].tools
    reference = copy.deepcopy(tools("gemini3", ctx, cache_control=cache_control))
    CATALOG.tool_lists.clear()
    # The miss, the first hits (copied from the stored blob) and later hits (compiled copier).
    for _ in range(5):
        got = tools("gemini3", ctx, cache_control=cache_control)
        assert got == reference
        _vandalize(got)
    assert tools("gemini3", ctx, cache_control=cache_control) == reference


@pytest.mark.parametrize("fmt", FORMATS)
def test_placeholder_paths_fill_what_a_full_walk_fills(fmt: str) -> None:
    """META's paths find every value a fill over the whole entry would change, and only those."""
    module = providers.FORMATS[fmt]
    # Values that hold placeholders themselves: a second fill would show.
    ctx = _ctx(cwd="{{cwd}}/{{cwd}}", is_multi_root_enabled=True, yolo_mode=True)
    checked = 0
    for key, entry in module.TOOLS.items():
        meta = module.META[key]
        if entry is None or meta is None or not meta["placeholders"]:
            continue
        whole = {k: v for k, v in meta.items() if k != "paths"}
        args = (
            lambda r: CATALOG.holds(r, ctx),
            lambda p: CATALOG.resolve_text(p, ctx),
            lambda t: CATALOG.resolve_placeholders(t, ctx),
        )
        assert adapt(fmt, fast_copy(entry), meta, *args) == adapt(fmt, fast_copy(entry), whole, *args), key
        checked += 1
    assert checked


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_list_with_mcp_tools_is_the_whole_list_made_afresh(fmt: str) -> None:
    """With MCP tools the static part comes from the cache and the conversions are kept: the
    list is still what making every entry afresh (``_build``) gives, and a changed tool is
    converted again."""
    from generated._runtime import tool_lists

    module = providers.FORMATS[fmt]
    schema = {"type": "object", "properties": {"q": {"type": "string", "description": "Query."}}}
    servers = [{"uid": "kb", "name": "kb", "tools": [{"name": "find", "description": "Finds.", "inputSchema": schema}]}]
    for family in NATIVE:
        for cache_control in (False, True) if RECORDS[fmt].cache_control else (False,):
            for _ in range(2):  # a miss, then a hit
                extra, _skipped = CATALOG.dynamic_variants(family, BASE, mcp_servers=servers)
                got = module.tools(family, BASE, extra_variants=extra, cache_control=cache_control)
                whole = tool_lists._build(CATALOG, fmt, module.TOOLS, module.META, family, Context(**BASE), extra, None)
                assert got == tool_lists._mark_last(whole, cache_control)
    schema["properties"]["q"]["description"] = "Changed."
    extra, _skipped = CATALOG.dynamic_variants(NATIVE[0], BASE, mcp_servers=servers)
    assert "Changed." in str(module.tools(NATIVE[0], BASE, extra_variants=extra)[-1])
