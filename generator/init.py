"""`toolgen init` and `toolgen schema`: start a spec folder, and give editors the meta-schemas.

`init` copies the spec folder in ``generator/init_template/`` (two tools, two families, one
context field of the project's own) and writes the meta-schemas into its ``.schemas/`` folder, to
which every modeline points by a relative path, so a project needs no toolgen checkout for editor
completion. It never overwrites a file: when one of its files exists, it writes nothing (E406).
`schema` (re)writes the meta-schemas, e.g. after upgrading toolgen.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .diagnostics import Diagnostics, file_location, path_error, shown
from .specfiles import file_above, not_a_folder

if TYPE_CHECKING:  # importlib.resources is imported only when init or schema runs: the CLI's parser imports this
    from importlib.resources.abc import Traversable

SCHEMAS = ".schemas"  # the meta-schemas' folder inside a spec folder that init wrote
EXIT_OK, EXIT_INVALID = 0, 2


def add_commands(sub: Any, docs: argparse.ArgumentParser) -> None:
    init = sub.add_parser(
        "init", parents=[docs], help="write a small working spec folder (and its meta-schemas) to start from"
    )
    init.add_argument("dir", nargs="?", type=Path, default=Path("specs"), help="the spec folder (default: specs/)")
    init.add_argument(
        "--out", type=Path, help="the package folder generate writes (default: generated/ beside the spec folder)"
    )
    schema = sub.add_parser("schema", help="write the meta-schemas (*.schema.json) the spec modelines point at")
    schema.add_argument(
        "--out", type=Path, default=Path("specs") / SCHEMAS, help=f"the folder (default: specs/{SCHEMAS}/)"
    )


def run(args: argparse.Namespace) -> int:
    if args.command == "schema":
        return _write(_schema_files(args.out), overwrite=True)
    folder: Path = args.dir
    if not _utf8(args, folder) or not _outputs_fit(args, folder):
        return EXIT_INVALID
    files = _template_files(folder, _outputs(args, folder)) | _schema_files(folder / SCHEMAS)
    code = _write(files, overwrite=False)
    if code == EXIT_OK:
        command = ["toolgen", "generate"] + ([] if shown(folder) == "specs" else ["--specs", shown(folder)])
        print(f"toolgen: wrote {len(files)} files to {shown(folder)}/", file=sys.stderr)
        print(f"next: {shlex.join(command)}", file=sys.stderr)
    return code


def schema_folder() -> Traversable:
    """The meta-schemas inside the installed package: a stable location, ``generator/schemas/``."""
    from importlib import resources

    return resources.files("generator").joinpath("schemas")


def _schema_files(folder: Path) -> dict[Path, bytes]:
    found = [entry for entry in schema_folder().iterdir() if entry.name.endswith(".schema.json")]
    return {folder / entry.name: entry.read_bytes() for entry in sorted(found, key=lambda e: e.name)}


def _relative(path: Path, folder: Path) -> str:
    """``path`` (given relative to the current directory) as toolgen.yaml names it: from ``folder``."""
    try:
        return Path(os.path.relpath(os.path.abspath(path), os.path.abspath(folder))).as_posix()
    except ValueError:  # another drive: only an absolute path reaches it
        return os.path.abspath(path)


def _outputs(args: argparse.Namespace, folder: Path) -> dict[str, str]:
    """The template's markers: the package folder and the docs file, as YAML scalars."""
    python = _relative(args.out, folder) if args.out is not None else "../generated"
    docs = _relative(args.docs, folder) if args.docs is not None else "../docs/tools.md"
    return {"@PYTHON@": _scalar(python), "@DOCS@": "null" if args.no_docs else _scalar(docs)}


def _outputs_fit(args: argparse.Namespace, folder: Path) -> bool:
    """Would generate accept the project's outputs? The same overlap checks (E110, E111), run before
    init writes a project that generate then refuses."""
    from .project import check_overlaps, outside_project, project_folder
    from .swap import check_out_dir

    python = args.out if args.out is not None else Path(os.path.normpath(folder / ".." / "generated"))
    docs = args.docs if args.docs is not None else Path(os.path.normpath(folder / ".." / "docs" / "tools.md"))
    docs = None if args.no_docs else docs
    diags = Diagnostics()
    check_overlaps(folder, python, file_location(python), docs, None if docs is None else file_location(docs), diags)
    if args.out is not None and (problem := check_out_dir(args.out)) is not None:
        message, _, hint = problem.partition("\n  hint: ")
        diags.error(file_location(args.out), "E402", message, hint)  # generate would refuse it so
    project = project_folder(folder)
    shown_project = f"{project.name or os.sep}/"
    for option, path in (("--out", args.out), ("--docs", None if args.no_docs else args.docs)):
        if path is not None and outside_project(folder, path, project):
            diags.error(
                file_location(path),
                "E134",
                f"{option} is outside the project folder {shown_project} "
                "(the repository's root: see docs/spec-language.md)",
                f"choose a path inside {shown_project}, or run init in the "
                "project's repository (a folder holding .git, pyproject.toml or package.json marks it)",
            )
    if diags.has_errors:
        print(diags.render("text"), file=sys.stderr)
    return not diags.has_errors


def _scalar(text: str) -> str:
    """A YAML double-quoted scalar (JSON's string syntax is valid YAML). Characters that are not
    printable are escaped too: YAML folds a raw NEL or line separator into a space, and refuses
    U+FFFE and the like."""
    quoted = json.dumps(text, ensure_ascii=False)
    return "".join(
        ch if ch.isprintable() else f"\\u{ord(ch):04x}" if ord(ch) <= 0xFFFF else f"\\U{ord(ch):08x}" for ch in quoted
    )


def _utf8(args: argparse.Namespace, folder: Path) -> bool:
    """Can toolgen.yaml name the paths of --out and --docs? YAML text is Unicode: a file name whose
    bytes are not UTF-8 (a lone surrogate in Python) cannot be written into it."""
    ok = True
    for option, path in (("--out", args.out), ("--docs", None if args.no_docs else args.docs)):
        if path is None:
            continue
        try:
            _relative(path, folder).encode("utf-8")
        except UnicodeEncodeError:
            _error(
                path,
                "E407",
                f"{option} is not UTF-8 text, so toolgen.yaml cannot name it",
                f"rename it, or pass another {option}",
            )
            ok = False
    return ok


def _template_files(folder: Path, markers: dict[str, str]) -> dict[Path, bytes]:
    files: dict[Path, bytes] = {}

    def visit(node: Traversable, parts: tuple[str, ...]) -> None:
        for entry in sorted(node.iterdir(), key=lambda e: e.name):
            if entry.is_dir():
                visit(entry, (*parts, entry.name))
            elif entry.name.endswith(".yaml"):
                text = entry.read_text("utf-8")
                for marker, value in markers.items():
                    text = text.replace(marker, value)
                files[folder.joinpath(*parts, entry.name)] = text.encode("utf-8")

    from importlib import resources

    visit(resources.files("generator").joinpath("init_template"), ())
    return files


def _write(files: dict[Path, bytes], *, overwrite: bool) -> int:
    """Write every file, or none when one cannot be (init: none when any exists already); path-only
    errors like the other commands. A write the OS refuses midway takes back what init wrote."""
    if _obstacles(files, overwrite=overwrite):
        return EXIT_INVALID
    made: list[Path] = []  # files and folders this run created, in order
    try:
        for path, data in files.items():
            made += reversed([p for p in (path.parent, *path.parent.parents) if not os.path.lexists(p)])
            path.parent.mkdir(parents=True, exist_ok=True)
            made += [] if os.path.lexists(path) else [path]
            path.write_bytes(data)
    except OSError as exc:
        if not overwrite:  # init: leave no half-written spec folder behind
            for path in reversed(made):
                with suppress(OSError):
                    if path.is_dir():
                        path.rmdir()
                    else:
                        path.unlink()
        where = Path(os.fsdecode(exc.filename)) if exc.filename is not None else next(iter(files))
        _error(where, "E407", f"cannot write: {exc.strerror or exc}", "check the path and its permissions")
        return EXIT_INVALID
    if overwrite:
        print(f"toolgen: wrote {len(files)} meta-schemas to {shown(next(iter(files)).parent)}/", file=sys.stderr)
    return EXIT_OK


def _obstacles(files: dict[Path, bytes], *, overwrite: bool) -> bool:
    """Report every reason a file cannot be written (E406, E407) before anything is; True when any."""
    blockers = sorted({blocker for path in files if (blocker := file_above(path)) is not None})
    for blocker in blockers:
        problem = f"{not_a_folder(blocker)}: nothing can be written below it"
        _error(blocker, "E407", problem, "move it away, or choose another folder")
    if overwrite:
        taken = [path for path in files if os.path.lexists(path) and not os.path.isfile(path)]
        for path in taken:
            _error(path, "E407", "is not a file; refusing to replace it", "move it away, or pass another --out")
    else:
        taken = [path for path in files if os.path.lexists(path)]
        for path in taken:
            _error(path, "E406", "file exists; toolgen init never overwrites a file", "init into a new or empty folder")
    return bool(blockers or taken)


def _error(path: Path, code: str, message: str, hint: str) -> None:
    print(path_error(path, code, message, hint), file=sys.stderr)
