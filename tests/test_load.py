"""The YAML loader: positions, duplicate keys, alias bombs, merge keys, tags, encodings, syntax errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.diagnostics import Diagnostics
from generator.load import MAX_NODES, load_file


def load(tmp_path: Path, content: str | bytes):
    path = tmp_path / "f.yaml"
    if isinstance(content, str):
        path.write_text(content, "utf-8")
    else:
        path.write_bytes(content)
    diags = Diagnostics()
    source = load_file(path, "specs/f.yaml", diags)
    return source, [(d.code, d.location.line, d.location.col, d.message) for d in diags.sorted()]


def test_plain_data_and_positions(tmp_path: Path) -> None:
    source, diags = load(tmp_path, "# c\na: 1\nb:\n  - x\n  - {c: true, d: null}\ne: 2001-12-14\n")
    assert diags == []
    assert source.data == {"a": 1, "b": ["x", {"c": True, "d": None}], "e": "2001-12-14"}
    assert source.first_line == "# c"
    assert source.positions[("a",)] == (2, 4)
    assert source.positions[("b", 1, "d")] == (5, 18)
    assert source.key_positions[("b", 1, "d")] == (5, 15)
    assert source.loc(("b", 1, "missing")).line == 5
    assert (source.loc(("nope",)).line, source.loc(("nope",)).col) == (2, 1)


def test_duplicate_keys(tmp_path: Path) -> None:
    source, diags = load(tmp_path, "a: 1\nb:\n  x: 1\n  x: 2\na: 3\n")
    assert diags == [
        ("E101", 4, 3, "duplicate key 'x' (first defined on line 3)"),
        ("E101", 5, 1, "duplicate key 'a' (first defined on line 1)"),
    ]
    assert source.data == {"a": 1, "b": {"x": 1}}  # first one wins


def test_duplicate_keys_that_differ_only_in_quoting(tmp_path: Path) -> None:
    _, diags = load(tmp_path, "a: 1\n'a': 2\n")
    assert [d[:3] for d in diags] == [("E101", 2, 1)]


def test_billion_laughs_fails_with_e105(tmp_path: Path) -> None:
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, 12):
        lines.append(f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]")
    source, diags = load(tmp_path, "\n".join(lines) + "\n")
    assert [d[:3] for d in diags] == [("E105", 1, 1)]
    assert str(MAX_NODES) in diags[0][3]
    assert source.data is None


def test_small_aliases_are_fine(tmp_path: Path) -> None:
    source, diags = load(tmp_path, "a: &x hello\nb: *x\n")
    assert diags == [] and source.data == {"a": "hello", "b": "hello"}


def test_recursive_alias_is_refused(tmp_path: Path) -> None:
    source, diags = load(tmp_path, "a: &x [1, *x]\n")
    assert [d[0] for d in diags] == ["E105"]
    assert source.data is None


def test_deep_nesting_is_refused_without_recursion_error(tmp_path: Path) -> None:
    source, diags = load(tmp_path, "a: " + "[" * 20000 + "]" * 20000 + "\n")
    assert [d[0] for d in diags] == ["E109"]
    assert "nested more than" in diags[0][3]
    assert source.data is None


def test_merge_keys_refused(tmp_path: Path) -> None:
    source, diags = load(tmp_path, "base: &b {x: 1}\nchild:\n  <<: *b\n  y: 2\n")
    assert diags == [
        (
            "E103",
            3,
            3,
            "YAML merge keys ('<<') are not supported",
        )
    ]
    assert source.data["child"] == {"y": 2}


@pytest.mark.parametrize(
    "text,tag,line,col",
    [
        ("a: !!python/object/apply:os.system ['echo hi']\n", "tag:yaml.org,2002:python/object/apply:os.system", 1, 4),
        ("a: !!python/name:os.system x\n", "tag:yaml.org,2002:python/name:os.system", 1, 4),
        ("a: !custom x\n", "!custom", 1, 4),
        ("a: !!binary aGVsbG8=\n", "tag:yaml.org,2002:binary", 1, 4),
        ("a:\n  b: !!set {x, y}\n", "tag:yaml.org,2002:set", 2, 6),
        ("a: !!omap [{x: 1}]\n", "tag:yaml.org,2002:omap", 1, 4),
        ("a: !!python/object:builtins.dict {x: 1}\n", "tag:yaml.org,2002:python/object:builtins.dict", 1, 4),
    ],
)
def test_non_json_tags_refused(tmp_path: Path, text: str, tag: str, line: int, col: int) -> None:
    _, diags = load(tmp_path, text)
    assert diags == [("E102", line, col, f"unsupported YAML tag {tag!r}")]


def test_standard_tags_allowed(tmp_path: Path) -> None:
    source, diags = load(tmp_path, "a: !!str 1\nb: !!int '2'\nc: !!map {x: !!seq [1]}\nd: !!null ''\n")
    assert diags == []
    assert source.data == {"a": "1", "b": 2, "c": {"x": [1]}, "d": None}


def test_complex_key_refused(tmp_path: Path) -> None:
    _, diags = load(tmp_path, "? [a, b]\n: 1\nc: 2\n")
    assert [d[:3] for d in diags] == [("E104", 1, 3)]


def test_invalid_utf8(tmp_path: Path) -> None:
    source, diags = load(tmp_path, b"a: 1\nb: \xc3\x28\n")
    assert diags == [("E100", 2, 4, "file is not valid UTF-8 (byte 8)")]
    assert source.data is None


def test_utf8_non_ascii_kept(tmp_path: Path) -> None:
    source, diags = load(tmp_path, "a: caf\u00e9 \U0001f600\n")
    assert diags == [] and source.data == {"a": "caf\u00e9 \U0001f600"}


@pytest.mark.parametrize(
    "text,line,col",
    [
        ("a: [1, 2\nb: 3\n", 2, 2),
        ("a: b\n  c: d\n", 2, 4),
        ("a: 'unterminated\n", 2, 1),
        ("a:\n\t- b\n", 2, 1),
    ],
)
def test_yaml_syntax_error_location(tmp_path: Path, text: str, line: int, col: int) -> None:
    source, diags = load(tmp_path, text)
    assert [d[:3] for d in diags] == [("E100", line, col)]
    assert diags[0][3].startswith("YAML syntax error: ")
    assert source.data is None


def test_empty_and_comment_only_files_have_no_data(tmp_path: Path) -> None:
    source, diags = load(tmp_path, "# only a comment\n")
    assert diags == [] and source.data is None


def test_unreadable_path(tmp_path: Path) -> None:
    diags = Diagnostics()
    source = load_file(tmp_path / "missing.yaml", "specs/missing.yaml", diags)
    assert source.data is None
    assert [d.code for d in diags.items] == ["E100"]
    assert "cannot read file" in diags.items[0].message


def test_multiple_documents_refused(tmp_path: Path) -> None:
    _source, diags = load(tmp_path, "a: 1\n---\nb: 2\n")
    assert [d[0] for d in diags] == ["E100"]
    assert diags[0][1] == 2
