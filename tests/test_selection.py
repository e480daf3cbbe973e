"""select_family of the bundled generated package."""

from __future__ import annotations

import json

import pytest

import generated
from conftest import reference_file


def _ctx(provider, model, native=None, custom=None) -> dict:
    return {"provider_id": provider, "model_id": model, "enable_native_tool_calls": native, "custom_prompt": custom}


def test_reference_grid() -> None:
    cases = json.loads(reference_file("variant-selection-grid").read_text("utf-8"))["cases"]
    assert len(cases) == 276
    wrong = [
        (case["context"], generated.select_family(case["context"]), case["family"])
        for case in cases
        if generated.select_family(case["context"]) != case["family"]
    ]
    assert not wrong, "\n".join(map(str, wrong))
    # Context objects and mappings agree
    for case in cases[:40]:
        assert generated.select_family(generated.Context.from_mapping(case["context"])) == case["family"]


TRICKY = [
    # GPT-5: chat models are not next-gen; 5.1+ has its own native family
    (_ctx("openai", "gpt-5", True), "gpt-5-native"),
    (_ctx("openai", "gpt-5", False), "gpt-5"),
    (_ctx("openai", "gpt-5-chat-latest", True), "generic"),
    (_ctx("openai", "gpt-5.1", True), "gpt-5-1-native"),
    (_ctx("openai", "gpt-5.1", False), "gpt-5"),
    (_ctx("openrouter", "openai/gpt-oss-120b", True), "gpt-5-native"),
    (_ctx("openrouter", "openai/gpt-oss-120b", False), "next-gen"),
    # Claude 4 family ids
    (_ctx("anthropic", "claude-sonnet-4-5-20250929", True), "native-next-gen"),
    (_ctx("anthropic", "claude-sonnet-4-5-20250929", False), "next-gen"),
    (_ctx("anthropic", "claude-opus-4-1-20250805", False), "next-gen"),
    (_ctx("openrouter", "anthropic/claude-sonnet-4.5", False), "next-gen"),
    (_ctx("anthropic", "sonnet", False), "next-gen"),
    # Gemini 3 on gemini and vertex needs native tool calls
    (_ctx("gemini", "gemini-3-pro-preview", True), "gemini3"),
    (_ctx("vertex", "gemini-3-pro-preview", True), "gemini3"),
    (_ctx("gemini", "gemini-3-pro-preview", False), "next-gen"),
    (_ctx("vertex", "gemini-3-pro-preview", False), "next-gen"),
    # open-weight families
    (_ctx("openrouter", "z-ai/glm-4.6", False), "glm"),
    (_ctx("openrouter", "nousresearch/hermes-4-405b", False), "hermes"),
    (_ctx("openrouter", "mistralai/devstral-medium", False), "devstral"),
    (_ctx("openrouter", "arcee-ai/trinity-mini", False), "trinity"),
    # local providers with the compact prompt
    (_ctx("lmstudio", "qwen3-coder", False, "compact"), "xs"),
    (_ctx("ollama", "llama3", False, "compact"), "xs"),
    (_ctx("ollama", "llama3", False, None), "generic"),
    (_ctx("openai", "llama3", False, "compact"), "generic"),
    # missing provider or model
    (_ctx(None, "gpt-5", True), "generic"),
    (_ctx("openai", None, True), "generic"),
    (_ctx("openai", "", True), "generic"),
    ({}, "generic"),
    # whitespace and case are normalized
    (_ctx("openai", "  GPT-5  ", True), "gpt-5-native"),
    (_ctx(" OpenAI ", "gpt-5", True), "gpt-5-native"),
    (_ctx("OLLAMA", "llama3", False, "compact"), "xs"),
]


@pytest.mark.parametrize(
    "context,family",
    TRICKY,
    ids=[
        f"{c.get('provider_id')}:{c.get('model_id')}:{c.get('enable_native_tool_calls')}:{c.get('custom_prompt')}"
        for c, _ in TRICKY
    ],
)
def test_tricky_ids(context: dict, family: str) -> None:
    assert generated.select_family(context) == family
