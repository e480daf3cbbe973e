/**
 * One declarative record per native tool-calling format (provider API), as TypeScript data.
 * Written by tools/make_format_tables.py from generator/runtime/formats.py; do not edit.
 * The types and the functions over them are in format_record.ts.
 */

import { Items, Slot, pathTo, pattern, type FormatRecord, type SchemaPolicy } from "./format_record.js";
import { PyError, pyRepr } from "./pyspell.js";

export * from "./format_record.js";

// ---- keyword actions ------------------------------------------------------------------------

export const KEEP = "keep";
export const DESCRIBE = "describe";
export const REFUSE = "refuse";
export const CUSTOM = "custom";
export const RENAME = "rename:";
export const NAME_SAFE_CHARS = "A-Za-z0-9_-";

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

// ---- slots of the layouts -------------------------------------------------------------------

export const NAME = new Slot("name");
export const DESCRIPTION = new Slot("description");
export const PARAMETERS = new Slot("parameters");
export const STRICT = new Slot("strict");
export const CALL_ID = new Slot("call_id");
export const CALL_ID_IF_GIVEN = new Slot("call_id_if_given");
export const CALL_NAME = new Slot("call_name");
export const CONTENT = new Slot("content");
export const IS_ERROR = new Slot("is_error");
export const STATUS = new Slot("status");
export const OUTCOME = new Slot("outcome");
export const RESULTS = new Slot("results");

// ---- the policies ---------------------------------------------------------------------------

const POLICY_DEFAULTS: Omit<SchemaPolicy, "hooks" | "keywords" | "default"> = {
  refuseMessage: "cannot be expressed",
  refuseHint: "restructure the schema without it",
  mergeAllOf: false,
  oneOfAsAnyOf: false,
  recursiveRefs: true,
  rootType: "object",
  closedRoot: false,
  label: "",
  maxDepth: null,
  types: new Map([]),
  formats: new Map([]),
};

export const JSON_SCHEMA: SchemaPolicy = {
  ...POLICY_DEFAULTS,
  hooks: "json",
  keywords: new Map([["nullable", "custom"], ["items", "custom"], ["additionalItems", "custom"], ["dependencies", "custom"]]),
  default: "keep",
};
export const OPENAI: SchemaPolicy = {
  ...POLICY_DEFAULTS,
  hooks: "json",
  keywords: new Map([["nullable", "custom"], ["items", "custom"], ["additionalItems", "custom"], ["dependencies", "custom"]]),
  default: "keep",
  closedRoot: true,
};
export const OPENAI_STRICT: SchemaPolicy = {
  ...POLICY_DEFAULTS,
  hooks: "openai-strict",
  keywords: new Map([
    ["nullable", "custom"],
    ["items", "custom"],
    ["additionalProperties", "custom"],
    ["format", "custom"],
    ["not", "refuse"],
    ["if", "refuse"],
    ["then", "refuse"],
    ["else", "refuse"],
    ["patternProperties", "refuse"],
    ["dependentSchemas", "refuse"],
    ["prefixItems", "refuse"],
    ["contains", "refuse"],
    ["unevaluatedItems", "refuse"],
    ["unevaluatedProperties", "refuse"],
    ["additionalItems", "refuse"],
    ["dependencies", "refuse"],
    ["minContains", "refuse"],
    ["maxContains", "refuse"],
    ["$dynamicRef", "refuse"],
    ["oneOf", "rename:anyOf"],
    ["type", "keep"],
    ["description", "keep"],
    ["title", "keep"],
    ["enum", "keep"],
    ["const", "keep"],
    ["properties", "keep"],
    ["required", "keep"],
    ["anyOf", "keep"],
    ["pattern", "keep"],
    ["minimum", "keep"],
    ["maximum", "keep"],
    ["exclusiveMinimum", "keep"],
    ["exclusiveMaximum", "keep"],
    ["multipleOf", "keep"],
    ["minItems", "keep"],
    ["maxItems", "keep"],
  ]),
  default: "describe",
  refuseMessage: "is not supported",
  refuseHint: "restructure the schema, or use strict=False",
  mergeAllOf: true,
  oneOfAsAnyOf: true,
  label: " strict",
  maxDepth: 10,
  formats: new Map([["*", ["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]]]),
};
export const GEMINI: SchemaPolicy = {
  ...POLICY_DEFAULTS,
  hooks: "gemini",
  keywords: new Map([
    ["type", "custom"],
    ["nullable", "custom"],
    ["items", "custom"],
    ["additionalProperties", "custom"],
    ["anyOf", "custom"],
    ["oneOf", "custom"],
    ["enum", "custom"],
    ["const", "custom"],
    ["format", "custom"],
    ["properties", "custom"],
    ["required", "custom"],
    ["exclusiveMinimum", "custom"],
    ["exclusiveMaximum", "custom"],
    ["default", "custom"],
    ["not", "refuse"],
    ["if", "refuse"],
    ["then", "refuse"],
    ["else", "refuse"],
    ["patternProperties", "refuse"],
    ["dependentSchemas", "refuse"],
    ["prefixItems", "refuse"],
    ["contains", "refuse"],
    ["unevaluatedItems", "refuse"],
    ["unevaluatedProperties", "refuse"],
    ["additionalItems", "refuse"],
    ["dependencies", "refuse"],
    ["minContains", "refuse"],
    ["maxContains", "refuse"],
    ["$dynamicRef", "refuse"],
    ["description", "keep"],
    ["title", "keep"],
    ["minimum", "keep"],
    ["maximum", "keep"],
    ["pattern", "keep"],
    ["minLength", "keep"],
    ["maxLength", "keep"],
    ["minItems", "keep"],
    ["maxItems", "keep"],
    ["minProperties", "keep"],
    ["maxProperties", "keep"],
  ]),
  default: "describe",
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
  formats: new Map([["STRING", ["enum", "date-time"]], ["NUMBER", ["float", "double"]], ["INTEGER", ["int32", "int64"]]]),
};

// ---- the records, in declared order ---------------------------------------------------------

const RECORD_DEFAULTS: Omit<FormatRecord, "name" | "module" | "envelope" | "schema"> = {
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
};

const RECORDS: readonly FormatRecord[] = [
  {
    ...RECORD_DEFAULTS,
    name: "anthropic",
    module: "anthropic",
    envelope: [["name", NAME], ["description", DESCRIPTION], ["input_schema", PARAMETERS]],
    schema: JSON_SCHEMA,
    propertyKey: pattern("^[a-zA-Z0-9_.-]{1,64}$"),
    propertyKeyHint: "top-level property keys must match ^[a-zA-Z0-9_.-]{1,64}$",
    cacheControl: true,
    callPath: ["content"],
    callFields: {
      id: ["id"],
      name: ["name"],
      arguments: ["input"],
      marker: ["type", "tool_use"],
      wrapper: null,
      idsOptional: false,
    },
    resultEnvelope: [["type", "tool_result"], ["tool_use_id", CALL_ID], ["content", CONTENT], ["is_error", IS_ERROR]],
    resultGroup: [["role", "user"], ["content", RESULTS]],
    cutOff: {
      path: ["stop_reason"],
      values: ["max_tokens", "model_context_window_exceeded"],
      callStatus: [],
      callStatusValues: [],
    },
  },
  {
    ...RECORD_DEFAULTS,
    name: "openai-chat",
    module: "openai_chat",
    envelope: [
      ["type", "function"],
      [
        "function",
        [["name", NAME], ["description", DESCRIPTION], ["strict", STRICT], ["parameters", PARAMETERS]],
      ],
    ],
    schema: OPENAI,
    strict: OPENAI_STRICT,
    limitsLabel: "OpenAI",
    maxTools: 128,
    maxDescription: 1024,
    parametersOptional: true,
    callPath: ["choices", 0, "message", "tool_calls"],
    callFields: {
      id: ["id"],
      name: ["function", "name"],
      arguments: ["function", "arguments"],
      marker: null,
      wrapper: null,
      idsOptional: false,
    },
    resultEnvelope: [["role", "tool"], ["tool_call_id", CALL_ID], ["content", CONTENT]],
    cutOff: { path: ["choices", 0, "finish_reason"], values: ["length"], callStatus: [], callStatusValues: [] },
  },
  {
    ...RECORD_DEFAULTS,
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
    callFields: {
      id: ["call_id"],
      name: ["name"],
      arguments: ["arguments"],
      marker: ["type", "function_call"],
      wrapper: null,
      idsOptional: false,
    },
    resultEnvelope: [["type", "function_call_output"], ["call_id", CALL_ID], ["output", CONTENT]],
    cutOff: {
      path: ["incomplete_details", "reason"],
      values: ["max_output_tokens"],
      callStatus: ["status"],
      callStatusValues: ["incomplete"],
    },
  },
  {
    ...RECORD_DEFAULTS,
    name: "gemini",
    module: "gemini",
    envelope: [["name", NAME], ["description", DESCRIPTION], ["parameters", PARAMETERS]],
    schema: GEMINI,
    toolName: pattern("^[a-zA-Z_][a-zA-Z0-9_.-]{0,63}$"),
    propertyKey: pattern("^[a-zA-Z_][a-zA-Z0-9_.-]{0,63}$"),
    propertyKeyEverywhere: true,
    propertyKeyMessage: "property name {name!r} is not allowed",
    propertyKeyHint: "property names must start with a letter or underscore and use only letters, digits, _ . - (at most 64 characters)",
    jsonSchemaKey: "parametersJsonSchema",
    callPath: ["candidates", 0, "content", "parts"],
    callFields: {
      id: ["id"],
      name: ["name"],
      arguments: ["args"],
      marker: null,
      wrapper: "functionCall",
      idsOptional: true,
    },
    resultEnvelope: [["functionResponse", [["id", CALL_ID_IF_GIVEN], ["name", CALL_NAME], ["response", OUTCOME]]]],
    resultGroup: [["role", "user"], ["parts", RESULTS]],
    cutOff: { path: ["candidates", 0, "finishReason"], values: ["MAX_TOKENS"], callStatus: [], callStatusValues: [] },
  },
  {
    ...RECORD_DEFAULTS,
    name: "bedrock-converse",
    module: "bedrock",
    envelope: [["toolSpec", [["name", NAME], ["description", DESCRIPTION], ["inputSchema", [["json", PARAMETERS]]]]]],
    schema: JSON_SCHEMA,
    descriptionRequired: true,
    callPath: ["output", "message", "content"],
    callFields: {
      id: ["toolUseId"],
      name: ["name"],
      arguments: ["input"],
      marker: null,
      wrapper: "toolUse",
      idsOptional: false,
    },
    resultEnvelope: [
      [
        "toolResult",
        [["toolUseId", CALL_ID], ["content", new Items([["text", CONTENT]])], ["status", STATUS]],
      ],
    ],
    resultGroup: [["role", "user"], ["content", RESULTS]],
    cutOff: {
      path: ["stopReason"],
      values: ["max_tokens", "model_context_window_exceeded"],
      callStatus: [],
      callStatusValues: [],
    },
  },
];

/** Every format by name, in declared order. */
export const FORMATS: ReadonlyMap<string, FormatRecord> = new Map(RECORDS.map((r) => [r.name, r]));

/** Where a format's entry keeps the tool description. */
export function descriptionPath(rec: FormatRecord): string[] {
  return pathTo(rec, DESCRIPTION);
}

/** Where a format's entry keeps the parameter properties. */
export function propertiesPath(rec: FormatRecord): string[] {
  return [...pathTo(rec, PARAMETERS), "properties"];
}

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
