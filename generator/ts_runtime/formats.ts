/**
 * One declarative record per native tool-calling format (provider API); mirrors runtime/formats.py.
 *
 * Data only: the schema walker (schema_walk, schema_json, schema_gemini), the request envelope
 * and limits (schema_dialects, schema_limits), the run-time tool lists (native, tool_lists) and
 * the return path read these records. Adding a format is one FormatRecord in FORMATS, exactly
 * as in the Python runtime, and the two must stay field for field the same.
 */

import { keyError, PyError, pyRepr } from "./pyspell.js";

/** Emit the keyword as it is (sub-schemas converted). */
export const KEEP = "keep";
/** Drop the keyword and append a sentence saying the same to the description. */
export const DESCRIBE = "describe";
/** The format cannot express the keyword: the tool is refused with a located error. */
export const REFUSE = "refuse";
/** The policy's hooks handle the keyword (schema_json / schema_gemini). */
export const CUSTOM = "custom";
/** Prefix of the action emitting a keyword under another name. */
export const RENAME = "rename:";

/** The action emitting a keyword as `keyword`. */
export function rename(keyword: string): string {
  return RENAME + keyword;
}

/** Keywords no description text can stand in for (they shape which values validate). */
export const LOGIC_KEYWORDS: readonly string[] = [
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
];

/** A keyword -> action table; a keyword listed twice keeps its first action. */
function table(...groups: [readonly string[], string][]): ReadonlyMap<string, string> {
  const out = new Map<string, string>();
  for (const [keywords, action] of groups) {
    for (const keyword of keywords) {
      if (!out.has(keyword)) out.set(keyword, action);
    }
  }
  return out;
}

/** A regular expression with the pattern text Python messages quote. */
export interface Pattern {
  readonly pattern: string;
  readonly regex: RegExp;
}

export function pattern(source: string): Pattern {
  return { pattern: source, regex: new RegExp(source, "u") };
}

/** Whether the whole of `text` matches (Python's `fullmatch`; the patterns are anchored). */
export function fullmatch(p: Pattern, text: string): boolean {
  return p.regex.test(text);
}

/** How one format (or its strict mode) converts a parameters JSON Schema. */
export interface SchemaPolicy {
  readonly hooks: string;
  readonly keywords: ReadonlyMap<string, string>;
  readonly default: string;
  readonly refuseMessage: string;
  readonly refuseHint: string;
  readonly mergeAllOf: boolean;
  readonly oneOfAsAnyOf: boolean;
  readonly recursiveRefs: boolean;
  readonly rootType: string;
  /** The root gets `additionalProperties: false` unless it says otherwise. */
  readonly closedRoot: boolean;
  /** Added to the format name in messages (" strict"). */
  readonly label: string;
  /** Documented object nesting limit: a notice past it, not a refusal. */
  readonly maxDepth: number | null;
  /** JSON type -> the format's type name, when it spells them differently (insertion order kept). */
  readonly types: ReadonlyMap<string, string>;
  /** Kept `format` values per (format's) type name; "*" for any type. */
  readonly formats: ReadonlyMap<string, readonly string[]>;
}

type PolicyFields = Pick<SchemaPolicy, "hooks" | "keywords" | "default"> & Partial<SchemaPolicy>;

function policy(fields: PolicyFields): SchemaPolicy {
  return {
    refuseMessage: "cannot be expressed",
    refuseHint: "restructure the schema without it",
    mergeAllOf: false,
    oneOfAsAnyOf: false,
    recursiveRefs: true,
    rootType: "object",
    closedRoot: false,
    label: "",
    maxDepth: null,
    types: new Map(),
    formats: new Map(),
    ...fields,
  };
}

/** A place in an envelope filled per tool. */
export class Slot {
  constructor(readonly name: string) {}
}

export const NAME = new Slot("name");
export const DESCRIPTION = new Slot("description");
/** The converted parameters schema. */
export const PARAMETERS = new Slot("parameters");
/** `Boolean(strict)`: formats that list the strict flag in every entry. */
export const STRICT = new Slot("strict");
export const CALL_ID = new Slot("call_id");
export const CALL_ID_IF_GIVEN = new Slot("call_id_if_given");
export const CALL_NAME = new Slot("call_name");
export const CONTENT = new Slot("content");
export const IS_ERROR = new Slot("is_error");
export const STATUS = new Slot("status");
export const OUTCOME = new Slot("outcome");
export const RESULTS = new Slot("results");

/** In a layout: a list holding one element laid out as `layout`. */
export class Items {
  constructor(readonly layout: Envelope) {}
}

/** A layout: (key, literal value, Slot, Items or nested layout) pairs, in output order. */
export type Envelope = readonly (readonly [string, EnvelopePart])[];
export type EnvelopePart = string | Slot | Items | Envelope;

/** How one tool call is spelled in a response (see FormatRecord.callPath). */
export interface CallFields {
  readonly id: readonly string[];
  readonly name: readonly string[];
  readonly arguments: readonly string[];
  readonly marker: readonly [string, string] | null;
  readonly wrapper: string | null;
  readonly idsOptional: boolean;
}

function callFields(
  fields: Pick<CallFields, "id" | "name" | "arguments"> & Partial<CallFields>,
): CallFields {
  return { marker: null, wrapper: null, idsOptional: false, ...fields };
}

/** Everything toolgen knows about one provider's native tool format. */
export interface FormatRecord {
  readonly name: string;
  readonly module: string;
  readonly envelope: Envelope;
  readonly schema: SchemaPolicy;
  readonly strict: SchemaPolicy | null;
  readonly toolName: Pattern;
  readonly propertyKey: Pattern | null;
  readonly propertyKeyEverywhere: boolean;
  /** Python format text: `{name!r}` stands for the key's Python repr. */
  readonly propertyKeyMessage: string;
  readonly propertyKeyHint: string;
  readonly limitsLabel: string;
  readonly maxTools: number | null;
  readonly maxDescription: number | null;
  readonly descriptionRequired: boolean;
  readonly parametersOptional: boolean;
  readonly cacheControl: boolean;
  readonly jsonSchemaKey: string | null;
  readonly callPath: readonly (string | number)[];
  readonly callFields: CallFields | null;
  readonly resultEnvelope: Envelope | null;
  readonly resultGroup: Envelope | null;
  /** How a response says that it stopped at the output limit (calls cut off there are not run). */
  readonly cutOff: CutOff | null;
}

/**
 * How a response says that the output limit cut it off (`FormatRecord.cutOff`).
 *
 * When the value at `path` is one of `values`, the reply's last call is cut off if it is the last
 * element of the call list. A call whose own status (`callStatus` from the call element) is one of
 * `callStatusValues` is cut off wherever it stands. A cut-off call is never run.
 */
export interface CutOff {
  readonly path: readonly (string | number)[];
  readonly values: readonly string[];
  readonly callStatus: readonly string[];
  readonly callStatusValues: readonly string[];
}

function cutOff(
  path: readonly (string | number)[],
  values: readonly string[],
  callStatus: readonly string[] = [],
  callStatusValues: readonly string[] = [],
): CutOff {
  return { path, values, callStatus, callStatusValues };
}

type RecordFields = Pick<FormatRecord, "name" | "module" | "envelope" | "schema"> &
  Partial<FormatRecord>;

function formatRecord(fields: RecordFields): FormatRecord {
  return {
    strict: null,
    toolName: pattern("^[a-zA-Z0-9_-]{1,64}$"),
    propertyKey: null,
    propertyKeyEverywhere: false,
    propertyKeyMessage: "property key {name!r} is not allowed",
    propertyKeyHint: "",
    limitsLabel: "",
    maxTools: null,
    maxDescription: null,
    descriptionRequired: false,
    parametersOptional: false,
    cacheControl: false,
    jsonSchemaKey: null,
    callPath: [],
    callFields: null,
    resultEnvelope: null,
    resultGroup: null,
    cutOff: null,
    ...fields,
  };
}

/** Keys from the entry's top to `slot`; throws when the envelope lacks it (Python: KeyError). */
export function pathTo(rec: FormatRecord, slot: Slot): string[] {
  const stack: [Envelope, string[]][] = [[rec.envelope, []]];
  while (stack.length > 0) {
    const [layout, prefix] = stack.pop()!;
    for (const [key, value] of layout) {
      if (value === slot) return [...prefix, key];
      if (Array.isArray(value)) stack.push([value as Envelope, [...prefix, key]]);
    }
  }
  throw keyError(slot.name);
}

export function descriptionPath(rec: FormatRecord): string[] {
  return pathTo(rec, DESCRIPTION);
}

export function propertiesPath(rec: FormatRecord): string[] {
  return [...pathTo(rec, PARAMETERS), "properties"];
}

// ---- the policies ---------------------------------------------------------------------------

/** Standard JSON Schema stays as it is; the hooks rewrite draft-4 forms and `nullable`. */
export const JSON_SCHEMA: SchemaPolicy = policy({
  hooks: "json",
  keywords: table([["nullable", "items", "additionalItems", "dependencies"], CUSTOM]),
  default: KEEP,
});
/** OpenAI without strict mode: as above, and the root is closed. */
export const OPENAI: SchemaPolicy = { ...JSON_SCHEMA, closedRoot: true };

/** OpenAI Structured Outputs (`strict: true`); the hooks close every object. */
export const OPENAI_STRICT: SchemaPolicy = policy({
  hooks: "openai-strict",
  keywords: table(
    [["nullable", "items", "additionalProperties", "format"], CUSTOM],
    [LOGIC_KEYWORDS, REFUSE],
    [["oneOf"], rename("anyOf")],
    [["type", "description", "title", "enum", "const", "properties"], KEEP],
    [["required", "anyOf", "pattern", "minimum", "maximum"], KEEP],
    [["exclusiveMinimum", "exclusiveMaximum", "multipleOf"], KEEP],
    [["minItems", "maxItems"], KEEP],
  ),
  default: DESCRIBE,
  refuseMessage: "is not supported",
  refuseHint: "restructure the schema, or use strict=False",
  mergeAllOf: true,
  oneOfAsAnyOf: true,
  label: " strict",
  maxDepth: 10,
  formats: new Map([
    ["*", ["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]],
  ]),
});

/** Gemini's OpenAPI-subset `Schema` (UPPERCASE types); the hooks fold type lists and nulls. */
export const GEMINI: SchemaPolicy = policy({
  hooks: "gemini",
  keywords: table(
    [["type", "nullable", "items", "additionalProperties"], CUSTOM],
    [["anyOf", "oneOf", "enum", "const", "format", "properties"], CUSTOM],
    [["required", "exclusiveMinimum", "exclusiveMaximum", "default"], CUSTOM],
    [LOGIC_KEYWORDS, REFUSE],
    [["description", "title", "minimum", "maximum", "pattern"], KEEP],
    [["minLength", "maxLength", "minItems", "maxItems"], KEEP],
    [["minProperties", "maxProperties"], KEEP],
  ),
  default: DESCRIBE,
  mergeAllOf: true,
  oneOfAsAnyOf: true,
  recursiveRefs: false,
  rootType: "OBJECT",
  types: new Map([
    ["string", "STRING"],
    ["number", "NUMBER"],
    ["integer", "INTEGER"],
    ["boolean", "BOOLEAN"],
    ["array", "ARRAY"],
    ["object", "OBJECT"],
    ["null", "NULL"],
  ]),
  formats: new Map([
    ["STRING", ["enum", "date-time"]],
    ["NUMBER", ["float", "double"]],
    ["INTEGER", ["int32", "int64"]],
  ]),
});

/** Characters every format takes anywhere in a tool name (MCP names made of others are rewritten). */
export const NAME_SAFE_CHARS = "A-Za-z0-9_-";

// ---- the records, in declared order ---------------------------------------------------------

const RECORDS: readonly FormatRecord[] = [
  formatRecord({
    name: "anthropic",
    module: "anthropic",
    envelope: [
      ["name", NAME],
      ["description", DESCRIPTION],
      ["input_schema", PARAMETERS],
    ],
    schema: JSON_SCHEMA,
    propertyKey: pattern("^[a-zA-Z0-9_.-]{1,64}$"),
    propertyKeyHint: "top-level property keys must match ^[a-zA-Z0-9_.-]{1,64}$",
    cacheControl: true,
    callPath: ["content"],
    callFields: callFields({
      id: ["id"],
      name: ["name"],
      arguments: ["input"],
      marker: ["type", "tool_use"],
    }),
    resultEnvelope: [
      ["type", "tool_result"],
      ["tool_use_id", CALL_ID],
      ["content", CONTENT],
      ["is_error", IS_ERROR],
    ],
    resultGroup: [
      ["role", "user"],
      ["content", RESULTS],
    ],
    cutOff: cutOff(["stop_reason"], ["max_tokens", "model_context_window_exceeded"]),
  }),
  formatRecord({
    name: "openai-chat",
    module: "openai_chat",
    envelope: [
      ["type", "function"],
      [
        "function",
        [
          ["name", NAME],
          ["description", DESCRIPTION],
          ["strict", STRICT],
          ["parameters", PARAMETERS],
        ],
      ],
    ],
    schema: OPENAI,
    strict: OPENAI_STRICT,
    limitsLabel: "OpenAI",
    maxTools: 128,
    maxDescription: 1024,
    parametersOptional: true,
    callPath: ["choices", 0, "message", "tool_calls"],
    callFields: callFields({
      id: ["id"],
      name: ["function", "name"],
      arguments: ["function", "arguments"],
    }),
    resultEnvelope: [
      ["role", "tool"],
      ["tool_call_id", CALL_ID],
      ["content", CONTENT],
    ],
    cutOff: cutOff(["choices", 0, "finish_reason"], ["length"]),
  }),
  formatRecord({
    name: "openai-responses",
    module: "openai_responses",
    envelope: [
      ["type", "function"],
      ["name", NAME],
      ["description", DESCRIPTION],
      ["parameters", PARAMETERS],
      ["strict", STRICT],
    ],
    schema: OPENAI,
    strict: OPENAI_STRICT,
    limitsLabel: "OpenAI",
    maxTools: 128,
    maxDescription: 1024,
    parametersOptional: true,
    callPath: ["output"],
    callFields: callFields({
      id: ["call_id"],
      name: ["name"],
      arguments: ["arguments"],
      marker: ["type", "function_call"],
    }),
    resultEnvelope: [
      ["type", "function_call_output"],
      ["call_id", CALL_ID],
      ["output", CONTENT],
    ],
    cutOff: cutOff(["incomplete_details", "reason"], ["max_output_tokens"], ["status"], ["incomplete"]),
  }),
  formatRecord({
    name: "gemini",
    module: "gemini",
    envelope: [
      ["name", NAME],
      ["description", DESCRIPTION],
      ["parameters", PARAMETERS],
    ],
    schema: GEMINI,
    toolName: pattern("^[a-zA-Z_][a-zA-Z0-9_.-]{0,63}$"),
    propertyKey: pattern("^[a-zA-Z_][a-zA-Z0-9_.-]{0,63}$"),
    propertyKeyEverywhere: true,
    propertyKeyMessage: "property name {name!r} is not allowed",
    propertyKeyHint:
      "property names must start with a letter or underscore and use " +
      "only letters, digits, _ . - (at most 64 characters)",
    jsonSchemaKey: "parametersJsonSchema",
    callPath: ["candidates", 0, "content", "parts"],
    callFields: callFields({
      id: ["id"],
      name: ["name"],
      arguments: ["args"],
      wrapper: "functionCall",
      idsOptional: true,
    }),
    resultEnvelope: [
      [
        "functionResponse",
        [
          ["id", CALL_ID_IF_GIVEN],
          ["name", CALL_NAME],
          ["response", OUTCOME],
        ],
      ],
    ],
    resultGroup: [
      ["role", "user"],
      ["parts", RESULTS],
    ],
    cutOff: cutOff(["candidates", 0, "finishReason"], ["MAX_TOKENS"]),
  }),
  formatRecord({
    name: "bedrock-converse",
    module: "bedrock",
    envelope: [
      [
        "toolSpec",
        [
          ["name", NAME],
          ["description", DESCRIPTION],
          ["inputSchema", [["json", PARAMETERS]]],
        ],
      ],
    ],
    schema: JSON_SCHEMA,
    descriptionRequired: true,
    callPath: ["output", "message", "content"],
    callFields: callFields({
      id: ["toolUseId"],
      name: ["name"],
      arguments: ["input"],
      wrapper: "toolUse",
    }),
    resultEnvelope: [
      [
        "toolResult",
        [
          ["toolUseId", CALL_ID],
          ["content", new Items([["text", CONTENT]])],
          ["status", STATUS],
        ],
      ],
    ],
    resultGroup: [
      ["role", "user"],
      ["content", RESULTS],
    ],
    cutOff: cutOff(["stopReason"], ["max_tokens", "model_context_window_exceeded"]),
  }),
];

/** Every format by name, in declared order. */
export const FORMATS: ReadonlyMap<string, FormatRecord> = new Map(RECORDS.map((r) => [r.name, r]));

/** The record of format `name`; an Error naming the known formats otherwise. */
export function record(name: unknown): FormatRecord {
  const rec = typeof name === "string" ? FORMATS.get(name) : undefined;
  if (rec === undefined) {
    throw new PyError(
      "ValueError",
      `unknown dialect ${pyRepr(name)}; expected one of ${[...FORMATS.keys()].join(", ")}`,
    );
  }
  return rec;
}

