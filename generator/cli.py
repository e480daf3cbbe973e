"""The toolgen command line: a thin layer over pipeline, write and the generated package.

Exit codes: 0 success, 1 drift (check), 2 invalid specs or usage, 123 internal error.
"""

from __future__ import annotations

import argparse
import errno
import os
import stat
import sys
from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING

from . import __version__, outputs
from .diagnostics import Diagnostics, printable
from .specfiles import not_a_folder

if TYPE_CHECKING:
    from . import write
    from .pipeline import Result

EXIT_OK, EXIT_DRIFT, EXIT_INVALID, EXIT_INTERNAL = 0, 1, 2, 123


def _parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--specs", type=Path, default=Path("specs"), help="spec folder (default: specs/)")
    common.add_argument("--out", type=Path, default=Path("generated"), help="output package (default: generated/)")
    common.add_argument(
        "--error-format", choices=("text", "github", "json"), default="text", help="how diagnostics are printed"
    )
    outputs.add_options(common)
    parser = argparse.ArgumentParser(prog="toolgen", description="Generate tool-calling code from YAML tool specs.")
    parser.add_argument("--version", action="version", version=f"toolgen {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("generate", parents=[common], help="write generated/ (and docs/catalog.md) from specs/")
    sub.add_parser("check", parents=[common], help="exit 1 with a diff when generated/ is out of date")
    sub.add_parser("validate", parents=[common], help="check the specs only")
    from . import show

    show.add_commands(sub, common)
    return parser


def _print_diagnostics(diags: Diagnostics, fmt: str) -> None:
    text = diags.render(fmt)
    if text:
        print(text, file=sys.stderr if fmt == "text" else sys.stdout)


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = _parser().parse_args(argv)
        return _dispatch(args)
    except KeyboardInterrupt:
        print("toolgen: interrupted; generated/ was left as it was", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:  # never a traceback for the user; this is a bug in toolgen
        if os.environ.get("TOOLGEN_DEBUG"):
            raise
        if isinstance(exc, ImportError) and _report_missing_dependency(exc):
            return EXIT_INVALID
        print(f"toolgen: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        print("please report this with the specs that triggered it", file=sys.stderr)
        return EXIT_INTERNAL


def _dispatch(args: argparse.Namespace) -> int:
    if args.command not in ("generate", "check", "validate"):  # show, parse
        from . import show

        return show.run(args)
    from . import fastpath

    root = Path(os.path.dirname(os.path.realpath(args.specs)))  # docs/ lives beside specs/
    # The fast path only for a specs folder; anything else goes to the pipeline, which reports it.
    fast = args.command != "validate" and os.path.isdir(args.specs)
    inputs = fastpath.fingerprint(args.specs) if fast else ""
    # the extra targets (the TypeScript package): name -> folder; each is handled like --out
    args.extra = {t.key: t.out for t in outputs.targets(args.specs, args)}
    cached = fastpath.up_to_date(args.specs, args.out, root, inputs, args.extra) if fast else None
    if cached is not None:
        _print_diagnostics(Diagnostics.from_json(cached), args.error_format)
        if args.command == "generate":
            print("toolgen: up to date", file=sys.stderr)
        return EXIT_OK
    from . import write

    out: Path = args.out
    blocker = _file_above(out) if args.command != "validate" else None
    if args.command == "validate" or blocker is not None:
        # validate lowers too (provider limits are spec errors); only hashes are kept
        result = _render(args, write.Staging(None), {name: write.Staging(None) for name in args.extra})
        if result.diagnostics.has_errors or blocker is None:
            return EXIT_INVALID if result.diagnostics.has_errors else EXIT_OK
        problem = f"cannot create the output folder: {blocker} {not_a_folder(blocker)}"
        _error(out, "E404", problem, f"move {blocker} away or pass another --out")
        return EXIT_INVALID
    try:
        with ExitStack() as held:  # one run at a time per output folder, across recover, render, plan and write
            for folder in (out, *args.extra.values()):
                held.enter_context(write.locked(folder))
            return _check_or_generate(args, root, out, inputs)
    except write.LockTimeout as exc:
        _error(out, "E403", str(exc), "wait for the other run to finish, then run again")
    except BrokenPipeError:  # stdout closed while printing a diff: not a problem of the output folder
        raise
    except OSError as exc:  # write() puts the previous tree back before this is reached
        verb, kept = ("read", "") if args.command == "check" else ("write", f"; {out.name}/ was left as it was")
        hint = _os_hint(exc, "pass another --out") + kept
        _error(out, "E404", f"cannot {verb} the output folder: {_os_reason(exc)}", hint)
    return EXIT_INVALID


def _render(args: argparse.Namespace, staging: write.Staging, extra: dict[str, write.Staging]) -> Result:
    """Run the pipeline with every generated file streamed into ``staging`` (each extra target's into
    its own); print its diagnostics."""
    from . import pipeline

    ts_sink = extra.get("typescript")
    result = pipeline.run(args.specs, staging) if ts_sink is None else pipeline.run(args.specs, staging, ts_sink)
    _print_diagnostics(result.diagnostics, args.error_format)
    return result


def _check_or_generate(args: argparse.Namespace, root: Path, out: Path, inputs: str) -> int:
    """Render into staging and compare or swap it in; staging is gone afterwards unless it became --out."""
    from . import write

    folders = {"": out, **args.extra}
    # also finishes or undoes an interrupted swap
    problems = {folder: problem for folder in folders.values() if (problem := write.check_out_dir(folder))}
    if problems:
        result = _render(args, write.Staging(None), {name: write.Staging(None) for name in args.extra})
        if not result.diagnostics.has_errors:  # spec errors are reported first
            for folder, problem in problems.items():
                message, _, hint = problem.partition("\n  hint: ")
                _error(folder, "E402", message, hint)
        return EXIT_INVALID
    stagings = {
        name: write.Staging.scratch() if args.command == "check" else write.Staging.beside(folder)
        for name, folder in folders.items()
    }
    try:
        result = _render(args, stagings[""], {name: stagings[name] for name in args.extra})
        if result.diagnostics.has_errors:
            return EXIT_INVALID
        return _compare_or_swap(args, root, inputs, result, {folders[n]: stagings[n] for n in folders})
    finally:
        for staging in stagings.values():
            staging.discard()


def _compare_or_swap(
    args: argparse.Namespace, root: Path, inputs: str, result: Result, trees: dict[Path, write.Staging]
) -> int:
    """Check or write every output folder (``trees``: folder -> its staging, --out first) and the docs."""
    from . import fastpath, write

    warnings = [d.to_json() for d in result.diagnostics.sorted()]
    out, staging = next(iter(trees.items()))
    plans = {folder: write.plan_hashes(folder, staged.hashes) for folder, staged in trees.items()}
    docs_stale = {rel: data for rel, data in result.docs.items() if _read(root / rel) != data}
    conflicts = [f"{folder.name}/{rel}" for folder, plan in plans.items() for rel in plan.conflicts]
    conflicts += write.doc_conflicts(root, docs_stale)
    extra = {name: (folder, trees[folder].with_manifest()) for name, folder in args.extra.items()}

    def record() -> None:
        fastpath.record(args.specs, out, root, inputs, staging.with_manifest(), result.docs, warnings, extra)

    if args.command == "check":
        hand_edited = [rel for plan in plans.values() for rel in plan.hand_edited]
        if hand_edited:
            print(
                "note: edited by hand since toolgen wrote them (manifest hash differs): " + ", ".join(hand_edited),
                file=sys.stderr,
            )
        if all(plan.up_to_date for plan in plans.values()) and not docs_stale:
            record()
            return EXIT_OK
        for folder, plan in plans.items():
            for chunk in write.diff(folder, plan, trees[folder]):
                sys.stdout.write(chunk)
        for rel in sorted(docs_stale):
            print(f"--- {rel} is out of date", file=sys.stdout)
        print("toolgen check: generated files are out of date; run `make generate`", file=sys.stderr)
        _print_conflicts(conflicts)  # generate would refuse these
        return EXIT_DRIFT
    if conflicts:
        _print_conflicts(conflicts)
        return EXIT_INVALID
    for folder, plan in plans.items():
        for rel in plan.kept_stale:
            where = printable(f"{folder.name}/{rel}")
            print(f"{where}: warning[W401]: no longer generated but edited by hand; left in place", file=sys.stderr)
    for folder, plan in plans.items():
        write.swap_in(folder, trees[folder], plan)
    try:
        refused = write.write_docs(root, docs_stale)
    except OSError as exc:
        hint = _os_hint(exc, f"{out.name}/ was updated; fix this and run again")
        _error(Path(", ".join(sorted(docs_stale))), "E405", f"cannot write: {_os_reason(exc)}", hint)
        return EXIT_INVALID
    if refused:  # appeared after the check above
        _print_conflicts(refused)
        return EXIT_INVALID
    record()
    changed = sum(len(plan.changed) + len(plan.removed) for plan in plans.values()) + len(docs_stale)
    print(f"toolgen: {changed} file(s) updated" if changed else "toolgen: up to date", file=sys.stderr)
    return EXIT_OK


def _print_conflicts(paths: list[str]) -> None:
    for path in paths:
        hint = "move it away, or delete it if it is an old generated file"
        _error(Path(path), "E400", "refusing to overwrite a file toolgen did not write", hint)


def _error(path: Path, code: str, message: str, hint: str) -> None:
    """A path-only error (no line exists), printed like a diagnostic with control characters escaped."""
    text = f"{printable(str(path))}: error[{code}]: {printable(message)}"
    print(text + (f"\n  hint: {printable(hint)}" if hint else ""), file=sys.stderr)


def _file_above(out: Path) -> Path | None:
    """The nearest existing parent of ``out`` when it is not a folder (nothing can be created below it)."""
    for parent in out.parents:
        if os.path.lexists(parent):
            return None if os.path.isdir(parent) else parent
    return None


def _os_reason(exc: OSError) -> str:
    """The OS's reason and the file it concerns (relative to the working folder when inside it)."""
    reason = exc.strerror or str(exc)
    if exc.filename is not None:
        name = os.fsdecode(exc.filename)
        inside = os.path.relpath(name) if os.path.isabs(name) else name
        reason += f": {name if inside.startswith('..') else inside}"
    return reason


def _os_hint(exc: OSError, otherwise: str) -> str:
    """What to do about a failed write, by its cause."""
    if exc.errno in (errno.EACCES, errno.EPERM):
        return f"make the folder writable for the user running toolgen, or {otherwise}"
    if exc.errno == errno.EROFS:
        return f"the file system is read-only: {otherwise}"
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return "free some disk space, then run again"
    if exc.errno in (errno.ENOTDIR, errno.EEXIST):
        return f"a part of the path is a file, not a folder: move it away, or {otherwise}"
    return f"check the path and its permissions, or {otherwise}"


# Import names of toolgen's dependencies (and theirs) -> the package to install.
_DEPENDENCIES = {
    "yaml": "pyyaml",
    "jinja2": "jinja2",
    "markupsafe": "jinja2",
    "jsonschema": "jsonschema",
    "jsonschema_specifications": "jsonschema",
    "referencing": "jsonschema",
    "rpds": "jsonschema",
    "black": "black",
}


def _report_missing_dependency(exc: ImportError) -> bool:
    """Explain a dependency that cannot be imported; False when ``exc`` is about something else (a bug)."""
    module = (exc.name or "").partition(".")[0]
    if not module or module in sys.modules or module in sys.stdlib_module_names:
        return False  # toolgen itself, a generated package that `show` imported, or the standard library
    package = _DEPENDENCIES.get(module, module)
    if isinstance(exc, ModuleNotFoundError):
        problem = f"the Python package {package!r} is not installed (toolgen needs `import {exc.name}`)"
    else:
        problem = f"the installed Python package {package!r} does not fit toolgen ({exc})"
    print(
        f"toolgen: error: {problem}\n"
        f"  hint: install toolgen with its dependencies into this Python ({sys.executable}): "
        f"`make venv` or `pip install -e .` in the toolgen checkout, or `pip install {package}`",
        file=sys.stderr,
    )
    return True


def _read(path: Path) -> bytes | None:
    """A doc file's bytes; None when it is missing or not a regular file (a FIFO must not block)."""
    try:
        return path.read_bytes() if stat.S_ISREG(os.lstat(path).st_mode) else None
    except OSError:
        return None
