"""Where a run writes: the ``outputs`` block of toolgen.yaml, overridden by --out, --docs and --no-docs.

Paths in toolgen.yaml are relative to the folder that holds it (the spec folder), so a project
works from any current directory; paths given on the command line are relative to the current
directory, as paths on a command line always are. Without an ``outputs`` block toolgen behaves as
it always did: the package goes to ``generated/`` in the current directory and the catalog doc to
``docs/catalog.md`` beside the spec folder.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .diagnostics import Diagnostics, Location, file_location

if TYPE_CHECKING:
    from .outputs import Target

PROJECT_FILE = "toolgen.yaml"
CATALOG_DOC = "docs/catalog.md"  # the catalog doc's key in pipeline.Result.docs
DEFAULT_PACKAGE = Path("generated")  # relative to the current directory (the behaviour before `outputs`)


@dataclass(frozen=True)
class Outputs:
    """The resolved outputs of a run. ``usable`` is False when toolgen.yaml's ``outputs`` block is
    malformed: the run must then touch nothing (the pipeline's meta-schema check reports why)."""

    python: Path
    docs: Path | None
    usable: bool = True


@dataclass(frozen=True)
class Overrides:
    """What the command line said: None means "as toolgen.yaml says"."""

    out: Path | None = None
    docs: Path | None = None
    no_docs: bool = False


@dataclass(frozen=True)
class Config:
    """toolgen.yaml's ``outputs`` value (None when absent or unreadable) and the loaded file (for
    locations), read once per run before the pipeline: the output folders must be locked first."""

    value: Any = None
    source: Any = None

    def block(self) -> dict[str, Any]:
        """The ``outputs`` mapping, or {} when it is absent or not a mapping (the meta-schema says why)."""
        return self.value if isinstance(self.value, dict) else {}


def read_config(specs: Path) -> Config:
    """Load toolgen.yaml leniently. Load errors are left to the pipeline, which reports every
    problem of the file."""
    from .load import load_file
    from .specfiles import display_path

    path = specs / PROJECT_FILE
    if not os.path.isfile(path):
        return Config()
    source = load_file(path, display_path(specs, path), Diagnostics())
    if not isinstance(source.data, dict):
        return Config(None, source)
    return Config(source.data.get("outputs"), source)


def _from_project(specs: Path, value: str) -> Path:
    """A path of toolgen.yaml: relative to the spec folder (``..`` taken lexically, as the user reads it)."""
    return Path(os.path.normpath(os.path.join(os.path.abspath(specs), value)))


def resolve(
    specs: Path,
    overrides: Overrides,
    diags: Diagnostics,
    targets: Sequence[Target] = (),
    loaded: Config | None = None,
) -> Outputs:
    """The package folder and doc file of this run; overlap problems, the extra ``targets``' (the
    TypeScript package) included, go to ``diags`` (E110, E111, E130, E132). ``loaded`` is
    :func:`read_config`'s answer when the caller has it already (toolgen.yaml is read once a run)."""
    loaded = read_config(specs) if loaded is None else loaded
    config, source = loaded.value, loaded.source
    usable = _well_formed(config)
    config = config if usable and isinstance(config, dict) else {}
    if overrides.out is not None:
        python, python_at = overrides.out, file_location(overrides.out)
    elif "python" in config:
        python, python_at = _from_project(specs, config["python"]), source.loc(("outputs", "python"))
    else:
        python, python_at = DEFAULT_PACKAGE, file_location(DEFAULT_PACKAGE)
    docs: Path | None
    if overrides.no_docs:
        docs, docs_at = None, None
    elif overrides.docs is not None:
        docs, docs_at = overrides.docs, file_location(overrides.docs)
    elif "docs" in config:
        docs = None if config["docs"] is None else _from_project(specs, config["docs"])
        docs_at = source.loc(("outputs", "docs"))
    else:
        docs = Path(os.path.dirname(os.path.realpath(specs))) / CATALOG_DOC
        docs_at = file_location(docs)
    ok = _check_paths(config, source, diags)
    ok = check_contained(specs, config, source, diags) and ok
    if ok:  # the overlap checks look the paths up, which a NUL character makes impossible
        ok = check_overlaps(specs, python, python_at, docs, docs_at, diags)
        ok = _check_targets(specs, python, docs, docs_at, targets, source, diags) and ok
    return Outputs(python, docs, usable and ok)


# Output paths that cannot mean what was written: (test of the value, code, what is wrong, hint).
_BAD_PATHS: tuple[tuple[Callable[[str], bool], str, str, str], ...] = (
    (  # no file system takes it; the OS calls would raise
        lambda value: "\0" in value,
        "E112",
        "holds a NUL character, which no path can contain",
        "remove the \\0 escape from the path",
    ),
    (  # a shell's shorthand; here it is a folder named '~' in the spec folder
        lambda value: value.split("/", 1)[0] == "~",
        "E133",
        "starts with '~', which toolgen does not expand: it would be a folder named '~' in the spec folder",
        "write the path relative to the spec folder (../myapp/_tools) or as an absolute path",
    ),
)


def _check_paths(config: dict[str, Any], source: Any, diags: Diagnostics) -> bool:
    """E112, E133: every ``outputs`` path (python, docs, typescript) that cannot be used as written."""
    ok = True
    for key, value in config.items():
        for test, code, problem, hint in _BAD_PATHS:
            if isinstance(value, str) and test(value):
                diags.error(source.loc(("outputs", key)), code, f"outputs.{key} {problem}", hint)
                ok = False
    return ok


OUTSIDE_KEY = "outside_project"
"""The ``outputs`` key that lists the outputs allowed to live outside the project folder."""
_PATH_KEYS = ("python", "docs", "typescript")


_ROOT_MARKERS = (".git", ".hg", ".jj", ".svn", "pyproject.toml", "package.json")
"""What marks a project's root folder: a repository's own folder (``.git`` may be a worktree's
file) or a package manifest, as black and ruff find a project."""


def project_folder(specs: Path) -> Path:
    """The folder a spec folder's outputs must stay in: the nearest folder from the spec folder
    up that holds one of ``_ROOT_MARKERS``, else the spec folder's parent. Never the current
    directory, so the answer is the same wherever toolgen runs; symlinks are followed, so a
    link cannot smuggle an output out."""
    real = Path(_real(specs))
    for folder in (real, *real.parents):
        if any(os.path.lexists(folder / marker) for marker in _ROOT_MARKERS):
            return folder
    return real.parent


def outside_project(specs: Path, path: Path, project: Path | None = None) -> bool:
    """Is ``path`` (absolute, or relative to the current directory) outside the project folder
    (``project``, else the spec folder's), as written or once symlinks are followed (a link into a
    system folder counts as outside)?"""
    root = str(project if project is not None else project_folder(specs))
    for inner in (os.path.abspath(path), _real(path)):
        if not (inner == root or inner.startswith(root.rstrip(os.sep) + os.sep)):
            return True
    return False


def check_contained(specs: Path, config: dict[str, Any], source: Any, diags: Diagnostics) -> bool:
    """E134: an output toolgen.yaml sets outside the project folder, unless ``outside_project``
    names it. A change to the specs alone must not be able to make a run write anywhere it
    likes (a CI job runs generate on a pull request's specs); paths given on the command line
    are the caller's own choice and are not held to this."""
    allowed = config.get(OUTSIDE_KEY)
    allowed = set(allowed) if isinstance(allowed, list) else set()
    keys = [
        key
        for key in _PATH_KEYS
        if isinstance(config.get(key), str) and "\0" not in config[key] and key not in allowed
    ]
    if not keys:
        return True
    project = project_folder(specs)  # one walk up the folders for every key
    ok = True
    for key in keys:
        if outside_project(specs, _from_project(specs, config[key]), project):
            diags.error(
                source.loc(("outputs", key)),
                "E134",
                f"outputs.{key} is outside the project folder {project.name or os.sep}/ "
                "(the repository's root: see docs/spec-language.md)",
                f"write it inside the project, or list it as allowed outside: "
                f"outputs.{OUTSIDE_KEY}: [{key}]",
            )
            ok = False
    return ok


def _well_formed(config: Any) -> bool:
    """Can the ``outputs`` value be used? (Absent is fine; what is wrong is reported by the meta-schema.)"""
    if config is None:
        return True
    if not isinstance(config, dict):
        return False
    python, docs = config.get("python", "-"), config.get("docs")
    return isinstance(python, str) and python != "" and (docs is None or (isinstance(docs, str) and docs != ""))


def _inside(path: Path, folder: Path) -> bool:
    """Is ``path`` ``folder`` or below it, as written (made absolute and normalised) or once symlinks
    are followed (a path through a link into the spec folder is still inside it)?"""
    for inner, outer in ((os.path.abspath(path), os.path.abspath(folder)), (_real(path), _real(folder))):
        if inner == outer or inner.startswith(outer.rstrip(os.sep) + os.sep):
            return True
    return False


def _real(path: Path) -> str:
    return os.path.realpath(path)  # never raises, unlike Path.resolve on a symlink loop


def _overlap(one: Path, other: Path) -> bool:
    return _inside(one, other) or _inside(other, one)


def check_overlaps(
    specs: Path, python: Path, python_at: Location, docs: Path | None, docs_at: Location | None, diags: Diagnostics
) -> bool:
    """The package must not overlap the spec folder (E110), nor hold the docs (E111), and the docs
    must not be a spec file (E132): generate would mix its output into its input."""
    where = "outputs.python in toolgen.yaml, or --out"
    ok = _package_overlaps(specs, python, python_at, "package folder", where, docs, docs_at, diags)
    if docs is not None and docs_at is not None and docs.suffix in (".yaml", ".yml") and _inside(docs, specs):
        diags.error(
            docs_at,
            "E132",
            "the docs file would be a spec file: the next run would read the Markdown doc as YAML",
            "give the doc a .md name, or put it outside the spec folder (outputs.docs in toolgen.yaml, or --docs)",
        )
        ok = False
    return ok


def _check_targets(
    specs: Path,
    python: Path,
    docs: Path | None,
    docs_at: Location | None,
    targets: Sequence[Target],
    source: Any,
    diags: Diagnostics,
) -> bool:
    """The extra targets' folders (the TypeScript package) must not overlap the spec folder, the
    Python package or each other, nor hold the docs file: each package folder is replaced whole."""
    ok = True
    for index, target in enumerate(targets):
        at = file_location(target.out) if target.from_cli or source is None else source.loc(("outputs", target.key))
        where = f"outputs.{target.key} in toolgen.yaml, or {target.option}"
        others = [(python, "the Python package folder")]
        others += [(other.out, f"the {other.key} package folder") for other in targets[:index]]
        name = f"{target.key} package folder"
        ok = _package_overlaps(specs, target.out, at, name, where, docs, docs_at, diags) and ok
        for folder, other in others:
            if _overlap(target.out, folder):
                problem = f"and {other} overlap: each package folder is replaced whole, so one would remove the other"
                hint = f"give each package a folder of its own, side by side ({where})"
                diags.error(at, "E130", f"the {name} {problem}", hint)
                ok = False
    return ok


def _package_overlaps(
    specs: Path,
    folder: Path,
    at: Location,
    name: str,
    where: str,
    docs: Path | None,
    docs_at: Location | None,
    diags: Diagnostics,
) -> bool:
    """E110, E111 for one package folder (``name`` in messages, set by ``where``): it must not overlap
    the spec folder, nor hold the docs file, as toolgen replaces it whole."""
    ok = True
    if _overlap(folder, specs):
        diags.error(
            at,
            "E110",
            f"the {name} and the spec folder overlap: generate would mix specs and generated code",
            f"put the package beside the spec folder ({where})",
        )
        ok = False
    if docs is not None and docs_at is not None and _inside(docs, folder):
        diags.error(
            docs_at,
            "E111",
            f"the docs file is inside the {name}, which toolgen replaces as a whole",
            "put it outside the package (outputs.docs in toolgen.yaml, or --docs), or turn it off (null, --no-docs)",
        )
        ok = False
    return ok


def package_folder(specs: Path, out: Path | None) -> Path:
    """The package folder for commands that only read it (show, parse): --out, else toolgen.yaml's."""
    if out is not None:
        return out
    return resolve(specs, Overrides(), Diagnostics()).python
