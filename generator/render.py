"""Stage 6: Jinja templates to source text, with black on the code skeleton only.

Spec text never becomes template source: templates receive model objects and call ``const()``
to place data. ``const()`` leaves a one-line sentinel assignment in the template output; black
formats that small skeleton (cached by content hash), then the sentinels are replaced by
literals that ``pyfmt`` writes directly in black's style.
"""

from __future__ import annotations

import hashlib
import io
import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import black
import jinja2
from black.mode import Mode, TargetVersion
from black.parsing import InvalidInput

from . import pyfmt
from .fastpath import cache_dir
from .runtime import RUNTIME_VERSION

BLACK_VERSION: str = black.__version__  # type: ignore[attr-defined]  # set by black without __all__
BLACK_MODE = Mode(
    target_versions={TargetVersion.PY311},
    line_length=pyfmt.LINE_LENGTH,
    string_normalization=True,
    magic_trailing_comma=True,
    preview=False,
)
_SENTINEL = re.compile(r"^(?P<indent> *)(?P<target>[^\n=]+?) = __toolgen_const_(?P<n>\d+)__$", re.MULTILINE)


@lru_cache(maxsize=1024)
def format_code(source: str) -> str:
    """black's output for ``source``, from the content-hash cache when possible."""
    key = hashlib.sha256(f"{BLACK_VERSION}\0{BLACK_MODE!r}\0{source}".encode()).hexdigest()
    directory = cache_dir()
    path = directory / "black" / key[:2] / key if directory else None
    if path is not None:
        try:
            return path.read_text("utf-8")
        except OSError:
            pass
    try:
        result = black.format_str(source, mode=BLACK_MODE)
    except InvalidInput as exc:  # a template bug, never user input
        raise RuntimeError(f"generated code does not parse: {exc}\n{source}") from exc
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(result, "utf-8")
            os.replace(tmp, path)
        except OSError:
            pass  # the cache is an optimisation only
    return result


@dataclass
class _Consts:
    values: list[Any] = field(default_factory=list)

    def __call__(self, target: str, value: Any) -> str:
        self.values.append(value)
        return f"{target} = __toolgen_const_{len(self.values) - 1}__"

    def block(self, assignments: list[tuple[str, Any]]) -> str:
        """Many ``name = value`` lines (e.g. enum members) spliced in after black, as one sentinel."""
        self.values.append(_Block(assignments))
        return f"__toolgen_block__ = __toolgen_const_{len(self.values) - 1}__"


@dataclass(frozen=True)
class _Block:
    assignments: list[tuple[str, Any]]


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
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


def render_python(template: str, header: str, **context: Any) -> str:
    """Render a Python template: header, black-formatted skeleton, spliced literals."""
    consts = _Consts()
    skeleton = environment().get_template(template).render(const=consts, block=consts.block, **context)
    formatted = format_code(skeleton)

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
                pyfmt.write_assignment(out, target, item, depth)
        else:
            pyfmt.write_assignment(out, match["target"], value, depth)
        pos = match.end()
    out.write(formatted[pos:])
    return out.getvalue()


def render_text(template: str, **context: Any) -> str:
    return environment().get_template(template).render(**context)


def header(sources: tuple[str, ...], comment: str = "#") -> str:
    """The first line of every generated file (no timestamps, no absolute paths)."""
    listed = "".join(ch if ch.isprintable() else "?" for ch in ", ".join(sources))
    return f"{comment} Code generated by toolgen from {listed}. DO NOT EDIT.\n"
