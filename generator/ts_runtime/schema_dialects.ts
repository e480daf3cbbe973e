/**
 * One JSON-Schema walker with per-provider hooks: tool parameter schemas for each LLM API;
 * mirrors runtime/schema_dialects.py, whose docstring states the conversion rules.
 *
 * `convertParameters(schema, dialect, {strict})`, `convert(...)` (with notices),
 * `toolEntry(dialect, name, description, parameters, {strict, cacheControl, notices})` and
 * `checkLimits(dialect, tools)`; inputs are never mutated and key order is part of the output.
 */

import {
  DESCRIPTION,
  FORMATS,
  NAME,
  PARAMETERS,
  STRICT,
  Items,
  Slot,
  record,
  type Envelope,
  type FormatRecord,
  type SchemaPolicy,
} from "./formats.js";
import { DialectError, type Conversion, type Json, type Schema } from "./schema_common.js";
import { GeminiHooks } from "./schema_gemini.js";
import { JsonHooks, StrictHooks } from "./schema_json.js";
import { checkName, checkPropertyKeys, refuseEmptyDescription } from "./schema_limits.js";
import { Walker, type Hooks } from "./schema_walk.js";
import { isDict, own, put, pyRepr } from "./pyspell.js";

export { checkLimits } from "./schema_limits.js";
export { DialectError } from "./schema_common.js";

/** The code behind each policy's CUSTOM keywords (`SchemaPolicy.hooks`). */
const HOOKS: Record<string, Hooks> = {
  json: new JsonHooks(),
  "openai-strict": new StrictHooks(),
  gemini: new GeminiHooks(),
};

/** The format names, in declared order. */
export const DIALECTS: readonly string[] = [...FORMATS.keys()];

function policyOf(rec: FormatRecord, strict: boolean): SchemaPolicy {
  if (!strict) return rec.schema;
  if (rec.strict === null) {
    const modelled = [...FORMATS.values()].filter((r) => r.strict !== null).map((r) => r.name).join(", ");
    throw new DialectError([], `${rec.name}: strict mode is only modelled for ${modelled}`, "pass strict=False");
  }
  return rec.strict;
}

/** Converts `schema` with `policy` for the format `rec` (messages name `label`). */
export function convertWith(schema: Json, rec: FormatRecord, policy: SchemaPolicy, label?: string | null): Conversion {
  const hooks = own(HOOKS, policy.hooks);
  if (hooks === undefined) throw new Error(`toolgen: ${rec.name}: no schema hooks named ${pyRepr(policy.hooks)}`);
  const walker = new Walker(schema, rec, policy, hooks, label);
  if (!rec.propertyKeyEverywhere && isDict(schema)) checkPropertyKeys(rec, schema, []);
  const out = walker.finish(walker.node(schema, [], undefined, true));
  if (policy.maxDepth !== null) {
    const depth = objectDepth(out);
    if (depth > policy.maxDepth) {
      walker.notices.push({
        path: [],
        message: `${walker.dialect}: ${depth} levels of object nesting (documented limit ${policy.maxDepth})`,
      });
    }
  }
  return { schema: out, notices: [...walker.notices] };
}

export interface ConvertOptions {
  strict?: boolean | undefined;
}

/** Converts a parameters JSON Schema for `dialect`; returns the schema and notices. */
export function convert(schema: Schema, dialect: string, options: ConvertOptions = {}): Conversion {
  const rec = record(dialect);
  return convertWith(schema, rec, policyOf(rec, Boolean(options.strict)));
}

/** The dialect's parameter schema for a tool whose parameters are the JSON Schema `schema`. */
export function convertParameters(schema: Schema, dialect: string, options: ConvertOptions = {}): Schema {
  return convert(schema, dialect, options).schema;
}

function objectDepth(schema: Json, level: number = 0): number {
  if (!isDict(schema)) return level;
  let best = level;
  for (const [k, v] of Object.entries(schema)) {
    if ((k === "properties" || k === "$defs") && isDict(v)) {
      for (const s of Object.values(v)) best = Math.max(best, objectDepth(s, level + 1));
    } else if (k === "items") {
      best = Math.max(best, objectDepth(v, level));
    } else if (k === "anyOf" && Array.isArray(v)) {
      for (const s of v) best = Math.max(best, objectDepth(s, level));
    }
  }
  return best;
}

/** A tool entry from its envelope: each Slot replaced by `values.get(slot)`. */
export function layOut(envelope: Envelope, values: ReadonlyMap<Slot, Json>): Schema {
  const out: Schema = {};
  for (const [key, part] of envelope) {
    if (Array.isArray(part)) out[key] = layOut(part as Envelope, values);
    else if (part instanceof Slot || part instanceof Items) out[key] = values.has(part as Slot) ? values.get(part as Slot) : part;
    else out[key] = part;
  }
  return out;
}

export interface ToolEntryOptions {
  strict?: boolean | undefined;
  cacheControl?: boolean | undefined;
  /** Conversion notices are appended here when given. */
  notices?: unknown[] | undefined;
}

/** The request-ready tool dict for `dialect`; `parameters` is the input JSON Schema. */
export function toolEntry(
  dialect: string,
  name: Json,
  description: Json,
  parameters: Json,
  options: ToolEntryOptions = {},
): Schema {
  const rec = record(dialect);
  const strict = Boolean(options.strict);
  if (options.cacheControl && !rec.cacheControl) {
    throw new DialectError([], `${dialect}: cache_control is only modelled for anthropic`, "pass cache_control=False");
  }
  checkName(rec, name, ["name"]);
  if (typeof description !== "string") throw new DialectError(["description"], "description must be a string");
  refuseEmptyDescription(rec, description, ["description"]);
  const result = convert(parameters, dialect, { strict });
  if (options.notices !== undefined) options.notices.push(...result.notices);
  const entry = layOut(
    rec.envelope,
    new Map<Slot, Json>([
      [NAME, name],
      [DESCRIPTION, description],
      [PARAMETERS, result.schema],
      [STRICT, strict],
    ]),
  );
  if (options.cacheControl) put(entry, "cache_control", { type: "ephemeral" });
  return entry;
}
