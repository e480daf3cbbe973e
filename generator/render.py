"""Stage 6: Jinja templates to source text, already in black's style; no formatter runs.

Spec text never becomes template source: templates receive model objects and call ``const()``
to place data. ``const()`` leaves a one-line sentinel assignment in the template output, which is
replaced by the literal that ``pyfmt`` writes in black's style. The templates themselves are
written black-stable at line length 88 (docs/performance.md says why black is not run and how
tests/test_black_judge.py checks that every generated file is as black would write it).
"""

from __future__ import annotations

import io
import re
from ast import PyCF_ONLY_AST
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import pyfmt
from .runtime import RUNTIME_VERSION

if TYPE_CHECKING:
    import jinja2

_SENTINEL = re.compile(r"^(?P<indent> *)(?P<target>[^\n=]+?) = __toolgen_const_(?P<n>\d+)__$", re.MULTILINE)


@lru_cache(maxsize=256)
def check_syntax(skeleton: str, template: str) -> None:
    """Fail on a template bug: the skeleton (sentinels, no data; a few KB) must parse.

    Compiling to an AST costs well under a millisecond per skeleton, and each one is checked
    once per process; the data spliced in afterwards comes from pyfmt and is never parsed here.
    """
    try:
        compile(skeleton, template, "exec", flags=PyCF_ONLY_AST, dont_inherit=True)
    except SyntaxError as exc:  # a template bug, never user input
        raise RuntimeError(f"template {template} renders code that does not parse: {exc}\n{skeleton}") from exc


@dataclass
class _Consts:
    values: list[Any] = field(default_factory=list)

    def __call__(self, target: str, value: Any) -> str:
        self.values.append(value)
        return f"{target} = __toolgen_const_{len(self.values) - 1}__"

    def block(self, assignments: list[tuple[str, Any]]) -> str:
        """Many ``name = value`` lines (e.g. enum members) spliced in as one sentinel."""
        self.values.append(_Block(assignments))
        return f"__toolgen_block__ = __toolgen_const_{len(self.values) - 1}__"


@dataclass(frozen=True)
class _Block:
    assignments: list[tuple[str, Any]]


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    import jinja2  # here: checks that render nothing (validate, the language server) need no template engine

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(_templates_dir())),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["py"] = pyfmt.flat
    env.filters["pystr"] = pyfmt.string
    env.filters["tuple"] = tuple
    # Every generated module checks at import that _runtime/ is the version it was made for.
    env.globals["runtime_version"] = RUNTIME_VERSION
    return env


def _templates_dir() -> Path:
    """templates/ is installed as the package generator.templates (see pyproject.toml)."""
    import generator.templates  # type: ignore[import-not-found]  # templates/, mapped by pyproject's package-dir

    return Path(generator.templates.__file__).resolve().parent


def render_python(template: str, header: str, layouts: pyfmt.Layouts | None = None, **context: Any) -> str:
    """Render a Python template: header, skeleton, spliced literals (their elements' lines taken
    from ``layouts`` when laid out before, see pyfmt.Layouts)."""
    consts = _Consts()
    formatted = environment().get_template(template).render(const=consts, block=consts.block, **context)
    check_syntax(formatted, template)

    # One buffer for the whole file: header, skeleton pieces and literals are written in order, so
    # the text exists once (plus the final copy) instead of as literals, a substituted body and
    # header + body.
    out = io.StringIO(newline="")
    out.write(header)
    pos = 0
    for match in _SENTINEL.finditer(formatted):
        out.write(formatted[pos : match.start()])
        depth = len(match["indent"]) // len(pyfmt.INDENT)
        value = consts.values[int(match["n"])]
        if isinstance(value, _Block):
            for index, (target, item) in enumerate(value.assignments):
                if index:
                    out.write("\n")
                pyfmt.write_assignment(out, target, item, depth, layouts)
        else:
            pyfmt.write_assignment(out, match["target"], value, depth, layouts)
        pos = match.end()
    out.write(formatted[pos:])
    return out.getvalue()


def render_text(template: str, **context: Any) -> str:
    return environment().get_template(template).render(**context)


def source_list(sources: tuple[str, ...] | list[str]) -> str:
    """Spec paths for a one-line comment: a newline, or a lone surrogate from a file name that is not
    UTF-8, would break the line or the file's encoding, so anything not printable becomes "?"."""
    return "".join(ch if ch.isprintable() else "?" for ch in ", ".join(sources))


def header(sources: tuple[str, ...], comment: str = "#") -> str:
    """The first line of every generated file (no timestamps, no absolute paths)."""
    return f"{comment} Code generated by toolgen from {source_list(sources)}. DO NOT EDIT.\n"
