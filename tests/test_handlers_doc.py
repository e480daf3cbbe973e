"""The `>>>` examples of docs/handlers.md run against the package generated from specs/ in this session."""

from __future__ import annotations

import doctest
import re

from conftest import ROOT  # conftest also makes `import generated` the fresh package

DOC = ROOT / "docs" / "handlers.md"


def _examples() -> doctest.DocTest:
    """The doc's examples; code fences become blank lines, which end an expected output (line numbers stay)."""
    text = re.sub(r"(?m)^```.*$", "", DOC.read_text("utf-8"))
    return doctest.DocTestParser().get_doctest(text, {}, "docs/handlers.md", str(DOC), 0)


def test_handler_contract_examples_run() -> None:
    test = _examples()
    assert len(test.examples) >= 30, "docs/handlers.md lost its examples"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    failures: list[str] = []
    runner.run(test, out=failures.append)
    assert runner.failures == 0, "".join(failures)
