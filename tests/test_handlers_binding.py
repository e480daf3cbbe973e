"""handlers.bind: the web tool handlers answer for a generated package vendored under any name."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from types import ModuleType

import pytest

import handlers
from conftest import BUNDLED_SPECS
from generator import pipeline, write
from handlers.config import WebToolsTaskConfig


@pytest.fixture(scope="module")
def vendored(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    """specs/ generated as the package ``vendor_app._tools`` (not ``generated``)."""
    base = tmp_path_factory.mktemp("vendored")
    out = base / "vendor_app" / "_tools"
    result = pipeline.run(BUNDLED_SPECS)
    write.write(out, result.files, write.plan(out, result.files))
    (base / "vendor_app" / "__init__.py").write_text("", "utf-8")
    sys.path.insert(0, str(base))
    try:
        import vendor_app._tools as package  # type: ignore[import-not-found]

        yield package
    finally:
        sys.path.remove(str(base))


def test_bound_classes_answer_with_the_vendored_packages_results(vendored: ModuleType) -> None:
    bound = handlers.bind(vendored)
    assert bound is handlers.bind("vendor_app._tools")  # by module or by name: the same classes
    coordinator = vendored.Coordinator.from_namespace(bound, lenient=True)
    assert type(coordinator.get_handler("web_fetch")) is bound.WebFetchToolHandler
    block = vendored.ToolUse("web_fetch", {"url": "https://example.com", "prompt": "p"})
    result = coordinator.execute(WebToolsTaskConfig(provider_id="openai"), block)
    assert type(result) is vendored.ToolResult
    assert "web tools are currently disabled" in str(result)


def test_partial_preview_reads_domains_with_the_bound_runtime(vendored: ModuleType) -> None:
    config = WebToolsTaskConfig()
    handler = handlers.bind(vendored).WebSearchToolHandler()
    assert handler.runtime.package == "vendor_app._tools"
    block = vendored.ToolUse("web_search", {"query": "q", "allowed_domains": '["a.com", "b.'}, partial=True)
    handler.handle_partial_block(config, block)
    assert config.said and "a.com" in config.said[0][1]


def test_a_package_that_cannot_be_imported_fails_when_the_handler_is_made() -> None:
    with pytest.raises(ImportError, match=r"'no_such_package_here'.*handlers\.bind\('your\.package'\)"):
        handlers.bind("no_such_package_here").WebFetchToolHandler()


def test_unbound_classes_answer_for_generated() -> None:
    assert handlers.WebFetchToolHandler().runtime.package == "generated"
    assert handlers.bind("generated").WebFetchToolHandler is not handlers.WebFetchToolHandler
