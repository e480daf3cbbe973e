"""The package root serves every public name, the text path's streaming parser included."""

from __future__ import annotations

import subprocess
import sys

import generated
from conftest import FRESH_BUNDLED_OUT
from generated import StreamingParser, ToolUse
from generated.prompt import known_tools


def test_streaming_parser_is_exported_from_the_root() -> None:
    from generated._runtime.xml_calls import StreamingParser as runtime_parser

    assert StreamingParser is runtime_parser
    assert "StreamingParser" in generated.__all__
    assert "StreamingParser" in dir(generated)


def test_the_exported_parser_reads_a_streamed_reply_of_a_family() -> None:
    parser = StreamingParser(known_tools("generic"))
    parser.feed("I will read it.\n<read_file>\n<path>src/ma")
    assert parser.blocks == [ToolUse("read_file", {"path": "src/ma"}, partial=True)]
    blocks = parser.feed("in.py</path>\n</read_file>")
    assert blocks == [ToolUse("read_file", {"path": "src/main.py"})]


def test_every_name_in_all_resolves() -> None:
    for name in generated.__all__:
        assert getattr(generated, name) is not None, name


def test_the_parser_is_imported_lazily() -> None:
    """``import generated`` stays cheap: the XML reader loads only when the parser is asked for."""
    probe = (
        "import sys, generated; "
        "assert 'generated._runtime.xml_calls' not in sys.modules; "
        "generated.StreamingParser; "
        "assert 'generated._runtime.xml_calls' in sys.modules"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=FRESH_BUNDLED_OUT.parent, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
