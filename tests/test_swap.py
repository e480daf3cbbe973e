"""The output swap under kill -9: at every step the path names a complete tree, and the next run recovers.

Each crash test runs ``toolgen generate`` in a subprocess with TOOLGEN_TEST_CRASH_AT=<step>, so
the writer kills itself (SIGKILL) at that step; whatever is on disk afterwards is exactly what a
reader saw at that instant. The fallback (two renames) is run by disabling the exchange in the
subprocess, as on a platform without RENAME_EXCHANGE.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import io
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from conftest import FIXTURE_SPECS, copy_specs, edit, run_cli
from generator import swap, write

pytestmark = pytest.mark.skipif(os.name != "posix", reason="kills with SIGKILL and makes symlinks")

Tree = dict[str, tuple[str, bytes]]


def _exchange_works() -> bool:
    """Whether this OS and the temp filesystem (where tmp_path lives) can exchange two folders."""
    with tempfile.TemporaryDirectory() as tmp:
        a, b = Path(tmp, "a"), Path(tmp, "b")
        a.mkdir()
        b.mkdir()
        return swap._exchange(a, b)


HAS_EXCHANGE = _exchange_works()
MODES = ["exchange", "fallback"] if HAS_EXCHANGE else ["fallback"]
BEFORE_SWAP = ("staging", "carried", "file", "staged")  # the old tree is still at the path
OLD_TEXT, NEW_TEXT = "Ask the user a question.", "Ask the user something."

# Runs the CLI; "fallback" as first argument disables the atomic exchange, as on macOS or Windows.
BOOT = (
    "import sys\n"
    "from generator import cli, swap\n"
    "if sys.argv[1] == 'fallback':\n"
    "    swap._exchange = lambda a, b: False\n"
    "sys.exit(cli.main(sys.argv[2:]))\n"
)


def snapshot(root: Path) -> Tree | None:
    """Every entry below ``root`` without following symlinks (None when ``root`` is missing)."""
    if not os.path.lexists(root):
        return None
    tree: Tree = {}
    for directory, dirs, files in os.walk(root):
        for name in dirs + files:
            path = Path(directory, name)
            rel = path.relative_to(root).as_posix()
            if path.is_symlink():
                tree[rel] = ("link", os.readlink(path).encode())
            elif path.is_dir():
                tree[rel] = ("dir", b"")
            else:
                tree[rel] = ("file", path.read_bytes())
    return tree


def leftovers(out: Path) -> list[str]:
    return sorted(p.name for p in out.parent.iterdir() if p.name.startswith(f".{out.name}.toolgen"))


FOREIGN = ("notes.txt", "link_to_ids.py", "empty")


def add_foreign_entries(out: Path) -> None:
    """What a user keeps in generated/ (FOREIGN): carried over by every swap."""
    (out / "notes.txt").write_bytes(b"mine\n")
    (out / "link_to_ids.py").symlink_to("ids.py")
    (out / "empty").mkdir()


def crash(specs: Path, out: Path, step: str, mode: str) -> int:
    """Run generate until it kills itself at ``step``; returns the exit status (-9 when killed)."""
    env = {**os.environ, write.CRASH_AT: step, "TOOLGEN_CACHE_DIR": str(out.parent / "cache")}
    args = ["generate", "--specs", str(specs), "--out", str(out)]
    proc = subprocess.run([sys.executable, "-c", BOOT, mode, *args], env=env, cwd=out.parent, capture_output=True)
    return proc.returncode


def quiet_generate(specs: Path, out: Path) -> None:
    from generator.cli import main

    with contextlib.redirect_stderr(io.StringIO()) as err:
        assert main(["generate", "--specs", str(specs), "--out", str(out)]) == 0, err.getvalue()


@pytest.fixture(scope="module")
def trees(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Tree, Tree]:
    """Made once: a folder with the old tree (foreign entries included) and the specs already
    edited, the old tree, and the tree a successful generate then makes (made in a copy)."""
    base = tmp_path_factory.mktemp("swap")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TOOLGEN_CACHE_DIR", "")
        specs = copy_specs(FIXTURE_SPECS, base)
        quiet_generate(specs, base / "generated")
        add_foreign_entries(base / "generated")
        edit(specs / "tools/ask.yaml", OLD_TEXT, NEW_TEXT)
        reference = tmp_path_factory.mktemp("swap-reference")
        shutil.copytree(base, reference, symlinks=True, dirs_exist_ok=True)
        quiet_generate(reference / "specs", reference / "generated")
    old, new = snapshot(base / "generated"), snapshot(reference / "generated")
    assert old is not None and new is not None and old != new
    return base, old, new


@pytest.fixture
def scene(trees, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A private copy of ``trees`` (or only its specs): (specs, out, old tree or None, new tree)."""
    monkeypatch.setenv("TOOLGEN_CACHE_DIR", str(tmp_path / "cache"))
    base, old, new = trees

    def make(with_old_tree: bool) -> tuple[Path, Path, Tree | None, Tree]:
        shutil.copytree(base / "specs", tmp_path / "specs")
        if with_old_tree:
            shutil.copytree(base / "generated", tmp_path / "generated", symlinks=True)
            shutil.copytree(base / "docs", tmp_path / "docs")
            return tmp_path / "specs", tmp_path / "generated", old, new
        return tmp_path / "specs", tmp_path / "generated", None, {k: v for k, v in new.items() if k not in FOREIGN}

    return make


def assert_recovers(capsys, specs: Path, out: Path, new: Tree) -> None:
    """The next generate finishes the job, check passes and nothing is left beside --out."""
    rc, _, err = run_cli(capsys, "generate", "--specs", specs, "--out", out)
    assert rc == 0, err
    assert snapshot(out) == new
    assert run_cli(capsys, "check", "--specs", specs, "--out", out)[0] == 0
    assert leftovers(out) == []


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("step", write.CRASH_STEPS)
def test_kill_at_each_step_of_an_update(capsys, scene, mode: str, step: str) -> None:
    specs, out, old, new = scene(with_old_tree=True)
    if step == "aside" and mode == "exchange":
        assert crash(specs, out, step, mode) == 0  # never reached: there is no "aside" with an exchange
        assert snapshot(out) == new
        return
    assert crash(specs, out, step, mode) == -signal.SIGKILL
    if step == "aside":  # the fallback's documented gap: no tree at the path, the old one beside it
        assert snapshot(out) is None
        assert snapshot(out.with_name(".generated.toolgen-old")) == old
    else:
        assert snapshot(out) == (old if step in BEFORE_SWAP else new)
    assert_recovers(capsys, specs, out, new)


@pytest.mark.parametrize("step", ["staged", "swapped"])  # the steps before and after the one rename
def test_kill_during_a_first_generate(capsys, scene, step: str) -> None:
    specs, out, old, new = scene(with_old_tree=False)
    assert old is None
    assert crash(specs, out, step, MODES[0]) == -signal.SIGKILL
    assert snapshot(out) == (None if step in BEFORE_SWAP else new)
    assert_recovers(capsys, specs, out, new)


def test_cached_run_does_not_skip_the_cleanup(capsys, scene) -> None:
    """The fast path would find the output up to date; what the killed run left must still go."""
    specs, out, _, new = scene(with_old_tree=True)
    assert run_cli(capsys, "generate", "--specs", specs, "--out", out)[0] == 0  # recorded in the cache
    with open(out / "ids.py", "ab") as handle:
        handle.write(b"# tweak\n")  # a hand edit the next run restores
    assert crash(specs, out, "swapped", MODES[0]) == -signal.SIGKILL
    assert snapshot(out) == new and leftovers(out)
    assert_recovers(capsys, specs, out, new)


@pytest.mark.skipif(not HAS_EXCHANGE, reason="no RENAME_EXCHANGE here")
def test_exchange_swaps_two_folders_and_reports_real_errors(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    (a / "in_a").touch()
    assert swap._exchange(a, b)
    assert os.listdir(b) == ["in_a"] and os.listdir(a) == []
    with pytest.raises(FileNotFoundError):
        swap._exchange(a, tmp_path / "missing")


@pytest.mark.parametrize("code", [errno.EINVAL, errno.EPERM])
def test_filesystem_without_exchange_falls_back(capsys, scene, monkeypatch: pytest.MonkeyPatch, code: int) -> None:
    """renameat2 exists but the filesystem (EINVAL, e.g. NFS) or a sandbox (EPERM) refuses: two renames are used."""

    def unsupported(*args: object) -> int:
        ctypes.set_errno(code)
        return -1

    specs, out, _, new = scene(with_old_tree=True)
    monkeypatch.setattr(swap, "_renameat2", lambda: unsupported)
    assert not swap._exchange(out, out)
    assert_recovers(capsys, specs, out, new)


Look = tuple[list[str], list[str], bytes, bytes]


def _read_at(folder: int, name: str) -> bytes:
    fd = os.open(name, os.O_RDONLY, dir_fd=folder)
    with os.fdopen(fd, "rb") as handle:
        return handle.read()


def look(out: Path) -> Look | None:
    """One look through one handle on the folder: its names, prompts/ names, manifest and a module.

    Raises when no folder is at the path, or an entry is missing from the one that is. None when
    the folder was swapped out during the look: toolgen deletes a retired tree right after the
    swap, so a look that straddles a swap can find it half deleted. The guarantee is about what
    the path names, and a folder that is still at the path after the look was there throughout
    (a retired tree never comes back).
    """
    folder = os.open(out, os.O_RDONLY | os.O_DIRECTORY)
    try:
        try:
            prompts = os.open("prompts", os.O_RDONLY | os.O_DIRECTORY, dir_fd=folder)
            try:
                prompt_names = sorted(os.listdir(prompts))
            finally:
                os.close(prompts)
            seen = (
                sorted(os.listdir(folder)),
                prompt_names,
                _read_at(folder, write.MANIFEST),
                _read_at(folder, "catalog_data.py"),
            )
        except FileNotFoundError:
            seen = None
        if not os.path.samestat(os.fstat(folder), os.stat(out)):
            return None
        assert seen is not None, "an entry is missing from the tree at the path"
        return seen
    finally:
        os.close(folder)


@pytest.mark.skipif(not HAS_EXCHANGE, reason="the two-rename fallback has a gap (docs/writing.md)")
def test_concurrent_reader_always_sees_a_complete_tree(capsys, scene) -> None:
    """A reader polling the folder while generate swaps it back and forth never finds it missing or partial."""
    specs, out, _, _ = scene(with_old_tree=True)
    assert run_cli(capsys, "generate", "--specs", specs, "--out", out)[0] == 0
    names, prompt_names = sorted(os.listdir(out)), sorted(os.listdir(out / "prompts"))
    manifest_b, data_b = (out / write.MANIFEST).read_bytes(), (out / "catalog_data.py").read_bytes()
    edit(specs / "tools/ask.yaml", NEW_TEXT, OLD_TEXT)
    assert run_cli(capsys, "generate", "--specs", specs, "--out", out)[0] == 0
    manifests = {manifest_b, (out / write.MANIFEST).read_bytes()}
    datas = {data_b, (out / "catalog_data.py").read_bytes()}
    assert sorted(os.listdir(out)) == names and len(manifests) == len(datas) == 2
    # the writer flips the spec back and forth and generates each time (6 swaps)
    writer_code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from generator import cli\n"
        "spec, texts = Path(sys.argv[1]), sys.argv[3:5]\n"
        "print('ready', flush=True)\n"
        "for turn in range(6):\n"
        "    old, new = texts[turn % 2], texts[1 - turn % 2]\n"
        "    spec.write_text(spec.read_text('utf-8').replace(old, new), 'utf-8')\n"
        "    if cli.main(['generate', '--specs', str(spec.parent.parent), '--out', sys.argv[2]]) != 0:\n"
        "        sys.exit(1)\n"
    )
    args = [str(specs / "tools/ask.yaml"), str(out), OLD_TEXT, NEW_TEXT]
    env = {**os.environ, "TOOLGEN_CACHE_DIR": ""}
    with subprocess.Popen(
        [sys.executable, "-c", writer_code, *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    ) as writer:
        assert writer.stdout is not None and writer.stdout.readline() == b"ready\n"
        seen: set[bytes] = set()
        looks = retired = 0
        while looks < 2_000_000:  # a bound, not a timing: the writer normally ends long before
            if writer.poll() is not None:
                break
            looks += 1
            for _ in range(50):  # quick probes of the path alone, between the slower looks
                assert stat.S_ISDIR(os.stat(out).st_mode)
            result = look(out)
            if result is None:
                retired += 1
                continue
            assert result[:2] == (names, prompt_names)
            assert result[2] in manifests and result[3] in datas  # never empty or cut short
            seen.add(result[2])
        assert writer.wait() == 0
    assert seen == manifests  # the reader really ran across swaps
    assert retired <= 6 < looks  # at most one look straddles each swap
    assert leftovers(out) == []
