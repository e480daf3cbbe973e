"""Output targets beyond the Python package: which are asked for, and where each goes.

One table (``OUTPUTTERS``) names each extra target: its key under ``outputs:`` in toolgen.yaml
(a path relative to that file's folder, or null for none), the command-line option that
overrides it, and the emitter that renders its files. The CLI turns it into ``Target``s, the
pipeline runs each target's emitter (pipeline.run ``targets``), and the CLI then stages, plans,
diffs and swaps each target exactly like the Python package (generator/write.py). A new target
is a row here and its lowering; nothing else names it. The key comes from toolgen.yaml as
generator/project.py reads it, leniently and before the pipeline runs (the output folders must be
locked first): a malformed project file yields no extra target, and the pipeline reports it.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .diagnostics import Diagnostics
    from .model import Catalog
    from .resolve import ResolvedFamily

#: Renders a target's files (text by path relative to its folder) from the checked model.
Emit = Callable[["Catalog", "tuple[ResolvedFamily, ...]", "Diagnostics"], dict[str, str]]


@dataclass(frozen=True)
class Outputter:
    key: str  # under outputs: in toolgen.yaml
    option: str  # the command-line override
    help: str
    emit: Emit

    @property
    def dest(self) -> str:
        """The option's attribute in parsed arguments."""
        return self.option.lstrip("-").replace("-", "_")


@dataclass(frozen=True)
class Target:
    key: str
    out: Path
    option: str  # the command-line option that overrides it
    from_cli: bool = False  # set by the option, not by toolgen.yaml (where its errors point)


def _typescript(catalog: Catalog, families: tuple[ResolvedFamily, ...], diags: Diagnostics) -> dict[str, str]:
    from .lower import ts  # imported late: lowering pulls in jinja, which the CLI's startup does without

    return ts.emit(catalog, families, diags)


OUTPUTTERS = (
    Outputter("typescript", "--ts-out", "TypeScript package folder (default: outputs.typescript)", _typescript),
)


def add_options(parser: argparse.ArgumentParser) -> None:
    for outputter in OUTPUTTERS:
        parser.add_argument(outputter.option, type=Path, default=None, help=outputter.help)


def targets(specs: Path, args: argparse.Namespace, configured: Mapping[str, object]) -> list[Target]:
    """The extra targets of this run, command-line overrides first, then ``configured`` (toolgen.yaml's
    ``outputs`` block, :meth:`project.Config.block`)."""
    found = []
    for outputter in OUTPUTTERS:
        override = getattr(args, outputter.dest, None)
        value = configured.get(outputter.key)
        if override is not None:
            found.append(Target(outputter.key, override, outputter.option, from_cli=True))
        elif isinstance(value, str) and value and "\0" not in value:
            found.append(Target(outputter.key, Path(os.path.normpath(specs / value)), outputter.option))
    return found
