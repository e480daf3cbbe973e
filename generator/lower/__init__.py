"""Stage 5: lower the model to output files. One module per target; this one wires them up."""

from __future__ import annotations

from importlib import resources

from ..diagnostics import Diagnostics
from ..model import Catalog
from ..render import header
from ..resolve import ResolvedFamily
from . import catalog_doc, core, prompts

# Standard-library modules shipped verbatim in the generated package (the same source the generator uses).
RUNTIME_MODULES = ("predicates", "tool_types", "xml_calls", "schema_dialects", "prompt_blocks")


def runtime_sources() -> dict[str, str]:
    """Runtime modules copied into generated/, each under the generated-file header."""
    out: dict[str, str] = {}
    package = resources.files("generator").joinpath("runtime")
    for name in RUNTIME_MODULES:
        item = package.joinpath(f"{name}.py")
        if item.is_file():
            out[f"{name}.py"] = header((f"generator/runtime/{name}.py",)) + item.read_text("utf-8")
    return out


def emit_all(
    catalog: Catalog, families: tuple[ResolvedFamily, ...], diags: Diagnostics
) -> tuple[dict[str, str], dict[str, str]]:
    """All files for generated/ and for docs/."""
    files = runtime_sources()
    files.update(core.emit(catalog, families, files))
    files.update(prompts.emit(catalog, families, core.spec_sources(catalog)))
    docs = {"docs/catalog.md": catalog_doc.emit(catalog, families)}
    return files, docs
