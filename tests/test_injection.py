"""Hostile spec text (tests/data/injection/corpus.json) is carried byte-exact; bad names are refused."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conftest import ROOT, edit, import_package, run_cli, submodule

CORPUS = json.loads((ROOT / "tests/data/injection/corpus.json").read_text("utf-8"))
NAME = re.compile(r"[a-zA-Z_][a-zA-Z0-9_-]{0,63}")
UPPER_PLACEHOLDER = re.compile(r"\{\{[A-Z][A-Z0-9_]*\}\}")


def entries(kind: str, expect: str) -> list[dict]:
    return [e for e in CORPUS if e["kind"] == kind and e["expect"] == expect]


def yq(text: str) -> str:
    """A YAML double-quoted scalar for any text (every non-printable-ASCII character escaped)."""
    out = []
    for ch in text:
        code = ord(ch)
        if ch in '"\\':
            out.append("\\" + ch)
        elif 0x20 <= code < 0x7F:
            out.append(ch)
        elif code < 0x10000:
            out.append(f"\\u{code:04x}")
        else:
            out.append(f"\\U{code:08x}")
    return '"' + "".join(out) + '"'


def test_corpus_follows_its_own_rules() -> None:
    ids = [e["id"] for e in CORPUS]
    assert len(ids) == len(set(ids))
    for entry in CORPUS:
        assert entry["id"].startswith(
            {"description": "desc-", "instruction": "instr-", "usage": "usage-", "name": "name-", "id": "id-"}[
                entry["kind"]
            ]
        )
        if entry["kind"] in ("name", "id"):
            assert (NAME.fullmatch(entry["value"]) is not None) == (entry["expect"] == "exact"), entry["id"]
        else:
            # Free text is rejected only when it uses the placeholder syntax with an undeclared name.
            assert (entry["expect"] == "reject") == bool(UPPER_PLACEHOLDER.search(entry["value"])), entry["id"]


def test_yaml_quoting_round_trips() -> None:
    import yaml

    for entry in CORPUS:
        assert yaml.safe_load(yq(entry["value"])) == entry["value"], entry["id"]


# Free text containing an undeclared {{NAME}} is refused with E306 (a typo guard), which the corpus
# says must not happen for free text; those entries are checked one by one below.
TEXTS = [e for e in CORPUS if e["kind"] in ("description", "instruction", "usage")]
BATCHABLE = [e for e in TEXTS if not UPPER_PLACEHOLDER.search(e["value"])]
PLACEHOLDER_TEXTS = [e for e in TEXTS if UPPER_PLACEHOLDER.search(e["value"])]


def _ask_yaml(tool_description: str, params: list[dict[str, str]]) -> str:
    lines = [
        "# yaml-language-server: $schema=../../generator/schemas/tool.schema.json",
        "id: ask",
        "handler: null",
        "variants:",
        "  generic:",
        f"    description: {yq(tool_description)}",
        "    parameters:",
    ]
    for param in params:
        lines.append(f"      - name: {yq(param['name'])}")
        for key in ("description", "instruction", "usage"):
            if key in param:
                lines.append(f"        {key}: {yq(param[key])}")
    return "\n".join(lines) + "\n"


def _generate_and_import(capsys, specs: Path):
    out = specs.parent / "generated"
    rc, _, err = run_cli(capsys, "generate", "--specs", specs, "--out", out)
    assert rc == 0, err
    return out, import_package(out)


def write_corpus_specs(specs: Path) -> tuple[str, list[dict[str, str]], list[str]]:
    """Put every exact text and name of the corpus into the fixture specs at ``specs`` (one tool, ask).

    Returns the tool description, the parameters written and the family ids added; the black
    judge (tests/test_black_judge.py) generates the same specs.
    """
    descriptions = [e["value"] for e in BATCHABLE if e["kind"] == "description"]
    instructions = [e["value"] for e in BATCHABLE if e["kind"] == "instruction"]
    usages = [e["value"] for e in BATCHABLE if e["kind"] == "usage"]
    names = [e["value"] for e in entries("name", "exact")]
    count = max(len(descriptions), len(instructions), len(usages), len(names))
    params = []
    for i in range(count):
        param = {"name": names[i] if i < len(names) else f"p{i}"}
        if i < len(descriptions):
            param["description"] = descriptions[i]
        param["instruction"] = instructions[i] if i < len(instructions) else "plain"
        params.append(param)
    # A usage example holding its own parameter's closing tag is refused (E321, see
    # test_hostile_values.py): each usage goes to the next parameter whose tag it does not hold.
    for i, usage in enumerate(usages):
        free = (params[k % count] for k in range(i, i + count))
        next(p for p in free if "usage" not in p and f"</{p['name']}>" not in usage)["usage"] = usage
    tool_description = descriptions[-1]
    (specs / "tools/ask.yaml").write_text(_ask_yaml(tool_description, params), "utf-8")
    exact_ids = [e["value"] for e in entries("id", "exact")]
    edit(specs / "toolgen.yaml", "  - native\n", "  - native\n" + "".join(f"  - {yq(v)}\n" for v in exact_ids))
    return tool_description, params, exact_ids


def test_exact_texts_and_names_survive(capsys, specs: Path) -> None:
    tool_description, params, exact_ids = write_corpus_specs(specs)
    count = len(params)
    out, package = _generate_and_import(capsys, specs)
    catalog = submodule(package, "catalog")
    spec = catalog.SPECS["generic/ask"]
    assert spec["description"] == (tool_description,)
    assert len(spec["parameters"]) == count
    for want, got in zip(params, spec["parameters"], strict=True):
        assert got["name"] == want["name"]
        assert got["description"] == ((want["description"],) if "description" in want else ())
        assert got["instruction"] == (want["instruction"],)
        assert got["usage"] == want.get("usage")
        # what the model sees: no template rendering, no placeholder games for non-placeholders
        assert catalog.resolve_text(got["instruction"], None) == want["instruction"]
    ids = submodule(package, "ids")
    assert [m.value for m in ids.Family][-len(exact_ids):] == exact_ids
    # the tool's text prompt carries the description verbatim
    prompts = (out / "prompts" / "generic.xml").read_bytes().decode("utf-8")
    assert tool_description in prompts
    # nothing executed: the payloads' marker files do not exist anywhere we can see
    assert not list(specs.parent.rglob("*pwned*"))
    assert not Path("/tmp/pwned").exists()
    assert sorted(p.name for p in specs.parent.iterdir()) == ["docs", "generated", "specs"]


@pytest.mark.parametrize("entry", PLACEHOLDER_TEXTS, ids=[e["id"] for e in PLACEHOLDER_TEXTS])
def test_undeclared_placeholder_text_is_rejected_with_location(capsys, specs: Path, entry: dict) -> None:
    param = {"name": "q", "instruction": entry["value"]}
    (specs / "tools/ask.yaml").write_text(_ask_yaml("Ask.", [param]), "utf-8")
    code, _, err = run_cli(capsys, "generate", "--specs", specs, "--out", specs.parent / "generated")
    assert code == 2
    assert re.search(r"^specs/tools/ask\.yaml:\d+:\d+: error\[E306\]: unknown placeholder", err, re.M), err
    assert "Traceback" not in err


def _located_errors(err: str) -> dict[int, list[str]]:
    found: dict[int, list[str]] = {}
    for match in re.finditer(r"^(specs/\S+?):(\d+):(\d+): error\[(E\d{3})\]", err, re.M):
        found.setdefault(int(match[2]), []).append(f"{match[1]} {match[4]}")
    return found


def test_rejected_names_and_ids(capsys, specs: Path) -> None:
    bad_names = entries("name", "reject")
    bad_ids = entries("id", "reject")
    params = [{"name": e["value"], "instruction": "x"} for e in bad_names]
    (specs / "tools/ask.yaml").write_text(_ask_yaml("Ask.", params), "utf-8")
    edit(specs / "toolgen.yaml", "  - native\n", "  - native\n" + "".join(f"  - {yq(e['value'])}\n" for e in bad_ids))
    out = specs.parent / "generated"
    rc, _stdout, err = run_cli(capsys, "generate", "--specs", specs, "--out", out)
    assert rc == 2
    assert "internal error" not in err and "Traceback" not in err
    assert not out.exists() and not (specs.parent / "docs").exists()
    errors = _located_errors(err)
    # parameter i sits on line 8 + 2 * i of ask.yaml; family j on line 13 + j of toolgen.yaml
    for i, entry in enumerate(bad_names):
        assert "specs/tools/ask.yaml E213" in errors.get(8 + 2 * i, []), (entry["id"], err)
    for j, entry in enumerate(bad_ids):
        assert "specs/toolgen.yaml E213" in errors.get(13 + j, []), (entry["id"], err)


def test_rejected_tool_id(capsys, specs: Path) -> None:
    for entry in entries("id", "reject")[:3]:
        (specs / "tools/ask.yaml").write_text(
            (specs / "tools/ask.yaml").read_text("utf-8").replace("id: ask", f"id: {yq(entry['value'])}", 1), "utf-8"
        )
        rc, _, err = run_cli(capsys, "validate", "--specs", specs)
        assert rc == 2
        assert re.search(r"^specs/tools/ask\.yaml:2:5: error\[E213\]: id: ", err, re.M), err
        (specs / "tools/ask.yaml").write_text(
            (specs / "tools/ask.yaml").read_text("utf-8").replace(f"id: {yq(entry['value'])}", "id: ask", 1), "utf-8"
        )
