/**
 * Shared pieces of the schema converters; mirrors runtime/schema_common.py.
 *
 * Besides the errors, limits and text helpers of the Python module, this file holds the few
 * Python spellings the output must reproduce byte for byte: `json.dumps` text (used in
 * descriptions), `repr` (used in messages and skip reasons) and Python's `==` on JSON values.
 * JavaScript numbers do not tell 1 from 1.0: an integral number is written as an integer.
 */

/** Keys and indices into a schema or a tool list. */
export type Path = readonly (string | number)[];
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;
export type Schema = Record<string, Json>;
/** Per key of a merged node: the input path it came from. */
export type Origins = Map<string, Path>;

/** The one nesting limit for every input toolgen reads (spec files, contexts, MCP schemas). */
export const MAX_NESTING = 100;

/** Stands in for an integer the MCP loader could not read (Python: over 4300 digits). */
export class TooLong {
  toString(): string {
    return "<integer with too many digits>";
  }
}
export const TOO_LONG = new TooLong();

/** A JSON object (Python `isinstance(value, dict)`). */
export function isDict(value: unknown): value is Schema {
  return (
    typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof TooLong)
  );
}

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

/** An error spelled as Python raises it: `name` is the Python exception type (KeyError, ...). */
export class PyError extends Error {
  constructor(type: string, message: string) {
    super(message);
    this.name = type;
  }
}

/** Python's `KeyError(key)`: its text is the key's repr. */
export function keyError(key: unknown): PyError {
  return new PyError("KeyError", pyRepr(key));
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

/** Whether `obj` has the own key `key` (Python's `key in dict`; never the prototype's names). */
export function has(obj: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key);
}

/** `obj[key] = value` for a key from data: "__proto__" becomes an own key, as in a Python dict. */
export function put(obj: Schema, key: string, value: Json): void {
  if (key === "__proto__") {
    Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    obj[key] = value;
  }
}

/** A dict built from entries, data keys kept as own keys (Python's `dict(pairs)`). */
export function fromEntries(entries: Iterable<readonly [string, Json]>): Schema {
  const out: Schema = {};
  for (const [k, v] of entries) put(out, k, v);
  return out;
}

// ---- Python spellings ------------------------------------------------------------------------

/** Python's `repr` of a float (or of an integral number: JavaScript cannot tell the two apart). */
export function pyNumber(value: number, json: boolean = false): string {
  if (Number.isNaN(value)) return json ? "NaN" : "nan";
  if (!Number.isFinite(value)) {
    if (json) return value > 0 ? "Infinity" : "-Infinity";
    return value > 0 ? "inf" : "-inf";
  }
  // Integral numbers below 1e16 read as Python ints; larger ones as floats (1e+16), as a
  // JSON reader in JavaScript cannot hold such integers exactly anyway.
  if (Number.isInteger(value) && Math.abs(value) < 1e16) return String(value);
  // Shortest round-trip digits, laid out as Python's repr lays them out.
  const [mantissa, exponentText] = value.toExponential().split("e");
  const exponent = Number(exponentText);
  const sign = mantissa.startsWith("-") ? "-" : "";
  const digits = mantissa.replace("-", "").replace(".", "");
  if (exponent < -4 || exponent >= 16) {
    const body = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const exp = Math.abs(exponent).toString().padStart(2, "0");
    return `${sign}${body}e${exponent < 0 ? "-" : "+"}${exp}`;
  }
  if (exponent < 0) return `${sign}0.${"0".repeat(-exponent - 1)}${digits}`;
  const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, "0");
  const fraction = digits.slice(exponent + 1) || "0";
  return `${sign}${whole}.${fraction}`;
}

const JSON_ESCAPES: Record<string, string> = {
  '"': '\\"',
  "\\": "\\\\",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "\b": "\\b",
  "\f": "\\f",
};

function pyJsonString(text: string): string {
  return (
    '"' +
    text.replace(/["\\\u0000-\u001f]/g, (c) => {
      return JSON_ESCAPES[c] ?? "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0");
    }) +
    '"'
  );
}

/** Python's `json.dumps(value, ensure_ascii=False, separators=(item, key))`. */
export function pyJsonDumps(value: unknown, item: string = ", ", key: string = ": "): string {
  if (value === null || value === undefined) return "null";
  if (value === true) return "true";
  if (value === false) return "false";
  if (typeof value === "number") return pyNumber(value, true);
  if (typeof value === "string") return pyJsonString(value);
  if (Array.isArray(value)) return "[" + value.map((v) => pyJsonDumps(v, item, key)).join(item) + "]";
  if (isDict(value)) {
    const parts = Object.entries(value).map(
      ([k, v]) => pyJsonString(k) + key + pyJsonDumps(v, item, key),
    );
    return "{" + parts.join(item) + "}";
  }
  throw new TypeError(`Object of type ${pyTypeName(value)} is not JSON serializable`);
}

const NOT_PRINTABLE = /^[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]$/u;

function pyStrRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (char === quote || char === "\\") out += "\\" + char;
    else if (char === "\t") out += "\\t";
    else if (char === "\n") out += "\\n";
    else if (char === "\r") out += "\\r";
    else if (code < 0x20 || code === 0x7f) out += "\\x" + code.toString(16).padStart(2, "0");
    else if (code < 0x7f || char === " " || !NOT_PRINTABLE.test(char)) out += char;
    else if (code <= 0xff) out += "\\x" + code.toString(16).padStart(2, "0");
    else if (code <= 0xffff) out += "\\u" + code.toString(16).padStart(4, "0");
    else out += "\\U" + code.toString(16).padStart(8, "0");
  }
  return out + quote;
}

/** Python's `repr` of a JSON value (`'text'`, `None`, `True`, `[1, 'a']`, `{'k': 1}`). */
export function pyRepr(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") return pyNumber(value);
  if (typeof value === "string") return pyStrRepr(value);
  if (Array.isArray(value)) return "[" + value.map(pyRepr).join(", ") + "]";
  if (isDict(value)) {
    return "{" + Object.entries(value).map(([k, v]) => `${pyStrRepr(k)}: ${pyRepr(v)}`).join(", ") + "}";
  }
  return String(value);
}

/** Python's `str` of a JSON value (a string as it is, anything else as its repr). */
export function pyStr(value: unknown): string {
  return typeof value === "string" ? value : pyRepr(value);
}

/** Python's type name of a JSON value, as its error messages spell it. */
export function pyTypeName(value: unknown): string {
  if (value === null || value === undefined) return "NoneType";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  if (typeof value === "string") return "str";
  if (Array.isArray(value)) return "list";
  if (value instanceof TooLong) return "_TooLong";
  return "dict";
}

/** Python's `==` on JSON values (True == 1, NaN != NaN, dicts equal regardless of order). */
export function pyEqual(a: unknown, b: unknown): boolean {
  if (typeof a === "boolean" || typeof b === "boolean") {
    if (typeof a === "number" || typeof b === "number") return Number(a) === Number(b);
    return a === b;
  }
  if (typeof a === "number" && typeof b === "number") return a === b;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((v, i) => pyEqual(v, b[i]));
  }
  if (isDict(a) && isDict(b)) {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((k) => has(b, k) && pyEqual(a[k], b[k]));
  }
  return a === b;
}

/** Python's `value in container` for JSON containers (a dict's keys, a list's items, a substring). */
export function pyIn(value: unknown, container: unknown): boolean {
  if (Array.isArray(container)) return container.some((v) => pyEqual(value, v));
  if (isDict(container)) {
    if (Array.isArray(value) || isDict(value)) {
      throw new TypeError(`unhashable type: '${pyTypeName(value)}'`);
    }
    return typeof value === "string" && has(container, value);
  }
  if (typeof container === "string") {
    if (typeof value !== "string") {
      throw new TypeError(`'in <string>' requires string as left operand, not ${pyTypeName(value)}`);
    }
    return container.includes(value);
  }
  throw new TypeError(`argument of type '${pyTypeName(container)}' is not iterable`);
}

/** Python's `left + right` where `right` is a list (a TypeError unless `left` is a list too). */
export function pyConcat(left: unknown, right: unknown[]): unknown[] {
  if (Array.isArray(left)) return [...left, ...right];
  if (typeof left === "string") throw new TypeError('can only concatenate str (not "list") to str');
  throw new TypeError(`unsupported operand type(s) for +: '${pyTypeName(left)}' and 'list'`);
}

/** Python's `len(value)` for JSON values. */
export function pyLen(value: unknown): number {
  if (Array.isArray(value)) return value.length;
  if (typeof value === "string") return [...value].length;
  if (isDict(value)) return Object.keys(value).length;
  throw new TypeError(`object of type '${pyTypeName(value)}' has no len()`);
}

/** Python's `value[i]` for a JSON value and an integer index. */
export function pyIndex(value: unknown, i: number): unknown {
  if (Array.isArray(value)) return value[i];
  if (typeof value === "string") return [...value][i];
  throw keyError(i);
}

/** Python's `iter(value)` for JSON values: a list's items, a dict's keys, a string's characters. */
export function pyIter(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (isDict(value)) return Object.keys(value);
  if (typeof value === "string") return [...value];
  throw new TypeError(`'${pyTypeName(value)}' object is not iterable`);
}

/** Python's ordering of strings: by code point (JavaScript's `<` compares UTF-16 units). */
export function codePointCompare(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i].codePointAt(0)! - y[i].codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
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
  while (i < bytes.length) {
    const b = bytes[i];
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

export function renderList(values: unknown[]): string {
  return values.map((v) => render(v)).join(", ");
}

/** Append the moved-keyword sentences to a description. */
export function withExtras(description: string | null | undefined, extras: string[]): string | null | undefined {
  if (extras.length === 0) return description;
  return extrasLead(description) + extras.join(" ");
}

// Python's str.isspace characters (JavaScript's \s differs: it takes U+FEFF, not U+001C..U+001F).
const PY_WHITESPACE = /[\t\n\v\f\r\u001c-\u001f \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/u;

/** What precedes the moved-keyword sentences in a converted description. */
export function extrasLead(description: string | null | undefined): string {
  if (!description) return "";
  const body = description.replace(PY_WHITESPACE, "");
  return body + (body.includes("\n") ? "\n\n" : " ");
}

export function joinDescriptions(outer: Json, inner: Json): Json {
  if (typeof inner !== "string" || !inner) return outer;
  if (typeof outer !== "string" || !outer) return inner;
  if (outer.includes(inner)) return outer;
  return outer.replace(PY_WHITESPACE, "") + "\n\n" + inner;
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

/** Python truthiness of a JSON value. */
export function pyTruthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false) return false;
  if (typeof value === "number") return value !== 0;
  if (typeof value === "string" || Array.isArray(value)) return value.length > 0;
  if (isDict(value)) return Object.keys(value).length > 0;
  return true;
}

/** The description text standing in for a keyword the dialect cannot take. */
export function extraSentence(key: string, value: Json): string {
  if (has(SENTENCE, key)) {
    const shown = render(value);
    return SENTENCE[key].replace("{}", () => shown);
  }
  if (has(FLAG_SENTENCES, key)) {
    return FLAG_SENTENCES[key][pyTruthy(value) ? 0 : 1];
  }
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
