/**
 * Checking a tool call's arguments against the schema that was sent, before its handler runs
 * (mirrors validation.py: the same keywords, coercion rules and problem texts).
 *
 * `compileSchema` turns a JSON Schema into a tree of closures once; `argumentsChecker` wraps a
 * tool's parameter schema and gives back `[typed arguments, problems]`, each problem naming the
 * parameter (`days`, `items[2].name`).
 *
 * Keywords checked: type (one or a list; `nullable`), enum, const, minimum, maximum,
 * exclusiveMinimum, exclusiveMaximum (number or draft-4 flag), multipleOf, minLength, maxLength,
 * pattern, items (a schema or a draft-4 list), prefixItems, minItems, maxItems, uniqueItems,
 * properties, required, additionalProperties (false or a schema), patternProperties,
 * minProperties, maxProperties, anyOf, oneOf, allOf. A pattern JavaScript cannot compile (after
 * `(?P<name>`, `(?P=name)`, `\A` and `\Z` are translated) is not checked: it must not cost the
 * call.
 *
 * Text-path coercion (`coerce`, for the top-level values the XML reader gives as strings), when
 * the declared types do not include "string": integer (optional sign and digits), number (a
 * JSON-style number, finite), boolean (`true`/`false` in any letter case), array / object (JSON
 * text of that type, nesting at most MAX_NESTING); anything else stays a string.
 */

import { MAX_NESTING, isNumber, jsonTextDepth, jsonTypeName } from "./schema_common.js";
import { has, isDict, put, pyEqual, pyJsonDumps, pyLen, pyNumber, pySlice, pySortedDumps, pyStrip } from "./pyspell.js";

/** A compiled schema: `check(value, path, problems, coerce)` gives the (coerced) value. */
export type Check = (value: unknown, path: string, problems: string[], coerce: boolean) => unknown;

/** A tool's argument check: `(params, coerce) => [typed arguments, problems]`. */
export type ArgumentsChecker = (
  params: Readonly<Record<string, unknown>>,
  coerce: boolean,
) => [Record<string, unknown>, string[]];

type Schema = Readonly<Record<string, unknown>>;

const DIGIT = "\\p{Nd}";
const INTEGER_TEXT = new RegExp(`^[-+]?${DIGIT}+$`, "u");
const NUMBER_TEXT = new RegExp(
  `^[-+]?(?:${DIGIT}+\\.?${DIGIT}*|\\.${DIGIT}+)(?:[eE][-+]?${DIGIT}+)?$`,
  "u",
);
const ANY_DIGIT = new RegExp(DIGIT, "u");
const COERCE_ORDER = ["integer", "number", "boolean", "array", "object"] as const;

/** Unicode decimal digits as ASCII, as Python's int() and float() read them. */
function asciiDigits(text: string): string {
  let out = "";
  for (const char of text) {
    if (char >= "0" && char <= "9") out += char;
    else if (ANY_DIGIT.test(char)) {
      let start = char.codePointAt(0)!;
      while (ANY_DIGIT.test(String.fromCodePoint(start - 1))) start -= 1;
      out += String((char.codePointAt(0)! - start) % 10);
    } else out += char;
  }
  return out;
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value);
}

/** Whether a value has a JSON type (bools are not numbers; 3.0 is an integer). */
function isType(value: unknown, name: string): boolean {
  switch (name) {
    case "string":
      return typeof value === "string";
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "number":
      return typeof value === "number";
    case "boolean":
      return typeof value === "boolean";
    case "array":
      return Array.isArray(value);
    case "object":
      return isDict(value);
    case "null":
      return value === null;
    default:
      return true; // an unknown type name constrains nothing
  }
}

/** A short rendering of a value for a problem message. */
function show(value: unknown): string {
  let text: string;
  try {
    text = pyJsonDumps(value);
  } catch {
    text = String(value);
  }
  return pyLen(text) <= 60 ? text : pySlice(text, 57) + "...";
}

/** The text read as one of `types` by the module's rules, or the text unchanged. */
export function coerceText(text: string, types: readonly string[]): unknown {
  if (types.includes("string")) return text;
  const stripped = pyStrip(text);
  for (const name of COERCE_ORDER) {
    if (!types.includes(name)) continue;
    if (name === "integer" && INTEGER_TEXT.test(stripped)) return Number(asciiDigits(stripped));
    if (name === "number" && NUMBER_TEXT.test(stripped)) {
      const number = Number(asciiDigits(stripped));
      if (INTEGER_TEXT.test(stripped) || Number.isFinite(number)) return number;
    }
    if (name === "boolean" && ["true", "false"].includes(stripped.toLowerCase())) {
      return stripped.toLowerCase() === "true";
    }
    if ((name === "array" || name === "object") && stripped.slice(0, 1) === (name === "array" ? "[" : "{")) {
      if (jsonTextDepth(stripped) > MAX_NESTING) continue;
      let decoded: unknown;
      try {
        decoded = JSON.parse(stripped);
      } catch {
        continue;
      }
      if (isType(decoded, name)) return decoded;
    }
  }
  return text;
}

function child(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  return path ? `${path}.${key}` : key;
}

function where(path: string): string {
  return path || "arguments";
}

/** A Python `re` pattern as a JavaScript RegExp, or null when it cannot be compiled. */
function pyRegex(source: unknown): RegExp | null {
  if (typeof source !== "string") return null;
  const translated = source
    .replace(/\(\?P</g, "(?<")
    .replace(/\(\?P=(\w+)\)/g, "\\k<$1>")
    .replace(/\\A/g, "^")
    .replace(/\\Z/g, "$(?![\\s\\S])");
  for (const flags of ["u", ""]) {
    try {
      return new RegExp(translated, flags);
    } catch {
      continue;
    }
  }
  return null;
}

const accept: Check = (value) => value;

/** The check for one schema node; a non-object schema (`true`, junk) accepts anything. */
export function compileSchema(schema: unknown, depth = 0): Check {
  if (!isDict(schema) || depth > MAX_NESTING) return accept;
  const rawType = schema["type"];
  let types: string[] =
    typeof rawType === "string"
      ? [rawType]
      : Array.isArray(rawType)
        ? rawType.filter((t): t is string => typeof t === "string")
        : [];
  if (types.length > 0 && schema["nullable"] === true && !types.includes("null")) {
    types = [...types, "null"];
  }
  const steps: Check[] = [];
  for (const maker of MAKERS) {
    const step = maker(schema, depth);
    if (step !== null) steps.push(step);
  }
  return node(types, steps);
}

function node(types: readonly string[], steps: readonly Check[]): Check {
  return (value, path, problems, coerce) => {
    let nested = coerce;
    if (types.length > 0) {
      if (coerce && typeof value === "string") {
        value = coerceText(value, types);
        nested = false; // values inside decoded JSON are native
      }
      if (!types.some((name) => isType(value, name))) {
        const got = coerce && typeof value === "string" ? "text" : jsonTypeName(value);
        const shown = value === null ? "" : " " + show(value);
        problems.push(`${where(path)}: expected ${types.join(" or ")}, got ${got}${shown}`);
        return value;
      }
    }
    for (const step of steps) value = step(value, path, problems, nested);
    return value;
  };
}

function values(schema: Schema): Check | null {
  const enumValues = schema["enum"];
  const hasConst = has(schema, "const");
  if (!Array.isArray(enumValues) && !hasConst) return null;
  const allowed: unknown[] = Array.isArray(enumValues) ? [...enumValues] : [schema["const"]];
  const shown = allowed.map(show).join(", ");
  return (value, path, problems) => {
    const isBool = typeof value === "boolean";
    if (!allowed.some((v) => (typeof v === "boolean") === isBool && pyEqual(v, value))) {
      const lead = allowed.length !== 1 ? "must be one of" : "must be";
      problems.push(`${where(path)}: ${lead} ${shown} (got ${show(value)})`);
    }
    return value;
  };
}

type Bound = [(value: number, bound: number) => boolean, number, string];

function bounds(schema: Schema): Check | null {
  const tests: Bound[] = [];
  const low = schema["minimum"];
  const high = schema["maximum"];
  const exLow = schema["exclusiveMinimum"];
  const exHigh = schema["exclusiveMaximum"];
  if (isNumber(low)) {
    // draft 4 spells an exclusive bound as a flag beside it
    tests.push(exLow === true ? [(v, b) => v > b, low, "greater than"] : [(v, b) => v >= b, low, "at least"]);
  }
  if (isNumber(high)) {
    tests.push(exHigh === true ? [(v, b) => v < b, high, "less than"] : [(v, b) => v <= b, high, "at most"]);
  }
  if (isNumber(exLow)) tests.push([(v, b) => v > b, exLow, "greater than"]);
  if (isNumber(exHigh)) tests.push([(v, b) => v < b, exHigh, "less than"]);
  const step = schema["multipleOf"];
  if (isNumber(step) && step > 0) tests.push([multiple, step, "a multiple of"]);
  if (tests.length === 0) return null;
  return (value, path, problems) => {
    if (isNumber(value)) {
      for (const [test, bound, wanted] of tests) {
        if (!test(value, bound)) {
          problems.push(`${where(path)}: must be ${wanted} ${pyNumber(bound)} (got ${pyNumber(value)})`);
        }
      }
    }
    return value;
  };
}

function multiple(value: number, step: number): boolean {
  const quotient = value / step;
  return Number.isFinite(quotient) && Math.abs(quotient - Math.round(quotient)) < 1e-9;
}

function text(schema: Schema): Check | null {
  const rawLow = schema["minLength"];
  const rawHigh = schema["maxLength"];
  const low = isCount(rawLow) ? rawLow : null;
  const high = isCount(rawHigh) ? rawHigh : null;
  const source = schema["pattern"];
  const pattern = pyRegex(source);
  if (low === null && high === null && pattern === null) return null;
  return (value, path, problems) => {
    if (typeof value !== "string") return value;
    const length = pyLen(value);
    if (low !== null && length < low) problems.push(`${where(path)}: must be at least ${low} characters long`);
    if (high !== null && length > high) problems.push(`${where(path)}: must be at most ${high} characters long`);
    if (pattern !== null && !pattern.test(value)) {
      problems.push(`${where(path)}: must match the pattern ${String(source)}`);
    }
    return value;
  };
}

function count(schema: Schema, lowKey: string, highKey: string): [number | null, number | null] {
  const low = schema[lowKey];
  const high = schema[highKey];
  return [isCount(low) ? low : null, isCount(high) ? high : null];
}

function array(schema: Schema, depth: number): Check | null {
  let items = schema["items"];
  let prefixSource = schema["prefixItems"];
  if (Array.isArray(items)) {
    // draft 4 tuple form
    prefixSource = items;
    items = schema["additionalItems"];
  }
  const prefix = (Array.isArray(prefixSource) ? prefixSource : []).map((s) => compileSchema(s, depth + 1));
  const rest = isDict(items) ? compileSchema(items, depth + 1) : null;
  const closed = items === false;
  const [low, high] = count(schema, "minItems", "maxItems");
  const unique = schema["uniqueItems"] === true;
  if (!(prefix.length || rest || closed || unique) && low === null && high === null) return null;
  return (value, path, problems) => {
    if (!Array.isArray(value)) return value;
    if (low !== null && value.length < low) problems.push(`${where(path)}: must have at least ${low} items`);
    if (high !== null && value.length > high) problems.push(`${where(path)}: must have at most ${high} items`);
    if (closed && value.length > prefix.length) {
      problems.push(`${where(path)}: must have at most ${prefix.length} items`);
    }
    if (unique && new Set(value.map((v) => pySortedDumps(v))).size < value.length) {
      problems.push(`${where(path)}: items must be unique`);
    }
    const out = [...value];
    out.forEach((item, index) => {
      const itemCheck = index < prefix.length ? prefix[index] : rest;
      if (itemCheck) out[index] = itemCheck(item, child(path, index), problems, false);
    });
    return out;
  };
}

function object(schema: Schema, depth: number): Check | null {
  const rawProps = schema["properties"];
  const props = new Map<string, Check>();
  if (isDict(rawProps)) {
    for (const [key, sub] of Object.entries(rawProps)) props.set(key, compileSchema(sub, depth + 1));
  }
  const rawRequired = schema["required"];
  const required = (Array.isArray(rawRequired) ? rawRequired : []).filter((r): r is string => typeof r === "string");
  const extra = schema["additionalProperties"];
  const closed = extra === false;
  const extraCheck = isDict(extra) ? compileSchema(extra, depth + 1) : null;
  const patterns: [RegExp, Check][] = [];
  const rawPatterns = schema["patternProperties"];
  for (const [source, sub] of isDict(rawPatterns) ? Object.entries(rawPatterns) : []) {
    const pattern = pyRegex(source);
    if (pattern !== null) patterns.push([pattern, compileSchema(sub, depth + 1)]);
  }
  const [low, high] = count(schema, "minProperties", "maxProperties");
  const constrained = props.size > 0 || required.length > 0 || closed || extraCheck !== null || patterns.length > 0;
  if (!constrained && low === null && high === null) return null;
  return (value, path, problems, coerce) => {
    if (!isDict(value)) return value;
    for (const key of required) {
      if (!has(value, key)) problems.push(`${child(path, key)}: required, but missing`);
    }
    const size = Object.keys(value).length;
    if (low !== null && size < low) problems.push(`${where(path)}: must have at least ${low} properties`);
    if (high !== null && size > high) problems.push(`${where(path)}: must have at most ${high} properties`);
    const out: Record<string, unknown> = {};
    for (const [name, original] of Object.entries(value)) {
      let item = original;
      let matched = false;
      const sub = props.get(name);
      if (sub !== undefined) {
        item = sub(item, child(path, name), problems, coerce);
        matched = true;
      }
      for (const [pattern, patternCheck] of patterns) {
        if (pattern.test(name)) {
          item = patternCheck(item, child(path, name), problems, false);
          matched = true;
        }
      }
      if (!matched) {
        if (closed) problems.push(`${child(path, name)}: unknown parameter`);
        else if (extraCheck !== null) item = extraCheck(item, child(path, name), problems, false);
      }
      put(out, name, item);
    }
    return out;
  };
}

function combinators(schema: Schema, depth: number): Check | null {
  const branches = (key: string): Check[] => {
    const raw = schema[key];
    return (Array.isArray(raw) ? raw : []).map((s) => compileSchema(s, depth + 1));
  };
  const allOf = branches("allOf");
  const anyOf = branches("anyOf");
  const oneOf = branches("oneOf");
  if (!(allOf.length || anyOf.length || oneOf.length)) return null;
  return (value, path, problems) => {
    for (const branch of allOf) value = branch(value, path, problems, false);
    if (anyOf.length || oneOf.length) {
      const passing: unknown[] = [];
      for (const branch of anyOf.length ? anyOf : oneOf) {
        const found: string[] = [];
        const result = branch(value, path, found, false);
        if (found.length === 0) passing.push(result);
      }
      if (passing.length === 0) {
        const which = anyOf.length ? "any" : "exactly one";
        problems.push(`${where(path)}: must match ${which} of the allowed schemas (got ${show(value)})`);
      } else if (oneOf.length && passing.length > 1) {
        problems.push(`${where(path)}: matches more than one of the allowed schemas`);
      } else {
        value = passing[0];
      }
    }
    return value;
  };
}

const MAKERS: readonly ((schema: Schema, depth: number) => Check | null)[] = [
  values,
  bounds,
  text,
  array,
  object,
  combinators,
];

/**
 * A tool's argument check: `(params, coerce) => [typed arguments, problems]`.
 *
 * `null` for a parameter the schema does not require is removed first: strict formats make
 * optional parameters nullable and the model sends `null` for one it leaves out.
 */
export function argumentsChecker(schema: Readonly<Record<string, unknown>>): ArgumentsChecker {
  const check = compileSchema(schema);
  const rawRequired = schema["required"];
  const required = new Set((Array.isArray(rawRequired) ? rawRequired : []).filter((r) => typeof r === "string"));
  return (params, coerce) => {
    const problems: string[] = [];
    const cleaned: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(params)) {
      if ((value !== null && value !== undefined) || required.has(key)) put(cleaned, key, value);
    }
    const value = check(cleaned, "", problems, coerce);
    return [isDict(value) ? value : cleaned, problems];
  };
}
