"""Output targets beyond the Python package: which are asked for, and where each goes.

One table (``OUTPUTTERS``) names each extra target: its key under ``outputs:`` in toolgen.yaml
(a path relative to that file's folder, or null for none) and the command-line option that
overrides it. The CLI turns it into ``Target``s, then stages, plans, diffs and swaps each target
exactly like the Python package (generator/write.py). The key comes from toolgen.yaml as
generator/project.py reads it, leniently and before the pipeline runs (the output folders must be
locked first): a malformed project file yields no extra target, and the pipeline reports it.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Outputter:
    key: str  # under outputs: in toolgen.yaml
    option: str  # the command-line override
    help: str

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


OUTPUTTERS = (Outputter("typescript", "--ts-out", "TypeScript package folder (default: outputs.typescript)"),)


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
