"""Capture real MCP ``tools/list`` answers as test data.

Starts each reference MCP server over stdio with the official ``mcp`` Python
client, asks it for its tools, and writes one file per server next to this
script: ``fetch.json``, ``git.json``, ``time.json``.  Each file holds one
``--mcp-servers`` entry::

    {"uid": "cfetch", "name": "fetch", "disabled": false, "tools": [...]}

where every tool is the client's ``Tool`` model dumped with
``model_dump(mode="json", exclude_none=True, by_alias=True)``, so ``name``,
``description`` and ``inputSchema`` are kept exactly as the server sent them.

The output is deterministic: no timestamps, and any absolute path of this
machine (the temporary git repository, the home directory, the interpreter's
prefix) found in a string is replaced by a fixed placeholder.  The files are
only rewritten when their content changes.

``servers.json`` (the ``--mcp-servers FILE.json`` input: a list of such
entries) starts with the captured entries, in the order of ``SERVERS``; the
script refreshes those in place and keeps every other (hand-written) entry of
the list as it is, after them.  ``README.md`` is not touched.

Re-run it from the repository root with::

    pip install '.[capture]' && python tests/data/mcp/capture.py

Options: ``--out DIR`` writes somewhere else; ``--check`` writes nothing and
exits 1 if a capture differs from the file on disk.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import PaginatedRequestParams

HERE = Path(__file__).resolve().parent

# Placeholder that replaces the temporary repository path in captured strings.
REPO_PLACEHOLDER = "/path/to/repo"


@dataclass(frozen=True)
class Server:
    """One MCP server to capture."""

    uid: str  # stable 6-character uid, used as the tool-name prefix
    name: str  # server name, also the output file stem
    module: str  # run as ``python -m <module>``
    args: tuple[str, ...] = field(default_factory=tuple)
    needs_repo: bool = False  # pass ``--repository <temp git repo>``


SERVERS: tuple[Server, ...] = (
    Server(uid="cfetch", name="fetch", module="mcp_server_fetch"),
    Server(uid="cgit01", name="git", module="mcp_server_git", needs_repo=True),
    Server(
        uid="ctime1",
        name="time",
        module="mcp_server_time",
        args=("--local-timezone", "UTC"),
    ),
)


def make_git_repo(root: Path) -> Path:
    """Create a small git repository with one commit for the git server."""
    repo = root / "repo"
    repo.mkdir()
    env = dict(os.environ)
    env.update(
        GIT_AUTHOR_NAME="capture",
        GIT_AUTHOR_EMAIL="capture@example.invalid",
        GIT_COMMITTER_NAME="capture",
        GIT_COMMITTER_EMAIL="capture@example.invalid",
        GIT_AUTHOR_DATE="2000-01-01T00:00:00Z",
        GIT_COMMITTER_DATE="2000-01-01T00:00:00Z",
    )

    def git(*argv: str) -> None:
        subprocess.run(
            ["git", *argv], cwd=repo, env=env, check=True, capture_output=True
        )

    git("init", "-q")
    (repo / "README").write_text("capture\n", encoding="utf-8")
    git("add", "README")
    git("commit", "-q", "-m", "init")
    return repo


def scrub(value: Any, replacements: list[tuple[str, str]]) -> Any:
    """Replace machine-specific substrings in every string of a JSON value."""
    if isinstance(value, str):
        for old, new in replacements:
            if old:
                value = value.replace(old, new)
        return value
    if isinstance(value, list):
        return [scrub(item, replacements) for item in value]
    if isinstance(value, dict):
        return {
            scrub(k, replacements): scrub(v, replacements) for k, v in value.items()
        }
    return value


async def list_all_tools(params: StdioServerParameters) -> list[dict[str, Any]]:
    """Start one server, follow ``tools/list`` pagination, return dumped tools."""
    tools: list[dict[str, Any]] = []
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        cursor: str | None = None
        while True:
            if cursor is None:
                result = await session.list_tools()
            else:
                result = await session.list_tools(
                    params=PaginatedRequestParams(cursor=cursor)
                )
            for tool in result.tools:
                tools.append(
                    tool.model_dump(mode="json", exclude_none=True, by_alias=True)
                )
            cursor = result.next_cursor
            if not cursor:
                break
    return tools


def render(value: Any) -> str:
    return json.dumps(value, indent=2, sort_keys=False, ensure_ascii=False) + "\n"


async def capture(server: Server, tmp: Path) -> dict[str, Any]:
    args = ["-m", server.module, *server.args]
    replacements: list[tuple[str, str]] = []
    if server.needs_repo:
        repo = make_git_repo(tmp)
        args += ["--repository", str(repo)]
        # Longest first, so the resolved path wins over a prefix of it.
        for path in sorted({str(repo), str(repo.resolve())}, key=len, reverse=True):
            replacements.append((path, REPO_PLACEHOLDER))
    # Other machine-specific prefixes that could leak into a description.
    for prefix, placeholder in (
        (str(Path(tmp).resolve()), "/tmp"),
        (sys.prefix, "/venv"),
        (str(Path.home()), "~"),
    ):
        if prefix not in ("", "/"):
            replacements.append((prefix, placeholder))
    params = StdioServerParameters(
        command=sys.executable,
        args=args,
        # Fixed environment: no proxy or user settings leak into the server.
        env={
            "PATH": os.environ.get("PATH", ""),
            "TZ": "UTC",
            "LANG": "C.UTF-8",
            "PYTHONIOENCODING": "utf-8",
        },
        cwd=str(tmp),
    )
    tools = await list_all_tools(params)
    return {
        "uid": server.uid,
        "name": server.name,
        "disabled": False,
        "tools": scrub(tools, replacements),
    }


def update(target: Path, text: str, what: str, check: bool) -> bool:
    """Write ``text`` to ``target`` if it changed; return False on a --check mismatch."""
    old = target.read_text(encoding="utf-8") if target.exists() else None
    if old == text:
        print(f"{target.name}: {what}, unchanged")
    elif check:
        print(f"{target.name}: {what}, DIFFERS", file=sys.stderr)
        return False
    else:
        target.write_text(text, encoding="utf-8")
        print(f"{target.name}: {what}, written")
    return True


async def main_async(out: Path, check: bool) -> int:
    ok = True
    captured: list[dict[str, Any]] = []
    for server in SERVERS:
        with tempfile.TemporaryDirectory(prefix="mcp-capture-") as tmp:
            entry = await capture(server, Path(tmp))
        captured.append(entry)
        ok &= update(
            out / f"{server.name}.json",
            render(entry),
            f"{len(entry['tools'])} tools",
            check,
        )

    servers_file = out / "servers.json"
    ours = {server.uid for server in SERVERS}
    extra: list[Any] = []
    if servers_file.exists():
        extra = [
            e
            for e in json.loads(servers_file.read_text(encoding="utf-8"))
            if e.get("uid") not in ours
        ]
    combined = captured + extra
    ok &= update(
        servers_file,
        render(combined),
        f"{len(captured)} captured + {len(extra)} hand-written",
        check,
    )
    return 0 if ok else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out",
        type=Path,
        default=HERE,
        help="output folder (default: this script's folder)",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 if a capture differs",
    )
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    return asyncio.run(main_async(args.out, args.check))


if __name__ == "__main__":
    sys.exit(main())
