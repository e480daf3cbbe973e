"""Stage 5: lower the model to output files. One module per target; this one wires them up."""

from __future__ import annotations

from collections.abc import Callable
from importlib import resources

from ..diagnostics import Diagnostics
from ..model import Catalog
from ..render import header, render_python
from ..resolve import ResolvedFamily
from . import args, catalog_doc, core, dispatch, native, prompts, sent_checks

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
) -> tuple[dict[str, bytes], dict[str, bytes]]:
    """All files for generated/ (relative to --out) and for docs/ (relative to the project root).

    Each file is encoded as soon as it is rendered: text holding one wide character is stored at
    up to four bytes per character, so keeping rendered text around would multiply peak memory.
    With a ``sink``, each file goes there instead (the first mapping is then empty): the caller
    writes it out, so the whole output is never held at once.
    """
    sources = core.spec_sources(catalog)
    files: dict[str, bytes] = {}
    add = _adder(files, sink)

    add(runtime_sources())
    add(core.emit(catalog, families))
    add(dispatch.emit(catalog))
    add(args.emit(catalog))
    add(prompts.emit(catalog, families))
    emitters = [e for e in NATIVE_EMITTERS if e.dialect in catalog.project.formats]
    for emitter in emitters:
        add(emitter.emit(catalog, families, sources, diags))
    sent_checks.check(catalog, families, diags)
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
        }
    )
    docs = {"docs/catalog.md": catalog_doc.emit(catalog, families).encode("utf-8")}
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


def _adder(files: dict[str, bytes], sink: Callable[[str, bytes], None] | None) -> Callable[[dict[str, str]], None]:
    """Encode rendered files one at a time into ``files``, or hand each to ``sink``."""

    def add(rendered: dict[str, str]) -> None:
        for name in list(rendered):
            data = rendered.pop(name).encode("utf-8")
            if sink is None:
                files[name] = data
            else:
                sink(name, data)
            del data  # the sink has it: drop our reference before the next file is encoded

    return add
