"""The no-op fast path: it may make a run faster, never different."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import edit, run_cli
from generator import fastpath, pipeline


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("TOOLGEN_CACHE_DIR", str(folder))
    return folder


def _gen(capsys, specs: Path) -> tuple[int, str, str]:
    return run_cli(capsys, "generate", "--specs", specs, "--out", specs.parent / "generated")


def test_second_run_skips_the_pipeline(capsys, specs: Path, cache: Path, monkeypatch) -> None:
    assert _gen(capsys, specs)[0] == 0
    calls = []
    monkeypatch.setattr(pipeline, "run", lambda *a: calls.append(a))
    code, _, err = _gen(capsys, specs)
    assert (code, calls) == (0, [])
    assert "up to date" in err


def test_any_input_or_output_change_runs_the_pipeline(capsys, specs: Path, cache: Path) -> None:
    out = specs.parent / "generated"
    _gen(capsys, specs)
    docs = specs.parent / "docs" / "catalog.md"
    inputs = fastpath.fingerprint(specs)
    assert fastpath.up_to_date(specs, out, docs, inputs) is not None
    edit(specs / "tools/ask.yaml", "Ask the user a question.", "Ask something else.")
    assert fastpath.up_to_date(specs, out, docs, fastpath.fingerprint(specs)) is None
    edit(specs / "tools/ask.yaml", "Ask something else.", "Ask the user a question.")
    assert fastpath.up_to_date(specs, out, docs, fastpath.fingerprint(specs)) is not None
    (out / "ids.py").write_text("# edited\n", "utf-8")
    assert fastpath.up_to_date(specs, out, docs, inputs) is None
    code, _, _ = run_cli(capsys, "check", "--specs", specs, "--out", out)
    assert code == 1


def test_a_spec_saved_during_the_run_is_not_paired_with_old_output(
    capsys, specs: Path, cache: Path, monkeypatch
) -> None:
    out = specs.parent / "generated"
    real_run = pipeline.run

    def run_then_edit(path: Path, sink=None, *rest):  # the editor saves while the pipeline is running
        result = real_run(path, sink, *rest)
        edit(specs / "tools/ask.yaml", "Ask the user a question.", "Ask something else.")
        return result

    monkeypatch.setattr(pipeline, "run", run_then_edit)
    assert _gen(capsys, specs)[0] == 0
    monkeypatch.setattr(pipeline, "run", real_run)
    code, _, _ = run_cli(capsys, "check", "--specs", specs, "--out", out)
    assert code == 1  # stale: the cache must not vouch for the edited spec


def test_cached_runs_report_the_same_warnings(capsys, specs: Path, cache: Path) -> None:
    edit(specs / "tools/ask.yaml", "Ask the user a question.", "Ask the user a question. {{CWD}}")
    (specs / "extra.yml").write_text("x: 1\n", "utf-8")  # W201: ignored file
    first = _gen(capsys, specs)
    second = _gen(capsys, specs)
    assert "W201" in first[2]
    assert [line for line in first[2].splitlines() if "W201" in line] == [
        line for line in second[2].splitlines() if "W201" in line
    ]
    for fmt in ("github", "json"):
        full = run_cli(capsys, "validate", "--specs", specs, "--error-format", fmt)[1]
        cached = run_cli(capsys, "check", "--specs", specs, "--out", specs.parent / "generated", "--error-format", fmt)[
            1
        ]
        assert cached.strip() == full.strip()


def test_disabled_cache_always_runs(capsys, specs: Path, monkeypatch) -> None:
    monkeypatch.setenv("TOOLGEN_CACHE_DIR", "")
    _gen(capsys, specs)
    calls = []
    real_run = pipeline.run
    monkeypatch.setattr(pipeline, "run", lambda p, *rest: calls.append(p) or real_run(p, *rest))
    _gen(capsys, specs)
    assert len(calls) == 1


def test_another_docs_file_is_written_not_skipped(capsys, specs: Path, cache: Path) -> None:
    """The docs path is part of what a record covers: a cached run never skips a doc it did not write."""
    assert _gen(capsys, specs)[0] == 0
    elsewhere = specs.parent / "manual" / "tools.md"
    out = specs.parent / "generated"
    for flags in (["--no-docs"], ["--docs", str(elsewhere)]):
        code, _, err = run_cli(capsys, "generate", "--specs", specs, "--out", out, *flags)
        assert code == 0, err
    assert elsewhere.read_bytes() == (specs.parent / "docs" / "catalog.md").read_bytes()
    assert run_cli(capsys, "check", "--specs", specs, "--out", out, "--docs", elsewhere)[0] == 0
    elsewhere.write_text("edited\n", "utf-8")
    code, stdout, err = run_cli(capsys, "check", "--specs", specs, "--out", out, "--docs", elsewhere)
    assert code == 1 and "--- manual/tools.md is out of date" in stdout, err
    assert f"`toolgen generate --specs {specs} --out {out} --docs {elsewhere}`" in err


def test_a_process_fingerprints_the_generator_it_runs(
    specs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A generator file changed on disk under a running process (watch, the language server, an
    upgrade) must not enter that process's fingerprints: it still renders with the code it
    imported, and recording the new code's fingerprint beside the old code's output once made a
    later run with the new code say "up to date" over stale files."""
    source = tmp_path / "stand_in.py"
    source.write_text("VERSION = 1\n", "utf-8")
    monkeypatch.setattr(fastpath, "_generator_files", lambda: [("generator/stand_in.py", source)])
    fastpath._generator_digest.cache_clear()
    try:
        first = fastpath.fingerprint(specs)
        source.write_text("VERSION = 2\n", "utf-8")
        assert fastpath.fingerprint(specs) == first  # this process still runs VERSION = 1
        fastpath._generator_digest.cache_clear()  # a new process: it reads the new code
        assert fastpath.fingerprint(specs) != first
    finally:
        monkeypatch.undo()
        fastpath._generator_digest.cache_clear()
