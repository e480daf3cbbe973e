"""Regression tests for bugs a code review found (hangs and exit 123 on odd but possible input)."""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, edit, run_cli
from generated import catalog
from generated._runtime import dynamic_tools
from generated._runtime.subagents import subagent_name, subagent_names
from generator.diagnostics import shown

SEP = catalog.MCP["separator"]


@pytest.fixture(autouse=True)
def _at_repo_root(monkeypatch):
    monkeypatch.chdir(ROOT)  # --out defaults to generated/ in the current directory


def _file(tmp_path: Path, name: str, data) -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), "utf-8")
    return path


# ---- 1: subagent names and the MCP separator ---------------------------------------------


def test_subagent_name_ends_when_the_separator_straddles_prefix_and_name() -> None:
    name = subagent_name("0abc", prefix="use0mcp", separator="0mcp0")
    assert "0mcp0" not in name and name.startswith("use0mcp")


def test_subagent_names_never_hold_the_separator_whatever_the_name() -> None:
    rng = random.Random(7)
    refusals: set[str] = set()
    alphabet = "0m_cpa"
    for _ in range(3000):
        separator = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 4)))
        prefix = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 5)))
        if separator in prefix:
            continue
        configs = [{"name": "".join(rng.choice(alphabet + "X ") for _ in range(rng.randint(0, 12)))}]
        try:
            names = subagent_names(configs * 3, prefix=prefix, max_length=24, separator=separator)
        except ValueError as exc:  # nothing of the name left: said so, never a hang
            refusals.add(str(exc).split(" once ")[0])
            continue
        assert len(set(names)) == 3
        for name in names:
            assert separator not in name and name.startswith(prefix) and len(name) <= 24
    assert refusals <= {"no subagent name is left"}


def test_subagent_name_made_of_the_separator_only_still_gets_a_name() -> None:
    names = subagent_names([{"name": "0"}, {"name": "00"}], separator="0")
    assert len(set(names)) == 2 and not any("0" in name for name in names)


def test_subagent_prefix_that_starts_the_separator_is_a_located_e303(capsys, specs: Path) -> None:
    project = specs / "toolgen.yaml"
    edit(project, "name: fixture\n", "name: fixture\nmcp: {separator: 0mcp0}\nsubagents: {name_prefix: run0mcp}\n")
    code, _, err = run_cli(capsys, "validate", "--specs", specs)
    assert code == 2
    assert (
        "specs/toolgen.yaml:5:26: error[E303]: the subagent prefix ends with '0mcp', the start of the MCP "
        "separator '0mcp0', so a subagent named '0'... would hold it"
    ) in err


def test_subagent_prefix_ending_in_an_unreachable_separator_start_is_fine(capsys, specs: Path) -> None:
    # "_" starts "__mcp__", but a sanitized name never starts with "_mcp__"
    project = specs / "toolgen.yaml"
    edit(project, "name: fixture\n", "name: fixture\nmcp: {separator: __mcp__}\nsubagents: {name_prefix: use_}\n")
    code, _, err = run_cli(capsys, "validate", "--specs", specs)
    assert "E303" not in err and code == 0


def test_show_prompt_with_a_subagent_name_that_completes_the_separator(capsys, tmp_path: Path) -> None:
    ctx = _file(tmp_path, "ctx.json", {"subagents_enabled": True})
    agents = _file(tmp_path, "agents.json", [{"name": f"{SEP[1:]}abc"}, {"name": f"a{SEP}b"}])
    code, out, err = run_cli(capsys, "show", "prompt", "--family", "generic", "--context", ctx, "--subagents", agents)
    assert (code, err) == (0, "")
    headings = [line for line in out.splitlines() if line.startswith("## use_subagent_")]
    assert len(headings) == 2 and not any(SEP in line for line in headings)


# ---- 2: lone surrogates in JSON input ----------------------------------------------------


def _lone(text: str) -> str:
    """``text`` with each ``@`` turned into JSON for a string holding a lone surrogate."""
    return text.replace("@", '"x\\ud800"')


def test_context_with_a_lone_surrogate_is_refused(capsys, tmp_path: Path) -> None:
    from generated.context import Context, ContextError

    ctx = _file(tmp_path, "c.json", _lone('{"cwd": @, "editor_tabs": [@]}'))
    code, out, err = run_cli(capsys, "show", "prompt", "--family", "generic", "--context", ctx)
    assert (code, out) == (2, "")
    assert f"{shown(ctx)}: error[E137]: invalid context: cwd: text holds a lone surrogate" in err
    assert "editor_tabs: text holds a lone surrogate" in err
    with pytest.raises(ContextError, match="cwd: text holds a lone surrogate"):
        Context.from_mapping({"cwd": "\ud800"})


def test_runtime_tools_with_lone_surrogates_cost_only_themselves(capsys, tmp_path: Path) -> None:
    ctx = _file(tmp_path, "c.json", {"subagents_enabled": True})
    agents = _file(tmp_path, "a.json", _lone('[{"name": "ok"}, {"name": @}, {"name": "y", "description": @}]'))
    servers = _file(
        tmp_path,
        "m.json",
        _lone(
            '[{"uid": "u1", "name": "S", "tools": [{"name": "t", "description": @}, {"name": "good"}]},'
            ' {"uid": "u2", "name": @, "tools": [{"name": "t"}]}]'
        ),
    )
    args = ["show", "prompt", "--family", "generic", "--context", ctx, "--subagents", agents]
    code, out, err = run_cli(capsys, *args, "--mcp-servers", servers)
    assert code == 0
    assert "## use_subagent_ok\n" in out and f"## u1{SEP}good\n" in out and "## u2" not in out
    reason = "text holds a lone surrogate (U+D800..U+DFFF), which UTF-8 cannot encode"
    assert err.splitlines() == [
        f"toolgen: skipped run-time tool 'x\\\\ud800' of None: {reason}",
        f"toolgen: skipped run-time tool 'y' of None: {reason}",
        f"toolgen: skipped MCP tool 'u1{SEP}t' of 'S': {reason}",
        f"toolgen: skipped MCP tool 'u2{SEP}t' of 'x\\ud800': {reason}",
    ]


def test_library_runtime_tools_never_carry_lone_surrogates() -> None:
    from generated.providers import native_tools

    skipped: list[dict] = []
    tools = dynamic_tools.subagent_tools([{"name": "a\ud800"}, {"name": "b"}], skipped=skipped)
    assert [t["name"] for t in tools] == ["use_subagent_b"]
    assert skipped[0]["tool"] == "a\\ud800" and "lone surrogate" in skipped[0]["reason"]
    servers = [{"uid": "u", "name": "S", "tools": [{"name": "t", "inputSchema": {"properties": {"\udc00": {}}}}]}]
    variants, left_out = dynamic_tools.mcp_tools(servers, separator=SEP)
    assert variants == [] and "lone surrogate" in left_out[0]["reason"]
    context = {"subagents_enabled": True, "enable_native_tool_calls": True}
    servers.append({"uid": "v", "name": "V", "tools": [{"name": "ok"}, {"name": "\ud800"}]})
    agents = [{"name": "\ud800"}, {"name": "fine"}]
    extra, _ = catalog.dynamic_variants("native-next-gen", context, subagents=agents, mcp_servers=servers)
    assert [v["name"] for v in extra][-1] == f"v{SEP}ok"
    sent = native_tools("native-next-gen", context, format="anthropic", extra_variants=extra)
    json.dumps(sent, ensure_ascii=False).encode("utf-8")  # raises on a lone surrogate


# ---- 3: exit 2, not 123, for a broken --out and for stdin that is not UTF-8 --------------


@pytest.mark.parametrize(
    ("code_text", "raised"),
    [('raise RuntimeError("boom")\n', "RuntimeError: boom"), ("def f():\n    f()\n\n\nf()\n", "RecursionError")],
)
def test_show_with_an_out_folder_whose_import_raises(capsys, tmp_path: Path, code_text: str, raised: str) -> None:
    (tmp_path / "__init__.py").write_text(code_text, "utf-8")
    code, out, err = run_cli(capsys, "show", "prompt", "--family", "generic", "--out", tmp_path)
    assert (code, out) == (2, "")
    message = f"error[E135]: is not a complete generated package: importing it raised {raised}"
    assert err.startswith(f"{shown(tmp_path)}: {message}")
    assert "hint: check --out, or run `toolgen generate` again" in err


def _stdin(monkeypatch, data: bytes, encoding: str) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data), encoding=encoding))


def test_parse_reads_stdin_as_utf8_whatever_the_locale(capsys, monkeypatch) -> None:
    _stdin(monkeypatch, "<read_file><path>é</path></read_file>".encode(), "ascii")
    code, out, err = run_cli(capsys, "parse", "--family", "generic")
    assert (code, err) == (0, "")
    assert json.loads(out) == [{"name": "read_file", "params": {"path": "é"}, "partial": False}]


def test_parse_refuses_stdin_that_is_not_utf8(capsys, monkeypatch) -> None:
    _stdin(monkeypatch, b"<read_file><path>\xff</path></read_file>", "latin-1")
    code, out, err = run_cli(capsys, "parse", "--family", "generic")
    assert (code, out) == (2, "")
    assert err == "stdin: error[E136]: not UTF-8 text (byte 17: b'\\xff')\n  hint: send the model reply as UTF-8\n"


def test_output_falls_back_to_escapes_where_stdout_cannot_encode_it() -> None:
    reply = "<read_file><path>é</path></read_file>".encode()
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    done = subprocess.run(
        [sys.executable, "-m", "generator", "parse", "--family", "generic"],
        input=reply,
        capture_output=True,
        env=env,
        cwd=ROOT,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, b"")
    assert b'"path": "\\u00e9"' in done.stdout
    assert json.loads(done.stdout) == [{"name": "read_file", "params": {"path": "é"}, "partial": False}]


# ---- 4: MCP names must split in exactly one way ------------------------------------------


def test_uid_ending_with_a_start_of_the_separator_is_skipped() -> None:
    servers = [
        {"uid": "a0mcp", "name": "A", "tools": [{"name": "x"}]},
        {"uid": "a", "name": "B", "tools": [{"name": "mcp0x"}]},
    ]
    variants, skipped = dynamic_tools.mcp_tools(servers, separator="0mcp0")
    assert [(v["name"], v["origin"]["uid"]) for v in variants] == [("a0mcp0mcp0x", "a")]
    assert [(s["uid"], s["reason"]) for s in skipped] == [
        ("a0mcp", "server uid ends with a start of the separator '0mcp0'")
    ]
    assert dynamic_tools.parse_mcp_name("a0mcp0mcp0x", "0mcp0") == ("a", "mcp0x")


@pytest.mark.parametrize("text", ["_x_abc", "_x_a_2F_b", "_x_a_0041_", "_x_a_41_", "_x_a_d800_", "_x_a_dfff_"])
def test_decode_accepts_only_canonical_spellings(text: str) -> None:
    assert dynamic_tools.decode_mcp_tool_name(text) is None


@pytest.mark.parametrize("tool", ["files/read", "my_tool v2", "_x_odd", "ünï", "plain-name_1"])
def test_decode_reverses_encode(tool: str) -> None:
    encoded = dynamic_tools.encode_mcp_tool_name(tool)
    assert dynamic_tools.decode_mcp_tool_name(encoded) == tool


# ---- 7: an integer too long to read costs its tool only ----------------------------------


def test_huge_integer_costs_only_its_tool(capsys, tmp_path: Path) -> None:
    servers = [
        {"uid": "u1", "name": "S", "tools": [{"name": "big", "inputSchema": {"maximum": "BIG"}}, {"name": "ok"}]},
        {"uid": "u2", "name": "T", "tools": [{"name": "neg", "inputSchema": {"enum": ["BIG"]}}]},
    ]
    text = json.dumps(servers).replace('"BIG"', "9" * 5000, 1).replace('["BIG"]', "[-" + "1" * 4400 + "]")
    path = _file(tmp_path, "m.json", text)
    ctx = _file(tmp_path, "c.json", {"enable_native_tool_calls": True})
    code, out, err = run_cli(capsys, "show", "prompt", "--family", "generic", "--context", ctx, "--mcp-servers", path)
    assert code == 0
    assert f"## u1{SEP}ok\n" in out and f"{SEP}big" not in out and f"{SEP}neg" not in out
    reason = "tool holds an integer with too many digits to read"
    assert err.splitlines() == [
        f"toolgen: skipped MCP tool 'u1{SEP}big' of 'S': {reason}",
        f"toolgen: skipped MCP tool 'u2{SEP}neg' of 'T': {reason}",
    ]


# ---- 5: parse takes --context, so --subagents can take effect ----------------------------


def test_parse_knows_subagent_tools_given_a_context(capsys, monkeypatch, tmp_path: Path) -> None:
    ctx = _file(tmp_path, "c.json", {"subagents_enabled": True})
    agents = _file(tmp_path, "a.json", [{"name": "Test Writer"}])
    reply = "<use_subagent_test_writer>\n<prompt>Add tests</prompt>\n</use_subagent_test_writer>"
    _stdin(monkeypatch, reply.encode(), "utf-8")
    code, out, err = run_cli(capsys, "parse", "--family", "generic", "--subagents", agents)
    assert (code, err, json.loads(out)) == (0, "", [])  # subagents are off by default
    _stdin(monkeypatch, reply.encode(), "utf-8")
    code, out, err = run_cli(capsys, "parse", "--family", "generic", "--context", ctx, "--subagents", agents)
    assert (code, err) == (0, "")
    call = {"name": "use_subagent_test_writer", "params": {"prompt": "Add tests"}, "partial": False}
    assert json.loads(out) == [call]


def test_parse_reports_a_bad_context(capsys, monkeypatch, tmp_path: Path) -> None:
    ctx = _file(tmp_path, "c.json", {"subagents_enabled": "yes"})
    _stdin(monkeypatch, b"", "utf-8")
    code, out, err = run_cli(capsys, "parse", "--family", "generic", "--context", ctx)
    assert (code, out) == (2, "")
    assert err.startswith(
        f"{shown(ctx)}: error[E137]: invalid context: subagents_enabled: expected boolean, got string\n"
    )
    assert "\n  hint: " in err


# ---- 6: invented subagent names do not grow the coordinator without bound ------------------


def test_dynamic_subagent_handlers_are_bounded() -> None:
    from generated._runtime.dispatch import MAX_DYNAMIC_HANDLERS
    from generated.dispatch import Coordinator

    class Subagents:
        name = "use_subagents"

        def execute(self, config, block):  # pragma: no cover - not called
            raise AssertionError

    coordinator = Coordinator(subagent_factory=Subagents)
    prefix = catalog.SUBAGENTS["name_prefix"]
    first = coordinator.get_handler(prefix + "kept")
    oldest = coordinator.get_handler(prefix + "invented_0")
    for n in range(1, MAX_DYNAMIC_HANDLERS + 50):
        coordinator.get_handler(prefix + f"invented_{n}")
        assert coordinator.get_handler(prefix + "kept") is first  # recently used: stays cached
    assert len(coordinator._dynamic) == MAX_DYNAMIC_HANDLERS
    again = coordinator.get_handler(prefix + "invented_0")  # dropped, so made afresh: still routed
    assert again is not oldest and again.name == prefix + "invented_0" and isinstance(again.inner, Subagents)


# ---- 8: the docs say what the code does --------------------------------------------------


@pytest.mark.parametrize(
    ("code", "yaml_text", "documented"),
    [
        ("E101", "a: 1\na: 2\n", "duplicate key"),
        ("E102", "a: !custom x\n", "tag outside the JSON ones"),
        ("E103", "a: &x {b: 1}\nc:\n  <<: *x\n", "merge key"),
        ("E104", "? [a]\n: 1\n", "non-scalar key"),
    ],
)
def test_load_error_codes_match_their_documented_meaning(
    capsys, specs: Path, code: str, yaml_text: str, documented: str
) -> None:
    (specs / "parameters.yaml").write_text(yaml_text, "utf-8")
    _, _, err = run_cli(capsys, "validate", "--specs", specs)
    assert f"error[{code}]" in err
    table = (ROOT / "docs" / "spec-language.md").read_text("utf-8")
    assert f"| `{code}` | {documented}" in table


# ---- 9: dead aliases are gone, the used ones still resolve -------------------------------


def test_schema_common_keeps_only_used_format_aliases() -> None:
    from generator.runtime import formats, schema_common, schema_gemini

    for gone in ("ANTHROPIC_PROPERTY_KEY", "OPENAI_STRICT_MAX_DEPTH"):
        assert not hasattr(schema_common, gone)
    assert not hasattr(schema_gemini, "GEMINI_PROPERTY_KEY")
    assert tuple(formats.FORMATS) == schema_common.DIALECTS
    assert formats.FORMATS["openai-chat"].max_tools == schema_common.OPENAI_MAX_TOOLS


def test_library_dynamic_variants_reports_refused_subagents() -> None:
    """A subagent config the loader refuses is reported in dynamic_variants' skipped list too."""
    from generated import Context, catalog

    ctx = Context(subagents_enabled=True, enable_native_tool_calls=True)
    family = "native-next-gen"
    extra, skipped = catalog.dynamic_variants(
        family, ctx, subagents=[{"name": "ok", "description": "Fine."}, {"name": "bad\ud800", "description": "x"}]
    )
    names = [v["name"] for v in extra]
    assert any(name.endswith("ok") for name in names) and not any("bad" in name for name in names)
    assert any("surrogate" in str(record.get("reason")) for record in skipped), skipped
