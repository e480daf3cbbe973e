/**
 * The run-time context's behaviour; the generated context.ts declares only its fields.
 *
 * Mirrors generator/runtime/context.py: `contextFromObject` refuses unknown keys (suggesting the
 * closest declared field), values of the wrong type, integers outside JavaScript's safe range,
 * NaN and infinite numbers, and text with a lone surrogate, reporting every problem at once with
 * the same messages as Python's `Context.from_mapping`.
 */

import { closestName, pyNumber, pyRepr, pyTypeName } from "./pyspell.js";
import { UNENCODABLE, hasLoneSurrogate, jsonTypeOf } from "./schema_common.js";

/** The largest integer magnitude a context holds (Number.MAX_SAFE_INTEGER). */
export const MAX_SAFE_INTEGER = 2 ** 53 - 1;

/** A field's kind, as declared in toolgen.yaml. */
export type FieldKind = "string" | "boolean" | "integer" | "number" | "string_list";
/** Kind and nullability per field, in declared order. */
export type FieldTypes = { readonly [field: string]: readonly [FieldKind, boolean] };

/** A context object had unknown keys, values of the wrong type, or values out of range. */
export class ContextError extends Error {
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super("invalid context: " + problems.join("; "));
    this.name = "ContextError";
    this.problems = problems;
  }
}

/** A context from JSON-like data, completed with `defaults`; throws ContextError. */
export function contextFromObject<C extends object>(fieldTypes: FieldTypes, defaults: C, data: unknown): C {
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw new ContextError([`expected a JSON object, got ${pyTypeName(data)}`]);
  }
  const problems: string[] = [];
  const values: { [field: string]: unknown } = { ...(defaults as { readonly [field: string]: unknown }) };
  for (const [key, value] of Object.entries(data)) {
    const spec = Object.hasOwn(fieldTypes, key) ? fieldTypes[key] : undefined;
    if (spec === undefined) {
      problems.push(`unknown key ${pyRepr(key)}${closestHint(key, Object.keys(fieldTypes))}`);
      continue;
    }
    const [kind, nullable] = spec;
    let reason: string;
    if (value === null && nullable) {
      values[key] = null;
    } else if (!fits(value, kind)) {
      problems.push(`${key}: expected ${kind}${nullable ? " or null" : ""}, got ${describe(value)}`);
    } else if ((reason = outOfRange(value)) !== "") {
      problems.push(`${key}: ${reason}`);
    } else {
      values[key] = Array.isArray(value) ? Object.freeze([...value]) : value;
    }
  }
  if (problems.length > 0) {
    throw new ContextError(problems);
  }
  const context = Object.freeze(values);
  CHECKED.add(context);
  return context as C;
}

/** Contexts made by contextFromObject: passed through by asContext without a second check. */
const CHECKED = new WeakSet<object>();

/** A checked context as is; null/undefined as the defaults; anything else checked by contextFromObject. */
export function asContext<C extends object>(fieldTypes: FieldTypes, defaults: C, value: unknown): C {
  if (typeof value === "object" && value !== null && CHECKED.has(value)) return value as C;
  return contextFromObject(fieldTypes, defaults, value ?? {});
}

function fits(value: unknown, kind: FieldKind): boolean {
  switch (kind) {
    case "string":
      return typeof value === "string";
    case "boolean":
      return typeof value === "boolean";
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "number":
      return typeof value === "number";
    case "string_list":
      return Array.isArray(value) && value.every((item) => typeof item === "string");
  }
}

/** Why a well-typed value cannot be used ("" when it can). */
function outOfRange(value: unknown): string {
  if (typeof value === "number") {
    if (Number.isNaN(value) || !Number.isFinite(value)) {
      return `${pyNumber(value)} is not a finite number`;
    }
    if (Number.isInteger(value) && Math.abs(value) > MAX_SAFE_INTEGER) {
      return `integer out of range (at most ${MAX_SAFE_INTEGER} either side of 0)`;
    }
  }
  return hasLoneSurrogate(value) ? UNENCODABLE : "";
}

/** A value's JSON type name, as Python's context errors name it. */
function describe(value: unknown): string {
  return jsonTypeOf(value) ?? typeof value;
}

/** The hint " (did you mean 'provider_id'?)" for a mistyped key, or "". */
function closestHint(key: string, known: readonly string[]): string {
  const close = closestName(key, known);
  return close === null ? "" : ` (did you mean ${pyRepr(close)}?)`;
}
