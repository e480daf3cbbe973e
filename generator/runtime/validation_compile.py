"""Compiling a schema into runs: dialects, references, combinators, unevaluated keywords.

Standard library only; ts_runtime/validation_compile.ts compiles the same way. The schema is
made plain JSON once, indexed (schema_index), and compiled from its root: each schema object
once (memoised by identity, so recursive references close into a loop of closures instead of
recursing at compile time). A keyword is enforced, ignored as an annotation, or refused, as the
table in validation_keywords says; each refused place is collected and ``SchemaRefused`` lists
them all. ``$dynamicRef`` keeps a stack of the resources entered, and only schemas that use it
pay for that; ``unevaluated*`` collect the annotations of their neighbours only where they are.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .json_values import PlainProblem, json_type, plain_json, show
from .schema_common import MAX_NESTING
from .schema_index import (
    Located,
    SchemaIndex,
    pointer_text,
    resolve_uri,
    split_fragment,
)
from .validation_checks import (
    formats,
    null_passes,
    numbers,
    read_types,
    strings,
    typed,
    values,
)
from .validation_keywords import KEYWORDS
from .validation_scope import (
    Node,
    Problem,
    Run,
    Scope,
    accept,
    got_text,
    passes,
    place_text,
)
from .validation_shapes import arrays, objects
from .validation_unevaluated import unevaluated

__all__ = ["DIALECTS", "Refusal", "SchemaRefused", "compile_root"]

DIALECTS = ("2020-12", "2019-09", "draft7", "gemini")

_TABLE: dict[str, dict[str, tuple[str, str]]] = {
    dialect: {
        name: (status, note)
        for name, status, dialects, note in KEYWORDS
        if dialect in dialects
    }
    for dialect in DIALECTS
}

Retrieve = Callable[[str], Any]


@dataclass(frozen=True)
class Refusal:
    """A place in a schema the validator cannot enforce: where, which keyword, and why.

    ``pointer`` is the JSON pointer of the schema object holding ``keyword`` (``""`` for the
    root); in a document fetched through ``retrieve`` it is prefixed by that document's URI.
    """

    pointer: str
    keyword: str
    reason: str

    def __str__(self) -> str:
        key = self.keyword.replace("~", "~0").replace("/", "~1")
        where = self.pointer + ("/" + key if self.keyword else "")
        return f"{where or '/'}: {self.reason}"


class SchemaRefused(ValueError):
    """A schema with keywords the validator cannot enforce; ``refusals`` lists every place."""

    def __init__(self, refusals: list[Refusal]) -> None:
        self.refusals = tuple(refusals)
        listed = "; ".join(str(r) for r in refusals)
        super().__init__(f"the schema cannot be checked: {listed}")


def _reject(value: Any, problems: list[Problem], coerce: bool) -> Any:
    problems.append(["no value is allowed here"])
    return value


class _Scopes(threading.local):
    """The dynamic scope: the base URIs of the resources entered, outermost first."""

    def __init__(self) -> None:
        self.stack: list[str] = []


class Compiler:
    """One compilation: the index, the compiled schema objects and the refusals found."""

    def __init__(
        self, dialect: str, retrieve: Retrieve | None, dynamic: bool = False
    ) -> None:
        self.dialect = dialect
        self.retrieve = retrieve
        self.index = SchemaIndex()
        self.nodes: dict[int, Node] = {}
        self.refusals: list[Refusal] = []
        self.dynamic = dynamic
        self.needs_dynamic = False
        self.scopes = _Scopes()
        self.dynamic_nodes: dict[str, Node] = {}
        self.edges: dict[int, list[tuple[Node, str]]] = {}
        self.fetched: dict[str, Any] = {}

    # ---- entry ---------------------------------------------------------------------------

    def compile(self, schema: Any) -> Node:
        found: list[PlainProblem] = []
        plain = plain_json(schema, MAX_NESTING, found)
        self._plain_refusals("", (), found)
        root = Located(plain, "", self.dialect, "", ())
        if not isinstance(plain, (dict, bool)):
            self.refusals.append(
                Refusal("", "", "a schema must be an object or a boolean")
            )
            return Node(root)
        self._add_document(plain, "", self.dialect)
        node = self.node(self.index.places.get(id(plain), root))
        self._close_dynamic()
        self._refuse_loops()
        return node

    def _plain_refusals(
        self, document: str, at: tuple[Any, ...], found: list[PlainProblem]
    ) -> None:
        for path, reason in found:
            full = at + path
            keyword = str(full[-1]) if full else ""
            self.refusals.append(
                Refusal(self._pointer(document, full[:-1]), keyword, reason)
            )

    def _pointer(self, document: str, path: tuple[Any, ...]) -> str:
        text = pointer_text(path)
        return text if document == "" else f"{document}#{text}"

    def _add_document(self, document: Any, uri: str, dialect: str) -> None:
        for place, declared in self.index.add(document, uri, dialect):
            self._refuse(
                place, "$schema", f"{show(declared)} is not a dialect toolgen knows"
            )
        if not self.dynamic and any(
            isinstance(p.schema, dict) and "$dynamicRef" in p.schema
            for p in self.index.places.values()
        ):
            self.needs_dynamic = True

    def _refuse(self, place: Located, keyword: str, reason: str) -> None:
        refusal = Refusal(self._pointer(place.document, place.pointer), keyword, reason)
        if refusal not in self.refusals:
            self.refusals.append(refusal)

    # ---- schema objects ------------------------------------------------------------------

    def node(self, place: Located) -> Node:
        """The compiled schema at ``place`` (memoised, so recursion closes into a loop)."""
        schema = place.schema
        if isinstance(schema, bool):
            node = Node(place)
            node.run = accept if schema else _reject
            return node
        found = self.nodes.get(id(schema))
        if found is not None:
            return found
        place = self.index.places.get(id(schema), place)
        node = Node(place)
        self.nodes[id(schema)] = node
        if isinstance(schema, dict):
            self._build(node)
        else:
            self._refuse(place, "", "a schema must be an object or a boolean")
        return node

    def _build(self, node: Node) -> None:
        place = node.place
        schema: dict[str, Any] = place.schema
        table = _TABLE[place.dialect]
        if place.dialect == "draft7" and "$ref" in schema:
            schema = {"$ref": schema["$ref"]}  # draft 7: $ref overrides its siblings
        known: dict[str, Any] = {}
        for key, value in schema.items():
            status = table.get(key)
            if status is None:
                if place.dialect == "gemini":
                    self._refuse(place, key, "Gemini's Schema has no such keyword")
            elif status[0] == "refused":
                self._refuse(place, key, status[1])
            else:
                known[key] = value
        scope = Scope(node, self.node, self._refuse)
        scope.schema = known
        types = read_types(scope)
        node.types = types
        steps = [
            values(scope),
            numbers(scope),
            strings(scope),
            formats(scope),
            arrays(scope),
            objects(scope),
            self._reference(scope, "$ref"),
            self._reference(scope, "$dynamicRef"),
            self._all_of(scope),
            self._any_of(scope, "anyOf"),
            self._any_of(scope, "oneOf"),
            self._not(scope),
            self._conditional(scope),
            unevaluated(scope),
        ]
        run = typed(types, [s for s in steps if s is not None])
        if place.dialect == "gemini" and known.get("nullable") is True:
            run = null_passes(run)
        if self.dynamic and (place.pointer == () or isinstance(schema.get("$id"), str)):
            node.resource = node.base
            run = self._entering(node.base, run)
        node.run = run

    def _entering(self, base: str, run: Run) -> Run:
        """``run`` with ``base`` on the dynamic scope while it runs."""
        scopes = self.scopes

        def entered(value: Any, problems: list[Problem], coerce: bool) -> Any:
            stack = scopes.stack
            stack.append(base)
            try:
                return run(value, problems, coerce)
            finally:
                stack.pop()

        return entered

    def _edge(self, scope: Scope, target: Node, key: str) -> None:
        """Record that ``target`` runs on the same value (to find endless loops)."""
        self.edges.setdefault(id(scope.node), []).append((target, key))

    # ---- references ----------------------------------------------------------------------

    def _locate(self, scope: Scope, key: str, uri: str) -> Located | None:
        found = self.index.locate(uri)
        document, _ = split_fragment(uri)
        if found is None and document not in self.index.documents:
            if self.retrieve is None:
                scope.refuse(
                    key,
                    f"{show(uri)} is another document; pass retrieve= to let the "
                    "validator read it (it never uses the network by itself)",
                )
                return None
            if not self._fetch(scope, key, document):
                return None
            found = self.index.locate(uri)
        if found is None:
            scope.refuse(key, f"{show(uri)} points to nothing")
        return found

    def _fetch(self, scope: Scope, key: str, document: str) -> bool:
        try:
            fetched = self.fetched.get(document)
            if fetched is None:
                fetched = self.retrieve(document)  # type: ignore[misc]
                self.fetched[document] = fetched
        except Exception as exc:  # the caller's callback: any failure refuses the $ref
            scope.refuse(key, f"could not retrieve {show(document)}: {exc}")
            return False
        found: list[PlainProblem] = []
        plain = plain_json(fetched, MAX_NESTING, found)
        self._plain_refusals(document, (), found)
        if not isinstance(plain, (dict, bool)):
            scope.refuse(key, f"{show(document)} is not a schema")
            return False
        self._add_document(plain, document, scope.dialect)
        return True

    def _reference(self, scope: Scope, key: str) -> Run | None:
        ref = scope.schema.get(key)
        if key not in scope.schema:
            return None
        if not isinstance(ref, str):
            scope.refuse(key, "must be a URI reference (a string)")
            return None
        uri = resolve_uri(scope.node.base, ref)
        located = self._locate(scope, key, uri)
        if located is None:
            return None
        target = self.node(located)
        self._edge(scope, target, key)
        _, fragment = split_fragment(uri)
        schema = located.schema
        anchor = schema.get("$dynamicAnchor") if isinstance(schema, dict) else None
        if key == "$dynamicRef" and fragment and anchor == fragment:
            self.needs_dynamic = True
            return self._dynamic(scope, target, fragment)
        scope.node.parts.setdefault("refs", []).append(target)
        if not self.dynamic:
            return _follow(target)
        return self._entering(target.base, _follow(target))

    def _dynamic(self, scope: Scope, static: Node, name: str) -> Run:
        """A ``$dynamicRef`` to a dynamic anchor: the outermost resource in scope that has it."""
        scopes, nodes, suffix = self.scopes, self.dynamic_nodes, "#" + name

        def pick() -> Node:
            for base in scopes.stack:
                found = nodes.get(base + suffix)
                if found is not None:
                    return found
            return static

        scope.node.parts["dynamic"] = pick

        def run(value: Any, problems: list[Problem], coerce: bool) -> Any:
            return pick().run(value, problems, coerce)

        return self._entering(static.base, run)

    def _close_dynamic(self) -> None:
        """Compile every dynamic anchor, so that no ``$dynamicRef`` compiles at run time."""
        while len(self.dynamic_nodes) < len(self.index.dynamic):
            for uri, place in list(self.index.dynamic.items()):
                if uri not in self.dynamic_nodes:
                    self.dynamic_nodes[uri] = self.node(place)

    def _refuse_loops(self) -> None:
        """Refuse references that come back to a schema without reading into the value."""
        state: dict[int, int] = {}  # 1: on the path, 2: done
        for start in list(self.nodes.values()):
            if state.get(id(start.place.schema)):
                continue
            stack: list[tuple[Node, int]] = [(start, 0)]
            state[id(start.place.schema)] = 1
            while stack:
                node, index = stack.pop()
                edges = self.edges.get(id(node), [])
                if index >= len(edges):
                    state[id(node.place.schema)] = 2
                    continue
                stack.append((node, index + 1))
                target, key = edges[index]
                mark = state.get(id(target.place.schema), 0)
                if mark == 1:
                    self._refuse(
                        node.place,
                        key,
                        "leads back to a schema it is inside of without reading into "
                        "the value (an endless loop)",
                    )
                elif mark == 0 and isinstance(target.place.schema, dict):
                    state[id(target.place.schema)] = 1
                    stack.append((target, 0))

    # ---- combinators ---------------------------------------------------------------------

    def _branches(self, scope: Scope, key: str) -> list[Node] | None:
        if key not in scope.schema:
            return None
        nodes = scope.subs(key)
        if nodes:
            for node in nodes:
                self._edge(scope, node, key)
            scope.node.parts[key] = nodes
        return nodes

    def _all_of(self, scope: Scope) -> Run | None:
        nodes = self._branches(scope, "allOf")
        if not nodes:
            return None
        runs = tuple(n.run for n in nodes)

        def run(value: Any, problems: list[Problem], coerce: bool) -> Any:
            for branch in runs:
                value = branch(value, problems, False)
            return value

        return run

    def _any_of(self, scope: Scope, key: str) -> Run | None:
        nodes = self._branches(scope, key)
        if not nodes:
            return None
        nodes_ = tuple(nodes)
        exactly_one = key == "oneOf"

        def run(value: Any, problems: list[Problem], coerce: bool) -> Any:
            failed: list[list[Problem]] = []
            passing: list[int] = []
            result = value
            for index, node in enumerate(nodes_):
                found: list[Problem] = []
                typed_value = node.run(value, found, False)
                if found:
                    failed.append(found)
                elif not passing:
                    passing.append(index)
                    result = typed_value
                    if not exactly_one:
                        return result
                else:
                    passing.append(index)
            if not passing:
                problems.append([_summary(nodes_, failed, value, exactly_one)])
            elif len(passing) > 1:
                which = _listed([str(i + 1) for i in passing])
                problems.append(
                    [
                        f"must match exactly one of these schemas, but matches {which}"
                        f" (got {show(value)})"
                    ]
                )
            return result

        return run

    def _not(self, scope: Scope) -> Run | None:
        if "not" not in scope.schema:
            return None
        node = scope.sub("not")
        if node is None:
            return None
        self._edge(scope, node, "not")
        check = node.run
        shown = show(scope.schema["not"])

        def run(value: Any, problems: list[Problem], coerce: bool) -> Any:
            if passes(check, value):
                problems.append([f"must not match {shown} (got {show(value)})"])
            return value

        return run

    def _conditional(self, scope: Scope) -> Run | None:
        if "if" not in scope.schema:
            return None
        found = {
            key: scope.sub(key) if key in scope.schema else None
            for key in ("if", "then", "else")
        }
        condition, then, otherwise = found["if"], found["then"], found["else"]
        for key, node in found.items():
            if node is not None:
                self._edge(scope, node, key)
                scope.node.parts[key] = node
        if condition is None or (then is None and otherwise is None):
            return None
        test = condition.run
        then_run = then.run if then is not None else None
        else_run = otherwise.run if otherwise is not None else None

        def run(value: Any, problems: list[Problem], coerce: bool) -> Any:
            branch = then_run if passes(test, value) else else_run
            return value if branch is None else branch(value, problems, False)

        return run


def _follow(target: Node) -> Run:
    def run(value: Any, problems: list[Problem], coerce: bool) -> Any:
        return target.run(value, problems, coerce)

    return run


def _listed(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _summary(
    nodes: tuple[Node, ...], failed: list[list[Problem]], value: Any, exactly_one: bool
) -> str:
    """One problem for a value no branch of anyOf/oneOf accepts, naming what each wanted."""
    types: list[str] = []
    kind = json_type(value)
    for node, found in zip(nodes, failed, strict=True):
        wanted = node.types + (("integer",) if "number" in node.types else ())
        if len(found) != 1 or len(found[0]) != 1 or not wanted or kind in wanted:
            break  # not a branch that failed on its type alone
        types.extend(t for t in node.types if t not in types)
    else:
        return f"expected {' or '.join(types)}, got {got_text(value, False)}"
    lead = "exactly one" if exactly_one else "at least one"
    parts = []
    for index, found in enumerate(failed):
        texts = [
            (f"{place_text(p)}: {p[0]}" if len(p) > 1 else p[0]) for p in found[:3]
        ]
        if len(found) > 3:
            texts.append(f"{len(found) - 3} more")
        parts.append(f"{index + 1}) {', '.join(texts)}")
    return f"must match {lead} of these schemas (got {show(value)}): {'; '.join(parts)}"


def compile_root(
    schema: Any, dialect: str, retrieve: Retrieve | None
) -> tuple[Node, list[Refusal]]:
    """The compiled root of ``schema`` and the refused places (none: it can be enforced)."""
    if dialect not in DIALECTS:
        raise ValueError(f"unknown dialect {dialect!r}; known: {', '.join(DIALECTS)}")
    compiler = Compiler(dialect, retrieve)
    root = compiler.compile(schema)
    if compiler.needs_dynamic:
        fetched = compiler.fetched
        compiler = Compiler(dialect, retrieve, dynamic=True)
        compiler.fetched = fetched
        root = compiler.compile(schema)
    return root, compiler.refusals
