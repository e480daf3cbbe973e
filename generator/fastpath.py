"""No-op runs without the pipeline: a fingerprint of every input, checked against what is on disk.

A run records (fingerprint of specs + generator source + dependency versions, hash of every
output file) in the user cache. When nothing changed, generate and check only hash files and return.
Any doubt (no record, a changed input, an edited or missing output) means the full pipeline runs,
so the fast path can make a run faster but never different.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import stat
import sys
from collections.abc import Mapping
from importlib import metadata
from pathlib import Path

from . import __version__
from .specfiles import SpecFileError, input_files, read_spec_bytes
from .write import interrupted

_PACKAGE = Path(__file__).resolve().parent


def cache_dir() -> Path | None:
    """toolgen's cache folder; TOOLGEN_CACHE_DIR overrides it and an empty value disables caching."""
    configured = os.environ.get("TOOLGEN_CACHE_DIR")
    if configured is not None:
        return Path(configured) if configured else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "toolgen"


def _generator_files() -> list[tuple[str, Path]]:
    """Every source file of the generator and its templates, labelled by its path inside them."""
    import generator.templates  # type: ignore[import-not-found]  # templates/, mapped by pyproject's package-dir

    found: dict[str, Path] = {}
    for tag, root in (("generator", _PACKAGE), ("templates", Path(generator.templates.__file__).resolve().parent)):
        for path in root.rglob("*"):
            if path.suffix in (".py", ".json", ".j2", ".ts") and "__pycache__" not in path.parts:
                found[f"{tag}/{path.relative_to(root).as_posix()}"] = path
    return sorted(found.items())


@functools.cache
def _generator_digest() -> bytes:
    """The generator's own part of the fingerprint, read once per process.

    Once per process, not per run: a long-running process (``generate --watch``, the language
    server, a test session) renders with the code it imported, so a generator file changed on
    disk under it (an upgrade, an edit) must not enter the fingerprints it records. Otherwise it
    would record the new code's fingerprint beside the old code's output, and the next process,
    running the new code, would take that output as up to date.
    """
    digest = hashlib.sha256()
    for label, path in _generator_files():
        digest.update(label.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.digest()


def fingerprint(specs: Path) -> str:
    """A hash of every input of a run; "" when a spec file cannot be read (then the pipeline reports it)."""
    digest = hashlib.sha256()
    versions = [f"toolgen {__version__}", f"python {sys.version_info[:3]}"]
    for dist in ("jinja2", "pyyaml", "jsonschema", "jsonschema-rs"):
        try:
            versions.append(f"{dist} {metadata.version(dist)}")
        except metadata.PackageNotFoundError:
            versions.append(f"{dist} ?")
    digest.update(("\0".join(versions) + "\0").encode())
    for path in input_files(specs):
        try:
            data = read_spec_bytes(path)
        except SpecFileError:
            return ""  # no fast path: the full run names the file and what is wrong with it
        digest.update(os.fsencode(path.relative_to(specs).as_posix()) + b"\0" + data + b"\0")
    digest.update(_generator_digest())
    return digest.hexdigest()


DOC = "doc:"  # the key prefix of the docs file in a record (the other keys are relative to --out,
# or "<target>:<rel>" for a file of an extra target's folder, generator/outputs.py)


def _state_path(specs: Path, out: Path, docs: Path | None, extra: Mapping[str, Path]) -> Path | None:
    base = cache_dir()
    if base is None:
        return None
    # realpath, not Path.resolve: it never raises (Path.resolve does on a symlink loop). The docs
    # path and the extra targets' folders are part of the key: a record made without them says
    # nothing about them.
    doc = os.path.realpath(docs) if docs is not None else ""
    places = [os.path.realpath(specs), os.path.realpath(out), doc]
    places += [f"{name}={os.path.realpath(path)}" for name, path in sorted(extra.items())]
    key = hashlib.sha256(os.fsencode("\0".join(places))).hexdigest()  # fsencode: a non-UTF-8 file name
    return base / "state" / key


def _hash(path: Path) -> str | None:
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):  # toolgen writes regular files only (and a FIFO
            return None  # would block the read); anything else needs the full check
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def _outputs(
    out: Path, docs: Path | None, files: dict[str, str], extra: Mapping[str, Path]
) -> dict[str, Path] | None:
    found = {}
    for rel in files:
        prefix, colon, rest = rel.partition(":")
        if rel.startswith(DOC):
            continue
        found[rel] = extra[prefix] / rest if colon and prefix in extra else out / rel
    if docs is not None:
        if DOC not in files:
            return None
        found[DOC] = docs
    return found


def _tree(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()} if folder.is_dir() else set()


def up_to_date(
    specs: Path, out: Path, docs: Path | None, inputs: str, extra: Mapping[str, Path] | None = None
) -> list[dict[str, object]] | None:
    """The recorded run's warnings when it had the same inputs and every output is still as written.

    None means "run the pipeline". The warnings are returned so that a cached run reports
    exactly what a full run would.
    """
    extra = extra or {}
    state = _state_path(specs, out, docs, extra)
    if state is None or not inputs:
        return None
    try:
        record = json.loads(state.read_text("utf-8"))
        if record.get("fingerprint") != inputs:
            return None
        files: dict[str, str] = record["files"]
        warnings: list[dict[str, object]] = list(record.get("diagnostics", []))
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if any(map(interrupted, (out, *extra.values()))):  # the full run's recover removes what a killed run left
        return None
    on_disk = _tree(out) | {f"{name}:{rel}" for name, folder in extra.items() for rel in _tree(folder)}
    expected = {rel for rel in files if not rel.startswith(DOC)}
    outputs = _outputs(out, docs, files, extra)
    if not expected <= on_disk or outputs is None:
        return None
    if all(_hash(path) == files[rel] for rel, path in outputs.items()):
        return warnings
    return None


def record(
    specs: Path,
    out: Path,
    docs: Path | None,
    inputs: str,
    outputs: dict[str, str],
    doc: bytes | None,
    diagnostics: list[dict[str, object]],
    extra: Mapping[str, tuple[Path, dict[str, str]]] | None = None,
) -> None:
    """Remember this run's inputs and outputs (best effort: the cache is only an optimisation).

    ``inputs`` is the fingerprint taken *before* the run, so a spec saved while the pipeline
    was running makes the next run miss the cache instead of pairing new specs with old output.
    ``outputs`` maps each file of --out (manifest included) to its SHA-256: the bytes are on disk only;
    ``extra`` maps each extra target to its folder and its files' hashes alike.
    """
    extra = extra or {}
    state = _state_path(specs, out, docs, {name: folder for name, (folder, _) in extra.items()})
    if state is None or not inputs:
        return
    files = dict(outputs)
    files.update({f"{name}:{rel}": digest for name, (_, hashes) in extra.items() for rel, digest in hashes.items()})
    if docs is not None and doc is not None:
        files[DOC] = hashlib.sha256(doc).hexdigest()
    try:
        state.parent.mkdir(parents=True, exist_ok=True)
        tmp = state.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(
            json.dumps({"fingerprint": inputs, "files": files, "diagnostics": diagnostics}, sort_keys=True), "utf-8"
        )
        os.replace(tmp, state)
    except OSError:
        pass
