"""The runtime's small parts: version check, LRU cache, context base (nothing generated)."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass

import pytest
from small_catalog import Ctx

from generator.runtime import RUNTIME_VERSION, check_version
from generator.runtime.cache import LRU
from generator.runtime.context import ContextBase, ContextError, coercer
from generator.runtime.schema_common import MAX_NESTING


def test_check_version_names_both_versions_and_what_to_do() -> None:
    check_version(RUNTIME_VERSION, "pkg.catalog")
    with pytest.raises(ImportError) as err:
        check_version(RUNTIME_VERSION + 1, "pkg.catalog")
    message = str(err.value)
    assert f"pkg.catalog was generated for toolgen runtime version {RUNTIME_VERSION + 1}" in message
    assert f"is version {RUNTIME_VERSION}" in message and "Regenerate the whole package" in message


def test_lru_drops_the_least_recently_used() -> None:
    cache: LRU[str] = LRU(2)
    cache.put("a", "A")
    cache.put("b", "B")
    assert cache.get("a") == "A"  # now b is the oldest
    cache.put("c", "C")
    assert (cache.get("a"), cache.get("b"), cache.get("c")) == ("A", None, "C")
    cache.put(["unhashable"], "x")  # type: ignore[arg-type]
    assert cache.get(["unhashable"]) is None and len(cache) == 2  # type: ignore[arg-type]


def test_context_from_mapping_and_json() -> None:
    ctx = Ctx.from_json(json.dumps({"tags": ["a"], "model_id": None, "retries": 2}))
    assert ctx == Ctx(tags=("a",), retries=2) and hash(ctx) == hash(Ctx(tags=("a",), retries=2))
    assert ctx.to_dict()["tags"] == ("a",) and next(iter(ctx.to_dict())) == "provider_id"
    as_context = coercer(Ctx)
    assert as_context(None) == Ctx() and as_context(ctx) is ctx and as_context({"cwd": "/x"}).cwd == "/x"


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ({"retries": True}, "retries: expected integer, got boolean"),
        ({"cwd": None}, "cwd: expected string, got null"),
        ({"tags": "a"}, "tags: expected string_list, got string"),
        ({"retries": 1.0}, "retries: expected integer, got number"),
        ({"cwd": b"x"}, "cwd: expected string, got bytes"),
    ],
)
def test_context_rejects_wrong_types(data, problem) -> None:
    with pytest.raises(ContextError) as err:
        Ctx.from_mapping(data)
    assert err.value.problems == [problem]


def test_context_rejects_nan_deep_json_and_non_objects() -> None:
    @dataclass(frozen=True)
    class Numbers(ContextBase, field_types={"ratio": ("number", False)}):
        ratio: float = 1.0

    for bad in (math.nan, math.inf):
        with pytest.raises(ContextError, match="is not a finite number"):
            Numbers.from_mapping({"ratio": bad})
    with pytest.raises(ContextError, match=f"nested deeper than {MAX_NESTING}"):
        Numbers.from_json("[" * (MAX_NESTING + 1) + "]" * (MAX_NESTING + 1))
    with pytest.raises(ContextError, match="expected a JSON object, got list"):
        Numbers.from_json("[]")
    with pytest.raises(ContextError, match="not valid JSON"):
        Numbers.from_json("{")
    with pytest.raises(ContextError, match="expected JSON text, got int"):
        Numbers.from_json(3)  # type: ignore[arg-type]


def test_lru_is_consistent_under_threads() -> None:
    """A lookup and its move to the end are one step: another thread's eviction cannot land
    between them (that raised KeyError before the lock)."""
    import sys
    import threading

    cache: LRU[int] = LRU(limit=8)
    errors: list[BaseException] = []

    def work(offset: int) -> None:
        try:
            for i in range(3000):
                key = (i * 7 + offset) % 40
                if cache.get(key) is None:
                    cache.put(key, key)
        except BaseException as exc:
            errors.append(exc)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=work, args=(k,)) for k in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert errors == [] and len(cache) <= 8


@pytest.mark.parametrize(
    "key,hint",
    [
        ("retry", " (did you mean 'retries'?)"),
        ("tag", " (did you mean 'tags'?)"),
        ("zzz", ""),
        ("provider", " (did you mean 'provider_id'?)"),
    ],
)
def test_unknown_context_keys_suggest_the_closest_field(key: str, hint: str) -> None:
    with pytest.raises(ContextError) as info:
        Ctx.from_mapping({key: 1})
    assert info.value.problems == [f"unknown key {key!r}{hint}"]


def test_bundled_context_suggests_provider_id_for_provider() -> None:
    from generated import Context
    from generated import ContextError as BundledContextError

    with pytest.raises(BundledContextError, match=r"unknown key 'provider' \(did you mean 'provider_id'\?\)"):
        Context.from_mapping({"provider": "anthropic"})


@pytest.mark.parametrize(
    "key,hint",
    [("retry", " (did you mean 'retries'?)"), ("zzz", ""), ("provider", " (did you mean 'provider_id'?)")],
)
def test_a_mistyped_keyword_names_the_closest_field(key: str, hint: str) -> None:
    """Context(provider=...) fails as Python would (TypeError), but names the field that was meant."""
    with pytest.raises(TypeError) as info:
        Ctx(**{key: 1})
    assert str(info.value) == f"Ctx() got an unexpected keyword argument {key!r}{hint}"


def test_the_bundled_context_names_provider_id_for_a_provider_keyword() -> None:
    from generated import Context

    with pytest.raises(TypeError, match=r"unexpected keyword argument 'provider' \(did you mean 'provider_id'\?\)"):
        Context(provider="anthropic")  # type: ignore[call-arg]
    assert Context(provider_id="anthropic").provider_id == "anthropic"  # known keywords are untouched
