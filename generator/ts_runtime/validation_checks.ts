/**
 * The validator's checks for one schema object: type, values, numbers, strings, arrays, objects
 * (mirrors validation_checks.py: the same checks, the same problem texts).
 *
 * A `Run` is `run(value, problems, coerce) => value`: it pushes each problem as an array
 * `[message, innermost key, ..., outermost key]` (keys are added on the way out, and only when
 * there is a problem) and returns the value (text coerced on the text path).
 */

import { PatternError, compilePattern } from "./ecma_regex.js";
import { CHECKS, LIKE } from "./json_formats.js";
import { isJsonNumber, isMultiple, jsonType, numberText, show, uniqueKey } from "./json_values.js";
import { has, isDict, put, pyLen, pyStrip, pyTypeName } from "./pyspell.js";
import { MAX_NESTING, jsonTextDepth } from "./schema_common.js";
import type { Located } from "./schema_index.js";
import { FORMATS } from "./validation_keywords.js";

export type Problem = (string | number)[];
export type Run = (value: unknown, problems: Problem[], coerce: boolean) => unknown;

const FORMAT_STATUS = new Map(FORMATS.map(([name, status, kind]) => [name, [status, kind] as const]));
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

/** The run of `true` and of `{}`. */
export const accept: Run = (value) => value;

/** Put the problems from `start` on under `key`. */
export function under(problems: Problem[], start: number, key: string | number): void {
  for (let index = start; index < problems.length; index++) (problems[index] as Problem).push(key);
}

/** A problem's place: `path` followed by its keys (`items[2].name`). */
export function placeText(problem: Problem, path = ""): string {
  for (let index = problem.length - 1; index >= 1; index--) {
    const key = problem[index] as string | number;
    if (typeof key === "number") path = `${path}[${key}]`;
    else path = path ? `${path}.${key}` : key;
  }
  return path;
}

/** Whether `value` passes a run (its problems are thrown away). */
export function passes(run: Run, value: unknown): boolean {
  const found: Problem[] = [];
  run(value, found, false);
  return found.length === 0;
}

function nonJsonNumber(value: unknown): boolean {
  return typeof value === "number" && !Number.isFinite(value);
}

/** How a type problem names the value it got (`text` on the text path). */
export function gotText(value: unknown, coerce: boolean): string {
  const kind = coerce && typeof value === "string" ? "text" : (jsonType(value) ?? pyTypeName(value));
  return value === null ? kind : `${kind} ${show(value)}`;
}

// ---- text-path coercion ----------------------------------------------------------------------

const DIGIT = "\\p{Nd}";
const INTEGER_TEXT = new RegExp(`^[-+]?${DIGIT}+$`, "u");
const NUMBER_TEXT = new RegExp(`^[-+]?(?:${DIGIT}+\\.?${DIGIT}*|\\.${DIGIT}+)(?:[eE][-+]?${DIGIT}+)?$`, "u");
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

/** The text read as one of `types` by validation.ts's rules, or the text unchanged. */
export function coerceText(text: string, types: readonly string[]): unknown {
  if (types.includes("string")) return text;
  const stripped = pyStrip(text);
  for (const name of COERCE_ORDER) {
    if (!types.includes(name)) continue;
    const integral = INTEGER_TEXT.test(stripped);
    // longer digit strings stay text, as Python's json.loads refuses them
    if (integral && (name === "integer" || name === "number") && pyLen(stripped) <= 4300) {
      return Number(asciiDigits(stripped));
    }
    if (name === "number" && !integral && NUMBER_TEXT.test(stripped)) {
      const number = Number(asciiDigits(stripped));
      if (Number.isFinite(number)) return number;
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
      if (jsonType(decoded) === name) return decoded;
    }
  }
  return text;
}

/** One compiled schema (object or boolean): its run and what annotations need of it. */
export class Node {
  readonly base: string;
  run: Run = accept;
  types: readonly string[] = [];
  /** What unevaluatedProperties/Items read: the applicators and their children. */
  readonly parts: Record<string, any> = {};
  resource: string | null = null;

  constructor(readonly place: Located) {
    this.base = place.base;
  }
}

/** The schema object being compiled: its keywords, where it is, and how to refuse one. */
export class Scope {
  schema: Record<string, any>;
  readonly dialect: string;

  constructor(
    readonly node: Node,
    private readonly child: (place: Located) => Node,
    private readonly refuser: (place: Located, keyword: string, reason: string) => void,
  ) {
    this.schema = node.place.schema;
    this.dialect = node.place.dialect;
  }

  has(key: string): boolean {
    return has(this.schema, key);
  }

  refuse(key: string, reason: string): void {
    this.refuser(this.node.place, key, reason);
  }

  /** The compiled subschema at `path` below this object; refused unless a schema. */
  sub(...path: (string | number)[]): Node | null {
    let value: any = this.schema;
    for (const part of path) value = value[part];
    const place = this.node.place;
    if (!(isDict(value) || typeof value === "boolean")) {
      const at = { ...place, schema: value, pointer: [...place.pointer, ...path.slice(0, -1)] };
      this.refuser(at, String(path[path.length - 1]), "must be a schema (an object or a boolean)");
      return null;
    }
    return this.child({
      schema: value,
      base: place.base,
      dialect: place.dialect,
      document: place.document,
      pointer: [...place.pointer, ...path],
    });
  }

  /** The compiled schemas of a keyword holding a non-empty list of them. */
  subs(key: string): Node[] | null {
    const value = this.schema[key];
    if (!Array.isArray(value) || value.length === 0) {
      this.refuse(key, "must be a non-empty list of schemas");
      return null;
    }
    const nodes = value.map((_, index) => this.sub(key, index));
    return nodes.every((n) => n !== null) ? (nodes as Node[]) : null;
  }

  /** A count keyword's value (2.0 is 2); refused unless a non-negative integer. */
  count(key: string): number | null {
    if (!this.has(key)) return null;
    const value = this.schema[key];
    if (typeof value === "bigint" && value >= 0n) return Number(value);
    if (typeof value === "number" && Number.isInteger(value) && value >= 0) return value;
    this.refuse(key, "must be a non-negative integer");
    return null;
  }

  number(key: string): number | bigint | null {
    if (!this.has(key)) return null;
    const value = this.schema[key];
    if (typeof value === "boolean" && key.startsWith("excl")) return null; // draft 4's flags
    if (isJsonNumber(value)) return value;
    this.refuse(key, "must be a number");
    return null;
  }

  /** A list of property names (`required`, `dependentRequired` entries). */
  names(key: string, value: unknown): readonly string[] | null {
    if (Array.isArray(value) && value.every((v) => typeof v === "string")) return [...new Set(value as string[])];
    this.refuse(key, "must be a list of property names");
    return null;
  }

  /** An ECMA-262 pattern's search function; refused when it does not compile. */
  pattern(key: string, source: unknown): ((text: string) => boolean) | null {
    if (typeof source !== "string") {
      this.refuse(key, "must be a regular expression (a string)");
      return null;
    }
    try {
      return compilePattern(source);
    } catch (error) {
      if (!(error instanceof PatternError)) throw error;
      this.refuse(key, `the pattern ${show(source)} is not valid: ${error.message}`);
      return null;
    }
  }
}

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

// ---- enum and const --------------------------------------------------------------------------

export function values(scope: Scope): Run | null {
  if (scope.has("enum")) {
    const allowed = scope.schema["enum"];
    if (!Array.isArray(allowed)) {
      scope.refuse("enum", "must be a list of values");
      return null;
    }
    if (scope.has("const") && scope.dialect !== "gemini") {
      return all(oneOfValues(allowed), oneOfValues([scope.schema["const"]]));
    }
    return oneOfValues(allowed);
  }
  return scope.has("const") ? oneOfValues([scope.schema["const"]]) : null;
}

export function all(...runs: (Run | null)[]): Run | null {
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
    if (search !== null && !search(value)) problems.push([`must match the pattern ${String(source)}`]);
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
  const [status, kind] = FORMAT_STATUS.get(name) ?? ["annotation", ""];
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

// ---- arrays ----------------------------------------------------------------------------------

export function arrays(scope: Scope): Run | null {
  const schema = scope.schema;
  const items = schema["items"];
  let prefix: Node[] = [];
  let rest: Node | null = null;
  if (scope.has("prefixItems") && scope.dialect === "2020-12") prefix = scope.subs("prefixItems") ?? [];
  if (Array.isArray(items)) {
    // draft 7's array form (also read in 2020-12)
    prefix = items.length > 0 ? (scope.subs("items") ?? []) : [];
    if (scope.has("additionalItems")) rest = scope.sub("additionalItems");
  } else if (scope.has("items")) {
    rest = scope.sub("items");
  }
  scope.node.parts["prefix"] = prefix.length;
  scope.node.parts["items"] = rest !== null;
  const low = scope.count("minItems");
  const high = scope.count("maxItems");
  const unique = scope.has("uniqueItems") ? schema["uniqueItems"] : false;
  if (typeof unique !== "boolean") scope.refuse("uniqueItems", "must be true or false");
  const contains = containsCheck(scope);
  const closed = rest !== null && rest.place.schema === false;
  if (closed) rest = null;
  const runs = prefix.map((n) => n.run);
  const restRun = rest !== null ? rest.run : null;
  if (!(runs.length > 0 || restRun || closed || unique === true || contains) && low === null && high === null) {
    return null;
  }
  const size = runs.length;
  return (value, problems) => {
    if (!Array.isArray(value)) return value;
    const count = value.length;
    if (low !== null && count < low) problems.push([`must have at least ${low} items`]);
    if (high !== null && count > high) problems.push([`must have at most ${high} items`]);
    if (closed && count > size) problems.push([`must have at most ${size} items`]);
    if (unique === true && new Set(value.map(uniqueKey)).size < count) problems.push(["items must be unique"]);
    let out = value;
    for (let index = 0; index < count; index++) {
      const check = index < size ? runs[index] : restRun;
      if (!check) {
        if (index >= size) break;
        continue;
      }
      const item = value[index];
      const start = problems.length;
      const next = check(item, problems, false);
      if (problems.length > start) under(problems, start, index);
      if (next !== item) {
        if (out === value) out = [...value];
        out[index] = next;
      }
    }
    if (contains !== null) contains(value, problems);
    return out;
  };
}

function containsCheck(scope: Scope): ((value: unknown[], problems: Problem[]) => void) | null {
  const modern = scope.dialect === "2020-12" || scope.dialect === "2019-09";
  const low = modern ? scope.count("minContains") : null;
  const high = modern ? scope.count("maxContains") : null;
  if (!scope.has("contains")) return null;
  const node = scope.sub("contains");
  if (node === null) return null;
  scope.node.parts["contains"] = node;
  const least = low === null ? 1 : low;
  const matching = `matching ${show(scope.schema["contains"])}`;
  const check = node.run;
  return (value, problems) => {
    let found = 0;
    for (const item of value) if (passes(check, item)) found += 1;
    if (found < least) problems.push([`must contain at least ${least} items ${matching}`]);
    if (high !== null && found > high) problems.push([`must contain at most ${high} items ${matching} (has ${found})`]);
  };
}

// ---- objects ---------------------------------------------------------------------------------

export function objects(scope: Scope): Run | null {
  const schema = scope.schema;
  const props = new Map<string, Run>();
  if (scope.has("properties")) {
    const raw = schema["properties"];
    if (isDict(raw)) {
      for (const key of Object.keys(raw)) {
        const sub = scope.sub("properties", key);
        if (sub !== null) props.set(key, sub.run);
      }
    } else {
      scope.refuse("properties", "must map property names to schemas");
    }
  }
  const required = scope.has("required") ? (scope.names("required", schema["required"]) ?? []) : [];
  const patterns: [(text: string) => boolean, Run][] = [];
  const rawPatterns = schema["patternProperties"];
  if (scope.has("patternProperties") && !isDict(rawPatterns)) scope.refuse("patternProperties", "must map patterns to schemas");
  for (const source of isDict(rawPatterns) ? Object.keys(rawPatterns) : []) {
    const search = scope.pattern("patternProperties", source);
    const sub = scope.sub("patternProperties", source);
    if (search !== null && sub !== null) patterns.push([search, sub.run]);
  }
  const extra = scope.has("additionalProperties") ? scope.sub("additionalProperties") : null;
  let closed = extra !== null && extra.place.schema === false;
  if (scope.dialect === "gemini" && isDict(schema["properties"]) && Object.keys(schema["properties"]).length > 0) {
    closed = true; // Gemini's objects take their declared properties only
  }
  const extraRun = extra === null || closed ? null : extra.run;
  const names = scope.has("propertyNames") ? scope.sub("propertyNames") : null;
  const low = scope.count("minProperties");
  const high = scope.count("maxProperties");
  const [needs, depends] = dependencies(scope);
  scope.node.parts["properties"] = new Set(props.keys());
  scope.node.parts["patterns"] = patterns.map((p) => p[0]);
  scope.node.parts["additional"] = extra !== null;
  const general = patterns.length > 0 || extraRun !== null || names !== null;
  if (!(props.size > 0 || required.length > 0 || closed || general || needs.size > 0 || depends.size > 0) && low === null && high === null) {
    return null;
  }
  const namesRun = names !== null ? names.run : null;

  /** patternProperties, additionalProperties and propertyNames for one property. */
  const more = (key: string, item: unknown, matched: boolean, problems: Problem[]): unknown => {
    for (const [search, patternRun] of patterns) {
      if (search(key)) {
        item = patternRun(item, problems, false);
        matched = true;
      }
    }
    if (!matched) {
      if (closed) problems.push(["unknown parameter"]);
      else if (extraRun !== null) item = extraRun(item, problems, false);
    }
    if (namesRun !== null) {
      const found: Problem[] = [];
      namesRun(key, found, false);
      for (const problem of found) problems.push([`the name ${show(key)} is not allowed: ${problem[0]}`]);
    }
    return item;
  };

  return (value, problems, coerce) => {
    if (!isDict(value)) return value;
    for (const key of required) if (!has(value, key)) problems.push(["required, but missing", key]);
    if (low !== null || high !== null) {
      const size = Object.keys(value).length;
      if (low !== null && size < low) problems.push([`must have at least ${low} properties`]);
      if (high !== null && size > high) problems.push([`must have at most ${high} properties`]);
    }
    let out = value;
    for (const [key, item] of Object.entries(value)) {
      const sub = props.get(key);
      let next = item;
      const start = problems.length;
      if (sub !== undefined) next = sub(item, problems, coerce);
      if (general) next = more(key, next, sub !== undefined, problems);
      else if (sub === undefined && closed) problems.push(["unknown parameter"]);
      if (problems.length > start) under(problems, start, key);
      if (next !== item) {
        if (out === value) out = { ...value };
        put(out, key, next);
      }
    }
    for (const [key, wanted] of needs) {
      if (!has(value, key)) continue;
      for (const name of wanted) {
        if (!has(value, name)) problems.push([`required when ${key} is present, but missing`, name]);
      }
    }
    for (const [key, depend] of depends) if (has(value, key)) depend(value, problems, false);
    return out;
  };
}

/** dependentRequired, dependentSchemas and draft 7's dependencies, by property name. */
function dependencies(scope: Scope): [Map<string, readonly string[]>, Map<string, Run>] {
  const needs = new Map<string, readonly string[]>();
  const depends = new Map<string, Run>();
  const parts = new Map<string, Node>();
  for (const key of ["dependentRequired", "dependentSchemas", "dependencies"]) {
    if (!scope.has(key)) continue;
    const raw = scope.schema[key];
    if (!isDict(raw)) {
      scope.refuse(key, "must map property names to a list of names or a schema");
      continue;
    }
    for (const [name, value] of Object.entries(raw)) {
      if (key !== "dependentSchemas" && Array.isArray(value)) {
        const found = scope.names(key, value);
        if (found && found.length > 0) needs.set(name, [...(needs.get(name) ?? []), ...found]);
      } else if (key !== "dependentRequired") {
        const sub = scope.sub(key, name);
        if (sub !== null) {
          parts.set(name, sub);
          const previous = depends.get(name);
          depends.set(name, previous === undefined ? sub.run : (all(previous, sub.run) as Run));
        }
      } else {
        scope.refuse(key, "must map property names to lists of names");
      }
    }
  }
  scope.node.parts["dependentSchemas"] = parts;
  return [needs, depends];
}
