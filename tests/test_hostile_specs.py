"""Hostile spec trees and output folders: each must end with exit 2 and a located error, never 123 or a hang.

The table cases run for generate, check and validate alike (the fast path's fingerprint reads the
specs before the pipeline does, so it meets every case too), and generated/ must be untouched.
"""

from __future__ import annotations

import errno
import io
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from conftest import FIXTURE_SPECS, ROOT, copy_specs, edit, read_tree, run_cli
from generator.diagnostics import Diagnostics
from generator.load import load_file
from generator.runtime.schema_common import MAX_NESTING, nesting_depth

COMMANDS = ("generate", "check", "validate")
ASK = "tools/ask.yaml"  # 13 lines: text appended to it starts on line 14
TODO = "tools/todo.yaml"  # 12 lines, ending inside the first parameter of the 'native' variant


def append(rel: str, text: str) -> Callable[[Path, pytest.MonkeyPatch], None]:
    def build(specs: Path, _: pytest.MonkeyPatch) -> None:
        with open(specs / rel, "a", encoding="utf-8") as handle:
            handle.write(text)

    return build


def replace(rel: str, make: Callable[[Path], None]) -> Callable[[Path, pytest.MonkeyPatch], None]:
    """Remove ``rel`` (file or folder) and let ``make`` put something else at its path."""

    def build(specs: Path, _: pytest.MonkeyPatch) -> None:
        path = specs / rel
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        elif os.path.lexists(path):
            path.unlink()
        make(path)

    return build


def add(rel: str, make: Callable[[Path], None]) -> Callable[[Path, pytest.MonkeyPatch], None]:
    return lambda specs, _: make(specs / rel)


def folder(path: Path) -> None:
    path.mkdir()


def fifo(path: Path) -> None:
    os.mkfifo(path)


def dangling(path: Path) -> None:
    path.symlink_to("nowhere.yaml")


def loop(path: Path) -> None:
    path.symlink_to(path.name)


def plain_file(path: Path) -> None:
    path.write_text("not a folder\n", "utf-8")


def huge(path: Path) -> None:
    with open(path, "wb") as handle:  # sparse: 50 MB on paper, nothing written
        handle.truncate(50 * 1024 * 1024)


def unreadable(rel: str) -> Callable[[Path, pytest.MonkeyPatch], None]:
    """chmod 000; as root (who reads it anyway) opening or listing it is made to fail as for a user."""

    def build(specs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        path = specs / rel
        path.chmod(0)
        if os.geteuid() != 0:
            return
        for name in ("open", "scandir"):
            real = getattr(os, name)

            def refusing(target=".", *args, real=real, **kwargs):  # type: ignore[no-untyped-def]
                if isinstance(target, (str, os.PathLike)) and os.path.abspath(target) == str(path):
                    raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(target))
                return real(target, *args, **kwargs)

            monkeypatch.setattr(os, name, refusing)

    return build


def deep_flow_items(levels: int) -> str:
    """A parameter schema with ``levels`` nested ``items`` mappings, on one line."""
    return "        items: " + "{type: array, items: " * levels + "{type: string}" + "}" * levels + "\n"


def deep_block_properties(levels: int) -> str:
    """A parameter schema with ``levels`` nested object properties, in block style (two mappings per level)."""
    lines, indent = [], "        "
    for _ in range(levels):
        lines += [f"{indent}type: object", f"{indent}properties:", f"{indent}  p:"]
        indent += "    "
    return "\n".join(lines + [f"{indent}type: string"]) + "\n"


def alias_bomb() -> str:
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 9)]
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Case:
    id: str
    build: Callable[[Path, pytest.MonkeyPatch], None]
    where: str  # path:line:col of the error, as printed
    code: str
    message: str  # a part of the message


# Nesting: the file's root mapping is level 1; in todo.yaml the parameter mapping is level 5.
# Flow: the n-th nested 'items' mapping is level 5 + n, so the 96th is the first past MAX_NESTING
# (100); on the appended line 13 it starts at column 16 + 21 * 95 = 2011. Block: each property
# adds two mappings ('properties' and 'p'), so the 48th 'p' value is level 101; it starts on
# line 13 + 3 * 48 = 157 at column 8 + 4 * 48 + 1 = 201.
# fmt: off
CASES = [
    Case("tag-int", append(ASK, "x: !!int abc\n"),
         "specs/tools/ask.yaml:14:4", "E107", "'abc' is not a valid int for the tag !!int"),
    Case("tag-float", append(ASK, "x: !!float abc\n"),
         "specs/tools/ask.yaml:14:4", "E107", "'abc' is not a valid float"),
    Case("tag-bool", append(ASK, "x: !!bool maybe\n"),
         "specs/tools/ask.yaml:14:4", "E107", "'maybe' is not a valid bool"),
    Case("tag-null", append(ASK, "x: !!null maybe\n"),
         "specs/tools/ask.yaml:14:4", "E107", "'maybe' is not a valid null"),
    Case("tag-seq-on-mapping", append(ASK, "x: !!seq {a: 1}\n"),
         "specs/tools/ask.yaml:14:4", "E107", "a mapping cannot carry the tag !!seq"),
    Case("int-looking-hex", append(ASK, "x: 0x_\n"),
         "specs/tools/ask.yaml:14:4", "E107", "'0x_' is not a valid int (it looks like one)"),
    Case("int-4301-digits", append(ASK, "x: " + "1" * 4301 + "\n"),
         "specs/tools/ask.yaml:14:4", "E108", "more than 4300 digits"),
    Case("int-hex-4335-digits", append(ASK, "x: 0x" + "f" * 3600 + "\n"),
         "specs/tools/ask.yaml:14:4", "E108", "more than 4300 digits"),
    Case("int-sexagesimal", append(ASK, "x: 1" + ":59" * 50_000 + "\n"),
         "specs/tools/ask.yaml:14:4", "E108", "more than 4300 digits"),
    Case("python-tag", append(ASK, "x: !!python/object/apply:os.system [id]\n"),
         "specs/tools/ask.yaml:14:4", "E102", "unsupported YAML tag"),
    Case("schema-150-deep-flow", append(TODO, deep_flow_items(150)),
         "specs/tools/todo.yaml:13:2011", "E109", "nested more than 100 deep"),
    Case("schema-200-deep-block", append(TODO, deep_block_properties(100)),
         "specs/tools/todo.yaml:157:201", "E109", "nested more than 100 deep"),
    Case("flow-1000-deep", append(ASK, "x: " + "[" * 1000 + "]" * 1000 + "\n"),
         "specs/tools/ask.yaml:14:103", "E109", "nested more than 100 deep"),
    Case("alias-bomb", append(ASK, alias_bomb()),
         "specs/tools/ask.yaml:1:1", "E105", "more than 50000 nodes"),
    Case("alias-text-bomb", append(ASK, "big: &big " + "x" * 70_000 + "\nmany: [" + "*big, " * 70 + "]\n"),
         "specs/tools/ask.yaml:1:1", "E105", "characters of text"),
    Case("recursive-alias", append(ASK, "x: &x [1, *x]\n"),
         "specs/tools/ask.yaml:14:4", "E105", "recursive alias"),
    Case("merge-key", append(ASK, "base: &b {k: 1}\nchild:\n  <<: *b\n"),
         "specs/tools/ask.yaml:16:3", "E103", "merge keys"),
    Case("duplicate-key", append(ASK, "id: again\n"),
         "specs/tools/ask.yaml:14:1", "E101", "duplicate key 'id'"),
    Case("nul-byte", append(ASK, "x: a\0b\n"),
         "specs/tools/ask.yaml:14:5", "E100", "character U+0000 is not allowed"),
    Case("escape-byte", append(ASK, "x: a\x1bb\n"),
         "specs/tools/ask.yaml:14:5", "E100", "character U+001B is not allowed"),
    Case("invalid-utf8", lambda specs, _: (specs / ASK).write_bytes((specs / ASK).read_bytes() + b"x: \xff\n"),
         "specs/tools/ask.yaml:14:4", "E100", "not valid UTF-8"),
    Case("50-MB-file", replace(ASK, huge),
         "specs/tools/ask.yaml:1:1", "E100", "larger than 4194304 bytes"),
    Case("tools-is-a-file", replace("tools", plain_file),
         "specs/tools:1:1", "E106", "tools is a file, not a folder"),
    Case("variants-is-a-loop", replace("variants", loop),
         "specs/variants:1:1", "E106", "variants is a symlink loop"),
    Case("tools-unreadable", unreadable("tools"),
         "specs/tools:1:1", "E100", "cannot read folder: Permission denied"),
    Case("specs-unreadable", unreadable("."),
         "specs:1:1", "E100", "cannot read folder: Permission denied"),
    Case("specs-missing", replace(".", lambda path: None),
         "specs:1:1", "E106", "spec folder does not exist"),
    Case("specs-is-a-file", replace(".", plain_file),
         "specs:1:1", "E106", "spec folder is a file, not a folder"),
    Case("specs-is-a-loop", replace(".", loop),
         "specs:1:1", "E106", "spec folder is a symlink loop"),
]
# fmt: on
# Something other than a readable regular file where a spec file is expected: a new tools/ or
# variants/ entry, or in place of toolgen.yaml / parameters.yaml.
NOT_A_FILE = [
    (folder, "is a folder, not a spec file"),
    (fifo, "is a named pipe (FIFO), not a spec file"),
    (dangling, "is a symlink to a file that does not exist"),
    (loop, "is a symlink loop"),
]
CASES += [
    Case(
        f"{rel}-{make.__name__}",
        (add if rel.endswith("zz.yaml") else replace)(rel, make),
        f"specs/{rel}:1:1",
        "E106",
        message,
    )
    for rel in ("tools/zz.yaml", "variants/zz.yaml", "toolgen.yaml", "parameters.yaml")
    for make, message in NOT_A_FILE
]
CASES += [
    Case(f"{rel}-unreadable", unreadable(rel), f"specs/{rel}:1:1", "E100", "cannot read file: Permission denied")
    for rel in (ASK, "variants/generic.yaml", "toolgen.yaml", "parameters.yaml")
]


@pytest.fixture
def workspace(tmp_path: Path, fixture_output: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A copy of the fixture specs and of their generated/ (up to date), with a private cache."""
    monkeypatch.setenv("TOOLGEN_CACHE_DIR", str(tmp_path / "cache"))
    specs = copy_specs(FIXTURE_SPECS, tmp_path)
    out = tmp_path / "generated"
    shutil.copytree(fixture_output, out)
    return specs, out


def leftovers(out: Path) -> list[str]:
    return sorted(p.name for p in out.parent.iterdir() if p.name.startswith(f".{out.name}.toolgen"))


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
def test_hostile_spec_is_a_located_error(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    workspace: tuple[Path, Path],
    case: Case,
    command: str,
) -> None:
    specs, out = workspace
    before = read_tree(out)
    case.build(specs, monkeypatch)
    rc, _, err = run_cli(capsys, command, "--specs", specs, "--out", out)
    assert rc == 2, err
    assert re.search(
        rf"^{re.escape(case.where)}: error\[{case.code}\]: [^\n]*{re.escape(case.message)}", err, re.M
    ), err
    assert re.search(r"^  hint: \S", err, re.M)
    assert read_tree(out) == before and leftovers(out) == []


def test_nesting_limit_matches_nesting_depth(specs: Path) -> None:
    """Exactly MAX_NESTING levels load (and nesting_depth agrees); one more is E109."""
    path = specs / "deep.yaml"
    for levels, codes in ((MAX_NESTING, []), (MAX_NESTING + 1, ["E109"])):
        path.write_text("[" * levels + "]" * levels + "\n", "utf-8")
        diags = Diagnostics()
        source = load_file(path, "specs/deep.yaml", diags)
        assert [d.code for d in diags.items] == codes
        if not codes:
            assert nesting_depth(source.data) == MAX_NESTING


def test_aliases_cannot_nest_past_the_limit(specs: Path) -> None:
    path = specs / "deep.yaml"
    half = MAX_NESTING // 2 + 1
    path.write_text(f"a: &a {'[' * half}{']' * half}\nb: &b {'[' * half}*a{']' * half}\n", "utf-8")
    diags = Diagnostics()
    assert load_file(path, "specs/deep.yaml", diags).data is None
    assert [d.code for d in diags.items] == ["E109"]


def test_broken_spec_after_a_cached_run_is_not_served_from_the_cache(
    capsys: pytest.CaptureFixture[str], workspace: tuple[Path, Path]
) -> None:
    specs, out = workspace
    assert run_cli(capsys, "generate", "--specs", specs, "--out", out)[0] == 0  # records the run
    (specs / ASK).unlink()
    os.mkfifo(specs / ASK)
    rc, _, err = run_cli(capsys, "generate", "--specs", specs, "--out", out)
    assert rc == 2 and "specs/tools/ask.yaml:1:1: error[E106]: is a named pipe (FIFO)" in err, err


def test_hidden_files_are_not_specs(capsys: pytest.CaptureFixture[str], workspace: tuple[Path, Path]) -> None:
    """Editor leftovers: Emacs' lock file is a dangling symlink, vim's swap file is binary."""
    specs, out = workspace
    (specs / "tools" / ".#ask.yaml").symlink_to("user@host.1234:1700000000")
    (specs / "variants" / ".generic.yaml.swp.yaml").write_bytes(b"\0\xff")
    for command in COMMANDS:
        rc, _, err = run_cli(capsys, command, "--specs", specs, "--out", out)
        assert rc == 0 and "error" not in err and "warning" not in err, err


def test_byte_order_mark_is_accepted(capsys: pytest.CaptureFixture[str], specs: Path) -> None:
    path = specs / ASK
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    rc, _, err = run_cli(capsys, "validate", "--specs", specs)
    assert (rc, err) == (0, "")  # no W200: the modeline after the BOM is found


def test_spec_symlinked_from_outside_is_read_and_named_by_its_link(
    capsys: pytest.CaptureFixture[str], specs: Path, tmp_path: Path
) -> None:
    """A spec file may be a symlink (to anywhere); diagnostics name the link inside specs/, never the target."""
    outside = tmp_path / "elsewhere" / "ask.yaml"
    outside.parent.mkdir()
    shutil.move(specs / ASK, outside)
    (specs / ASK).symlink_to(outside)
    assert run_cli(capsys, "validate", "--specs", specs)[0] == 0
    with open(outside, "a", encoding="utf-8") as handle:
        handle.write("x: 1\n")
    rc, _, err = run_cli(capsys, "validate", "--specs", specs)
    assert rc == 2 and err.startswith("specs/tools/ask.yaml:14:1: error[E210]") and "elsewhere" not in err, err


# -- file names with control characters -------------------------------------------------------

FORGED = "x\ntoolgen.yaml:1:1: error[E999]: forged\x1b[2K.yaml"  # no "/": not allowed in a name


@pytest.mark.parametrize("fmt", ["text", "github", "json"])
def test_control_characters_in_a_file_name_cannot_forge_lines(
    capsys: pytest.CaptureFixture[str], specs: Path, fmt: str
) -> None:
    (specs / "tools" / FORGED).write_text("id: [\n", "utf-8")
    rc, out, err = run_cli(capsys, "validate", "--specs", specs, "--error-format", fmt)
    assert rc == 2
    printed = err if fmt == "text" else out
    assert "\x1b" not in printed
    if fmt == "text":
        assert not any(line.startswith("toolgen.yaml") for line in printed.splitlines())
        assert "specs/tools/x\\ntoolgen.yaml:1:1: error[E999]: forged\\x1b[2K.yaml:2:1: error[E100]" in printed
    elif fmt == "github":
        assert all(line.startswith("::") for line in printed.splitlines())
    else:
        paths = [item["path"] for item in json.loads(printed)]
        assert f"specs/tools/{FORGED}" in paths


# -- the output folder --------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["generate", "check"])
def test_out_below_a_regular_file(
    capsys: pytest.CaptureFixture[str], workspace: tuple[Path, Path], command: str
) -> None:
    specs, out = workspace
    blocker = out.parent / "somefile"
    blocker.write_text("x\n", "utf-8")
    rc, _, err = run_cli(capsys, command, "--specs", specs, "--out", blocker / "generated")
    assert rc == 2
    assert err.startswith(  # named from the current directory, the project root
        "somefile/generated: error[E404]: cannot create the output folder:"
        " somefile is a file, not a folder\n  hint: "
    ), err
    assert blocker.read_text("utf-8") == "x\n"


def _refuse_writes_below(monkeypatch: pytest.MonkeyPatch, root: Path, error: int) -> None:
    """Make every call that would change something below ``root`` fail with ``error``, as a read-only
    file system (EROFS) or a folder the user may not write (EACCES) does; root ignores permissions,
    so this is how the test runs on CI."""

    def inside(path: object) -> bool:
        return isinstance(path, (str, bytes, os.PathLike)) and os.path.abspath(os.fsdecode(path)).startswith(str(root))

    def refuse(name: str, real: Callable, *, writes: Callable[..., bool] = lambda *a, **k: True) -> None:
        def patched(*args, **kwargs):  # type: ignore[no-untyped-def]
            if any(inside(a) for a in args[:2]) and writes(*args, **kwargs):
                raise OSError(error, os.strerror(error), os.fsdecode(args[0]))
            return real(*args, **kwargs)

        monkeypatch.setattr(os, name, patched)

    for name in ("mkdir", "rename", "replace", "link", "symlink", "unlink", "remove", "rmdir", "chmod", "utime"):
        refuse(name, getattr(os, name))
    write_flags = os.O_WRONLY | os.O_RDWR | os.O_CREAT
    refuse("open", os.open, writes=lambda path, flags, *a, **k: bool(flags & write_flags))
    real_open = io.open

    def open_for_reading(file, mode="r", *args, **kwargs):  # type: ignore[no-untyped-def]
        if inside(file) and any(ch in mode for ch in "wax+"):
            raise OSError(error, os.strerror(error), os.fsdecode(file))
        return real_open(file, mode, *args, **kwargs)

    monkeypatch.setattr(io, "open", open_for_reading)
    monkeypatch.setattr("builtins.open", open_for_reading)


@pytest.mark.parametrize(
    "error,reason,hint",
    [
        (errno.EROFS, "Read-only file system", "the file system is read-only"),
        (errno.EACCES, "Permission denied", "make the folder writable"),
    ],
)
def test_read_only_output_location(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    workspace: tuple[Path, Path],
    error: int,
    reason: str,
    hint: str,
) -> None:
    specs, out = workspace
    edit(specs / ASK, "Ask the user a question.", "Ask something.")  # so that generate has to write
    before = read_tree(out)
    _refuse_writes_below(monkeypatch, out.parent, error)
    rc, _, err = run_cli(capsys, "generate", "--specs", specs, "--out", out)
    monkeypatch.undo()
    assert rc == 2
    assert re.match(
        rf"{out.name}: error\[E404\]: cannot write the output folder: {reason}: \S+\n  hint: {hint}", err
    ), err
    assert read_tree(out) == before and leftovers(out) == []
    # check only reads: it still reports the drift on a read-only tree
    _refuse_writes_below(monkeypatch, out.parent, error)
    assert run_cli(capsys, "check", "--specs", specs, "--out", out)[0] == 1


def test_disk_full_while_writing(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, workspace: tuple[Path, Path]
) -> None:
    specs, out = workspace
    edit(specs / ASK, "Ask the user a question.", "Ask something.")  # so that generate has to write
    before = read_tree(out)

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    rc, _, err = run_cli(capsys, "generate", "--specs", specs, "--out", out)
    monkeypatch.undo()
    assert rc == 2 and "error[E404]: cannot write the output folder: No space left on device" in err, err
    assert "hint: free some disk space" in err
    assert read_tree(out) == before and leftovers(out) == []


def test_docs_folder_not_writable(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, workspace: tuple[Path, Path]
) -> None:
    specs, out = workspace
    edit(specs / ASK, "Ask the user a question.", "Ask something.")  # so that generate has to write
    _refuse_writes_below(monkeypatch, specs.parent / "docs", errno.EROFS)
    rc, _, err = run_cli(capsys, "generate", "--specs", specs, "--out", out)
    monkeypatch.undo()
    assert rc == 2 and err.startswith("docs/catalog.md: error[E405]: cannot write: Read-only file system"), err


# -- missing dependencies -----------------------------------------------------------------------

HIDE = textwrap.dedent("""
    import importlib.abc, os, sys

    class Hide(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.partition(".")[0] == os.environ["HIDDEN_MODULE"]:
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            return None

    sys.meta_path.insert(0, Hide())
    """)


@pytest.mark.parametrize(
    "module,package", [("jinja2", "jinja2"), ("yaml", "pyyaml"), ("jsonschema", "jsonschema")]
)
@pytest.mark.parametrize("entry", ["python -m generator", "toolgen"])
def test_missing_dependency_is_named_with_the_install_command(
    tmp_path: Path, module: str, package: str, entry: str
) -> None:
    """A sitecustomize hides one dependency from a fresh interpreter, as if it were not installed.

    jsonschema is imported only to report a file the compiled check refused: a spec has an error here."""
    if entry == "toolgen":
        script = Path(sys.executable).with_name("toolgen")
        if not script.exists():
            pytest.skip(f"no toolgen console script next to {sys.executable} (toolgen is not installed in this venv)")
        command = [str(script)]
    else:
        command = [sys.executable, "-m", "generator"]
    done = _generate_hiding(tmp_path, module, command, broken=module == "jsonschema")
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(f"toolgen: error: the Python package {package!r} is not installed"), done.stderr
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr
    assert "make venv" in done.stderr and "pip install -e ." in done.stderr and f"pip install {package}" in done.stderr
    assert not (tmp_path / "generated").exists()


def test_generation_works_without_black(tmp_path: Path, fixture_output: Path) -> None:
    """black is a test tool, not a dependency: hidden from toolgen, the output is the same bytes."""
    done = _generate_hiding(tmp_path, "black", [sys.executable, "-m", "generator"])
    assert done.returncode == 0, done.stderr
    assert read_tree(tmp_path / "generated") == read_tree(fixture_output)


def _generate_hiding(
    tmp_path: Path, module: str, command: list[str], broken: bool = False
) -> subprocess.CompletedProcess[str]:
    """Generate the fixture specs (``broken``: with an unknown key in ask.yaml) in a fresh
    interpreter to which ``module`` seems not installed."""
    (tmp_path / "sitecustomize.py").write_text(HIDE, "utf-8")
    specs = copy_specs(FIXTURE_SPECS, tmp_path)
    if broken:
        with open(specs / ASK, "a", encoding="utf-8") as handle:
            handle.write("x: 1\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)]), "HIDDEN_MODULE": module}
    env.pop("TOOLGEN_DEBUG", None)
    env["TOOLGEN_CACHE_DIR"] = ""
    return subprocess.run(
        [*command, "generate", "--specs", str(specs), "--out", str(tmp_path / "generated")],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
    )


@pytest.mark.parametrize("broken", [False, True])
def test_without_the_compiled_schema_check_jsonschema_decides_alone(
    tmp_path: Path, fixture_output: Path, broken: bool
) -> None:
    """jsonschema-rs only makes the meta-schema check fast: without it the same output, the same errors."""
    done = _generate_hiding(tmp_path, "jsonschema_rs", [sys.executable, "-m", "generator"], broken)
    if broken:
        assert done.returncode == 2, done.stderr
        assert "specs/tools/ask.yaml:14:1: error[E210]: unknown key 'x' in top level" in done.stderr
    else:
        assert done.returncode == 0, done.stderr
        assert read_tree(tmp_path / "generated") == read_tree(fixture_output)


def test_show_on_an_incomplete_generated_package(
    capsys: pytest.CaptureFixture[str], workspace: tuple[Path, Path]
) -> None:
    """A generated module deleted by hand is not mistaken for a missing dependency, nor an internal error."""

    def forget_package() -> None:  # show caches the imported package under this name
        for name in [m for m in sys.modules if m.partition(".")[0] == "_toolgen_generated"]:
            del sys.modules[name]

    _, out = workspace
    (out / "ids.py").unlink()
    forget_package()
    try:
        rc, _, err = run_cli(capsys, "show", "family", "--out", out)
    finally:
        forget_package()
    assert rc == 2 and "is not a complete generated package" in err and "run `toolgen generate` again" in err, err
