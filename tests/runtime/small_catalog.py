"""A hand-made catalog for testing generator/runtime/ where it is written (nothing generated)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from generator.runtime.catalog import Catalog
from generator.runtime.context import ContextBase, coercer

FIELD_TYPES = {
    "provider_id": ("string", True),
    "model_id": ("string", True),
    "cwd": ("string", False),
    "browser": ("boolean", False),
    "enable_native_tool_calls": ("boolean", False),
    "subagents_enabled": ("boolean", False),
    "retries": ("integer", False),
    "tags": ("string_list", False),
}


@dataclass(frozen=True)
class Ctx(ContextBase, field_types=FIELD_TYPES):
    provider_id: str | None = None
    model_id: str | None = None
    cwd: str = "/work"
    browser: bool = False
    enable_native_tool_calls: bool = True
    subagents_enabled: bool = False
    retries: int = 3
    tags: tuple[str, ...] = ()


BROWSER = {"field": "browser", "truthy": True}


def param(name: str, *, requires: Any = None, dependencies: tuple[str, ...] = ()) -> dict[str, Any]:
    return {
        "name": name,
        "required": True,
        "instruction": (f"The {name}.",),
        "description": (f"{name} to use",),
        "usage": None,
        "schema": {"type": "string"},
        "dependencies": dependencies,
        "requires": requires,
    }


def variant(family: str, tool: str, description: tuple[Any, ...], *params: dict[str, Any], requires: Any = None):
    return {
        "id": tool,
        "spec": family,
        "name": tool,
        "description": description,
        "requires": requires,
        "strict": False,
        "parameters": params,
    }


SPECS = {
    "plain/read": variant(
        "plain",
        "read",
        ("Read a file in {{CWD}}.", (" Screenshots too.", BROWSER)),
        param("path"),
        param("shot", requires=BROWSER),
        param("session", dependencies=("browse",)),
    ),
    "plain/browse": variant("plain", "browse", ("Open a page.",), param("url"), requires=BROWSER),
    "plain/use_subagents": variant("plain", "use_subagents", ("Delegate.",), param("prompt")),
    "smart/read": variant("smart", "read", ("Read (smart) with {{RETRIES}} retries.",), param("path")),
}


def make_catalog() -> Catalog:
    """Two families: 'smart' for provider 'acme' with a model containing 'big', else 'plain'."""
    return Catalog(
        selection={
            "provider_sets": {"acme": ["acme"]},
            "model_sets": {},
            "model_predicates": {"big": {"any_contains": ["big"]}},
        },
        rules=(("smart", {"all": [{"provider_in": "acme"}, {"model_matches": "big"}]}),),
        precondition=None,
        fallback="plain",
        families={
            "plain": {"description": "", "labels": {}, "tools": (), "use_native_tools": True},
            "smart": {"description": "", "labels": {}, "tools": ("read",), "use_native_tools": False},
        },
        specs=SPECS,
        family_specs={"plain": ("plain/read", "plain/browse", "plain/use_subagents"), "smart": ("smart/read",)},
        placeholders={
            "CWD": {"field": "cwd", "default": "/", "map": ()},
            "RETRIES": {"field": "retries", "default": 0, "map": ((3, "three"),)},
        },
        routing={
            "default": "openai_chat",
            "rules": (
                {"providers": ("acme",), "when": {"model_raw_contains": "Claude"}, "format": "anthropic"},
                {"providers": ("acme",), "when": None, "format": "gemini"},
            ),
        },
        mcp={"separator": "__mcp__", "name_max_length": 64},
        subagents={"name_prefix": "use_subagent_", "max_length": 64},
        as_context=coercer(Ctx),
    )
