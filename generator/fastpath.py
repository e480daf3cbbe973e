"""No-op runs without the pipeline: a fingerprint of every input, checked against what is on disk.

A run records (fingerprint of specs + generator source + black version, hash of every output
file) in the user cache. When nothing changed, generate and check only hash files and return.
Any doubt (no record, a changed input, an edited or missing output) means the full pipeline runs,
so the fast path can make a run faster but never different.
"""

from __future__ import annotations

import hashlib
import json
import os
from importlib import metadata
from pathlib import Path

from . import __version__

_PACKAGE = Path(__file__).resolve().parent


def cache_dir() -> Path | None:
    """toolgen's cache folder; TOOLGEN_CACHE_DIR overrides it and an empty value disables caching."""
    configured = os.environ.get("TOOLGEN_CACHE_DIR")
    if configured is not None:
        return Path(configured) if configured else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "toolgen"


def _generator_files() -> list[Path]:
    import generator.templates

    roots = [_PACKAGE, Path(generator.templates.__file__).resolve().parent]
    found: list[Path] = []
    for root in roots:
        for path in root.rglob("*"):
            if path.suffix in (".py", ".json", ".j2") and "__pycache__" not in path.parts:
                found.append(path)
    return sorted(set(found))


def fingerprint(specs: Path) -> str:
    digest = hashlib.sha256()
    try:
        black_version = metadata.version("black")
    except metadata.PackageNotFoundError:
        black_version = "?"
    digest.update(f"toolgen {__version__} black {black_version}\0".encode())
    for path in sorted(specs.rglob("*.yaml")):
        digest.update(path.relative_to(specs).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    for path in _generator_files():
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _state_path(specs: Path, out: Path) -> Path | None:
    base = cache_dir()
    if base is None:
        return None
    key = hashlib.sha256(f"{specs.resolve()}\0{out.resolve()}".encode()).hexdigest()
    return base / "state" / key


def _hash(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def _outputs(out: Path, root: Path, files: dict[str, str]) -> dict[str, Path]:
    return {rel: (root / rel[5:] if rel.startswith("root:") else out / rel) for rel in files}


def up_to_date(specs: Path, out: Path, root: Path) -> bool:
    """True only when the recorded run had the same inputs and every output is still as written."""
    state = _state_path(specs, out)
    if state is None:
        return False
    try:
        record = json.loads(state.read_text("utf-8"))
        if record.get("fingerprint") != fingerprint(specs):
            return False
        files: dict[str, str] = record["files"]
    except (OSError, ValueError, KeyError, TypeError):
        return False
    on_disk = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()} if out.is_dir() else set()
    expected = {rel for rel in files if not rel.startswith("root:")}
    if not expected <= on_disk:
        return False
    return all(_hash(path) == files[rel] for rel, path in _outputs(out, root, files).items())


def record(specs: Path, out: Path, root: Path, outputs: dict[str, bytes], docs: dict[str, bytes]) -> None:
    """Remember this run's inputs and outputs (best effort: the cache is only an optimisation)."""
    state = _state_path(specs, out)
    if state is None:
        return
    files = {rel: hashlib.sha256(data).hexdigest() for rel, data in outputs.items()}
    files.update({"root:" + rel: hashlib.sha256(data).hexdigest() for rel, data in docs.items()})
    try:
        state.parent.mkdir(parents=True, exist_ok=True)
        tmp = state.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"fingerprint": fingerprint(specs), "files": files}, sort_keys=True), "utf-8")
        os.replace(tmp, state)
    except OSError:
        pass
