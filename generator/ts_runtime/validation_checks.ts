/**
 * The validator's checks of one schema object's own value: type, enum, numbers, strings, format
 * (mirrors validation_checks.py: the same checks, the same problem texts).
 */

import { CHECKS, LIKE } from "./json_formats.js";
import { isJsonNumber, isMultiple, jsonType, numberText, show, uniqueKey } from "./json_values.js";
import { pyLen } from "./pyspell.js";
import { FORMATS } from "./validation_keywords.js";
import { accept, coerceText, gotText, matches, nonJsonNumber, unmatched, type Run, type Scope } from "./validation_scope.js";

let formatStatus: ReadonlyMap<string, readonly [string, string]> | null = null;
const GEMINI_TYPES: Readonly<Record<string, string>> = {
  STRING: "string",
  NUMBER: "number",
  INTEGER: "integer",
  BOOLEAN: "boolean",
  ARRAY: "array",
  OBJECT: "object",
  NULL: "null",
};
const TYPES = ["null", "boolean", "integer", "number", "string", "array", "object"];

// ---- type ------------------------------------------------------------------------------------

/** The declared types (`nullable: true` adds null); refused when not type names. */
export function readTypes(scope: Scope): readonly string[] {
  let types: string[] = [];
  if (scope.has("type")) {
    const raw = scope.schema["type"];
    let names: unknown[] = Array.isArray(raw) ? raw : [raw];
    if (scope.dialect === "gemini") names = names.map((n) => (typeof n === "string" ? (GEMINI_TYPES[n] ?? n) : n));
    if (names.length === 0 || !names.every((n) => typeof n === "string" && TYPES.includes(n))) {
      scope.refuse("type", `must be a type name or a list of them: ${TYPES.join(", ")}`);
      return [];
    }
    types = [...new Set(names as string[])];
  }
  const nullable = scope.has("nullable") ? scope.schema["nullable"] : false;
  if (typeof nullable !== "boolean") scope.refuse("nullable", "must be true or false");
  else if (nullable && types.length > 0 && !types.includes("null")) types.push("null");
  return types;
}

/** A schema object's run: the type check (with text-path coercion), then its steps. */
export function typed(types: readonly string[], steps: Run[]): Run {
  if (types.length === 0) {
    if (steps.length === 0) return accept;
    if (steps.length === 1) return steps[0] as Run;
    return (value, problems, coerce) => {
      for (const step of steps) value = step(value, problems, coerce);
      return value;
    };
  }
  const allowed = new Set(types.includes("number") ? [...types, "integer"] : types);
  const wanted = types.join(" or ");
  return (value, problems, coerce) => {
    let nested = coerce;
    if (coerce && typeof value === "string") {
      value = coerceText(value, types);
      nested = false; // values inside decoded JSON are native
    }
    const kind = jsonType(value);
    if (kind === null || !allowed.has(kind)) {
      if (kind === null && nonJsonNumber(value)) problems.push([`not a JSON number (got ${show(value)})`]);
      else problems.push([`expected ${wanted}, got ${gotText(value, coerce)}`]);
      return value;
    }
    for (const step of steps) value = step(value, problems, nested);
    return value;
  };
}

/** Gemini's `nullable: true`: null is valid for the whole node (its type, enum, anyOf). */
export function nullPasses(run: Run): Run {
  return (value, problems, coerce) => (value === null ? value : run(value, problems, coerce));
}

// ---- enum and const --------------------------------------------------------------------------

export function values(scope: Scope): Run | null {
  if (scope.has("enum")) {
    const allowed = scope.schema["enum"];
    if (!Array.isArray(allowed)) {
      scope.refuse("enum", "must be a list of values");
      return null;
    }
    if (scope.has("const") && scope.dialect !== "gemini") {
      return allOfRuns(oneOfValues(allowed), oneOfValues([scope.schema["const"]]));
    }
    return oneOfValues(allowed);
  }
  return scope.has("const") ? oneOfValues([scope.schema["const"]]) : null;
}

export function allOfRuns(...runs: (Run | null)[]): Run | null {
  const steps = runs.filter((r): r is Run => r !== null);
  if (steps.length <= 1) return steps[0] ?? null;
  return (value, problems, coerce) => {
    for (const step of steps) value = step(value, problems, coerce);
    return value;
  };
}

function oneOfValues(allowed: readonly unknown[]): Run {
  const lead = allowed.length !== 1 ? "must be one of" : "must be";
  const shown = allowed.map(show).join(", ");
  if (allowed.every((v) => typeof v === "string")) {
    const texts = new Set(allowed as string[]);
    return (value, problems) => {
      if (!(typeof value === "string" && texts.has(value))) problems.push([`${lead} ${shown} (got ${show(value)})`]);
      return value;
    };
  }
  const keys = new Set(allowed.map(uniqueKey));
  return (value, problems) => {
    if (!keys.has(uniqueKey(value))) problems.push([`${lead} ${shown} (got ${show(value)})`]);
    return value;
  };
}

// ---- numbers ---------------------------------------------------------------------------------

type NumberTest = [(value: number | bigint) => boolean, string];

export function numbers(scope: Scope): Run | null {
  const schema = scope.schema;
  const tests: NumberTest[] = [];
  const low = scope.number("minimum");
  const high = scope.number("maximum");
  const exLow = scope.number("exclusiveMinimum");
  const exHigh = scope.number("exclusiveMaximum");
  for (const key of ["exclusiveMinimum", "exclusiveMaximum"]) {
    const bound = key.slice(9).toLowerCase();
    if (schema[key] === true && (schema[bound] === null || schema[bound] === undefined)) {
      scope.refuse(key, `the draft 4 flag needs ${bound} beside it`);
    }
  }
  if (low !== null) {
    tests.push(
      schema["exclusiveMinimum"] === true
        ? [(v) => v > low, `greater than ${numberText(low)}`]
        : [(v) => v >= low, `at least ${numberText(low)}`],
    );
  }
  if (high !== null) {
    tests.push(
      schema["exclusiveMaximum"] === true
        ? [(v) => v < high, `less than ${numberText(high)}`]
        : [(v) => v <= high, `at most ${numberText(high)}`],
    );
  }
  if (exLow !== null) tests.push([(v) => v > exLow, `greater than ${numberText(exLow)}`]);
  if (exHigh !== null) tests.push([(v) => v < exHigh, `less than ${numberText(exHigh)}`]);
  const step = scope.number("multipleOf");
  if (step !== null) {
    if (step > 0) tests.push([(v) => isMultiple(v, step), `a multiple of ${numberText(step)}`]);
    else scope.refuse("multipleOf", "must be greater than 0");
  }
  if (tests.length === 0) return null;
  return (value, problems) => {
    if (typeof value !== "number" && typeof value !== "bigint") return value;
    if (nonJsonNumber(value)) {
      problems.push([`not a JSON number (got ${show(value)})`]);
      return value;
    }
    for (const [test, wanted] of tests) {
      if (!test(value)) problems.push([`must be ${wanted} (got ${numberText(value)})`]);
    }
    return value;
  };
}

// ---- strings ---------------------------------------------------------------------------------

export function strings(scope: Scope): Run | null {
  const low = scope.count("minLength");
  const high = scope.count("maxLength");
  const source = scope.schema["pattern"];
  const search = scope.has("pattern") ? scope.pattern("pattern", source) : null;
  if (low === null && high === null && search === null) return null;
  return (value, problems) => {
    if (typeof value !== "string") return value;
    if (low !== null || high !== null) {
      const length = pyLen(value);
      if (low !== null && length < low) problems.push([`must be at least ${low} characters long`]);
      if (high !== null && length > high) problems.push([`must be at most ${high} characters long`]);
    }
    if (search !== null) {
      const hit = matches(search, value);
      if (hit === null) problems.push([unmatched(source)]);
      else if (!hit) problems.push([`must match the pattern ${String(source)}`]);
    }
    return value;
  };
}

export function formats(scope: Scope): Run | null {
  if (!scope.has("format")) return null;
  const name = scope.schema["format"];
  if (typeof name !== "string") {
    scope.refuse("format", "must be a format name (a string)");
    return null;
  }
  formatStatus ??= new Map(FORMATS.map(([format, status, kind]) => [format, [status, kind] as const]));
  const [status, kind] = formatStatus.get(name) ?? ["annotation", ""];
  if (name === "enum") {
    if (scope.dialect === "gemini" && !scope.has("enum")) {
      scope.refuse("format", "format enum needs the enum values beside it");
    }
    return null; // Gemini's enum format: the enum keyword checks the values
  }
  if (status !== "enforced") return null;
  const check = CHECKS[name] as (value: unknown) => boolean;
  const like = LIKE[name] as string;
  if (kind === "number") {
    return (value, problems) => {
      if (isJsonNumber(value) && !check(value)) problems.push([`must be ${like} (${name}) (got ${numberText(value)})`]);
      return value;
    };
  }
  return (value, problems) => {
    if (typeof value === "string" && !check(value)) {
      problems.push([`must be a valid ${name}, like ${like} (got ${show(value)})`]);
    }
    return value;
  };
}
