"""The TypeScript output is an npm package a host project installs (issue 22).

``npm pack`` on a freshly generated package builds ``dist/`` (the package's ``prepack`` runs the
pinned tsc) and the tarball installs, offline, into fresh host projects in a temporary folder: an
ES-module host and a CommonJS one. Each compiles tests/ts/hosts/installed_host.ts against the
installed package under the strict flags with the package's declarations checked (no
skipLibCheck) and runs it with node; each compiles tests/ts/hosts/sdk_host.ts against the installed
package and the real SDKs (from tests/ts/node_modules, linked in) with no cast.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tarfile
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import ts_bridge
from conftest import BUNDLED_SPECS, copy_specs
from generator import pipeline
from generator.lower import ts_package
from generator.semantics.project import npm_name
from test_ts_toolchain import STRICT_HOST_FLAGS

HOSTS = ts_bridge.ROOT / "tests" / "ts" / "hosts"
SDK_FOLDERS = ("@anthropic-ai", "openai", "@google", "@aws-sdk", "@types")
NPM_ENV = {"npm_config_update_notifier": "false", "npm_config_fund": "false", "npm_config_audit": "false"}


def _package_json(files: dict[str, bytes]) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(files["package.json"])
    return data


def test_name_and_version_come_from_toolgen_yaml() -> None:
    files = ts_bridge.render_package()
    meta = _package_json(files)
    assert (meta["name"], meta["version"]) == ("cline-tools", "0.1.0")
    assert meta["type"] == "module"
    modules = ["anthropic", "openai_chat", "openai_responses", "gemini", "bedrock"]  # the one-format entries
    assert meta["exports"] == {
        ".": {"types": "./dist/index.d.ts", "default": "./dist/index.js"},
        **{f"./{m}": {"types": f"./dist/{m}.d.ts", "default": f"./dist/{m}.js"} for m in modules},
        "./package.json": "./package.json",
    }
    entries = [conditions for key, conditions in meta["exports"].items() if key != "./package.json"]
    assert all(list(conditions) == ["types", "default"] for conditions in entries)
    assert meta["sideEffects"] is False and all(f"{m}.ts" in files for m in modules)
    assert meta["files"] == ["dist"] and meta["scripts"]["prepack"] == "npm run build"
    assert files["package.json"].endswith(b"}\n") and files == ts_bridge.render_package()


def test_without_an_npm_block_the_name_comes_from_the_project_name(tmp_path: Path) -> None:
    specs = copy_specs(BUNDLED_SPECS, tmp_path)
    project = specs / "toolgen.yaml"
    text, count = re.subn(r"(?m)^npm:\n(?:  .*\n)+", "", project.read_text("utf-8"))
    assert count == 1
    project.write_text(text.replace("name: cline\n", "name: Cline Tools!\n"), "utf-8")
    meta = _package_json(ts_bridge.render_package(specs))
    assert (meta["name"], meta["version"]) == ("cline-tools", "0.0.0")


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("cline", "cline"),
        ("My Project 2", "my-project-2"),
        ("__x..y", "x..y"),
        ("Ünïcode", "n-code"),
        ("", "toolgen-package"),
    ],
)
def test_default_npm_name(name: str, expected: str) -> None:
    assert npm_name(name) == expected


@pytest.mark.parametrize(
    ("block", "message"),
    [
        ("npm: {name: Cline Tools}", 'npm/name: "Cline Tools" does not match'),
        ("npm: {version: '1.0'}", 'npm/version: "1.0" does not match'),
        ("npm: 5", "npm: expected object, got integer"),
        ("npm: {nme: x}", "unknown key 'nme' in npm"),
    ],
)
def test_a_bad_npm_block_is_a_located_error(tmp_path: Path, block: str, message: str) -> None:
    specs = copy_specs(BUNDLED_SPECS, tmp_path)
    project = specs / "toolgen.yaml"
    text, count = re.subn(r"(?m)^npm:\n(?:  .*\n)+", block + "\n", project.read_text("utf-8"))
    assert count == 1
    project.write_text(text, "utf-8")
    result = pipeline.run(specs, targets={"typescript": True})
    rendered = result.diagnostics.render("text")
    assert result.diagnostics.has_errors and message in rendered and "toolgen.yaml:" in rendered, rendered
    assert not result.targets


def test_the_build_uses_the_checked_compiler_and_flags() -> None:
    pinned = json.loads((ts_bridge.TOOLCHAIN / "package.json").read_text("utf-8"))["devDependencies"]
    assert pinned["typescript"] == ts_package.TYPESCRIPT_VERSION
    assert pinned["esbuild"] == ts_package.ESBUILD_VERSION
    assert ts_package.STRICT_FLAGS == STRICT_HOST_FLAGS
    text = ts_bridge.render_package()[ts_package.BUILD_CONFIG].decode("utf-8")
    config = json.loads(text.split("\n", 1)[1])  # after the generated-file line
    assert all(config["compilerOptions"][flag] is True for flag in STRICT_HOST_FLAGS)


# ---- npm pack, and hosts installing the tarball ------------------------------------------------


def _npm() -> str:
    ts_bridge.require()
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip(ts_bridge.SKIP_PREFIX + "npm is not installed, so the package cannot be packed")
    return npm


def _run(cmd: list[str], cwd: Path, path_first: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **NPM_ENV}
    if path_first is not None:
        env["PATH"] = f"{path_first}{os.pathsep}{env.get('PATH', '')}"
    completed = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert completed.returncode == 0, f"{cmd} in {cwd.name}:\n{completed.stdout}\n{completed.stderr}"
    return completed


@pytest.fixture(scope="module")
def tarball() -> Iterator[Path]:
    """The tarball ``npm pack`` makes of a freshly generated package (tsc from tests/ts on PATH)."""
    npm = _npm()
    with tempfile.TemporaryDirectory(prefix="toolgen-ts-pack-") as folder:
        root = Path(folder)
        for rel, data in ts_bridge.render_package().items():
            target = root / "package" / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        tools = ts_bridge.TOOLCHAIN / "node_modules" / ".bin"
        _run([npm, "pack", "--pack-destination", str(root)], root / "package", tools)
        [packed] = root.glob("*.tgz")
        yield packed


def test_the_tarball_holds_the_built_package(tarball: Path) -> None:
    """Declarations for every module; JavaScript bundled per entry, shared code in a few chunks."""
    with tarfile.open(tarball) as archive:
        names = sorted(name.removeprefix("package/") for name in archive.getnames())
    assert "dist/index.js" in names and "dist/index.d.ts" in names and "dist/_runtime/offer.d.ts" in names
    assert [n for n in names if not n.startswith("dist/")] == ["package.json"]
    sources = [n for n in names if n.endswith(".ts") and not n.endswith(".d.ts")]
    assert sources == []
    entries = json.loads(ts_bridge.render_package()["package.json"].decode("utf-8"))["exports"]
    built = {e["default"].removeprefix("./") for e in entries.values() if isinstance(e, dict)}
    scripts = [n for n in names if n.endswith(".js")]
    assert built <= set(scripts) and all(f"{n.removesuffix('.js')}.d.ts" in names for n in built)
    chunks = [n for n in scripts if n not in built]
    assert all(n.startswith("dist/chunks/") for n in chunks) and len(chunks) <= 12, chunks


def _host(tarball: Path, root: Path, kind: str) -> Path:
    """A fresh host project of ``kind`` ("module" or "commonjs") with the tarball installed offline."""
    npm = _npm()
    host = root / kind
    host.mkdir()
    meta = {"name": f"host-{kind}", "private": True, "type": kind, "dependencies": {"cline-tools": f"file:{tarball}"}}
    (host / "package.json").write_text(json.dumps(meta, indent=2) + "\n")
    _run([npm, "install", "--offline", "--no-audit", "--no-fund"], host)
    assert (host / "node_modules" / "cline-tools" / "dist" / "index.js").is_file()
    return host


def _strict_config(files: list[str], **options: Any) -> str:
    compiler = {
        **dict.fromkeys(STRICT_HOST_FLAGS, True),
        "target": "ES2022",
        "lib": ["ES2022"],
        "module": "NodeNext",
        "moduleResolution": "NodeNext",
        "types": [],
        **options,
    }
    return json.dumps({"compilerOptions": compiler, "files": files}, indent=2)


def _tsc(host: Path, config: str) -> None:
    completed = subprocess.run(
        [shutil.which("node") or "node", str(ts_bridge.TSC), "-p", config, "--pretty", "false"],
        cwd=host,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert completed.returncode == 0, f"tsc -p {config} in the {host.name} host:\n{completed.stdout}"


@pytest.mark.parametrize("kind", ["module", "commonjs"])
def test_a_host_installs_compiles_and_runs_the_tarball(tarball: Path, kind: str, tmp_path: Path) -> None:
    host = _host(tarball, tmp_path, kind)
    shutil.copy(HOSTS / "installed_host.ts", host / "host.ts")
    (host / "tsconfig.json").write_text(_strict_config(["host.ts"], skipLibCheck=False, outDir="out"))
    _tsc(host, "tsconfig.json")
    compiled = (host / "out" / "host.js").read_text("utf-8")
    assert ('require("cline-tools")' in compiled) == (kind == "commonjs")
    completed = _run([shutil.which("node") or "node", "out/host.js"], host)
    got = json.loads(completed.stdout)
    assert "read_file" in got["tools"] and got["offered"] == got["tools"]
    assert got["calls"] == [["read_file", {"path": "README.md"}]]
    result = {"type": "tool_result", "tool_use_id": "c1", "content": "read", "is_error": False}
    assert got["results"] == [{"role": "user", "content": [result]}]
    assert got["refused"] is True
    assert got["oneFormat"] == ["anthropic", True, 1]  # "cline-tools/anthropic" resolves, and agrees


@pytest.mark.parametrize("kind", ["module", "commonjs"])
def test_the_sdk_host_compiles_against_the_installed_package(tarball: Path, kind: str, tmp_path: Path) -> None:
    host = _host(tarball, tmp_path, kind)
    source = (HOSTS / "sdk_host.ts").read_text("utf-8")
    assert source.count('"../../../generated-ts/index.js"') == 1
    (host / "sdk_host.ts").write_text(source.replace('"../../../generated-ts/index.js"', '"cline-tools"'), "utf-8")
    for folder in SDK_FOLDERS:  # the SDKs tests/ts pins, as this host's own dependencies
        (host / "node_modules" / folder).symlink_to(ts_bridge.TOOLCHAIN / "node_modules" / folder)
    (host / "tsconfig.json").write_text(_strict_config(["sdk_host.ts"], skipLibCheck=True, types=["node"], noEmit=True))
    _tsc(host, "tsconfig.json")
