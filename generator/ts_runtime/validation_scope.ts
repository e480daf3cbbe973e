/**
 * What every validator check shares: problems, the compiled `Node`, the `Scope` it reads
 * (mirrors validation_scope.py).
 *
 * A `Run` is `run(value, problems, coerce) => value`: it pushes each problem as an array
 * `[message, innermost key, ..., outermost key]` (keys are added on the way out, and only when
 * there is a problem) and returns the value (text coerced on the text path).
 */

import { PatternError, compilePattern } from "./ecma_regex.js";
import { isJsonNumber, jsonType, show } from "./json_values.js";
import { has, isDict, pyLen, pyStrip, pyTypeName } from "./pyspell.js";
import { MAX_NESTING, jsonTextDepth } from "./schema_common.js";
import type { Located } from "./schema_index.js";

export type Problem = (string | number)[];
export type Run = (value: unknown, problems: Problem[], coerce: boolean) => unknown;

/**
 * The longest text matched against a pattern, in code points; a longer one is a problem
 * (`unmatched`), in both runtimes alike. V8's matcher runs out of backtracking stack (a
 * RangeError) on texts of a few million characters, where Python answers; `matches` also reports
 * a shorter text that exhausts it, which only a pattern with many nested or repeated groups does
 * (Python answers those: the one difference, docs/patterns.md).
 */
export const MAX_PATTERN_TEXT = 1_000_000;

/** Whether `text` matches; null when it cannot be checked (too long, or the matcher gave up). */
export function matches(search: (text: string) => boolean, text: string): boolean | null {
  if (text.length > MAX_PATTERN_TEXT && pyLen(text) > MAX_PATTERN_TEXT) return null;
  try {
    return search(text);
  } catch (error) {
    if (error instanceof RangeError) return null; // V8's backtracking stack ran out
    throw error;
  }
}

/** The problem of a text that could not be checked against the pattern `source`. */
export function unmatched(source: unknown): string {
  return `could not be checked against the pattern ${String(source)}: too long to match (send a shorter text)`;
}

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

export function nonJsonNumber(value: unknown): boolean {
  return typeof value === "number" && !Number.isFinite(value);
}

/** How a type problem names the value it got (`text` on the text path). */
export function gotText(value: unknown, coerce: boolean): string {
  const kind = coerce && typeof value === "string" ? "text" : (jsonType(value) ?? pyTypeName(value));
  return value === null ? kind : `${kind} ${show(value)}`;
}

// ---- text-path coercion ----------------------------------------------------------------------

const DIGIT = "\\p{Nd}";
const INTEGER_TEXT = /* @__PURE__ */ new RegExp(`^[-+]?${DIGIT}+$`, "u");
const NUMBER_TEXT = /* @__PURE__ */ new RegExp(`^[-+]?(?:${DIGIT}+\\.?${DIGIT}*|\\.${DIGIT}+)(?:[eE][-+]?${DIGIT}+)?$`, "u");
const ANY_DIGIT = /* @__PURE__ */ new RegExp(DIGIT, "u");
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
