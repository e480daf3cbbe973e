/**
 * Run-time tools as spec variants: their shape, the order they join a list, skip reports.
 *
 * Mirrors generator/runtime/variants.py. MCP server tools and subagent tools become objects in
 * the shape of the catalog's spec variants plus `input_schema` (the raw JSON Schema of an MCP
 * tool, null otherwise) and `origin` (where the tool came from). `spec` is null: run-time tools
 * belong to no family.
 */

import type { Json, JsonObject, ParameterData, SpecData } from "./data.js";

/** The tool id every MCP tool variant carries (calls are dispatched to its handler). */
export const MCP_TOOL_ID = "use_mcp_tool";
/** The static tool the dynamic subagent tools replace. */
export const SUBAGENTS_TOOL_ID = "use_subagents";

/** A spec variant, or a run-time tool in that shape (`spec` null, with `input_schema` and `origin`). */
export interface Variant extends Omit<SpecData, "spec"> {
  readonly spec: string | null;
  readonly input_schema?: Json;
  readonly origin?: JsonObject;
  /** A run-time tool offered with part of its schema taken out, and why (`SkipRecord` shape). */
  readonly degraded?: readonly SkipRecord[];
}

export function makeVariant(
  toolId: string,
  name: string,
  description: string,
  parameters: readonly ParameterData[],
  inputSchema: Json,
  origin: JsonObject,
): Variant {
  return {
    id: toolId,
    spec: null,
    name,
    description: [description],
    requires: null,
    strict: false,
    parameters: [...parameters],
    input_schema: inputSchema,
    origin,
  };
}

export function makeParameter(
  name: string,
  required: boolean,
  instruction: string,
  schema: JsonObject,
  usage: string | null,
): ParameterData {
  return { name, required, instruction: [instruction], description: [], usage, schema, dependencies: [], requires: null };
}

/** One entry of a skip report. */
export interface SkipRecord {
  readonly server: Json;
  readonly uid: Json;
  readonly tool: Json;
  readonly name: Json;
  readonly reason: string;
}

/** Errors whose message is reported as is (Python's DialectError); others also name their type. */
const PLAIN_ERRORS = new Set(["DialectError"]);

/** The skip-report entry for a run-time variant that `stage` (a format, "prompt") refused. */
export function skipRecord(variant: object, stage: string, error: unknown): SkipRecord {
  const fields = variant as { readonly [key: string]: unknown };
  const raw = fields["origin"];
  const origin = (typeof raw === "object" && raw !== null && !Array.isArray(raw) ? raw : {}) as JsonObject;
  let message: string;
  if (typeof error === "string") message = error;
  else if (error instanceof Error) message = PLAIN_ERRORS.has(error.name) ? error.message : `${error.name}: ${error.message}`;
  else message = String(error);
  const pick = (key: string): Json => (Object.hasOwn(origin, key) ? (origin[key] ?? null) : null);
  const name = fields["name"];
  return {
    server: pick("server"),
    uid: pick("uid"),
    tool: pick("tool"),
    name: name === undefined ? null : (name as Json),
    reason: message.startsWith(stage) ? message : `${stage}: ${message}`,
  };
}

/** Static tools, then subagent tools, then MCP tools (the modelled system's order).
 *
 * With subagent tools, the static `use_subagents` is left out: they replace it. */
export function mergeTools<V extends { readonly id?: unknown }>(
  staticVariants: Iterable<V>,
  subagentVariants: Iterable<V>,
  mcpVariants: Iterable<V>,
): V[] {
  const subagents = [...subagentVariants];
  const kept = [...staticVariants].filter((v) => !(subagents.length > 0 && v.id === SUBAGENTS_TOOL_ID));
  return [...kept, ...subagents, ...mcpVariants];
}
