"""Stage 5: lower the model to output files. One module per target; this one wires them up."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from importlib import resources
from typing import Any

from ..diagnostics import Diagnostic, Diagnostics
from ..model import Catalog
from ..render import header, render_python
from ..resolve import ResolvedFamily
from . import args, catalog_doc, core, dispatch, native, prompts, sent_checks, split
from .reuse import Reuse

# The runtime package (generator/runtime/) ships unchanged as the subpackage RUNTIME_PACKAGE of
# every generated package; the generated modules hold data and import their code from it.
RUNTIME_PACKAGE = "_runtime"
# One emitter per native format, in declared order.
NATIVE_EMITTERS = native.EMITTERS


def runtime_modules() -> tuple[str, ...]:
    """The runtime's module names (every .py file of generator/runtime/), sorted."""
    package = resources.files("generator").joinpath("runtime")
    names = (p.name for p in package.iterdir() if p.name.endswith(".py"))
    return tuple(sorted(name.removesuffix(".py") for name in names))


def runtime_sources() -> dict[str, str]:
    """The runtime modules for generated/_runtime/, each under the generated-file header."""
    out: dict[str, str] = {}
    package = resources.files("generator").joinpath("runtime")
    for name in runtime_modules():
        source = package.joinpath(f"{name}.py").read_text("utf-8")
        out[f"{RUNTIME_PACKAGE}/{name}.py"] = header((f"generator/runtime/{name}.py",)) + source
    return out


def emit_all(
    catalog: Catalog,
    families: tuple[ResolvedFamily, ...],
    diags: Diagnostics,
    sink: Callable[[str, bytes], None] | None = None,
    reuse: Reuse | None = None,
) -> tuple[dict[str, bytes], dict[str, bytes]]:
    """All files for generated/ (relative to --out) and for docs/ (relative to the project root).

    ``reuse`` is what ``generate --watch`` keeps from its last run (reuse.py): the parts of
    unchanged tools are taken from there, the output being the same bytes as without it.

    Each file is encoded as soon as it is rendered: text holding one wide character is stored at
    up to four bytes per character, so keeping rendered text around would multiply peak memory.
    With a ``sink``, each file goes there instead (the first mapping is then empty): the caller
    writes it out, so the whole output is never held at once.
    """
    sources = core.spec_sources(catalog)
    files: dict[str, bytes] = {}
    add = _adder(files, sink)
    if reuse is not None:
        reuse.sweep()
    memo = reuse.memo if reuse is not None else None
    layouts = reuse.layouts if reuse is not None else None
    specs = core.catalog_specs(catalog, memo)  # read by catalog_data and every native module

    emitters = [e for e in NATIVE_EMITTERS if e.dialect in catalog.project.formats]
    mine, child = emitters, None
    if reuse is None and split.worth_it(sum(len(tool.variants) for tool in catalog.tools)):
        # The later half of the native modules and the sent-schema checks in a second process
        # (split.py); this one renders the rest meanwhile and adds the child's files after its own.
        half = len(emitters) // 2
        child = split.Child(partial(_share, tuple(emitters[half:]), catalog, families, sources, specs))
        mine = emitters[:half]
    try:
        add(runtime_sources())
        add(core.emit(catalog, families, specs, memo, layouts))
        add(dispatch.emit(catalog, layouts))
        add(args.emit(catalog, memo, layouts))
        add(prompts.emit(catalog, families, memo))
        for emitter in mine:
            add(emitter.emit(catalog, families, sources, diags, specs, reuse))
        if child is None:
            sent_checks.check(catalog, families, diags, memo)
        else:
            encoded, found = child.result()
            for name, data in encoded:
                _add_encoded(files, sink, name, data)
            diags.extend(found)
    finally:
        if child is not None:
            child.close()
    add(
        {
            "providers.py": render_python(
                "providers.py.j2",
                header(sources),
                modules=[e.module for e in emitters],
                formats=[(e.dialect, e.module) for e in emitters],
            ),
            # What one request offered: sending and dispatching from the same object.
            "offer.py": render_python("offer.py.j2", header(sources)),
            # The catalog as an MCP server; the only module that needs the mcp SDK.
            "mcp_server.py": render_python(
                "mcp_server.py.j2",
                header(sources),
                name=catalog.project.name,
                version=catalog.project.npm_version,
                family=families[0].family.name if families else "<family>",
            ),
        }
    )
    docs = {"docs/catalog.md": catalog_doc.emit(catalog, families, memo).encode("utf-8")}
    return dict(sorted(files.items())), docs


def emit_target(
    emit: Callable[[Catalog, tuple[ResolvedFamily, ...], Diagnostics], dict[str, str]],
    catalog: Catalog,
    families: tuple[ResolvedFamily, ...],
    diags: Diagnostics,
    sink: Callable[[str, bytes], None] | None = None,
) -> dict[str, bytes]:
    """All files of an extra target (``outputs.OUTPUTTERS``: its ``emit``), relative to its folder,
    streamed to ``sink`` when given."""
    files: dict[str, bytes] = {}
    _adder(files, sink)(emit(catalog, families, diags))
    return files


_Share = tuple[list[tuple[str, bytes]], list[Diagnostic]]


def _share(
    emitters: tuple[native.NativeEmitter, ...],
    catalog: Catalog,
    families: tuple[ResolvedFamily, ...],
    sources: tuple[str, ...],
    specs: dict[str, dict[str, Any]],
) -> _Share:
    """The child's share of ``emit_all`` (split.py): ``emitters``' files, encoded, then the
    sent-schema checks; with the findings of both, in that order."""
    found = Diagnostics()
    encoded: list[tuple[str, bytes]] = []
    for emitter in emitters:
        for name, text in emitter.emit(catalog, families, sources, found, specs).items():
            encoded.append((name, text.encode("utf-8")))
    sent_checks.check(catalog, families, found)
    return encoded, found.items


def _adder(files: dict[str, bytes], sink: Callable[[str, bytes], None] | None) -> Callable[[dict[str, str]], None]:
    """Encode rendered files one at a time into ``files``, or hand each to ``sink``."""

    def add(rendered: dict[str, str]) -> None:
        for name in list(rendered):
            _add_encoded(files, sink, name, rendered.pop(name).encode("utf-8"))

    return add


def _add_encoded(files: dict[str, bytes], sink: Callable[[str, bytes], None] | None, name: str, data: bytes) -> None:
    if sink is None:
        files[name] = data
    else:
        sink(name, data)  # the caller drops its reference before the next file is encoded
