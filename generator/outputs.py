"""Output targets beyond the Python package: which are asked for, and where each goes.

One table (``OUTPUTTERS``) names each extra target: its key under ``outputs:`` in toolgen.yaml
(a path relative to that file's folder, or null for none) and the command-line option that
overrides it. The CLI turns it into ``Target``s, then stages, plans, diffs and swaps each target
exactly like the Python package (generator/write.py). The key is read leniently here, before
the pipeline runs, because the output folder must be locked first: a malformed project file
yields no extra target, and the pipeline's schema check reports it.
"""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass
from pathlib import Path

from .specfiles import SpecFileError, read_spec_bytes


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


def _configured(specs: Path) -> dict[str, object]:
    """The ``outputs`` block of toolgen.yaml, or {} when the file cannot be read as a mapping."""
    import yaml  # imported late, so that a missing PyYAML is reported by the CLI's handler

    try:  # a FIFO or a huge file must not block or stall here: read it as the loader does
        data = yaml.safe_load(read_spec_bytes(specs / "toolgen.yaml"))
    except (SpecFileError, yaml.YAMLError, RecursionError, ValueError):
        return {}
    block = data.get("outputs") if isinstance(data, dict) else None
    return block if isinstance(block, dict) else {}


def targets(specs: Path, args: argparse.Namespace) -> list[Target]:
    """The extra targets of this run, command-line overrides first, then toolgen.yaml."""
    configured = _configured(specs)
    found = []
    for outputter in OUTPUTTERS:
        override = getattr(args, outputter.dest, None)
        value = configured.get(outputter.key)
        if override is not None:
            found.append(Target(outputter.key, override, outputter.option, from_cli=True))
        elif isinstance(value, str) and value and "\0" not in value:
            found.append(Target(outputter.key, Path(os.path.normpath(specs / value)), outputter.option))
    return found
