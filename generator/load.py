"""Stage 1: read YAML safely into plain data, remembering where every node came from.

PyYAML's composer gives a node graph with marks; we construct plain Python values from it
ourselves so that we can (a) keep a line/column for every path, (b) reject duplicate keys,
(c) bound alias expansion (billion laughs) and nesting (MAX_NESTING, before anything that
recurses sees the data) and (d) refuse tags other than the JSON ones, and values that do not
fit their tag. Files are read with specfiles.read_spec_bytes (regular files only, size-capped).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .diagnostics import Diagnostics, Location
from .runtime.schema_common import MAX_NESTING
from .specfiles import MAX_FILE_BYTES, SpecFileError, read_spec_bytes

# A spec file is a few hundred nodes; this is generous for hand-written YAML and stops alias bombs early.
MAX_NODES = 50_000
# Without aliases a file's scalars hold fewer characters than its bytes, so this only stops alias
# expansion that multiplies a long string (many references to one large anchor).
MAX_TEXT_CHARS = MAX_FILE_BYTES
# The longest integer literal accepted: Python's default limit for decimal int conversion. Applied
# to every integer form: a sexagesimal ('1:30:...') one this long would take minutes to convert.
MAX_INT_DIGITS = 4300
_INT_BOUND = 10**MAX_INT_DIGITS  # the smallest integer with more digits: str() of it would raise

PathKey = tuple[str | int, ...]

# libyaml's parser when available (several times faster); both give the same nodes and marks.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

_TAG = "tag:yaml.org,2002:"
_SCALAR_TAGS = {_TAG + name for name in ("str", "int", "float", "bool", "null", "timestamp")}
_NULLS = ("", "~", "null", "Null", "NULL")
# Scalars kept as their text: strings, and dates (as the author wrote them).
_TEXT_TAGS = {_TAG + "str", _TAG + "timestamp"}
_COLLECTION_TAGS: dict[type[yaml.Node], str] = {yaml.SequenceNode: _TAG + "seq", yaml.MappingNode: _TAG + "map"}
_UNSUPPORTED_HINT = "use plain strings, numbers, booleans, null, lists and mappings only"
_NESTING_HINT = (
    f"nest lists and mappings at most {MAX_NESTING} deep: flatten the structure, "
    "or describe the deep part in a description instead of a schema"
)


@dataclass
class SourceFile:
    """One loaded file: its data plus the position of every value (and every mapping key)."""

    path: str
    data: Any = None
    positions: dict[PathKey, tuple[int, int]] = field(default_factory=dict)
    key_positions: dict[PathKey, tuple[int, int]] = field(default_factory=dict)
    first_line: str = ""
    text: str = ""
    """The file's text (after a byte order mark), for columns inside a value."""

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

    def loc_in_string(self, path: PathKey, offset: int) -> Location:
        """Where character ``offset`` of the string value at ``path`` is, when the scalar is written
        on one line in a form that maps characters one to one (plain, single-quoted, double-quoted
        without escapes before it); the value's own location otherwise."""
        start = self.loc(path)
        if path not in self.positions or start.line < 1:
            return start
        lines = self.text.split("\n")
        line = lines[start.line - 1] if start.line <= len(lines) else ""
        rest = line[start.col - 1 :]
        quote = rest[:1]
        if quote not in ("'", '"'):
            column = start.col + offset
        else:
            column = start.col + 1
            i, seen = 1, 0
            while seen < offset and i < len(rest):
                if quote == '"' and rest[i] == "\\":
                    return start
                step = 2 if quote == "'" and rest[i : i + 2] == "''" else 1
                i, seen = i + step, seen + 1
            if seen < offset:
                return start
            column = start.col + i
        return Location(start.path, start.line, column)


class _Abort(Exception):
    """Stop building the file: the error is already recorded (alias bomb, too deep)."""


class _Builder:
    def __init__(self, source: SourceFile, diags: Diagnostics) -> None:
        self.source = source
        self.diags = diags
        self.count = 0
        self.chars = 0
        self.open: set[int] = set()  # ids of the collection nodes being built (to catch recursive aliases)
        self.constructor = yaml.constructor.SafeConstructor()

    def _abort(self, code: str, message: str, hint: str, loc: Location | None = None) -> _Abort:
        self.diags.error(loc or Location(self.source.path), code, message, hint)
        return _Abort()

    def build(self, node: yaml.Node, path: PathKey, depth: int = 0) -> Any:
        """Plain data for ``node``; ``depth`` counts the lists and mappings around it (as nesting_depth does)."""
        self.count += 1
        if self.count > MAX_NODES:
            raise self._abort(
                "E105",
                f"file expands to more than {MAX_NODES} nodes (alias expansion bomb?)",
                "remove the anchors/aliases that multiply content",
            )
        mark = node.start_mark
        self.source.positions[path] = (mark.line + 1, mark.column + 1)
        if isinstance(node, yaml.ScalarNode):
            return self._scalar(node, path)
        if depth >= MAX_NESTING:
            raise self._abort(
                "E109",
                f"lists and mappings nested more than {MAX_NESTING} deep",
                _NESTING_HINT,
                self.source.loc(path),
            )
        expected = _COLLECTION_TAGS.get(type(node))
        if node.tag != expected and node.tag in _COLLECTION_TAGS.values():
            self.diags.error(
                self.source.loc(path),
                "E107",
                f"a {'list' if expected == _TAG + 'seq' else 'mapping'} cannot carry the tag {_short(node.tag)}",
                f"remove the {_short(node.tag)} tag",
            )
        elif node.tag != expected:
            self.diags.error(self.source.loc(path), "E102", f"unsupported YAML tag {node.tag!r}", _UNSUPPORTED_HINT)
        if id(node) in self.open:
            raise self._abort(
                "E105",
                "an alias refers to a list or mapping that contains it (recursive alias)",
                "remove the alias; YAML values here must be finite trees",
                self.source.loc(path),
            )
        self.open.add(id(node))
        if isinstance(node, yaml.MappingNode):
            value: Any = self._mapping(node, path, depth + 1)
        else:
            value = [self.build(child, path + (i,), depth + 1) for i, child in enumerate(node.value)]
        self.open.discard(id(node))
        return value

    def _scalar(self, node: yaml.ScalarNode, path: PathKey) -> Any:
        self.chars += len(node.value)
        if self.chars > MAX_TEXT_CHARS:
            raise self._abort(
                "E105",
                f"file expands to more than {MAX_TEXT_CHARS} characters of text (alias expansion bomb?)",
                "remove the anchors/aliases that repeat long text",
            )
        if node.tag in _TEXT_TAGS:  # most scalars: the text is the value
            return node.value
        if node.tag not in _SCALAR_TAGS:
            self.diags.error(self.source.loc(path), "E102", f"unsupported YAML tag {node.tag!r}", _UNSUPPORTED_HINT)
            return node.value
        return self._construct(node, path)

    def _construct(self, node: yaml.ScalarNode, path: PathKey) -> Any:
        """The value of a str/int/float/bool/null scalar, or None with an error when it does not fit its tag."""
        kind = node.tag[len(_TAG) :]
        if kind == "int" and sum(ch.isalnum() for ch in node.value) > MAX_INT_DIGITS:
            return self._too_long(path)  # checked before converting: long sexagesimal text converts slowly
        if kind == "null" and node.value not in _NULLS:
            value: Any = _Unfit
        else:
            try:
                value = self.constructor.construct_object(node)
            except (ValueError, KeyError, TypeError, yaml.YAMLError):
                value = _Unfit
        if type(value) is int and abs(value) >= _INT_BOUND:  # e.g. a hex literal: shorter than its decimal text
            return self._too_long(path)
        if value is not _Unfit:
            return value
        explicit = bool(node.style) or _RESOLVER.resolve(yaml.ScalarNode, node.value, (True, False)) != node.tag
        self.diags.error(
            self.source.loc(path),
            "E107",
            f"{node.value[:80]!r} is not a valid {kind}"
            + (f" for the tag {_short(node.tag)}" if explicit else " (it looks like one)"),
            (
                f"remove the {_short(node.tag)} tag, or write a valid {kind}"
                if explicit
                else "quote it to keep it as text, or write a valid number"
            ),
        )
        return None

    def _too_long(self, path: PathKey) -> None:
        self.diags.error(
            self.source.loc(path),
            "E108",
            f"integer has more than {MAX_INT_DIGITS} digits",
            "quote it if it is meant as text; no schema needs a number this long",
        )
        return None

    def _mapping(self, node: yaml.MappingNode, path: PathKey, depth: int) -> dict[str, Any]:
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
            self.chars += len(key)
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
            result[key] = self.build(value_node, path + (key,), depth)
        return result


_Unfit = object()  # a scalar whose text does not fit its tag
_RESOLVER = yaml.resolver.Resolver()  # tells an explicit tag ('!!int abc') from an implicit one ('0x_')


def _short(tag: str) -> str:
    return "!!" + tag[len(_TAG) :] if tag.startswith(_TAG) else tag


def load_file(path: Path, display: str, diags: Diagnostics) -> SourceFile:
    """Load one YAML file; problems go to ``diags`` and the returned data is None on failure."""
    try:
        raw = read_spec_bytes(path)
    except SpecFileError as exc:
        diags.error(Location(display), exc.code, exc.message, exc.hint)
        return SourceFile(display)
    return load_bytes(raw, display, diags)


def load_bytes(raw: bytes, display: str, diags: Diagnostics) -> SourceFile:
    """Load one YAML file from its bytes (a file on disk, or a blob of an older git revision)."""
    source = SourceFile(display)
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
    text = text.removeprefix("\ufeff")  # a byte order mark is allowed; the modeline check looks past it
    source.first_line = text.split("\n", 1)[0]
    source.text = text
    node = _compose(text, display, diags)
    if node is None:
        return source
    try:
        source.data = _Builder(source, diags).build(node, ())
    except _Abort:
        source.data = None
    return source


def _compose(text: str, display: str, diags: Diagnostics) -> yaml.Node | None:
    """The document's node graph, or None (empty document, or an error recorded in ``diags``)."""
    try:
        return yaml.compose(text, Loader=_LOADER)
    except yaml.reader.ReaderError as exc:  # a character YAML does not allow (NUL, other control characters)
        offset = text.find(chr(exc.character)) if isinstance(exc.character, int) else -1
        line = text.count("\n", 0, offset) + 1 if offset >= 0 else 1
        col = offset - text.rfind("\n", 0, offset) if offset >= 0 else 1
        diags.error(
            Location(display, line, col),
            "E100",
            f"character U+{exc.character:04X} is not allowed in YAML" if isinstance(exc.character, int) else str(exc),
            'remove the character, or write it as an escape inside a double-quoted string (e.g. "\\x01")',
        )
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        loc = Location(display, mark.line + 1, mark.column + 1) if mark else Location(display)
        problem = exc.problem or exc.context or "invalid YAML"
        if "nesting depth" in problem:  # libyaml's own limit (1000 levels)
            _too_deep(text, display, diags)
        else:
            diags.error(loc, "E100", f"YAML syntax error: {problem}", "fix the YAML syntax at this position")
    except yaml.YAMLError as exc:
        diags.error(Location(display), "E100", f"YAML error: {exc}", "fix the YAML syntax")
    except RecursionError:  # the pure-Python composer recurses per level (no libyaml)
        _too_deep(text, display, diags)
    return None


def _too_deep(text: str, display: str, diags: Diagnostics) -> None:
    """E109 at the first list or mapping that crosses MAX_NESTING, found in the event stream (not recursive)."""
    depth = 0
    loc = Location(display)
    try:
        for event in yaml.parse(text, Loader=yaml.SafeLoader):  # libyaml may refuse before any event
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_NESTING:
                    mark = event.start_mark  # the parser marks every event; the stubs allow None
                    loc = Location(display, mark.line + 1, mark.column + 1) if mark else Location(display)
                    break
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    except yaml.YAMLError:
        pass  # the parser gave up first; the file is still too deep
    diags.error(loc, "E109", f"lists and mappings nested more than {MAX_NESTING} deep", _NESTING_HINT)
