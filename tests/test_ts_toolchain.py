"""The TypeScript package compiles (tsc --strict) and its runtime's own tests pass (node --test)."""

from __future__ import annotations

import ts_bridge


def test_generated_package_compiles_strict() -> None:
    built = ts_bridge.require()  # compiling is part of the build; a tsc error fails it
    assert (built.out / "pkg" / "index.js").is_file()


def test_runtime_tests_pass_under_node_test() -> None:
    completed = ts_bridge.node_test()
    assert completed.returncode == 0, completed.stdout + completed.stderr


def test_catalog_data_equals_python() -> None:
    from generated import catalog_data as py

    [ts] = ts_bridge.values("core", [{"op": "data"}])
    expected = {
        "selection": py.SELECTION,
        "rules": py.RULES,
        "precondition": py.PRECONDITION,
        "fallback": py.FALLBACK,
        "families": py.FAMILIES,
        "specs": py.SPECS,
        "familySpecs": py.FAMILY_SPECS,
        "placeholders": py.PLACEHOLDERS,
        "routing": py.ROUTING,
        "mcp": py.MCP,
        "subagents": py.SUBAGENTS,
    }
    assert ts == ts_bridge.as_json(expected)


def test_runtime_version_matches_python() -> None:
    from generator.runtime import RUNTIME_VERSION

    source = (ts_bridge.ROOT / "generator" / "ts_runtime" / "index.ts").read_text("utf-8")
    assert f"export const RUNTIME_VERSION = {RUNTIME_VERSION};" in source
