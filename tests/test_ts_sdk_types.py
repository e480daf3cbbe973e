"""The TypeScript package's values fit the provider SDKs' own types with no cast (issue 22).

tests/ts/hosts/sdk_host.ts passes ``nativeTools``, ``readCalls``, ``resultMessages`` and an
``Offer``'s values straight into the real SDKs pinned in tests/ts/package.json: Anthropic's
``messages.create``, OpenAI's ``chat.completions.create`` and ``responses.create``, Gemini's
``generateContent`` and Bedrock's ``ConverseCommand``. One tsc run (tests/ts/tsconfig.json's strict
flags) checks it, variants of it that pass one format's values where another's belong (each must
fail, so the check is not vacuous), and a module holding what the TS runtime really returns in each
format as literals typed with the package's per-format types: an object literal gets tsc's
excess-property check, so a type that says less than, or other than, what the runtime makes fails.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import ts_bridge
from behaviour import FORMATS
from golden import GOLDEN_FIELDS

HOST = ts_bridge.ROOT / "tests" / "ts" / "hosts" / "sdk_host.ts"
PACKAGE_JSON = ts_bridge.ROOT / "tests" / "ts" / "package.json"
SDKS = ("@anthropic-ai/sdk", "openai", "@google/genai", "@aws-sdk/client-bedrock-runtime")
MCP_SERVERS = ts_bridge.ROOT / "tests" / "data" / "mcp" / "servers.json"
SUBAGENTS = [{"name": "Code Reviewer", "description": "Reviews a diff."}, {"name": "tester"}]
SDK_CALLS = (
    "messages.create(",
    "chat.completions.create(",
    "responses.create(",
    "generateContent(",
    "ConverseCommand(",
)
NATIVE_FAMILIES = ("gpt-5-native", "gpt-5-1-native", "gemini3", "native-next-gen")

# variant file -> (text replaced in the host, its replacement, what tsc must report)
VARIANTS = {
    "gemini_tools_to_anthropic.ts": (
        'const tools = nativeTools(FAMILY, context, { format: "anthropic" });',
        'const tools = nativeTools(FAMILY, context, { format: "gemini" });',
        "is not assignable",
    ),
    "chat_reply_read_as_anthropic.ts": (
        'readCalls(reply, "openai-chat")',
        'readCalls(reply, "anthropic")',
        "Argument of type 'ChatCompletion",
    ),
    "anthropic_results_to_bedrock.ts": (
        'readCalls(reply, "bedrock-converse")), "bedrock-converse")',
        'readCalls(reply, "bedrock-converse")), "anthropic")',
        "is not assignable",
    ),
    "responses_offer_answers_chat.ts": (
        'const offer = new Offer(FAMILY, context, { format: "openai-responses" });',
        'const offer = new Offer(FAMILY, context, { format: "openai-chat" });',
        "is not assignable",
    ),
    "read_file_args_misread.ts": ("const path: string = args.path;", "const path: number = args.path;", "TS2322"),
}


def _literal(value: Any) -> str:
    """``value`` as a TypeScript literal (JSON, ASCII-escaped; no key is "__proto__" here)."""
    return json.dumps(value, ensure_ascii=True, indent=1)


def _runtime_values() -> dict[str, dict[str, Any]]:
    """What the TS runtime returns, per format: tools of every native family (MCP and subagent
    tools included) and the result element and messages of an ok, a failed and a denied result
    (the second with a made-up id, which Gemini leaves out)."""
    context = {**GOLDEN_FIELDS, "subagents_enabled": True, "enable_native_tool_calls": True}
    context = {k: list(v) if isinstance(v, tuple) else v for k, v in context.items()}
    servers = MCP_SERVERS.read_text("utf-8")
    cases = [
        {"family": family, "format": fmt, "context": context, "servers": servers, "subagents": json.dumps(SUBAGENTS)}
        for fmt in FORMATS
        for family in NATIVE_FAMILIES
    ]
    answers = [
        ({"name": "read_file", "params": {}, "id": "c1"}, {"content": "text", "is_error": False, "denied": False}),
        ({"name": "t", "params": {}, "id": "toolgen-call-1"}, {"content": "bad", "is_error": True, "denied": False}),
        ({"name": "u", "params": {}, "id": "c3"}, {"content": "no", "is_error": False, "denied": True}),
    ]
    results = ts_bridge.values("dispatch", [{"op": "results", "format": fmt, "answers": answers} for fmt in FORMATS])
    out: dict[str, dict[str, Any]] = {fmt: {"tools": []} for fmt in FORMATS}
    for case, got in zip(cases, ts_bridge.values("native", cases), strict=True):
        listed = json.loads(got["text"])
        assert "tools" in listed, (case["family"], case["format"], listed)
        out[case["format"]]["tools"] += listed["tools"]
    for fmt, got in zip(FORMATS, results, strict=True):
        out[fmt]["each"], out[fmt]["all"] = got["each"], got["all"]
    return out


def shapes_module() -> str:
    """The runtime's values as literals typed by format (ToolEntry, ResultElement, ResultMessage)."""
    lines = ['import type { ResultElement, ResultMessage, ToolEntry } from "../../../generated-ts/index.js";', ""]
    for fmt, values in _runtime_values().items():
        name = fmt.replace("-", "_")
        assert values["tools"] and values["each"] and values["all"], fmt
        lines.append(f'export const tools_{name}: ToolEntry<"{fmt}">[] = {_literal(values["tools"])};')
        lines.append(f'export const each_{name}: ResultElement<"{fmt}">[] = {_literal(values["each"])};')
        lines.append(f'export const all_{name}: ResultMessage<"{fmt}">[] = {_literal(values["all"])};')
    return "\n".join([*lines, ""])


@pytest.fixture(scope="module")
def diagnostics() -> dict[str, str]:
    source = HOST.read_text("utf-8")
    modules = {"sdk_host.ts": source, "shapes.ts": shapes_module()}
    for name, (old, new, _) in VARIANTS.items():
        assert source.count(old) == 1, f"the host holds {old!r} {source.count(old)} times, not once"
        modules[name] = source.replace(old, new)
    return ts_bridge.typecheck_host(ts_bridge.render_package(), modules)


def test_the_host_passes_every_value_to_the_sdks_with_no_cast(diagnostics: dict[str, str]) -> None:
    others = {path: text for path, text in diagnostics.items() if path not in VARIANTS}
    assert others == {}, others
    source = HOST.read_text("utf-8")
    assert " as " not in source and "<any>" not in source and "@ts-" not in source, "the host needs no cast"
    for call in SDK_CALLS:
        assert call in source, call


def test_the_runtime_values_are_what_the_per_format_types_say(diagnostics: dict[str, str]) -> None:
    assert diagnostics.get("shapes.ts", "") == ""


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_one_formats_values_where_anothers_belong_fail(diagnostics: dict[str, str], variant: str) -> None:
    assert VARIANTS[variant][2] in diagnostics.get(variant, ""), diagnostics.get(variant)


def test_the_sdks_are_pinned_exactly() -> None:
    pinned = json.loads(PACKAGE_JSON.read_text("utf-8"))["devDependencies"]
    for sdk in SDKS:
        assert re.fullmatch(r"[0-9]+\.[0-9]+\.[0-9]+", pinned.get(sdk, "")), (sdk, pinned.get(sdk))


def test_the_package_types_name_no_sdk() -> None:
    """Structural types only: no SDK in the package's imports, at run time or in its types."""
    package = ts_bridge.render_package()
    for rel, data in package.items():
        if rel.endswith(".ts"):
            imports = re.findall(r'from\s+"([^"]+)"', data.decode("utf-8"))
            assert all(spec.startswith(("./", "../")) for spec in imports), (rel, imports)


def test_host_file_is_the_one_documented() -> None:
    docs = (ts_bridge.ROOT / "docs" / "typescript.md").read_text("utf-8")
    assert Path("tests/ts/hosts/sdk_host.ts").as_posix() in docs
