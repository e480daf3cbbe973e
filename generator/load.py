"""Stage 1: read YAML safely into plain data, remembering where every node came from.

PyYAML's composer gives a node graph with marks; we construct plain Python values from it
ourselves so that we can (a) keep a line/column for every path, (b) reject duplicate keys,
(c) bound alias expansion (billion laughs) and (d) refuse tags other than the JSON ones.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .diagnostics import Diagnostics, Location

# A spec file is a few hundred nodes; this is generous for hand-written YAML and stops alias bombs early.
MAX_NODES = 50_000
MAX_FILE_BYTES = 4 * 1024 * 1024

PathKey = tuple[str | int, ...]

# libyaml's parser when available (several times faster); both give the same nodes and marks.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

_SCALAR_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:timestamp",
}

_COLLECTION_TAGS = {"tag:yaml.org,2002:seq", "tag:yaml.org,2002:map"}


@dataclass
class SourceFile:
    """One loaded file: its data plus the position of every value (and every mapping key)."""

    path: str
    data: Any = None
    positions: dict[PathKey, tuple[int, int]] = field(default_factory=dict)
    key_positions: dict[PathKey, tuple[int, int]] = field(default_factory=dict)
    first_line: str = ""

    def loc(self, path: PathKey = (), *, key: bool = False) -> Location:
        """The closest known location of ``path`` (walking up to the parent when needed)."""
        table = self.key_positions if key else self.positions
        probe = tuple(path)
        while True:
            if probe in table:
                line, col = table[probe]
                return Location(self.path, line, col)
            if key and probe in self.positions:
                line, col = self.positions[probe]
                return Location(self.path, line, col)
            if not probe:
                return Location(self.path, 1, 1)
            probe = probe[:-1]


class _Budget(Exception):
    pass


class _Builder:
    def __init__(self, source: SourceFile, diags: Diagnostics) -> None:
        self.source = source
        self.diags = diags
        self.count = 0
        self.constructor = yaml.constructor.SafeConstructor()

    def build(self, node: yaml.Node, path: PathKey) -> Any:
        self.count += 1
        if self.count > MAX_NODES:
            raise _Budget()
        mark = node.start_mark
        self.source.positions[path] = (mark.line + 1, mark.column + 1)
        if isinstance(node, yaml.ScalarNode):
            return self._scalar(node, path)
        if isinstance(node, (yaml.SequenceNode, yaml.MappingNode)) and node.tag not in _COLLECTION_TAGS:
            self.diags.error(
                self.source.loc(path),
                "E102",
                f"unsupported YAML tag {node.tag!r}",
                "use plain strings, numbers, booleans, null, lists and mappings only",
            )
        if isinstance(node, yaml.SequenceNode):
            return [self.build(child, path + (i,)) for i, child in enumerate(node.value)]
        if isinstance(node, yaml.MappingNode):
            return self._mapping(node, path)
        return None  # pragma: no cover - PyYAML has no other node kinds

    def _scalar(self, node: yaml.ScalarNode, path: PathKey) -> Any:
        if node.tag not in _SCALAR_TAGS:
            self.diags.error(
                self.source.loc(path),
                "E102",
                f"unsupported YAML tag {node.tag!r}",
                "use plain strings, numbers, booleans, null, lists and mappings only",
            )
            return node.value
        if node.tag == "tag:yaml.org,2002:timestamp":
            return node.value  # keep dates as the text the author wrote
        return self.constructor.construct_object(node)

    def _mapping(self, node: yaml.MappingNode, path: PathKey) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            key_mark = key_node.start_mark
            key_loc = Location(self.source.path, key_mark.line + 1, key_mark.column + 1)
            if key_node.tag == "tag:yaml.org,2002:merge":
                self.diags.error(
                    key_loc,
                    "E103",
                    "YAML merge keys ('<<') are not supported",
                    "write the keys out, or share a variant with 'extends:' / a parameter with 'use:'",
                )
                continue
            if not isinstance(key_node, yaml.ScalarNode):
                self.diags.error(key_loc, "E104", "mapping keys must be plain scalars", "quote the key")
                continue
            key = key_node.value
            if key in result:
                first = self.source.key_positions.get(path + (key,), (0, 0))
                self.diags.error(
                    key_loc,
                    "E101",
                    f"duplicate key {key!r} (first defined on line {first[0]})",
                    "remove or rename one of the two entries",
                )
                continue
            self.source.key_positions[path + (key,)] = (key_mark.line + 1, key_mark.column + 1)
            result[key] = self.build(value_node, path + (key,))
        return result


def load_file(path: Path, display: str, diags: Diagnostics) -> SourceFile:
    """Load one YAML file; problems go to ``diags`` and the returned data is None on failure."""
    source = SourceFile(display)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        diags.error(Location(display), "E100", f"cannot read file: {exc.strerror}", "check the path and permissions")
        return source
    if len(raw) > MAX_FILE_BYTES:
        diags.error(Location(display), "E100", f"file is larger than {MAX_FILE_BYTES} bytes", "split the spec")
        return source
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line_start = raw.rfind(b"\n", 0, exc.start) + 1
        col = len(raw[line_start : exc.start].decode("utf-8", "replace")) + 1
        diags.error(
            Location(display, raw.count(b"\n", 0, exc.start) + 1, col),
            "E100",
            f"file is not valid UTF-8 (byte {exc.start})",
            "save the file as UTF-8",
        )
        return source
    source.first_line = text.split("\n", 1)[0]
    try:
        node = yaml.compose(text, Loader=_LOADER)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        loc = Location(display, mark.line + 1, mark.column + 1) if mark else Location(display)
        problem = exc.problem or exc.context or "invalid YAML"
        diags.error(loc, "E100", f"YAML syntax error: {problem}", "fix the YAML syntax at this position")
        return source
    except yaml.YAMLError as exc:
        diags.error(Location(display), "E100", f"YAML error: {exc}", "fix the YAML syntax")
        return source
    except RecursionError:
        diags.error(Location(display), "E105", "YAML nesting is too deep", "flatten the document")
        return source
    if node is None:
        source.data = None
        return source
    builder = _Builder(source, diags)
    try:
        source.data = builder.build(node, ())
    except _Budget:
        diags.error(
            Location(display),
            "E105",
            f"file expands to more than {MAX_NODES} nodes (alias expansion bomb?)",
            "remove the anchors/aliases that multiply content",
        )
        source.data = None
    except RecursionError:
        diags.error(Location(display), "E105", "YAML nesting is too deep", "flatten the document")
        source.data = None
    return source
