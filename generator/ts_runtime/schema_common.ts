/**
 * Shared pieces of the schema converters; mirrors runtime/schema_common.py: the errors, limits,
 * keyword tables and text helpers of the Python module, and UTF-8 without TextEncoder. The
 * Python spellings these texts are made of (`json.dumps`, `repr`, `==`, ...) are in pyspell.ts.
 */

import { has, isDict, own, put, pyIter, pyJsonDumps, pyRstrip, pyStr, pyTruthy, pyTypeName, type Json, type Schema } from "./pyspell.js";

/** Keys and indices into a schema or a tool list. */
export type Path = readonly (string | number)[];
export type { Json, Schema } from "./pyspell.js";
/** Per key of a merged node: the input path it came from. */
export type Origins = Map<string, Path>;

/** The one nesting limit for every input toolgen reads (spec files, contexts, MCP schemas). */
export const MAX_NESTING = 100;

/** How deeply objects and arrays nest in `value`, counted without recursion; stops past `limit`. */
export function nestingDepth(value: unknown, limit: number = MAX_NESTING): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [item, level] = stack.pop()!;
    let children: unknown[];
    if (Array.isArray(item)) children = item;
    else if (isDict(item)) children = Object.values(item);
    else continue;
    if (level > limit) return limit + 1;
    if (level > deepest) deepest = level;
    for (const child of children) stack.push([child, level + 1]);
  }
  return deepest;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether a string (or key) anywhere in `value` holds a lone surrogate (no UTF-8 for it). */
export function hasLoneSurrogate(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === "string") {
      if (LONE_SURROGATE.test(item)) return true;
    } else if (Array.isArray(item)) {
      stack.push(...item);
    } else if (isDict(item)) {
      for (const [k, v] of Object.entries(item)) stack.push(k, v);
    }
  }
  return false;
}

/** The skip reason for a run-time tool whose text holds a lone surrogate. */
export const UNENCODABLE =
  "text holds a lone surrogate (U+D800..U+DFFF), which UTF-8 cannot encode";

/** `text` with any lone surrogate spelled as an escape (Python's backslashreplace). */
export function printable(text: string): string {
  return text.replace(
    new RegExp(LONE_SURROGATE.source, "g"),
    (s) => "\\u" + s.charCodeAt(0).toString(16).padStart(4, "0"),
  );
}

/** Bracket nesting of JSON text, counted before a parser sees it; brackets in strings skipped. */
export function jsonTextDepth(text: string, limit: number = MAX_NESTING): number {
  let deepest = 0;
  for (const [, depth] of jsonBrackets(text)) {
    if (depth > limit) return limit + 1;
    if (depth > deepest) deepest = depth;
  }
  return deepest;
}

/**
 * Whether JSON text nests deeper than `limit` (`jsonTextDepth(text) > limit`), as
 * schema_common.py's `json_text_too_deep`: text with at most `limit` opening brackets cannot be
 * too deep; past that, the string literals are cut out (the spans `jsonBrackets` skips) and the
 * openers outside them counted; only text with more than `limit` of those is walked.
 */
export function jsonTextTooDeep(text: string, limit: number = MAX_NESTING): boolean {
  if (openers(text) <= limit) return false;
  const outside = text.replace(/"(?:[^"\\]|\\[\s\S])*(?:"|$)/g, "");
  if (openers(outside) <= limit) return false;
  let depth = 0;
  for (const char of outside.replace(/[^[\]{}]+/g, "")) {
    if (char === "[" || char === "{") {
      depth += 1;
      if (depth > limit) return true;
    } else if (depth > 0) {
      depth -= 1;
    }
  }
  return false;
}

function openers(text: string): number {
  let count = 0;
  for (let i = text.indexOf("{"); i >= 0; i = text.indexOf("{", i + 1)) count++;
  for (let i = text.indexOf("["); i >= 0; i = text.indexOf("[", i + 1)) count++;
  return count;
}

/** A bracket outside strings: its character and offset. */
export interface Bracket {
  readonly char: string;
  readonly index: number;
}

/** Each bracket outside strings with its nesting level (an opener and its closer share one). */
export function* jsonBrackets(text: string): Generator<[Bracket, number]> {
  let depth = 0;
  const scanner = /"(?:[^"\\]|\\[\s\S])*(?:"|$)|([[\]{}])/g;
  let match: RegExpExecArray | null;
  while ((match = scanner.exec(text)) !== null) {
    const char = match[1];
    if (char === undefined) continue;
    const bracket = { char, index: match.index };
    if (char === "[" || char === "{") {
      depth += 1;
      yield [bracket, depth];
    } else {
      yield [bracket, depth];
      depth = Math.max(depth - 1, 0);
    }
  }
}

export const JSON_TYPES: readonly string[] = [
  "string",
  "number",
  "integer",
  "boolean",
  "array",
  "object",
  "null",
];
export const METADATA: readonly string[] = [
  "$schema",
  "$id",
  "$comment",
  "$anchor",
  "$dynamicAnchor",
  "$vocabulary",
];
export const DEF_CONTAINERS: readonly string[] = ["$defs", "definitions"];
export const SCHEMA_ONE: readonly string[] = [
  "items",
  "additionalProperties",
  "not",
  "if",
  "then",
  "else",
  "propertyNames",
  "contains",
  "unevaluatedItems",
  "unevaluatedProperties",
  "additionalItems",
];
export const SCHEMA_LIST: readonly string[] = ["anyOf", "oneOf", "allOf", "prefixItems"];
export const SCHEMA_MAP: readonly string[] = ["properties", "patternProperties", "dependentSchemas"];

/** A schema (or tool) the dialect cannot take; `path` locates the problem as in Python. */
export class DialectError extends Error {
  readonly path: Path;
  readonly hint: string;
  readonly detail: string;

  constructor(path: Path, message: string, hint: string = "") {
    const where = path.map((p) => String(p)).join("/") || "<root>";
    let text = `${where}: ${message}`;
    if (hint) text += ` (hint: ${hint})`;
    super(text);
    this.name = "DialectError";
    this.path = [...path];
    this.detail = message;
    this.hint = hint;
  }
}

/** A non-fatal warning; `path` is located like DialectError's. */
export interface Notice {
  readonly path: Path;
  readonly message: string;
}

/** Result of convert: the converted parameters schema and the notices raised. */
export interface Conversion {
  readonly schema: Schema;
  readonly notices: readonly Notice[];
}

/** The UTF-8 bytes of `text` (lone surrogates as U+FFFD); no TextEncoder in plain ES2022. */
export function utf8Encode(text: string): Uint8Array {
  const bytes: number[] = [];
  for (const char of text) {
    let code = char.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) code = 0xfffd;
    if (code < 0x80) bytes.push(code);
    else if (code < 0x800) bytes.push(0xc0 | (code >> 6), 0x80 | (code & 63));
    else if (code < 0x10000) bytes.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
    else {
      bytes.push(0xf0 | (code >> 18), 0x80 | ((code >> 12) & 63), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
    }
  }
  return Uint8Array.from(bytes);
}

/** `bytes` decoded as UTF-8, each maximal invalid subpart replaced by U+FFFD (Python's "replace"). */
export function utf8Decode(bytes: Uint8Array): string {
  let out = "";
  let i = 0;
  for (let b = bytes[0]; b !== undefined; b = bytes[i]) {
    let need = 0;
    let code = 0;
    let lower = 0x80;
    let upper = 0xbf;
    if (b < 0x80) {
      out += String.fromCharCode(b);
      i += 1;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      code = b & 0x1f;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      code = b & 0x0f;
      if (b === 0xe0) lower = 0xa0;
      if (b === 0xed) upper = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      code = b & 0x07;
      if (b === 0xf0) lower = 0x90;
      if (b === 0xf4) upper = 0x8f;
    } else {
      out += "\ufffd";
      i += 1;
      continue;
    }
    let j = 1;
    for (; j <= need; j++) {
      const next = bytes[i + j];
      if (next === undefined || next < lower || next > upper) break;
      code = (code << 6) | (next & 0x3f);
      lower = 0x80;
      upper = 0xbf;
    }
    if (j <= need) {
      out += "\ufffd";
      i += j;
    } else {
      out += String.fromCodePoint(code);
      i += need + 1;
    }
  }
  return out;
}

// ---- small helpers ---------------------------------------------------------------------------

export function render(value: unknown): string {
  return pyJsonDumps(value);
}

function renderList(values: unknown[]): string {
  return values.map((v) => render(v)).join(", ");
}

/** Append the moved-keyword sentences to a description. */
export function withExtras(description: string | null | undefined, extras: string[]): string | null | undefined {
  if (extras.length === 0) return description;
  return extrasLead(description) + extras.join(" ");
}

/** What precedes the moved-keyword sentences in a converted description. */
export function extrasLead(description: string | null | undefined): string {
  if (!description) return "";
  const body = pyRstrip(description);
  return body + (body.includes("\n") ? "\n\n" : " ");
}

export function joinDescriptions(outer: Json, inner: Json): Json {
  if (typeof inner !== "string" || !inner) return outer;
  if (typeof outer !== "string" || !outer) return inner;
  if (outer.includes(inner)) return outer;
  return pyRstrip(outer) + "\n\n" + inner;
}

const ORDER_FIRST = ["type", "description", "properties", "required", "additionalProperties"];

export function ordered(d: Schema): Schema {
  const out: Schema = {};
  for (const k of ORDER_FIRST) if (has(d, k)) out[k] = d[k];
  for (const [k, v] of Object.entries(d)) {
    if (!has(out, k) && k !== "$defs") put(out, k, v);
  }
  if (has(d, "$defs")) out["$defs"] = d["$defs"];
  return out;
}

export function isNumber(v: unknown): v is number {
  return typeof v === "number";
}

export function jsonTypeOf(value: unknown): string | null {
  if (value === null) return "null";
  if (typeof value === "boolean") return "boolean";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  if (typeof value === "string") return "string";
  if (Array.isArray(value)) return "array";
  if (isDict(value)) return "object";
  return null;
}

/** A value's JSON type name, or its Python type name where it has no JSON type (`_TooLong`). */
export function jsonTypeName(value: unknown): string {
  return jsonTypeOf(value) ?? pyTypeName(value);
}

const SENTENCE: Record<string, string> = {
  default: "Default: {}.",
  minLength: "Minimum length: {}.",
  maxLength: "Maximum length: {}.",
  exclusiveMinimum: "Must be greater than {}.",
  exclusiveMaximum: "Must be less than {}.",
  multipleOf: "Must be a multiple of {}.",
  minProperties: "At least {} properties.",
  maxProperties: "At most {} properties.",
  propertyNames: "Property names must match the schema {}.",
};
const FLAG_SENTENCES: Record<string, [string, string]> = {
  uniqueItems: ["Items must be unique.", "Items need not be unique."],
  deprecated: ["Deprecated.", "Not deprecated."],
  readOnly: ["Read-only.", "Not read-only."],
  writeOnly: ["Write-only.", "Not write-only."],
};

/** The description text standing in for a keyword the dialect cannot take. */
export function extraSentence(key: string, value: Json): string {
  const sentence = own(SENTENCE, key);
  if (sentence !== undefined) {
    const shown = render(value);
    return sentence.replace("{}", () => shown);
  }
  const flag = own(FLAG_SENTENCES, key);
  if (flag !== undefined) return flag[pyTruthy(value) ? 0 : 1];
  if (key === "enum" || key === "const") {
    const values = key === "enum" ? pyIter(value) : [value];
    return `Allowed values: ${renderList(values)}.`;
  }
  if (key === "examples") {
    const shown = Array.isArray(value) ? renderList(value) : render(value);
    return `Examples: ${shown}.`;
  }
  if (key === "format") return `Format: ${pyStr(value)}.`;
  return `${key}: ${render(value)}.`;
}
