"""One declarative record per native tool-calling format (provider API).

Standard library only: this module is copied verbatim into the generated package and is also
imported by the generator at build time. It holds data only; the code that reads it is the
schema walker (``schema_walk``/``schema_json``/``schema_gemini``), the request envelope and
limits (``schema_dialects``/``schema_limits``), the run-time tool lists (``native``), the
return path (``replies``: calls read from a response, the tool-result messages) and the
generator's native emitter (``generator/lower/native.py``).

Adding a format is one :class:`FormatRecord` in :data:`FORMATS` plus its tests, then
``tools/make_format_tables.py``, which writes the same records for the TypeScript runtime
(ts_runtime/formats.ts) and the format names of project.schema.json. The record says
how a tool entry is laid out, where the calls are in a response and how a result goes back,
what names and limits the API enforces, and per JSON-Schema keyword
whether the format keeps, renames, describes (moves into the description text), refuses it or
leaves it to the format's custom hooks (``SchemaPolicy.hooks``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

__all__ = [
    "CALL_ID",
    "CALL_ID_IF_GIVEN",
    "CALL_NAME",
    "CONTENT",
    "CUSTOM",
    "DESCRIBE",
    "DESCRIPTION",
    "FORMATS",
    "IS_ERROR",
    "KEEP",
    "LOGIC_KEYWORDS",
    "NAME",
    "NAME_SAFE_CHARS",
    "OUTCOME",
    "PARAMETERS",
    "REFUSE",
    "RENAME",
    "RESULTS",
    "STATUS",
    "STRICT",
    "CallFields",
    "CutOff",
    "FormatRecord",
    "Items",
    "SchemaPolicy",
    "Slot",
    "record",
    "rename",
]

# ---- keyword actions ------------------------------------------------------------------------

KEEP = "keep"
"""Emit the keyword as it is (sub-schemas converted)."""
DESCRIBE = "describe"
"""Drop the keyword and append a sentence saying the same to the description."""
REFUSE = "refuse"
"""The format cannot express the keyword: the tool is refused with a located error."""
CUSTOM = "custom"
"""The policy's hooks (``SchemaPolicy.hooks``) handle the keyword; see schema_json/schema_gemini."""


RENAME = "rename:"
"""Prefix of the action emitting a keyword under another name (sub-schemas converted)."""


def rename(keyword: str) -> str:
    """The action emitting a keyword as ``keyword``."""
    return RENAME + keyword


#: Keywords no description text can stand in for (they shape which values validate).
LOGIC_KEYWORDS = (
    "not",
    "if",
    "then",
    "else",
    "patternProperties",
    "dependentSchemas",
    "prefixItems",
    "contains",
    "unevaluatedItems",
    "unevaluatedProperties",
    "additionalItems",
    "dependencies",
    "minContains",
    "maxContains",
    "$dynamicRef",
)


def _table(*groups: tuple[tuple[str, ...], str]) -> Mapping[str, str]:
    """A read-only keyword -> action table; a keyword listed twice keeps its first action."""
    table: dict[str, str] = {}
    for keywords, action in groups:
        for keyword in keywords:
            table.setdefault(keyword, action)
    return MappingProxyType(table)


@dataclass(frozen=True)
class SchemaPolicy:
    """How one format (or its strict mode) converts a parameters JSON Schema.

    ``keywords`` maps a keyword to its action (KEEP, DESCRIBE, REFUSE, CUSTOM or
    ``rename(...)``); ``default`` is the action for every keyword not in the table. ``hooks``
    names the code for CUSTOM keywords and the per-node steps before and after the keyword loop
    (type inference, nullability, closing objects): "json", "openai-strict" or "gemini".
    """

    hooks: str
    keywords: Mapping[str, str]
    default: str
    refuse_message: str = "cannot be expressed"
    refuse_hint: str = "restructure the schema without it"
    merge_all_of: bool = False
    one_of_as_any_of: bool = False
    recursive_refs: bool = True
    root_type: str = "object"
    closed_root: bool = False
    """The root gets ``additionalProperties: false`` unless it says otherwise."""
    label: str = ""
    """Added to the format name in messages (" strict")."""
    max_depth: int | None = None
    """Documented object nesting limit: a notice past it, not a refusal."""
    types: Mapping[str, str] = field(default_factory=dict)
    """JSON type -> the format's type name, when it spells them differently."""
    formats: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Kept ``format`` values per (format's) type name; "*" for any type. Others are described."""


@dataclass(frozen=True)
class Slot:
    """A place in an envelope filled per tool."""

    name: str


NAME = Slot("name")
DESCRIPTION = Slot("description")
PARAMETERS = Slot("parameters")
"""The converted parameters schema."""
STRICT = Slot("strict")
"""``bool(strict)``: formats that list the strict flag in every entry."""

#: A tool entry's layout: (key, literal value, Slot or nested layout) pairs, in output order.
Envelope = tuple[tuple[str, Any], ...]

# Slots of the tool-result layouts (``result_envelope``, ``result_group``); a slot whose value
# is None leaves its key out.
CALL_ID = Slot("call_id")
"""The call id the result answers (``ToolUse.id``)."""
CALL_ID_IF_GIVEN = Slot("call_id_if_given")
"""The call id, left out when toolgen made it up because the reply had none (Gemini)."""
CALL_NAME = Slot("call_name")
CONTENT = Slot("content")
"""``ToolResult.content``, the text for the model."""
IS_ERROR = Slot("is_error")
"""True when the call failed or was denied (``ToolResult.is_error or .denied``)."""
STATUS = Slot("status")
"""``"error"`` when the call failed or was denied, else ``"success"``."""
OUTCOME = Slot("outcome")
"""``{"error": content}`` when the call failed or was denied, else ``{"output": content}``."""
RESULTS = Slot("results")
"""In ``result_group``: the list of per-call result elements."""


@dataclass(frozen=True)
class Items:
    """In a layout: a list holding one element laid out as ``layout``."""

    layout: Envelope


@dataclass(frozen=True)
class CallFields:
    """How one tool call is spelled in a response (see ``FormatRecord.call_path``).

    An element of the call list is a call when it has the key ``wrapper`` (the call is then the
    value under it) or, without a wrapper, when ``marker`` (key, value) matches or is None. The
    other fields are key paths from the call; ``arguments`` may hold an object or JSON text.
    Dict keys are written as the JSON body spells them; SDK objects are read by the same names
    or their snake_case forms.
    """

    id: tuple[str, ...]
    name: tuple[str, ...]
    arguments: tuple[str, ...]
    marker: tuple[str, str] | None = None
    wrapper: str | None = None
    ids_optional: bool = False
    """Older responses of the API omit call ids: toolgen makes them up (no error)."""


@dataclass(frozen=True)
class CutOff:
    """How a response says that the output limit cut it off (``FormatRecord.cut_off``).

    When the value at ``path`` is one of ``values``, the reply's last call is cut off if it is
    the last element of the call list (nothing of the reply came after it). A call whose own
    status (``call_status`` from the call element) is one of ``call_status_values`` is cut off
    wherever it stands. A cut-off call is never run.
    """

    path: tuple[str | int, ...]
    """Keys from a response to its stop value; entered anywhere along it, as ``call_path``."""
    values: tuple[str, ...]
    """Stop values meaning the output stopped at a limit, not at the end of the turn."""
    call_status: tuple[str, ...] = ()
    call_status_values: tuple[str, ...] = ()


@dataclass(frozen=True)
class FormatRecord:
    """Everything toolgen knows about one provider's native tool format."""

    name: str
    """The dialect name used everywhere (toolgen.yaml ``formats``, ``providers.FORMATS``)."""
    module: str
    """The generated provider module (``generated/<module>.py``)."""
    envelope: Envelope
    """How a request-ready tool entry is laid out."""
    schema: SchemaPolicy
    """Keyword policy for the parameters schema."""
    strict: SchemaPolicy | None = None
    """Keyword policy for strict mode; None: the format has no strict mode."""
    tool_name: re.Pattern[str] = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
    """Tool names the API takes."""
    property_key: re.Pattern[str] | None = None
    """Property names the API takes (None: any); checked at the root or at every level."""
    property_key_everywhere: bool = False
    property_key_message: str = "property key {name!r} is not allowed"
    property_key_hint: str = ""
    limits_label: str = ""
    """Vendor name for the soft-limit warnings of formats sharing limits (one warning for all)."""
    max_tools: int | None = None
    """Soft limit on tools in one request (a notice past it)."""
    max_description: int | None = None
    """Soft limit on a tool description's length in characters (a notice past it)."""
    description_required: bool = False
    """The API refuses an empty tool description."""
    parameters_optional: bool = False
    """An entry without parameters is valid (check_limits skips its schema checks)."""
    cache_control: bool = False
    """Entries may end with ``cache_control: {"type": "ephemeral"}`` (prompt caching)."""
    json_schema_key: str | None = None
    """Envelope key taking full JSON Schema for run-time tools the policy cannot express
    (the PARAMETERS key is replaced by it); None: such a tool is skipped."""
    # ---- return path: reading calls from a response, sending results back ----------------
    call_path: tuple[str | int, ...] = ()
    """Keys (and list indices) from a response to the list holding the model's tool calls."""
    call_fields: CallFields | None = None
    """How one call in that list is spelled; None: the format has no native calls."""
    result_envelope: Envelope | None = None
    """Layout of the result element answering one call (a block, a message, an item, a part)."""
    result_group: Envelope | None = None
    """Layout of the one message carrying every result of a reply (``RESULTS``); None: each
    result element is itself a message of the conversation."""
    cut_off: CutOff | None = None
    """How a response says that it stopped at the output limit (calls cut off there are not run)."""

    def path_to(self, slot: Slot) -> tuple[str, ...]:
        """Keys from the entry's top to ``slot`` (KeyError if the envelope lacks it)."""
        stack: list[tuple[Envelope, tuple[str, ...]]] = [(self.envelope, ())]
        while stack:
            layout, prefix = stack.pop()
            for key, value in layout:
                if value == slot:
                    return prefix + (key,)
                if isinstance(value, tuple):
                    stack.append((value, prefix + (key,)))
        raise KeyError(slot.name)

    @property
    def description_path(self) -> tuple[str, ...]:
        return self.path_to(DESCRIPTION)

    @property
    def properties_path(self) -> tuple[str, ...]:
        return self.path_to(PARAMETERS) + ("properties",)


# ---- the policies ---------------------------------------------------------------------------

#: Standard JSON Schema stays as it is; the hooks rewrite draft-4 forms and ``nullable``.
JSON_SCHEMA = SchemaPolicy(
    hooks="json",
    keywords=_table(
        (("nullable", "items", "additionalItems", "dependencies"), CUSTOM),
    ),
    default=KEEP,
)
#: OpenAI without strict mode: as above, and the root is closed.
OPENAI = replace(JSON_SCHEMA, closed_root=True)

#: OpenAI Structured Outputs (``strict: true``); the hooks close every object.
OPENAI_STRICT = SchemaPolicy(
    hooks="openai-strict",
    keywords=_table(
        (("nullable", "items", "additionalProperties", "format"), CUSTOM),
        (LOGIC_KEYWORDS, REFUSE),
        (("oneOf",), rename("anyOf")),
        (
            ("type", "description", "title", "enum", "const", "properties"),
            KEEP,
        ),
        (("required", "anyOf", "pattern", "minimum", "maximum"), KEEP),
        (("exclusiveMinimum", "exclusiveMaximum", "multipleOf"), KEEP),
        (("minItems", "maxItems"), KEEP),
    ),
    default=DESCRIBE,
    refuse_message="is not supported",
    refuse_hint="restructure the schema, or use strict=False",
    merge_all_of=True,
    one_of_as_any_of=True,
    label=" strict",
    max_depth=10,
    formats=MappingProxyType(
        {
            "*": (
                "date-time",
                "time",
                "date",
                "duration",
                "email",
                "hostname",
                "ipv4",
                "ipv6",
                "uuid",
            )
        }
    ),
)

#: Gemini's OpenAPI-subset ``Schema`` (UPPERCASE types); the hooks fold type lists and nulls.
GEMINI = SchemaPolicy(
    hooks="gemini",
    keywords=_table(
        (("type", "nullable", "items", "additionalProperties"), CUSTOM),
        (("anyOf", "oneOf", "enum", "const", "format", "properties"), CUSTOM),
        (("required", "exclusiveMinimum", "exclusiveMaximum", "default"), CUSTOM),
        (LOGIC_KEYWORDS, REFUSE),
        (("description", "title", "minimum", "maximum", "pattern"), KEEP),
        (("minLength", "maxLength", "minItems", "maxItems"), KEEP),
        (("minProperties", "maxProperties"), KEEP),
    ),
    default=DESCRIBE,
    merge_all_of=True,
    one_of_as_any_of=True,
    recursive_refs=False,
    root_type="OBJECT",
    types=MappingProxyType(
        {
            "string": "STRING",
            "number": "NUMBER",
            "integer": "INTEGER",
            "boolean": "BOOLEAN",
            "array": "ARRAY",
            "object": "OBJECT",
            "null": "NULL",
        }
    ),
    formats=MappingProxyType(
        {
            "STRING": ("enum", "date-time"),
            "NUMBER": ("float", "double"),
            "INTEGER": ("int32", "int64"),
        }
    ),
)

#: Characters every format takes anywhere in a tool name: run-time (MCP) tool names made of
#: others are rewritten (dynamic_tools.encode_mcp_tool_name). tests/test_formats.py checks
#: every record's ``tool_name`` against it.
NAME_SAFE_CHARS = "A-Za-z0-9_-"

# ---- the records, in declared order ---------------------------------------------------------

_RECORDS = (
    FormatRecord(
        name="anthropic",
        module="anthropic",
        envelope=(
            ("name", NAME),
            ("description", DESCRIPTION),
            ("input_schema", PARAMETERS),
        ),
        schema=JSON_SCHEMA,
        property_key=re.compile(r"^[a-zA-Z0-9_.-]{1,64}$"),
        property_key_hint="top-level property keys must match ^[a-zA-Z0-9_.-]{1,64}$",
        cache_control=True,
        call_path=("content",),
        call_fields=CallFields(
            id=("id",),
            name=("name",),
            arguments=("input",),
            marker=("type", "tool_use"),
        ),
        result_envelope=(
            ("type", "tool_result"),
            ("tool_use_id", CALL_ID),
            ("content", CONTENT),
            ("is_error", IS_ERROR),
        ),
        result_group=(("role", "user"), ("content", RESULTS)),
        cut_off=CutOff(
            ("stop_reason",), ("max_tokens", "model_context_window_exceeded")
        ),
    ),
    FormatRecord(
        name="openai-chat",
        module="openai_chat",
        envelope=(
            ("type", "function"),
            (
                "function",
                (
                    ("name", NAME),
                    ("description", DESCRIPTION),
                    ("strict", STRICT),
                    ("parameters", PARAMETERS),
                ),
            ),
        ),
        schema=OPENAI,
        strict=OPENAI_STRICT,
        limits_label="OpenAI",
        max_tools=128,
        max_description=1024,
        parameters_optional=True,
        # Every element of tool_calls is a call; one that is not a function call has no
        # function.name and is read as a call in error, so its id still gets an answer.
        call_path=("choices", 0, "message", "tool_calls"),
        call_fields=CallFields(
            id=("id",),
            name=("function", "name"),
            arguments=("function", "arguments"),
        ),
        result_envelope=(
            ("role", "tool"),
            ("tool_call_id", CALL_ID),
            ("content", CONTENT),
        ),
        cut_off=CutOff(("choices", 0, "finish_reason"), ("length",)),
    ),
    FormatRecord(
        name="openai-responses",
        module="openai_responses",
        envelope=(
            ("type", "function"),
            ("name", NAME),
            ("description", DESCRIPTION),
            ("parameters", PARAMETERS),
            ("strict", STRICT),
        ),
        schema=OPENAI,
        strict=OPENAI_STRICT,
        limits_label="OpenAI",
        max_tools=128,
        max_description=1024,
        parameters_optional=True,
        call_path=("output",),
        call_fields=CallFields(
            id=("call_id",),
            name=("name",),
            arguments=("arguments",),
            marker=("type", "function_call"),
        ),
        result_envelope=(
            ("type", "function_call_output"),
            ("call_id", CALL_ID),
            ("output", CONTENT),
        ),
        cut_off=CutOff(
            ("incomplete_details", "reason"),
            ("max_output_tokens",),
            call_status=("status",),
            call_status_values=("incomplete",),
        ),
    ),
    FormatRecord(
        name="gemini",
        module="gemini",
        envelope=(
            ("name", NAME),
            ("description", DESCRIPTION),
            ("parameters", PARAMETERS),
        ),
        schema=GEMINI,
        # Starts with a letter or underscore; letters, digits, _ . - ; at most 64. (Newer
        # endpoints also take ':'; it is left out so names work on every endpoint.)
        tool_name=re.compile(r"^[a-zA-Z_][a-zA-Z0-9_.-]{0,63}$"),
        property_key=re.compile(r"^[a-zA-Z_][a-zA-Z0-9_.-]{0,63}$"),
        property_key_everywhere=True,
        property_key_message="property name {name!r} is not allowed",
        property_key_hint="property names must start with a letter or underscore and use "
        "only letters, digits, _ . - (at most 64 characters)",
        json_schema_key="parametersJsonSchema",
        call_path=("candidates", 0, "content", "parts"),
        call_fields=CallFields(
            id=("id",),
            name=("name",),
            arguments=("args",),
            wrapper="functionCall",
            ids_optional=True,
        ),
        result_envelope=(
            (
                "functionResponse",
                (
                    ("id", CALL_ID_IF_GIVEN),
                    ("name", CALL_NAME),
                    ("response", OUTCOME),
                ),
            ),
        ),
        result_group=(("role", "user"), ("parts", RESULTS)),
        cut_off=CutOff(("candidates", 0, "finishReason"), ("MAX_TOKENS",)),
    ),
    FormatRecord(
        name="bedrock-converse",
        module="bedrock",
        envelope=(
            (
                "toolSpec",
                (
                    ("name", NAME),
                    ("description", DESCRIPTION),
                    ("inputSchema", (("json", PARAMETERS),)),
                ),
            ),
        ),
        schema=JSON_SCHEMA,
        description_required=True,
        call_path=("output", "message", "content"),
        call_fields=CallFields(
            id=("toolUseId",),
            name=("name",),
            arguments=("input",),
            wrapper="toolUse",
        ),
        result_envelope=(
            (
                "toolResult",
                (
                    ("toolUseId", CALL_ID),
                    ("content", Items((("text", CONTENT),))),
                    ("status", STATUS),
                ),
            ),
        ),
        result_group=(("role", "user"), ("content", RESULTS)),
        cut_off=CutOff(
            ("stopReason",), ("max_tokens", "model_context_window_exceeded")
        ),
    ),
)

#: Every format by name, in declared order.
FORMATS: dict[str, FormatRecord] = {r.name: r for r in _RECORDS}


def record(name: str) -> FormatRecord:
    """The record of format ``name``; ValueError naming the known formats otherwise."""
    try:
        return FORMATS[name]
    except (KeyError, TypeError):
        raise ValueError(
            f"unknown dialect {name!r}; expected one of {', '.join(FORMATS)}"
        ) from None
