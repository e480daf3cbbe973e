"""Stage 5: lower the model to output files. One module per target; this one wires them up."""

from __future__ import annotations

from importlib import resources

from ..diagnostics import Diagnostics
from ..model import Catalog
from ..render import header, render_python
from ..resolve import ResolvedFamily
from . import catalog_doc, core, dispatch, native, prompts

# Standard-library modules shipped verbatim in the generated package (the same source the generator
# uses). catalog, tool_lists, prompt and dispatch read generated data modules, so only the generated
# package imports them.
RUNTIME_MODULES = (
    "predicates",
    "catalog",
    "tool_types",
    "xml_calls",
    "formats",
    "schema_common",
    "schema_walk",
    "schema_json",
    "schema_gemini",
    "schema_limits",
    "schema_dialects",
    "native",
    "tool_lists",
    "prompt_blocks",
    "prompt",
    "dynamic_tools",
    "dispatch",
)
# One emitter per native format, in declared order.
NATIVE_EMITTERS = native.EMITTERS


def runtime_sources() -> dict[str, str]:
    """Runtime modules copied into generated/, each under the generated-file header."""
    out: dict[str, str] = {}
    package = resources.files("generator").joinpath("runtime")
    for name in RUNTIME_MODULES:
        source = package.joinpath(f"{name}.py").read_text("utf-8")
        out[f"{name}.py"] = header((f"generator/runtime/{name}.py",)) + source
    return out


def emit_all(
    catalog: Catalog, families: tuple[ResolvedFamily, ...], diags: Diagnostics
) -> tuple[dict[str, bytes], dict[str, bytes]]:
    """All files for generated/ (relative to --out) and for docs/ (relative to the project root).

    Each file is encoded as soon as it is rendered: text holding one wide character is stored at
    up to four bytes per character, so keeping rendered text around would multiply peak memory.
    """
    sources = core.spec_sources(catalog)
    files: dict[str, bytes] = {}

    def add(rendered: dict[str, str]) -> None:
        for name in list(rendered):
            files[name] = rendered.pop(name).encode("utf-8")

    add(runtime_sources())
    add(core.emit(catalog, families))
    add(dispatch.emit(catalog))
    add(prompts.emit(catalog, families))
    emitters = [e for e in NATIVE_EMITTERS if e.dialect in catalog.project.formats]
    for emitter in emitters:
        add(emitter.emit(catalog, families, sources, diags))
    add(
        {
            "providers.py": render_python(
                "providers.py.j2",
                header(sources),
                modules=[e.module for e in emitters],
                formats=[(e.dialect, e.module) for e in emitters],
            )
        }
    )
    docs = {"docs/catalog.md": catalog_doc.emit(catalog, families).encode("utf-8")}
    return dict(sorted(files.items())), docs
