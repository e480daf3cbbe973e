"""`toolgen show prompt`, `toolgen parse` and `toolgen show dispatch` against the committed generated/."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from conftest import ROOT, run_cli
from generated import catalog, prompt
from generated.context import Context
from generated.dispatch import HANDLERS
from generator.diagnostics import shown

SERVERS = ROOT / "tests" / "data" / "mcp" / "servers.json"
CONTEXT = {
    "cwd": "/srv/app",
    "model_id": "openai/gpt-5",
    "provider_id": "cline",
    "focus_chain_enabled": True,
    "subagents_enabled": True,
    "has_mcp_hub": True,
    "editor_tabs": ["a.ipynb"],
}


@pytest.fixture(autouse=True)
def _at_repo_root(monkeypatch):
    monkeypatch.chdir(ROOT)  # --out defaults to generated/ in the current directory


def _file(tmp_path: Path, name: str, data) -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), "utf-8")
    return path


def test_show_prompt_equals_prompt_section(capsys, tmp_path):
    ctx = _file(tmp_path, "ctx.json", CONTEXT)
    for family in ("xs", "generic"):
        code, out, err = run_cli(capsys, "show", "prompt", "--family", family, "--context", ctx)
        assert (code, err) == (0, "")
        assert out == prompt.prompt_section(family, Context.from_mapping(CONTEXT)) + "\n"


def test_show_prompt_default_context(capsys):
    code, out, _ = run_cli(capsys, "show", "prompt", "--family", "xs")
    assert code == 0 and out == prompt.prompt_section("xs", Context()) + "\n"


def test_subagents_and_mcp_servers_change_the_prompt(capsys, tmp_path):
    ctx = _file(tmp_path, "ctx.json", CONTEXT)
    agents = _file(tmp_path, "agents.json", [{"name": "Test Writer", "description": "Writes tests."}])
    base = ["show", "prompt", "--family", "generic", "--context", ctx]
    _, plain, _ = run_cli(capsys, *base)
    code, with_agents, err = run_cli(capsys, *base, "--subagents", agents)
    assert (code, err) == (0, "")
    assert "## use_subagents\n" in plain
    assert "## use_subagent_test_writer\n" in with_agents and "## use_subagents\n" not in with_agents

    code, with_mcp, err = run_cli(capsys, *base, "--mcp-servers", SERVERS)
    assert code == 0
    sep = catalog.MCP["separator"]
    assert f"## ctime1{sep}get_current_time\n" in with_mcp and f"## cgit01{sep}git_status\n" in with_mcp
    assert f"xoff01{sep}append_note" not in with_mcp  # disabled server
    assert "skipped MCP tool" in err and "server disabled" in err
    assert with_mcp.startswith(plain.rstrip("\n"))  # run-time tools come after the static ones

    servers = json.loads(SERVERS.read_text("utf-8"))
    extra, _ = catalog.dynamic_variants(
        "generic", Context.from_mapping(CONTEXT), mcp_servers=servers, subagents=json.loads(agents.read_text())
    )
    _, both, _ = run_cli(capsys, *base, "--subagents", agents, "--mcp-servers", SERVERS)
    assert both == prompt.prompt_section("generic", Context.from_mapping(CONTEXT), extra) + "\n"


REPLY = (
    "Reading first.\n<read_file>\n<path>src/main.py</path>\n</read_file>\n"
    "<write_to_file>\n<path>notes/ünï.md</path>\n<content>line <b>1</b>\n</content>\nline 2"
)


def test_parse_prints_blocks(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(REPLY))
    code, out, err = run_cli(capsys, "parse", "--family", "generic")
    assert (code, err) == (0, "")
    assert json.loads(out) == [
        {"name": "read_file", "params": {"path": "src/main.py"}, "partial": False},
        {
            "name": "write_to_file",
            "params": {"path": "notes/ünï.md", "content": "line <b>1</b>\n</content>\nline 2"},
            "partial": True,
        },
    ]
    assert "ünï" in out  # not escaped


def test_parse_knows_mcp_tools(capsys, monkeypatch):
    sep = catalog.MCP["separator"]
    name = f"ctime1{sep}get_current_time"
    monkeypatch.setattr("sys.stdin", io.StringIO(f"<{name}>\n<timezone>UTC</timezone>\n</{name}>"))
    _, plain, _ = run_cli(capsys, "parse", "--family", "generic")
    assert json.loads(plain) == []
    monkeypatch.setattr("sys.stdin", io.StringIO(f"<{name}>\n<timezone>UTC</timezone>\n</{name}>"))
    code, out, _ = run_cli(capsys, "parse", "--family", "generic", "--mcp-servers", SERVERS)
    assert code == 0
    assert json.loads(out) == [{"name": name, "params": {"timezone": "UTC"}, "partial": False}]


def test_show_dispatch_in_enum_order(capsys):
    code, out, err = run_cli(capsys, "show", "dispatch")
    assert (code, err) == (0, "")
    rows = json.loads(out)
    assert [row["id"] for row in rows] == list(HANDLERS)
    web = {row["id"]: row for row in rows}["web_fetch"]
    assert web == {"id": "web_fetch", "handler_class": "WebFetchToolHandler", "takes_validator": False, "shares": None}
    assert {row["id"]: row for row in rows}["focus_chain"]["handler_class"] is None


@pytest.mark.parametrize(
    "content, message",
    [
        ('{"cwd": ', "not valid JSON"),
        ('{"cwd": "/x", "bogus": 1}', "unknown key 'bogus'"),
        ('{"focus_chain_enabled": "yes"}', "focus_chain_enabled: expected boolean, got string"),
        ("[1, 2]", "expected a JSON object"),
    ],
)
def test_bad_context_exits_2(capsys, tmp_path, content, message):
    ctx = _file(tmp_path, "ctx.json", content)
    code, out, err = run_cli(capsys, "show", "prompt", "--family", "xs", "--context", ctx)
    assert code == 2 and out == ""
    # the file is named as every message names files: relative to the current directory
    assert message in err and err.startswith(f"{shown(ctx)}: error[E137]: ")
    assert "Traceback" not in err


def test_other_bad_inputs_exit_2(capsys, tmp_path):
    code, _, err = run_cli(capsys, "show", "prompt", "--family", "no-such-family")
    assert code == 2 and "unknown family 'no-such-family'" in err and "Traceback" not in err
    code, _, err = run_cli(capsys, "show", "prompt", "--family", "xs", "--context", tmp_path / "missing.json")
    assert code == 2 and "cannot read" in err
    bad = _file(tmp_path, "servers.json", "[{")
    code, _, err = run_cli(capsys, "show", "prompt", "--family", "xs", "--mcp-servers", bad)
    assert code == 2 and "not valid JSON" in err and "Traceback" not in err


@pytest.mark.parametrize(
    "option, content, message",
    [
        ("--subagents", {"name": "x"}, "expected a JSON list"),
        ("--subagents", [1], "item 0 is not an object"),
        ("--subagents", [{"nam": "x"}], "needs 'name'"),
        ("--subagents", [{"name": "x", "description": 3}], "'description' must be str"),
        ("--mcp-servers", [{"uid": "a"}], "needs 'name'"),
        ("--mcp-servers", [{"uid": "a", "name": "s", "tools": [], "disabled": "no"}], "'disabled' must be bool"),
    ],
)
def test_badly_shaped_runtime_tool_files_exit_2(capsys, tmp_path, option, content, message):
    context = _file(tmp_path, "ctx.json", {"subagents_enabled": True})
    data = _file(tmp_path, "extra.json", content)
    code, _, err = run_cli(capsys, "show", "prompt", "--family", "generic", "--context", context, option, data)
    assert code == 2
    assert message in err
    assert "internal error" not in err
