"""Prose: placeholders and conditions in text, and the usage examples the XML prompt shows.

Text is emitted byte-exact, so these checks only look at what the text refers to and at what a
reader (a model, a terminal, the shipped XML parser) would make of it.
"""

from __future__ import annotations

import re
from typing import Any

from ..diagnostics import Location
from ..load import PathKey, SourceFile
from ..model import Parameter, TextPiece
from ..runtime.predicates import JS_WHITESPACE
from ..runtime.prompt_blocks import PLACEHOLDER_RE, PromptParam, usage_example
from ..runtime.xml_calls import parse_tool_calls
from ..validate import suggest
from .common import Scope, freeze
from .predicates import check_predicate

# C0/C1 control characters other than tab and line breaks.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def check_text(scope: Scope, src: SourceFile, node: Any, path: PathKey) -> tuple[TextPiece, ...]:
    """A text (a string, or a list of pieces with optional 'when:'), checked and frozen for the model."""
    if node is None:
        return ()
    pieces = [{"text": node}] if isinstance(node, str) else node
    result = []
    for i, piece in enumerate(pieces):
        at = path if isinstance(node, str) else path + (i, "text")
        for name in PLACEHOLDER_RE.findall(piece["text"]):
            if name not in scope.placeholders:
                scope.diags.error(
                    src.loc(at),
                    "E306",
                    f"unknown placeholder {{{{{name}}}}}",
                    suggest(name, scope.placeholders) or "declare it under placeholders: in toolgen.yaml",
                )
        odd = sorted(set(_CONTROL.findall(piece["text"])))
        if odd:
            scope.diags.warning(
                src.loc(at),
                "W305",
                "text holds control characters " + ", ".join(f"U+{ord(ch):04X}" for ch in odd),
                "remove them: models, terminals and XML readers handle them badly",
            )
        when = piece.get("when")
        if when is not None:
            check_predicate(scope, src, when, path + (i, "when"))
        result.append(TextPiece(piece["text"], freeze(when)))
    return tuple(result)


def check_usage(
    scope: Scope, src: SourceFile, name: str, params: tuple[Parameter, ...], spec: dict[str, Any], at: PathKey
) -> None:
    """The Usage example of the prompt must read back, through the shipped XML parser, as declared.

    A value holding its own closing tag (or, in a content parameter, the tool's) would end
    early, so the model would be shown one call and the parser would read another.
    """
    if _reads_back_plainly(name, params):
        return
    example = usage_example(name, [PromptParam(p.name, p.required, "", "", p.usage or "") for p in params])
    calls = parse_tool_calls(example, {name: [p.name for p in params]})
    got = dict(calls[0].params) if len(calls) == 1 and not calls[0].partial else {}
    wrong = [i for i, p in enumerate(params) if got.get(p.name) != (p.usage or "").strip(JS_WHITESPACE)]
    tagged = {i: _tags_in_usage(name, params[i]) for i in wrong}
    # Report the examples holding tags (the causes), else the first value that reads wrong.
    for i in [i for i in wrong if tagged[i]] or wrong[:1]:
        value = got.get(params[i].name)
        why = f"it holds the tag {tagged[i][0]}" if tagged[i] else f"the example of tool {name!r} reads as other markup"
        scope.diags.error(
            _usage_location(scope, src, spec, at, i),
            "E321",
            f"the usage example of parameter {params[i].name!r} reads back as "
            f"{'nothing' if value is None else repr(value)}: {why}",
            "remove the tag from the example: the XML parser ends the value (or the call) there,"
            " so the prompt would show a call other than the one declared",
        )


def _reads_back_plainly(name: str, params: tuple[Parameter, ...]) -> bool:
    """Whether the example surely reads back as declared without parsing it (parsing compiles a
    grammar per tool, the larger part of building a big catalog): no usage text holds a '<', so
    the only tags are the example's own, and no parameter is named like the tool, so each tag
    means one thing. Parameter names are distinct here (check_usage's caller makes sure).
    tests/test_semantics_checks.py holds this against the parser."""
    return all("<" not in (p.usage or "") and p.name != name for p in params)


def _tags_in_usage(name: str, param: Parameter) -> list[str]:
    usage = param.usage or ""
    return [t for t in (f"</{param.name}>", f"</{name}>", f"<{name}>") if t in usage]


def _usage_location(scope: Scope, src: SourceFile, spec: dict[str, Any], at: PathKey, i: int) -> Location:
    """Where parameter ``i``'s usage text is written: the variant, its parameter, or the shared definition."""
    if "parameters" not in spec:
        return src.loc(at + ("name",))
    raw = spec["parameters"][i]
    if "usage" not in raw and raw.get("use") in scope.shared_params and scope.shared_src is not None:
        return scope.shared_src.loc(("parameters", raw["use"], "usage"))
    return src.loc(at + ("parameters", i, "usage"))
