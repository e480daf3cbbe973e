/**
 * The run-time context's behaviour; the generated context.ts declares only its fields.
 *
 * Mirrors generator/runtime/context.py: `contextFromObject` refuses unknown keys (suggesting the
 * closest declared field), values of the wrong type, integers outside JavaScript's safe range,
 * NaN and infinite numbers, and text with a lone surrogate, reporting every problem at once with
 * the same messages as Python's `Context.from_mapping`.
 */

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
    throw new ContextError([`expected a JSON object, got ${describe(data)}`]);
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
  return Object.freeze(values) as C;
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
      return `${Number.isNaN(value) ? "nan" : value > 0 ? "inf" : "-inf"} is not a finite number`;
    }
    if (Number.isInteger(value) && Math.abs(value) > MAX_SAFE_INTEGER) {
      return `integer out of range (at most ${MAX_SAFE_INTEGER} either side of 0)`;
    }
  }
  if (hasLoneSurrogate(value)) {
    return "text holds a lone surrogate (U+D800..U+DFFF), which UTF-8 cannot encode";
  }
  return "";
}

function hasLoneSurrogate(value: unknown): boolean {
  if (typeof value === "string") {
    return /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(value);
  }
  return Array.isArray(value) && value.some(hasLoneSurrogate);
}

/** A value's JSON type name, as Python's context errors name it. */
function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  switch (typeof value) {
    case "boolean":
      return "boolean";
    case "number":
      return Number.isInteger(value) ? "integer" : "number";
    case "string":
      return "string";
    case "object":
      return "object";
    default:
      return typeof value;
  }
}

/** The hint " (did you mean 'provider_id'?)" for a mistyped key, or "". */
function closestHint(key: string, known: readonly string[]): string {
  const close = closestName(key, known);
  return close === null ? "" : ` (did you mean ${pyRepr(close)}?)`;
}

/** The known name a mistyped `name` most likely meant (see context.py closest_name); null when none. */
export function closestName(name: string, known: readonly string[]): string | null {
  const prefixed = known.filter((candidate) => candidate.startsWith(name + "_"));
  if (prefixed.length > 0) return prefixed[0] ?? null;
  return null;
}

/** Python's repr() of a string, as the Python runtime's messages show keys. */
export function pyRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === "\\" || ch === quote) out += "\\" + ch;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (code < 0x20 || code === 0x7f) out += "\\x" + code.toString(16).padStart(2, "0");
    else out += ch;
  }
  return out + quote;
}
