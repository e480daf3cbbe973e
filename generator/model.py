"""Stage 3: the typed model. Frozen dataclasses built from validated spec data.

Everything downstream (resolve, lowering, templates) reads only these types, never raw YAML.
Predicates stay as their declarative mappings: they are data for the runtime evaluator.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from .diagnostics import Location
from .runtime.formats import FORMATS as FORMAT_RECORDS

Predicate = Mapping[str, Any]
ContextType = Literal["string", "boolean", "integer", "number", "string_list"]
HandlerKind = Literal["class", "shares", "none"]

#: The native formats toolgen.yaml may list, in declared order (one record each in runtime/formats.py).
FORMATS = tuple(FORMAT_RECORDS)

# Order in which JSON-Schema keywords of a parameter are emitted (after type and description).
SCHEMA_KEYWORD_ORDER = (
    "enum",
    "const",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "uniqueItems",
    "items",
    "properties",
    "required",
    "additionalProperties",
    "minProperties",
    "maxProperties",
    "anyOf",
    "oneOf",
    "allOf",
    "default",
)
#: Keywords whose value is a list of schemas (unions and intersections).
SCHEMA_COMBINATORS = ("anyOf", "oneOf", "allOf")


@dataclass(frozen=True)
class TextPiece:
    """A run of prose, included only when ``when`` holds for the context (always when None)."""

    text: str
    when: Predicate | None = None


Text = tuple[TextPiece, ...]


@dataclass(frozen=True)
class Deprecation:
    """A ``deprecated:`` marker: what to use instead, and the date (YYYY-MM-DD) from which the
    thing may be removed without ``toolgen breaking`` calling it a break (None: any time)."""

    note: str | None = None
    removal: str | None = None

    def text(self, what: str) -> str:
        """The sentence the model and the types read about it."""
        after = f" It may be removed after {self.removal}." if self.removal else ""
        return f"Deprecated: {self.note or f'avoid this {what}; it will be removed.'}{after}"


def plain(text: Text) -> str:
    """The unconditional part of a text (what a context-free view shows)."""
    return "".join(p.text for p in text if p.when is None)


@dataclass(frozen=True)
class Parameter:
    name: str
    required: bool
    instruction: Text
    description: Text
    usage: str | None
    schema: Mapping[str, Any]
    dependencies: tuple[str, ...] = ()
    requires: Predicate | None = None
    shared: str | None = None
    location: Location = field(default=Location(""), compare=False)
    renamed_from: str | None = field(default=None, compare=False)
    """The name it had before (``renamed_from:``): a declared rename for ``toolgen breaking``."""
    overrides: tuple[str, ...] = field(default=(), compare=False)
    """For a shared parameter: the keys its ``use:`` entry sets over the definition (sorted)."""
    deprecated: Deprecation | None = field(default=None, compare=False)
    deprecated_values: tuple[tuple[Any, Deprecation], ...] = field(default=(), compare=False)
    """Deprecated members of its enum, each with its marker, in declared order."""

    @property
    def type(self) -> str:
        """The declared type, or its first non-null type for a union ("string" when untyped)."""
        declared = self.schema.get("type", "string")
        if isinstance(declared, (list, tuple)):
            return next((str(t) for t in declared if t != "null"), "string")
        return str(declared)


@dataclass(frozen=True)
class ToolVariant:
    tool_id: str
    family: str
    name: str
    description: Text
    parameters: tuple[Parameter, ...]
    requires: Predicate | None = None
    strict: bool = False
    location: Location = field(default=Location(""), compare=False)

    @property
    def key(self) -> str:
        return f"{self.family}/{self.tool_id}"


@dataclass(frozen=True)
class Handler:
    kind: HandlerKind
    class_name: str | None = None
    validator: bool = False
    shares: str | None = None


@dataclass(frozen=True)
class Tool:
    id: str
    handler: Handler
    variants: tuple[ToolVariant, ...]
    source: str
    label: str | None = None
    """The ``label:`` template (checked against the declared parameters), or None."""
    renamed_from: str | None = None
    """The id it had before (``renamed_from:``): a declared rename for ``toolgen breaking``."""
    deprecated: Deprecation | None = None

    def variant(self, family: str) -> ToolVariant | None:
        for variant in self.variants:
            if variant.family == family:
                return variant
        return None


@dataclass(frozen=True)
class Family:
    name: str
    description: str
    version: int
    tags: tuple[str, ...]
    labels: tuple[tuple[str, int], ...]
    tools: tuple[str, ...]
    order: int
    rule: Predicate
    source: str

    @property
    def use_native_tools(self) -> bool:
        return dict(self.labels).get("use_native_tools", 0) == 1


@dataclass(frozen=True)
class ContextField:
    name: str
    type: ContextType
    nullable: bool
    default: Any
    doc: str


@dataclass(frozen=True)
class Placeholder:
    name: str
    field: str
    default: Any
    mapping: tuple[tuple[Any, str], ...] = ()


@dataclass(frozen=True)
class RoutingRule:
    providers: tuple[str, ...]
    format: str
    when: Predicate | None = None


@dataclass(frozen=True)
class Project:
    name: str
    npm_name: str  # the TypeScript package's package.json (toolgen.yaml `npm`, else from `name`)
    npm_version: str
    formats: tuple[str, ...]
    tool_order: tuple[str, ...]
    family_enum: tuple[str, ...]
    context: tuple[ContextField, ...]
    placeholders: tuple[Placeholder, ...]
    mcp_separator: str
    mcp_name_max_length: int
    subagent_prefix: str
    subagent_max_length: int
    fallback: str
    precondition: Predicate | None
    provider_sets: Mapping[str, tuple[str, ...]]
    model_sets: Mapping[str, tuple[str, ...]]
    model_predicates: Mapping[str, Mapping[str, Any]]
    routing_default: str
    routing_rules: tuple[RoutingRule, ...]
    source: str


@dataclass(frozen=True)
class Catalog:
    """The whole validated spec set. Tools are in enum order, families in selection order."""

    project: Project
    tools: tuple[Tool, ...]
    families: tuple[Family, ...]
    sources: tuple[str, ...]

    def tool(self, tool_id: str) -> Tool:
        for tool in self.tools:
            if tool.id == tool_id:
                return tool
        raise KeyError(tool_id)

    def family(self, name: str) -> Family:
        for family in self.families:
            if family.name == name:
                return family
        raise KeyError(name)
