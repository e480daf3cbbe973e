"""The toolgen command line: a thin layer over pipeline, write and the generated package.

Exit codes: 0 success, 1 drift (check), 2 invalid specs or usage, 123 internal error.
"""

from __future__ import annotations

import argparse
import errno
import os
import shlex
import stat
import sys
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING

from . import __version__
from .diagnostics import Diagnostic, Diagnostics, emit, file_location, one_error, printable, shown
from .outputs import OUTPUTTERS, add_options, targets
from .specfiles import file_above, kind_of, not_a_folder

if TYPE_CHECKING:
    from . import write
    from .pipeline import Result
    from .project import Outputs

EXIT_OK, EXIT_DRIFT, EXIT_INVALID, EXIT_INTERNAL = 0, 1, 2, 123


def _parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--specs", type=Path, help="spec folder (default: specs/)")
    common.add_argument(
        "--out", type=Path, help="output package (default: outputs.python in toolgen.yaml, else generated/)"
    )
    common.add_argument(
        "--error-format", choices=("text", "github", "json"), default="text", help="how diagnostics are printed"
    )
    add_options(common)  # the extra targets' folders (--ts-out)
    outputs = argparse.ArgumentParser(add_help=False)
    docs = outputs.add_mutually_exclusive_group()
    docs.add_argument("--docs", type=Path, help="catalog doc file (default: outputs.docs in toolgen.yaml)")
    docs.add_argument("--no-docs", action="store_true", help="write no catalog doc")
    parser = argparse.ArgumentParser(prog="toolgen", description="Generate tool-calling code from YAML tool specs.")
    parser.add_argument("--version", action="version", version=f"toolgen {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    both = [common, outputs]
    generate = sub.add_parser("generate", parents=both, help="write the package (and the catalog doc) from the specs")
    generate.add_argument("--watch", action="store_true", help="regenerate whenever a spec file changes, until Ctrl-C")
    sub.add_parser("check", parents=both, help="exit 1 with a diff when the generated files are out of date")
    sub.add_parser("validate", parents=both, help="check the specs only")
    from . import init, show
    from .breaking import command as breaking

    show.add_commands(sub, common)
    init.add_commands(sub, outputs)
    breaking.add_command(sub)
    return parser


def regenerate_command(args: argparse.Namespace) -> str:
    """The command that regenerates what ``check`` compared, with the flags it was given."""
    words = ["toolgen", "generate"]
    for flag, value in (("--specs", args.specs_given), ("--out", args.out), ("--docs", args.docs)):
        if value is not None:
            words += [flag, str(value)]
    if args.no_docs:
        words.append("--no-docs")
    for outputter in OUTPUTTERS:
        value = getattr(args, outputter.dest, None)
        if value is not None:
            words += [outputter.option, str(value)]
    return shlex.join(words)


def _print_diagnostics(diags: Diagnostics, fmt: str) -> None:
    emit(diags.render(fmt), fmt)


def main(argv: Sequence[str] | None = None) -> int:
    _write_file_names_as_bytes()
    return _guarded(lambda: _dispatch(_parser().parse_args(argv)))


def _write_file_names_as_bytes() -> None:
    """A file name that is not UTF-8 reaches Python as lone surrogates; printed (in a diff header,
    say) to a strict stdout it would raise. Write such names back as their original bytes."""
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None and getattr(sys.stdout, "errors", None) == "strict":
        reconfigure(errors="surrogateescape")


def run_once(args: argparse.Namespace) -> int:
    """One generate/check/validate run of parsed ``args``, with main's error handling (for --watch)."""
    return _guarded(lambda: _dispatch(args))


def _guarded(call: Callable[[], int]) -> int:
    """``call()``'s exit code; interrupts, closed pipes and bugs become exit codes, never a traceback."""
    try:
        return call()
    except KeyboardInterrupt:
        print("toolgen: interrupted; the output folders were left as they were", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:  # never a traceback for the user; this is a bug in toolgen
        if os.environ.get("TOOLGEN_DEBUG"):
            raise
        if isinstance(exc, ImportError) and _report_missing_dependency(exc):
            return EXIT_INVALID
        if isinstance(exc, UnicodeEncodeError) and _report_unencodable_output(exc):
            return EXIT_INVALID
        print(f"toolgen: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        print("please report this with the specs that triggered it", file=sys.stderr)
        return EXIT_INTERNAL


def _dispatch(args: argparse.Namespace) -> int:
    if args.command in ("init", "schema"):
        from . import init

        return init.run(args)
    if args.command == "breaking":
        from .breaking import command as breaking

        return breaking.run(args)
    if not hasattr(args, "specs_given"):  # --watch dispatches its runs here again
        args.specs_given = args.specs
        args.specs = args.specs if args.specs is not None else Path("specs")
    if getattr(args, "watch", False):
        from . import watch

        return watch.run(args)
    from . import project

    if args.command not in ("generate", "check", "validate"):  # show, parse
        from . import show

        args.out = project.package_folder(args.specs, args.out)
        return show.run(args)
    from . import fastpath

    early = Diagnostics()
    config = project.read_config(args.specs)  # toolgen.yaml's outputs, read once for both below
    extra = targets(args.specs, args, config.block())  # the extra targets (outputs.OUTPUTTERS); each handled like --out
    outputs = project.resolve(args.specs, project.Overrides(args.out, args.docs, args.no_docs), early, extra, config)
    out = outputs.python
    args.extra = {t.key: t.out for t in extra}  # name -> folder
    # The fast path only for a specs folder; anything else goes to the pipeline, which reports it.
    fast = args.command != "validate" and os.path.isdir(args.specs) and outputs.usable
    inputs = fastpath.fingerprint(args.specs) if fast else ""
    cached = fastpath.up_to_date(args.specs, out, outputs.docs, inputs, args.extra) if fast else None
    if cached is not None:
        from .specfiles import spec_diagnostics

        replay = spec_diagnostics(args.specs)
        replay.extend(Diagnostics.from_json(cached).items)
        _print_diagnostics(replay, args.error_format)
        if args.command == "generate":
            print("toolgen: up to date", file=sys.stderr)
        return EXIT_OK
    from . import write

    options = _options(args, out)
    blocked = {} if args.command == "validate" else {f: b for f in options if (b := file_above(f)) is not None}
    if args.command == "validate" or blocked or not outputs.usable:
        # validate lowers too (provider limits are spec errors); only hashes are kept
        result = _render(args, write.Staging(None), early, _hash_only(args))
        if result.diagnostics.has_errors or not blocked:
            return EXIT_INVALID if result.diagnostics.has_errors else EXIT_OK
        for folder, blocker in blocked.items():
            problem = f"cannot create the output folder: {shown(blocker)} {not_a_folder(blocker)}"
            _error(args, folder, "E404", problem, f"move {shown(blocker)} away or pass another {options[folder]}")
        return EXIT_INVALID
    try:
        with ExitStack() as held:  # one run at a time per output folder, across recover, render, plan and write
            for folder in (out, *args.extra.values()):
                held.enter_context(write.locked(folder))
            return _check_or_generate(args, outputs, inputs, early)
    except write.LockTimeout as exc:
        _error(args, out, "E403", str(exc), "wait for the other run to finish, then run again")
    except BrokenPipeError:  # stdout closed while printing a diff: not a problem of the output folder
        raise
    except OSError as exc:  # write() puts the previous tree back before this is reached
        verb, kept = ("read", "") if args.command == "check" else ("write", f"; {shown(out)}/ was left as it was")
        hint = _os_hint(exc, "pass another --out") + kept
        _error(args, out, "E404", f"cannot {verb} the output folder: {_os_reason(exc)}", hint)
    return EXIT_INVALID


def _options(args: argparse.Namespace, out: Path) -> dict[Path, str]:
    """Every output folder of the run, the package's first, with the option that sets it (for hints)."""
    options = {out: "--out"}
    for outputter in OUTPUTTERS:
        if outputter.key in args.extra:
            options.setdefault(args.extra[outputter.key], outputter.option)
    return options


def _hash_only(args: argparse.Namespace) -> dict[str, write.Staging]:
    """A staging that keeps only hashes for each extra target (validate, or a run that will fail)."""
    from . import write

    return {name: write.Staging(None) for name in args.extra}


def _render(
    args: argparse.Namespace, staging: write.Staging, early: Diagnostics, extra: dict[str, write.Staging]
) -> Result:
    """Run the pipeline with every generated file streamed into ``staging`` (each extra target's into
    its own); print its diagnostics together with ``early`` ones (the outputs' checks)."""
    from . import pipeline

    result = pipeline.run(args.specs, staging, extra)
    result.diagnostics.extend(early.items)
    if not _drift_joins_diagnostics(args) or result.diagnostics.has_errors:
        _print_diagnostics(result.diagnostics, args.error_format)
    return result


def _drift_joins_diagnostics(args: argparse.Namespace) -> bool:
    """``check --error-format json|github``: stale files are reported as E408 items in the same
    document as the diagnostics (one JSON list, or annotations), and the diff goes to stderr."""
    return bool(args.command == "check" and args.error_format != "text")


def _check_or_generate(args: argparse.Namespace, outputs: Outputs, inputs: str, early: Diagnostics) -> int:
    """Render into staging and compare or swap it in; staging is gone afterwards unless it became --out."""
    from . import write

    folders = {"": outputs.python, **args.extra}
    # also finishes or undoes an interrupted swap
    options = _options(args, outputs.python)
    problems = {
        folder: problem for folder in folders.values() if (problem := write.check_out_dir(folder, options[folder]))
    }
    if problems:
        result = _render(args, write.Staging(None), early, _hash_only(args))  # spec errors are reported first
        if not result.diagnostics.has_errors:
            for folder, problem in problems.items():
                message, _, hint = problem.partition("\n  hint: ")
                _error(args, folder, "E402", message, hint)
        return EXIT_INVALID
    stagings = {
        name: write.Staging.scratch() if args.command == "check" else write.Staging.beside(folder)
        for name, folder in folders.items()
    }
    try:
        result = _render(args, stagings[""], early, {name: stagings[name] for name in args.extra})
        if result.diagnostics.has_errors:
            return EXIT_INVALID
        return _compare_or_swap(args, outputs, inputs, result, {folders[n]: stagings[n] for n in folders})
    finally:
        for staging in stagings.values():
            staging.discard()


def _compare_or_swap(
    args: argparse.Namespace, outputs: Outputs, inputs: str, result: Result, trees: dict[Path, write.Staging]
) -> int:
    """Check or write every output folder (``trees``: folder -> its staging, the package first) and the doc."""
    from . import fastpath, write
    from .project import CATALOG_DOC

    out, docs = outputs.python, outputs.docs
    staging = trees[out]
    warnings = [d.to_json() for d in result.diagnostics.sorted()]
    plans = {folder: write.plan_hashes(folder, staged.hashes) for folder, staged in trees.items()}
    doc = result.docs[CATALOG_DOC] if docs is not None else None
    doc_stale = docs is not None and doc is not None and _read(docs) != doc
    conflicts = [folder / rel for folder, plan in plans.items() for rel in plan.conflicts]
    extra = {name: (folder, trees[folder].with_manifest()) for name, folder in args.extra.items()}

    def record() -> None:
        fastpath.record(args.specs, out, docs, inputs, staging.with_manifest(), doc, warnings, extra)

    if docs is not None and doc is not None and doc_stale:
        conflicts += [docs.parent / rel for rel in write.doc_conflicts(docs.parent, {docs.name: doc})]
    if args.command == "check":
        hand_edited = [folder / rel for folder, plan in plans.items() for rel in plan.hand_edited]
        if hand_edited:
            edited = ", ".join(map(shown, hand_edited))
            print(f"note: edited by hand since toolgen wrote them (manifest hash differs): {edited}", file=sys.stderr)
        command = regenerate_command(args)
        machine = _drift_joins_diagnostics(args)
        if all(plan.up_to_date for plan in plans.values()) and not doc_stale:
            if machine:
                _print_diagnostics(result.diagnostics, args.error_format)
            record()
            return EXIT_OK
        stream = sys.stderr if machine else sys.stdout
        for folder, plan in plans.items():
            for chunk in write.diff(folder, plan, trees[folder], shown(folder)):
                stream.write(chunk)
        if docs is not None and doc_stale:
            print(f"--- {shown(docs)} is out of date", file=stream)
        if machine:
            drift = _with_drift(result.diagnostics, plans, docs if doc_stale else None, command)
            _print_diagnostics(drift, args.error_format)
        print(f"toolgen check: generated files are out of date; run `{command}`", file=sys.stderr)
        _print_conflicts(args, conflicts, docs)  # generate would refuse these
        return EXIT_DRIFT
    if conflicts:
        _print_conflicts(args, conflicts, docs)
        return EXIT_INVALID
    for folder, plan in plans.items():
        for rel in plan.kept_stale:
            where = printable(shown(folder / rel))
            print(f"{where}: warning[W401]: no longer generated but edited by hand; left in place", file=sys.stderr)
    for folder, plan in plans.items():
        write.swap_in(folder, trees[folder], plan)
    if docs is not None and doc is not None and doc_stale:
        try:
            refused = write.write_docs(docs.parent, {docs.name: doc})
        except OSError as exc:
            hint = _os_hint(exc, f"{shown(out)}/ was updated; fix this and run again")
            _error(args, docs, "E405", f"cannot write: {_os_reason(exc)}", hint)
            return EXIT_INVALID
        if refused:  # appeared after the check above
            _print_conflicts(args, [docs], docs)
            return EXIT_INVALID
    record()
    changed = sum(len(plan.changed) + len(plan.removed) for plan in plans.values()) + doc_stale
    print(f"toolgen: {changed} file(s) updated" if changed else "toolgen: up to date", file=sys.stderr)
    return EXIT_OK


def _with_drift(diags: Diagnostics, plans: dict[Path, write.Plan], doc: Path | None, command: str) -> Diagnostics:
    """The run's diagnostics plus one E408 per stale output file (new, changed or no longer generated)."""
    merged = Diagnostics(list(diags.items), diags.specs)
    hint = f"run `{command}` and commit the result"
    for folder, plan in plans.items():
        for rel in plan.changed:
            what = "out of date" if (folder / rel).exists() else "missing"
            merged.error(file_location(folder / rel), "E408", f"generated file is {what}", hint)
        for rel in plan.removed:
            merged.error(file_location(folder / rel), "E408", "generated file is no longer generated", hint)
    if doc is not None:
        merged.error(file_location(doc), "E408", "the catalog doc is out of date", hint)
    return merged


def _print_conflicts(args: argparse.Namespace, paths: list[Path], docs: Path | None) -> None:
    for path in paths:
        hint = "move it away, or delete it if it is an old generated file"
        message = "refusing to overwrite a file toolgen did not write"
        if path == docs:
            hint += "; or write the catalog doc elsewhere (outputs.docs in toolgen.yaml, --docs) or not at all"
            hint += " (docs: null, --no-docs)"
            message = _not_a_file(path) or message
        _error(args, path, "E400", message, hint)


def _not_a_file(path: Path) -> str | None:
    """Why the docs path cannot be replaced by a file (a folder, a FIFO, a dangling symlink), or None."""
    try:
        mode = os.lstat(path).st_mode
        if stat.S_ISLNK(mode):
            mode = os.stat(path).st_mode
    except OSError:
        return (
            "is a symlink that leads nowhere (a missing target or a loop); refusing to replace it with the catalog doc"
        )
    return (
        None if stat.S_ISREG(mode) else f"is {kind_of(mode)}, not a file; refusing to replace it with the catalog doc"
    )


def _error(args: argparse.Namespace, path: Path, code: str, message: str, hint: str) -> None:
    """A path-only error (no line exists), printed like a diagnostic with control characters escaped;
    in the github and json formats like every other diagnostic."""
    emit(one_error(Diagnostic(file_location(path), code, message, hint), args.error_format), args.error_format)


def _os_reason(exc: OSError) -> str:
    """The OS's reason and the file it concerns (relative to the working folder when inside it)."""
    reason = exc.strerror or str(exc)
    if exc.filename is not None:
        reason += f": {shown(os.fsdecode(exc.filename))}"
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


def _report_unencodable_output(exc: UnicodeEncodeError) -> bool:
    """Explain output the terminal's encoding (PYTHONIOENCODING=ascii, say) cannot hold; False when
    the error is about another encoding (a bug)."""
    streams = [
        stream
        for stream in (sys.stdout, sys.stderr)
        if _codec(getattr(stream, "encoding", None)) == _codec(exc.encoding)
    ]
    if not streams:
        return False
    bad = exc.object[exc.start : exc.end]
    print(
        f"toolgen: error: the output holds text that {exc.encoding} cannot encode ({bad!r})\n"
        "  hint: run with a UTF-8 locale or PYTHONIOENCODING=utf-8",
        file=sys.stderr,
    )
    return True


def _codec(name: str | None) -> str | None:
    import codecs

    try:
        return codecs.lookup(name).name if name else None
    except LookupError:
        return None


# Import names of toolgen's dependencies (and theirs) -> the package to install.
_DEPENDENCIES = {
    "yaml": "pyyaml",
    "jinja2": "jinja2",
    "markupsafe": "jinja2",
    "jsonschema": "jsonschema",
    "jsonschema_specifications": "jsonschema",
    "referencing": "jsonschema",
    "rpds": "jsonschema",
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
