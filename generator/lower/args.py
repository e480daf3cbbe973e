"""Lowering for generated/args.py: one TypedDict per distinct parameter set of each tool.

Handlers receive a call's arguments as a plain mapping; these TypedDicts let them be written
(and type-checked) against the exact keys and types the specs declare.

Naming rule (docs/handlers.md repeats it for users):

* A tool's base name is its id in CamelCase plus ``Args`` (``read_file`` -> ``ReadFileArgs``).
* Variants are grouped by parameter set (keys, required flags and types). The set most variants
  share (ties: the one met first in the tool's variant order) takes the base name; every other
  set takes the tool's CamelCase id, the CamelCase name of the first family using it, and
  ``Args`` (``ReadFileNativeNextGenArgs``). Variants with equal sets share one TypedDict.
* An object parameter with declared properties becomes a nested TypedDict named after its
  owner minus ``Args`` plus the member's CamelCase name (``NewTaskArgs`` + ``options`` ->
  ``NewTaskOptions``).
* A name already taken gets the smallest number from 2 up that makes it unique, before ``Args``
  (at the end of a nested name); one that cannot start a name gets an ``X`` in front. Names are
  handed out in enum order, so the result depends only on the specs.
* A key is required when its parameter is required and shown in every context (always_given).

Typed handlers: per tool, ``<Tool>Call`` is ``ToolUse[<its TypedDict>]`` (the union of the
tool's TypedDicts when its variants differ) and ``Handles<Tool>`` a Protocol whose ``execute``
takes that call; both names are claimed after every TypedDict's, by the same rule.

Every name is checked with ``str.isidentifier`` and against keywords before it names anything.
Keys that are not usable as class attributes (``-`` in a name, a keyword, or a name the module
binds itself) are emitted with the functional ``TypedDict("Name", {...})`` syntax instead.
"""

from __future__ import annotations

import dataclasses
import keyword
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..memo import Memo
from ..model import Catalog, Parameter, Tool, plain
from ..pyfmt import INDENT, LINE_LENGTH, Code, Layouts, flat, string
from ..render import header, render_python
from ..typelayout import Annotation, Sub, Union, assignment, class_header, field, functional

# Names args.py binds itself besides the TypedDicts: a key spelled like one cannot be a class
# attribute (its annotation would shadow the import inside the class body for type checkers).
MODULE_NAMES = frozenset(
    {
        "Any",
        "Literal",
        "NotRequired",
        "TypedDict",
        "ARGS",
        "ARGS_BY_TOOL",
        "args_type",
        "Awaitable",
        "Protocol",
        "ToolResult",
        "ToolUse",
        "HandlerResult",
    }
)
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}
# Where the TypedDicts go in the rendered skeleton.
MARKER = "# toolgen: the TypedDicts go here"
# Printable ASCII without backslash or double quote, no space at either end: a docstring as is.
_PLAIN_DOC = re.compile(r"(?:[\x21\x23-\x5b\x5d-\x7e](?:[\x20\x21\x23-\x5b\x5d-\x7e]*[\x21\x23-\x5b\x5d-\x7e])?)?")
_LITERAL_TYPES = ("string", "integer", "boolean")
_SCALARS = {"string": "str", "integer": "int", "number": "float", "boolean": "bool"}


@dataclass(frozen=True)
class Ann:
    """A field's type, for both targets: ``kind`` is literal, none, list, ref, dict, union or scalar.

    ``args`` holds the literal members, the item type, the referenced name, the value type of a
    map (none: any), the union's member types or the JSON type name.
    """

    kind: str
    args: tuple[Any, ...] = ()
    nullable: bool = False

    def python(self) -> Annotation:
        """The Python type expression (of validated names and pyfmt literals)."""
        node: Annotation
        if self.kind == "none":
            return "None"
        if self.kind == "literal":
            node = Sub("Literal", tuple(flat(v) for v in self.args))
        elif self.kind == "list":
            node = Sub("list", (self.args[0].python() if self.args else "Any",))
        elif self.kind == "ref":
            node = str(self.args[0])
        elif self.kind == "dict":
            node = Sub("dict", ("str", self.args[0].python() if self.args else "Any"))
        elif self.kind == "union":
            node = Union(tuple(member.python() for member in self.args))
        else:
            node = _SCALARS.get(str(self.args[0]), "Any")
        if not self.nullable:
            return node
        return Union((*node.options, "None")) if isinstance(node, Union) else Union((node, "None"))


def union(members: list[Ann], nullable: bool) -> Ann:
    """One type for several: members flattened and deduplicated; an ``Any`` member absorbs all."""
    flat_members: list[Ann] = []
    for member in members:
        nullable = nullable or member.nullable or member.kind == "none"
        inner = list(member.args) if member.kind == "union" else [member]
        for each in inner:
            plain_member = Ann(each.kind, each.args) if each.kind != "none" else None
            if plain_member is not None and plain_member not in flat_members:
                flat_members.append(plain_member)
    if any(m.kind == "scalar" and m.args[0] not in _SCALARS for m in flat_members):
        return Ann("scalar", ("any",), False)
    if not flat_members:
        return Ann("none")
    if len(flat_members) == 1:
        return Ann(flat_members[0].kind, flat_members[0].args, nullable)
    return Ann("union", tuple(flat_members), nullable)


@dataclass(frozen=True)
class Field:
    key: str
    annotation: Annotation  # a type expression of validated names and pyfmt literals
    required: bool
    doc: str | None  # a docstring literal (see docstring()), or None
    type: Ann
    text: str  # the doc as plain text
    deprecated: str | None = None  # the deprecation sentence (the text holds it too), for @deprecated


@dataclass(frozen=True)
class TypedDictDef:
    name: str
    doc: str
    fields: tuple[Field, ...]
    total: bool
    class_syntax: bool
    text: str  # the doc as plain text
    deprecated: str | None = None  # set when the tool is deprecated (args.ts marks the type)


@dataclass(frozen=True)
class HandlerDef:
    """One tool's typed-handler names: the call alias, the Protocol, the TypedDicts it takes."""

    tool: str
    call: str
    protocol: str
    args: tuple[str, ...]


@dataclass(frozen=True)
class ArgsPlan:
    """Every TypedDict in definition order (nested ones first), and which one each variant uses."""

    defs: tuple[TypedDictDef, ...]
    by_key: dict[str, str]
    """Spec key (``family/tool_id``) -> TypedDict name."""
    by_tool: dict[str, str]
    """Tool id -> the TypedDict most of its variants share."""
    handlers: tuple[HandlerDef, ...] = ()
    """Per tool with variants, in enum order: its typed-handler names."""


def camel(name: str) -> str:
    """CamelCase of an id: split at anything but letters and digits, capitalise each part."""
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^A-Za-z0-9]+", name) if part)


def usable(name: str) -> bool:
    """True when ``name`` can name a Python class or attribute."""
    return name.isidentifier() and not keyword.iskeyword(name)


def docstring(text: str) -> str:
    """A one-line triple-quoted literal holding ``text`` exactly, which black would leave unchanged.

    Quotes are escaped, a final one and edge spaces as ``\\x22`` and ``\\x20``, so black's docstring
    handling (which strips whitespace and pads a closing quote) has nothing to change.
    """
    if _PLAIN_DOC.fullmatch(text):
        return '"""' + text + '"""'  # nothing to escape: most docs
    return escaped_docstring(text)


def escaped_docstring(text: str) -> str:
    """:func:`docstring` character by character (any text; docstring's shortcut must agree with it)."""
    out = []
    for index, ch in enumerate(text):
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ch == " " and index in (0, len(text) - 1):
            out.append("\\x20")
        elif not ch.isprintable():
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
        else:
            out.append(ch)
    if text.endswith('"'):
        out[-1] = "\\x22"  # black would pad a closing quote with a space
    return '"""' + "".join(out) + '"""'


# One question a tool's planning asked of the names: ("claim", stem, suffix, name) or ("free", key, "", answer).
_Asked = tuple[str, str, str, "str | bool"]


class _Names:
    """Hands out unique class names in call order (see the module docstring's rule).

    While ``asked`` is a list, every question and its answer is recorded there: the taken names
    are all a tool's part of the plan depends on besides the tool, so another run may take that
    part as it is when the same questions get the same answers (``_replayed``).
    """

    def __init__(self) -> None:
        self.taken: set[str] = set(MODULE_NAMES)
        self.asked: list[_Asked] | None = None

    def claim(self, stem: str, suffix: str = "") -> str:
        asked = stem, suffix
        stem = stem if usable(stem + suffix) else "X" + stem  # an id starting with '_' or a digit part
        name, number = stem + suffix, 2
        while name in self.taken or not usable(name):
            name, number = f"{stem}{number}{suffix}", number + 1
        self.taken.add(name)
        if self.asked is not None:
            self.asked.append(("claim", *asked, name))
        return name

    def free(self, key: str) -> bool:
        """True when no class or module name is ``key``."""
        answer = key not in self.taken
        if self.asked is not None:
            self.asked.append(("free", key, "", answer))
        return answer


class _Builder:
    """Turns parameter schemas into TypedDict definitions, nested ones first."""

    def __init__(self) -> None:
        self.names = _Names()
        self.defs: list[TypedDictDef] = []

    def annotation(self, schema: Mapping[str, Any], owner: str, key: str) -> Annotation:
        """The Python type of a value schema (nested TypedDicts are defined on the way)."""
        return self.type_of(schema, owner, key).python()

    def type_of(self, schema: Mapping[str, Any], owner: str, key: str) -> Ann:
        """The type of a value schema, for either target (nested TypedDicts are defined on the way).

        A type list and anyOf/oneOf become a union of their members; allOf merges its object
        branches into one TypedDict (other branches only narrow the value, which a type cannot say).
        """
        schema = _merged_all_of(schema)
        declared = schema.get("type")
        names = list(declared) if isinstance(declared, (list, tuple)) else [declared] if declared else []
        nullable = bool(schema.get("nullable")) or "null" in names
        names = [n for n in names if n != "null"]
        branches = schema.get("anyOf") or schema.get("oneOf")
        if branches and not names:
            members = [self.type_of(b, owner, key) for b in branches]
            return union(members, nullable)
        if "const" in schema:
            values: Any = [schema["const"]]
        else:
            values = schema.get("enum")
        if values is not None:
            nullable = nullable or None in values
            members_v = tuple(v for v in values if v is not None)
            kinds = {type(v) for v in members_v}
            if kinds <= {str, int, bool} and not (kinds & {float}):  # Literal takes no floats, lists or dicts
                return Ann("literal", members_v, nullable) if members_v else Ann("none")
        if len(names) > 1:
            return union([self.type_of({**schema, "type": n}, owner, key) for n in names], nullable)
        type_name = str(names[0]) if names else "any"
        if type_name == "array":
            items = schema.get("items")
            return Ann("list", (self.type_of(items, owner, key),) if items else (), nullable)
        if type_name == "object":
            properties = schema.get("properties")
            if properties:
                stem = owner.removesuffix("Args") + camel(key)
                required = set(schema.get("required") or ())
                name = self.define(self.names.claim(stem), f"The {key!r} member of {owner}.", properties, required)
                return Ann("ref", (name,), nullable)
            extra = schema.get("additionalProperties")
            if isinstance(extra, Mapping):
                return Ann("dict", (self.type_of(extra, owner, key),), nullable)
            return Ann("dict", (), nullable)
        return Ann("scalar", (type_name,), nullable)

    def field(self, owner: str, key: str, schema: Mapping[str, Any], required: bool, doc: str) -> Field:
        ann = self.type_of(schema, owner, key)
        return Field(key, ann.python(), required, docstring(doc) if doc else None, ann, doc)

    def define(self, name: str, doc: str, members: Mapping[str, Any], required: set[str]) -> str:
        """Define a TypedDict for object members (name -> schema); returns its name."""
        fields = [self.field(name, k, s, k in required, str(s.get("description") or "")) for k, s in members.items()]
        return self.add(name, doc, fields)

    def parameters(self, name: str, doc: str, params: tuple[Parameter, ...], deprecated: str | None = None) -> str:
        """Define the TypedDict of a variant's parameters (instructions become field docstrings;
        a deprecated parameter's already ends with its deprecation sentence)."""
        fields = [
            dataclasses.replace(
                self.field(name, p.name, p.schema, always_given(p), plain(p.instruction)),
                deprecated=p.deprecated.text("parameter") if p.deprecated else None,
            )
            for p in params
        ]
        return self.add(name, doc if deprecated is None else f"{doc} {deprecated}", fields, deprecated)

    def add(self, name: str, doc: str, fields: list[Field], deprecated: str | None = None) -> str:
        total = any(f.required for f in fields)
        class_syntax = all(usable(f.key) and self.names.free(f.key) for f in fields)
        self.defs.append(TypedDictDef(name, docstring(doc), tuple(fields), total, class_syntax, doc, deprecated))
        return name


def _merged_all_of(schema: Mapping[str, Any]) -> Mapping[str, Any]:
    """``schema`` with its allOf branches folded in: properties and required members joined, the
    first type given kept (the validator checks every branch; a type shows the members)."""
    branches = schema.get("allOf")
    if not branches:
        return schema
    merged: dict[str, Any] = {k: v for k, v in schema.items() if k != "allOf"}
    properties = dict(merged.get("properties") or {})
    required = list(merged.get("required") or ())
    for branch in branches:
        branch = _merged_all_of(branch)
        properties.update(branch.get("properties") or {})
        required += [r for r in branch.get("required") or () if r not in required]
        for k, v in branch.items():
            if k not in ("properties", "required", "description"):
                merged.setdefault(k, v)
    if properties:
        merged["properties"] = properties
        merged["required"] = tuple(required)
    return merged


def always_given(param: Parameter) -> bool:
    """A required key of the TypedDict: required, and shown to the model in every context.

    A required parameter that depends on the context (``requires``) or on other tools
    (``dependencies``) is absent from calls made while it is hidden, so its key is NotRequired.
    """
    return param.required and param.requires is None and not param.dependencies


def signature(params: tuple[Parameter, ...]) -> tuple[Any, ...]:
    """What decides whether two variants share a TypedDict: names, required flags and schemas."""
    return tuple((p.name, always_given(p), repr(p.schema)) for p in params)


@dataclass(frozen=True)
class _ToolPart:
    """One tool's share of the plan, with the questions its planning asked of the names."""

    deprecated: object  # the tool's deprecation, which the docs hold
    asked: tuple[_Asked, ...]
    defs: tuple[TypedDictDef, ...]
    by_key: tuple[tuple[str, str], ...]
    primary: str
    takes: tuple[str, ...]


def plan(catalog: Catalog, memo: Memo | None = None) -> ArgsPlan:
    """The TypedDicts of the catalog and their names, by the naming rule of the module docstring.

    With a ``memo`` (``generate --watch``), an unchanged tool's part of the last plan is taken
    again when the names it claimed are still its own (a renamed or new tool may take one).
    """
    builder = _Builder()
    by_key: dict[str, str] = {}
    by_tool: dict[str, str] = {}
    takes: dict[str, list[str]] = {}
    for tool in catalog.tools:
        if not tool.variants:
            continue
        before = memo.peek((tool.variants,), "args") if memo is not None else None
        if isinstance(before, _ToolPart) and before.deprecated == tool.deprecated and _replayed(builder, before):
            part = before
        else:
            part = _tool_part(builder, tool)
        if memo is not None:
            memo.put((tool.variants,), part, "args")
        by_key.update(part.by_key)
        by_tool[tool.id] = part.primary
        takes[tool.id] = list(part.takes)
    handlers = tuple(
        HandlerDef(
            tool_id,
            builder.names.claim(camel(tool_id), "Call"),
            builder.names.claim("Handles" + camel(tool_id)),
            tuple(args),
        )
        for tool_id, args in takes.items()
    )
    return ArgsPlan(tuple(builder.defs), by_key, by_tool, handlers)


def _replayed(builder: _Builder, part: _ToolPart) -> bool:
    """Claim ``part``'s names again; when every question gets its old answer, add its definitions
    and say True, else give back what was claimed and say False."""
    claimed: list[str] = []
    for kind, first, second, answer in part.asked:
        if kind == "claim":
            got: str | bool = builder.names.claim(first, second)
            claimed.append(str(got))
        else:
            got = builder.names.free(first)
        if got != answer:
            builder.names.taken.difference_update(claimed)
            return False
    builder.defs.extend(part.defs)
    return True


def _tool_part(builder: _Builder, tool: Tool) -> _ToolPart:
    """Plan one tool's TypedDicts (added to ``builder``), recording what was asked of the names."""
    start = len(builder.defs)
    builder.names.asked = []
    groups: dict[tuple[Any, ...], list[str]] = {}
    for variant in tool.variants:
        groups.setdefault(signature(variant.parameters), []).append(variant.family)
    counts = Counter({sig: len(families) for sig, families in groups.items()})
    primary = max(groups, key=lambda sig: counts[sig])  # max keeps the first of equal counts
    base = camel(tool.id)
    names: dict[tuple[Any, ...], str] = {}
    for sig in [primary, *(s for s in groups if s != primary)]:
        families = groups[sig]
        stem = base if sig == primary else base + camel(families[0])
        name = builder.names.claim(stem, "Args")
        variant = next(v for v in tool.variants if v.family == families[0])
        listed = ", ".join(families)
        deprecated = tool.deprecated.text("tool") if tool.deprecated else None
        doc = f"Arguments of {tool.id} for {listed}."
        names[sig] = builder.parameters(name, doc, variant.parameters, deprecated)
    asked, builder.names.asked = tuple(builder.names.asked), None
    return _ToolPart(
        tool.deprecated,
        asked,
        tuple(builder.defs[start:]),
        tuple((variant.key, names[signature(variant.parameters)]) for variant in tool.variants),
        names[primary],
        tuple(names.values()),
    )


def emit(catalog: Catalog, memo: Memo | None = None, layouts: Layouts | None = None) -> dict[str, str]:
    planned = plan(catalog, memo)
    by_key, by_tool = planned.by_key, planned.by_tool
    root = catalog.project.source.split("/", 1)[0]
    skeleton = render_python(
        "args.py.j2",
        header((f"{root}/tools/*.yaml", f"{root}/variants/*.yaml", f"{root}/parameters.yaml")),
        layouts,
        names=[d.name for d in planned.defs]
        + [name for h in planned.handlers for name in (h.call, h.protocol)],
        marker=MARKER,
        by_key={key: Code(by_key[key]) for key in sorted(by_key)},
        by_tool={t: Code(by_tool[t]) for t in catalog.project.tool_order if t in by_tool},
    )
    before, after = re.split(rf"\n+{re.escape(MARKER)}\n+", skeleton)
    handlers = (handler_source(h) for h in planned.handlers)
    parts = [before, *(definition_source(d) for d in planned.defs), *handlers, after]
    return {"args.py": "\n\n\n".join(parts)}


def definition_source(definition: TypedDictDef) -> str:
    """One TypedDict's source, laid out as black would (typelayout handles lines that do not fit)."""
    annotations = [
        f.annotation if f.required or not definition.total else Sub("NotRequired", (f.annotation,))
        for f in definition.fields
    ]
    if not definition.class_syntax:  # the functional syntax has no per-key docstrings
        entries = tuple((string(f.key), a) for f, a in zip(definition.fields, annotations, strict=True))
        call = functional(definition.name, (string(definition.name),), entries, f"total={definition.total}")
        return f"{call}\n{definition.doc}"
    bases = "TypedDict" if definition.total else "TypedDict, total=False"
    lines = [class_header(definition.name, bases), INDENT + definition.doc]
    for each, annotation in zip(definition.fields, annotations, strict=True):
        lines += ["", field(each.key, annotation)]
        if each.doc:
            lines.append(INDENT + each.doc)
    return "\n".join(lines)


def handler_source(handler: HandlerDef) -> str:
    """A tool's call alias and handler Protocol, laid out as black would."""
    taken: Annotation = handler.args[0] if len(handler.args) == 1 else Union(handler.args)
    alias = assignment(handler.call, Sub("ToolUse", (taken,)))
    doc = docstring(f"A call of {handler.tool}, its arguments checked by an Offer.")
    head = f"{INDENT}def execute("
    params = f"self, config: Any, block: {handler.call}, /"
    tail = ") -> HandlerResult: ..."
    if len(head + params + tail) <= LINE_LENGTH:
        method = head + params + tail
    elif len(INDENT * 2 + params) <= LINE_LENGTH:
        method = f"{head}\n{INDENT * 2}{params}\n{INDENT}{tail}"
    else:
        each = "".join(f"{INDENT * 2}{p},\n" for p in params.split(", "))
        method = f"{head}\n{each}{INDENT}{tail}"
    text = f"A handler of {handler.tool}: ``execute`` gets its calls with typed arguments."
    protocol = "\n".join(
        [class_header(handler.protocol, "Protocol"), INDENT + docstring(text), "", method]
    )
    return f"{alias}\n{doc}\n\n\n{protocol}"
