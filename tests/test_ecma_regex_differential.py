"""Four opinions on every (pattern, text) of a corpus (tests/regex_corpus.py): the Python pattern
runtime (``compile_pattern``), the TypeScript one (``compilePattern``, one node process for the
batch through tests/ts_bridge.py), node's own ``new RegExp(pattern, "u")`` and the PyPI package
``regress`` (an ECMA-262 engine in Rust, run in a child process: tests/regress_worker.py).

- Our two runtimes agree on everything, the verdicts and each error's message and offset: the
  conformance corpus holds this corpus's cases with Python's answers (tests/conformance/
  cases_suites.py), which the TypeScript runner replays.
- A pattern we call invalid is invalid for node and for regress; one we accept, they accept, and
  their verdicts are ours.
- A pattern we refuse on purpose (the message starts "toolgen does not support") is compared
  between our runtimes only; each refusal follows one rule of ecma_regex's docstring, and the
  corpus meets every rule.

Where regress is known to stray from ECMA-262, the test says so by name (``REGRESS_ACCEPTS``,
``regress_crashes``); a case left out of one comparison is still in the others.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import pytest

import regress_worker
import ts_bridge
from generator.runtime import ecma_regex
from generator.runtime.ecma_regex import PatternError, compile_pattern
from generator.runtime.ecma_regex_rules import width
from generator.runtime.ecma_regex_syntax import parse
from generator.runtime.ecma_regex_tree import Alternative, Disjunction, Group, Look, Node, Repeat
from regex_corpus import EDGE_CASES, INVALID, generated

GENERATED = 2500
CORPUS: list[tuple[str, list[str]]] = [
    *EDGE_CASES,
    *[(pattern, ["", "a", "b\n"]) for pattern in INVALID],
    *generated(GENERATED),
]
REFUSED = "toolgen does not support "
# Each refusal rule of ecma_regex's docstring, with how its messages start.
RULES = {
    "lookbehind-width": "a lookbehind that can match texts of different lengths",
    "backreference-order": r"the backreference \S+ before its group closes",
    "backreference-lookaround": r"the backreference \S+ (to a group inside a lookaround|inside a lookbehind)",
    "backreference-repetition": r"the backreference \S+ to a group in a repetition",
    "modifiers": r"modifier groups like \(\?i:\.\.\.\)",
    "duplicate-names": r"the group name \S+ twice",
    "non-ASCII-names": "non-ASCII group names",
    "properties": r"the Unicode property \w+(=\w+)?:",
    "counts": "(repetition counts above 2147483647|a minimum count above 100000 for a part)",
    "depth": "groups nested deeper than 32 levels",
}
# regress cannot take a surrogate code point (its strings are UTF-8): such cases skip it.
SURROGATE = re.compile(r"[\ud800-\udfff]|\\u\{?0*[dD][89a-fA-F]")
# regress accepts a quantifier after \b or \B; ECMA-262 does not with the u flag, nor does node.
REGRESS_ACCEPTS = re.compile(r"\\[bB](\*|\+|\?|\{\d)")


def _outcome(pattern: str, texts: list[str]) -> dict[str, Any]:
    try:
        matches = compile_pattern(pattern)
    except PatternError as error:
        return {"error": {"message": error.message, "offset": error.offset}}
    return {"verdicts": [matches(text) for text in texts]}


@cache
def python() -> list[dict[str, Any]]:
    return [_outcome(pattern, texts) for pattern, texts in CORPUS]


@cache
def typescript() -> list[dict[str, Any]]:
    """Per case: {"ours": outcome of compilePattern, "native": outcome of new RegExp(p, "u")}."""
    results = ts_bridge.run("ecma_regex", [{"pattern": p, "texts": texts} for p, texts in CORPUS])
    return [result["ok"] for result in results]


def _accepted() -> list[int]:
    return [index for index, outcome in enumerate(python()) if "verdicts" in outcome]


def _errors() -> list[int]:
    return [i for i, outcome in enumerate(python()) if "error" in outcome and not _refused(outcome)]


def _refused(outcome: dict[str, Any]) -> bool:
    return "error" in outcome and outcome["error"]["message"].startswith(REFUSED)


def test_the_corpus_is_large_and_mixed() -> None:
    pairs = sum(len(texts) for _, texts in CORPUS)
    refused = sum(map(_refused, python()))
    assert pairs > 15_000 and len(_accepted()) > 1500 and len(_errors()) > 250 and refused > 250
    verdicts = [v for i in _accepted() for v in python()[i]["verdicts"]]
    assert 0.2 < sum(verdicts) / len(verdicts) < 0.8


def test_node_agrees_on_errors_and_verdicts() -> None:
    native = [result["native"] for result in typescript()]
    differ = [(CORPUS[i][0], native[i]) for i in _errors() if "error" not in native[i]]
    differ += [(CORPUS[i], python()[i], native[i]) for i in _accepted() if python()[i] != native[i]]
    assert not differ, differ[:5]


def _regress_cases() -> list[tuple[int, str, list[str]]]:
    return [
        (i, pattern, [text for text in texts if not SURROGATE.search(text)])
        for i, (pattern, texts) in enumerate(CORPUS)
        if not SURROGATE.search(pattern) and not _refused(python()[i])
    ]


def _nested_nullable_loop(node: Node | Alternative | Disjunction, looped: bool = False) -> bool:
    """A repetition inside a repetition whose body can match empty: where regress overflows."""
    if isinstance(node, Repeat):
        repeats = node.max is None or node.max > 1
        if looped and repeats and width(node.body)[0] == 0:
            return True
        return _nested_nullable_loop(node.body, looped or repeats)
    if isinstance(node, Group | Look):
        return _nested_nullable_loop(node.body, looped)
    if isinstance(node, Disjunction | Alternative):
        children = node.alternatives if isinstance(node, Disjunction) else node.terms
        return any(_nested_nullable_loop(child, looped) for child in children)
    return False


def regress_crashes(pattern: str) -> bool:
    """regress aborts (its backtracking stack grows until allocation fails) on such patterns."""
    return _nested_nullable_loop(parse(pattern, pattern).body)


def test_regress_agrees_on_errors_and_verdicts() -> None:
    cases = _regress_cases()
    results = regress_worker.verdicts([(pattern, texts) for _, pattern, texts in cases])
    differ, checked = [], 0
    for (index, pattern, texts), result in zip(cases, results, strict=True):
        ours = python()[index]
        if result == "crashed":
            if "error" in ours or not regress_crashes(pattern):
                differ.append((pattern, "regress crashed"))
        elif "error" in ours:
            if "error" not in result and not REGRESS_ACCEPTS.search(pattern):
                differ.append((pattern, ours, result))
        elif "error" in result:
            differ.append((pattern, ours, result))
        else:
            matches = compile_pattern(pattern)
            checked += len(texts)
            if [matches(text) for text in texts] != result["verdicts"]:
                differ.append((pattern, texts, result))
    assert not differ, differ[:5]
    assert checked > 10_000


def test_refusals_follow_the_documented_rules() -> None:
    documented = re.findall(r"^\d+\. ([\w-]+):", ecma_regex.__doc__ or "", re.MULTILINE)
    assert documented == list(RULES)
    seen: set[str] = set()
    for outcome in filter(_refused, python()):
        message = outcome["error"]["message"].removeprefix(REFUSED)
        rules = [rule for rule, start in RULES.items() if re.match(start, message)]
        assert len(rules) == 1, message
        seen.update(rules)
    assert seen == set(RULES)


@pytest.mark.parametrize("pattern", INVALID)
def test_every_invalid_pattern_is_an_error_or_a_refusal(pattern: str) -> None:
    with pytest.raises(PatternError):
        compile_pattern(pattern)
