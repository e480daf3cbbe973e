"""The toolgen runtime: the code every generated package shares, whatever its specs.

Standard library only, relative imports only. The generator ships this package unchanged as
``_runtime/`` inside every generated package; the generated modules next to it carry only data
and bind it to these classes. Each generated module calls ``check_version`` when imported, so a
package whose runtime and generated modules come from different toolgen versions fails at once,
with a message saying what to do, instead of misbehaving later.
"""

from __future__ import annotations

__all__ = ["RUNTIME_VERSION", "check_version"]

RUNTIME_VERSION = 9
"""Bumped whenever what the runtime expects of the generated modules changes."""


def check_version(expected: int, module: str) -> None:
    """Raise ImportError unless ``module`` was generated for this runtime version."""
    if expected != RUNTIME_VERSION:
        raise ImportError(
            f"{module} was generated for toolgen runtime version {expected}, but the "
            f"_runtime package next to it is version {RUNTIME_VERSION}: the package mixes "
            "files from two toolgen versions. Regenerate the whole package with one "
            "toolgen (toolgen generate) or reinstall it; do not copy single files."
        )
