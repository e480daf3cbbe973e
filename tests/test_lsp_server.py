"""`toolgen lsp` end to end: a real LSP client (pytest-lsp) drives the server over stdio."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from pytest_lsp import LanguageClient

from conftest import FIXTURE_SPECS, copy_specs
from lsp_session import SERVER, mark, open_file, published, start

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(config=SERVER, scope="module")
async def client(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    await start(lsp_client)
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
def specs(tmp_path: Path) -> Path:
    return copy_specs(FIXTURE_SPECS, tmp_path)


async def test_open_clean_file_publishes_no_diagnostics(client: LanguageClient, specs: Path) -> None:
    before = mark(client)
    uri = open_file(client, specs / "tools/ask.yaml")
    burst = await published(client, before)
    assert {u: list(d) for u, d in burst.items()} == {uri: []}
