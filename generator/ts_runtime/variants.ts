/**
 * Run-time tools as spec variants: their shape, the order they join a list, skip reports;
 * mirrors runtime/variants.py. MCP and subagent tools become objects in the shape of the
 * catalog's spec variants plus `input_schema` (an MCP tool's raw JSON Schema, null otherwise)
 * and `origin` (where the tool came from); `spec` is null.
 */

import { DialectError, isDict, type Json, type Schema } from "./schema_common.js";

/** The tool id every MCP tool variant carries (calls are dispatched to its handler). */
export const MCP_TOOL_ID = "use_mcp_tool";
/** The static tool the dynamic subagent tools replace. */
export const SUBAGENTS_TOOL_ID = "use_subagents";

/** A variant as the runtime reads it (static from SPECS, or run-time from here). */
export type Variant = Schema;

/** Where a run-time tool came from. */
export interface Origin {
  server: Json;
  uid: Json;
  tool: Json;
}

/** A `{server, uid, tool, name, reason}` entry of the skip report. */
export interface SkipRecord {
  server: Json;
  uid: Json;
  tool: Json;
  name: Json;
  reason: string;
}

/** A run-time tool as a spec variant. */
export function makeVariant(
  toolId: string,
  name: string,
  description: string,
  parameters: Iterable<Schema>,
  inputSchema: Json,
  origin: Origin,
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

/** A run-time tool's parameter in the shape of a spec parameter. */
export function makeParameter(
  name: string,
  required: boolean,
  instruction: string,
  schema: Schema,
  usage: string | null,
): Schema {
  return {
    name,
    required,
    instruction: [instruction],
    description: [],
    usage,
    schema,
    dependencies: [],
    requires: null,
  };
}

/** The reason text for an exception raised while converting a run-time tool: a DialectError's
 * own text, any other error's type and text (PyError carries the Python type name). */
function describeError(error: unknown): string {
  if (typeof error === "string") return error;
  if (error instanceof DialectError) return error.message;
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return `Error: ${String(error)}`;
}

/** The skip-report entry for a run-time variant that `stage` (a format, "prompt") refused. */
export function skipRecord(variant: Json, stage: string, error: unknown): SkipRecord {
  const found = isDict(variant) ? variant["origin"] : null;
  const origin: Schema = isDict(found) ? found : {};
  const message = describeError(error);
  return {
    server: origin["server"] ?? null,
    uid: origin["uid"] ?? null,
    tool: origin["tool"] ?? null,
    name: isDict(variant) ? (variant["name"] ?? null) : null,
    reason: message.startsWith(stage) ? message : `${stage}: ${message}`,
  };
}

/** Static tools, then subagent tools, then MCP tools; subagent tools replace `use_subagents`. */
export function mergeTools(
  staticVariants: Iterable<Variant>,
  subagentVariants: Iterable<Variant>,
  mcpVariants: Iterable<Variant>,
): Variant[] {
  const subagents = [...subagentVariants];
  const kept = [...staticVariants].filter((v) => !(subagents.length > 0 && v["id"] === SUBAGENTS_TOOL_ID));
  return [...kept, ...subagents, ...mcpVariants];
}
