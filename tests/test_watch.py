"""`toolgen generate --watch`, driven by a scripted clock: each sleep performs the test's next step."""

from __future__ import annotations

import os
import re
import signal
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from conftest import copy_specs, edit, read_tree, run_cli
from generator import cli, pipeline, watch

Step = Callable[[], None] | None
STATUS = re.compile(r"^\[(\d\d:\d\d:\d\d)\] (.*)$", re.MULTILINE)


class Script:
    """A fake clock: ``sleep`` runs the next step instead of waiting; the watch stops after the last."""

    def __init__(self, *steps: Step) -> None:
        self.steps = list(steps)
        self.seconds = 0.0
        self.sleeps = 0

    def clock(self) -> watch.Clock:
        return watch.Clock(monotonic=lambda: self.seconds, sleep=self.sleep, now=self.now)

    def sleep(self, seconds: float) -> None:
        self.seconds += seconds
        self.sleeps += 1
        step = self.steps.pop(0) if self.steps else None
        if step is not None:
            step()

    def now(self) -> datetime:
        return datetime(2026, 1, 2, 9, 30, 0) + timedelta(seconds=self.seconds)

    def done(self) -> bool:
        return not self.steps


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLGEN_CACHE_DIR", str(tmp_path / "cache"))


def _watch(specs: Path, out: Path, script: Script, *extra: str) -> int:
    args = cli._parser().parse_args(["generate", "--watch", "--specs", str(specs), "--out", str(out), *extra])
    return watch.run(args, clock=script.clock(), stop=script.done)


def _statuses(err: str) -> list[str]:
    return [m.group(2) for m in STATUS.finditer(err)]


def _rewrite(path: Path, old: str, new: str) -> Step:
    return lambda: edit(path, old, new)


def test_a_change_regenerates_a_broken_spec_keeps_the_output_and_a_fix_regenerates(
    specs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "generated"
    tool = specs / "tools" / "read_file.yaml"
    before: dict[str, bytes] = {}
    script = Script(
        _rewrite(tool, "Reads a file.", "Reads one file."),
        None,  # the tree holds still: the run starts
        lambda: before.update(read_tree(out)),
        _rewrite(tool, "    description: Reads one file.", "    description: [unclosed"),
        None,
        _rewrite(tool, "    description: [unclosed", "    description: Reads a single file."),
        None,
    )
    assert _watch(specs, out, script) == 0
    stdout, err = capsys.readouterr()
    statuses = _statuses(err)
    assert len(statuses) == 4, err
    assert re.fullmatch(r"generated \d+ files in 0\.00 s", statuses[0])
    assert re.fullmatch(r"generated [1-9]\d* files? in 0\.00 s", statuses[1])
    assert statuses[2] == "1 error in 0.00 s; the output was left as it was"
    assert re.fullmatch(r"generated [1-9]\d* files? in 0\.00 s", statuses[3])
    # the error's diagnostic follows its status line, naming the file
    broken = err[err.index(statuses[2]) :]
    assert re.search(r"specs/tools/read_file\.yaml:\d+:\d+: error\[E\d+\]", broken)
    assert "Reads one file." in before["anthropic.py"].decode()
    assert "Reads a single file." in (out / "anthropic.py").read_text("utf-8")
    assert "Traceback" not in err + stdout
    assert err.rstrip().endswith("toolgen: stopped watching")


def test_a_broken_spec_leaves_the_output_byte_for_byte(
    specs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "generated"
    assert run_cli(capsys, "generate", "--specs", specs, "--out", out)[0] == 0
    before = read_tree(out)
    script = Script(_rewrite(specs / "tools" / "ask.yaml", "id: ask", "id: [ask"), None)
    assert _watch(specs, out, script) == 0
    assert _statuses(capsys.readouterr().err)[1].startswith("1 error")
    assert read_tree(out) == before


def test_a_save_without_changes_takes_the_fast_path(
    specs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "generated"
    tool = specs / "tools" / "ask.yaml"

    def no_pipeline() -> None:
        def refuse(*_args: object, **_kwargs: object) -> None:
            raise AssertionError("the pipeline ran for an unchanged tree")

        monkeypatch.setattr(pipeline, "run", refuse)

    def touch() -> None:
        tool.write_bytes(tool.read_bytes())  # same bytes, new mtime
        stat = tool.stat()
        os.utime(tool, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))

    assert _watch(specs, out, Script(no_pipeline, touch, None)) == 0
    assert _statuses(capsys.readouterr().err)[1] == "up to date in 0.00 s"


def test_changes_in_quick_succession_cause_one_run(
    specs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tool = specs / "tools" / "read_file.yaml"
    script = Script(
        _rewrite(tool, "Reads a file.", "Reads a file!"),
        _rewrite(tool, "Reads a file!", "Reads a file!!"),  # saved again before the tree settled
        _rewrite(specs / "tools" / "ask.yaml", "id: ask\n", "id: ask\n# note\n"),
        None,
    )
    out = tmp_path / "generated"
    assert _watch(specs, out, script) == 0
    assert len(_statuses(capsys.readouterr().err)) == 2
    assert "Reads a file!!" in (out / "anthropic.py").read_text("utf-8")


def test_ctrl_c_while_waiting_exits_0_without_a_traceback(
    specs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def ctrl_c() -> None:
        raise KeyboardInterrupt

    assert _watch(specs, tmp_path / "generated", Script(ctrl_c, None)) == 0
    err = capsys.readouterr().err
    assert err.rstrip().endswith("toolgen: stopped watching")
    assert "Traceback" not in err


def test_ctrl_c_during_a_run_lets_the_run_finish(
    specs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "generated"

    def interrupted_run(args: object) -> int:
        os.kill(os.getpid(), signal.SIGINT)  # what Ctrl-C sends, in the middle of the run
        return cli.run_once(args)  # type: ignore[arg-type]

    args = cli._parser().parse_args(["generate", "--watch", "--specs", str(specs), "--out", str(out)])
    script = Script(None, None)
    assert watch.run(args, once=interrupted_run, clock=script.clock(), stop=script.done) == 0
    err = capsys.readouterr().err
    assert re.fullmatch(r"generated \d+ files in 0\.00 s", _statuses(err)[0])
    assert script.sleeps == 0  # stopped right after the run
    assert (out / "toolgen-manifest.json").is_file()
    assert "Traceback" not in err
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_the_status_line_time_comes_from_the_clock_and_never_reaches_the_output(
    specs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    watched, plain = tmp_path / "watched", tmp_path / "plain"
    script = Script(None, None, None)
    assert _watch(specs, watched, script) == 0
    stamps = [m.group(1) for m in STATUS.finditer(capsys.readouterr().err)]
    assert stamps == ["09:30:00"]
    assert run_cli(capsys, "generate", "--specs", specs, "--out", plain)[0] == 0
    assert read_tree(watched) == read_tree(plain)
    assert not any(b"09:30" in data for data in read_tree(watched).values())


def test_warnings_are_counted_and_shown_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from conftest import BUNDLED_SPECS  # its long descriptions give W501 warnings

    specs = copy_specs(BUNDLED_SPECS, tmp_path / "project")
    tool = specs / "tools" / "read_file.yaml"
    script = Script(_rewrite(tool, "Reads a file from", "Reads one file from"), None)
    assert _watch(specs, tmp_path / "project" / "generated", script) == 0
    err = capsys.readouterr().err
    statuses = _statuses(err)
    assert len(statuses) == 2
    assert all(s.endswith("(5 warnings)") for s in statuses), statuses
    assert err.count("warning[W501]") == 5  # the second run's are the same: not repeated


def test_github_error_format_counts_annotations(
    specs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(specs.parent)  # annotations name files from the current directory
    edit(specs / "tools" / "ask.yaml", "id: ask", "id: [ask")
    assert _watch(specs, tmp_path / "generated", Script(None), "--error-format", "github") == 0
    stdout, err = capsys.readouterr()
    assert _statuses(err) == ["1 error in 0.00 s; the output was left as it was"]
    assert stdout.startswith("::error file=specs/tools/ask.yaml,")


def test_the_cli_flag_runs_the_loop_and_ctrl_c_exits_0(
    specs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def ctrl_c(_seconds: float) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(watch, "SYSTEM_CLOCK", watch.Clock(sleep=ctrl_c))
    code, _, err = run_cli(capsys, "generate", "--watch", "--specs", specs, "--out", tmp_path / "generated")
    assert code == 0
    assert re.fullmatch(r"generated \d+ files in \d+\.\d\d s", _statuses(err)[0])
    assert "stopped watching" in err and "Traceback" not in err


@pytest.mark.parametrize("command", ["check", "validate"])
def test_watch_is_a_generate_option(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, command, "--watch")
    assert code == 2
    assert "unrecognized arguments: --watch" in err
