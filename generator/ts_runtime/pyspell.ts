/**
 * Python's values and spellings in JavaScript: the one place the TS runtime reproduces how the
 * Python runtime reads and writes values, so both give the same text byte for byte.
 *
 * A JSON object is a dict (`isDict`, `has`, `put`, `fromEntries`: data keys stay own keys);
 * Python's exceptions (`PyError`, `keyError`); `repr`, `str`, float `repr`, `format(x, "g")` and `json.dumps` text
 * (`pyRepr`, `pyStr`, `pyNumber`, `pyGeneral`, `pyJsonDumps`, `pySortedDumps`); `==`, `in`, `+`, `len`, indexing,
 * iteration and truthiness on JSON values; string ordering, `split`/`strip`/slicing by code point
 * with Python's whitespace set; exception names (`errorName`, `errorText`); and difflib's
 * did-you-mean (`closestName`). JavaScript numbers do not tell 1 from 1.0: an integral number is
 * written as an integer. There is no Python module of this name; json.loads is in pyjson.ts.
 */

/** Any JSON value, as the runtime reads it (a parsed reply, a schema, catalog data). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;
/** A JSON object: Python's dict. */
export type Schema = Record<string, Json>;

// ---- Python's dict and errors ------------------------------------------------------------

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

/** Whether `obj` has the own key `key` (Python's `key in dict`; never the prototype's names). */
export function has(obj: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key);
}

/** `record[key]` when it is an own key, else undefined (Python's `dict.get`; never the prototype's names). */
export function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return has(record, key) ? record[key] : undefined;
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

// ---- repr, str and json.dumps --------------------------------------------------------------

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
  const [mantissa = "", exponentText] = value.toExponential().split("e");
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
  if (typeof value === "bigint") return String(value); // an integer read losslessly
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

/** Python's `repr` of a JSON value (`'text'`, `None`, `True`, `[1, 'a']`, `{'k': 1}`); with
 * `tuples`, arrays read as the tuples of frozen catalog data (`(1,)`, `('a', 'b')`). */
export function pyRepr(value: unknown, tuples: boolean = false): string {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") return pyNumber(value);
  if (typeof value === "bigint") return String(value);
  if (typeof value === "string") return pyStrRepr(value);
  if (Array.isArray(value)) {
    const items = value.map((v) => pyRepr(v, tuples)).join(", ");
    if (!tuples) return "[" + items + "]";
    return "(" + items + (value.length === 1 ? ",)" : ")");
  }
  if (isDict(value)) {
    return "{" + Object.entries(value).map(([k, v]) => `${pyStrRepr(k)}: ${pyRepr(v, tuples)}`).join(", ") + "}";
  }
  return String(value);
}

/** Python's `format(value, "g")`: six significant digits, exponent form outside 1e-4 .. 1e6. */
export function pyGeneral(value: number): string {
  const rounded = Number(value.toPrecision(6));
  const exponent = rounded === 0 ? 0 : Math.floor(Math.log10(Math.abs(rounded)));
  if (exponent < -4 || exponent >= 6) {
    const [mantissa = "", exp = "0"] = rounded.toExponential().split("e");
    const sign = exp.startsWith("-") ? "-" : "+";
    return `${mantissa}e${sign}${exp.replace(/^[-+]/, "").padStart(2, "0")}`;
  }
  return String(rounded);
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
  if (typeof value === "bigint") return "int";
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

/** Python's `len(value)` for JSON values: a string's length in code points, a lone surrogate counting as one. */
export function pyLen(value: unknown): number {
  if (Array.isArray(value)) return value.length;
  if (typeof value === "string") {
    let count = 0;
    for (const _ of value) count += 1;
    return count;
  }
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
  for (let i = 0; ; i++) {
    const p = x[i]?.codePointAt(0);
    const q = y[i]?.codePointAt(0);
    if (p === undefined || q === undefined) return x.length - y.length;
    if (p !== q) return p - q;
  }
}

/** Python truthiness of a JSON value. */
export function pyTruthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false) return false;
  if (typeof value === "number") return value !== 0;
  if (typeof value === "string" || Array.isArray(value)) return value.length > 0;
  if (isDict(value)) return Object.keys(value).length > 0;
  return true;
}

// ---- str methods and exception names ---------------------------------------------------------

/** Characters Python's `str.split()` and `str.strip()` treat as whitespace. */
const PY_SPACE =
  "\t\n\v\f\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006" +
  "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000";
const SPACE_RUN = new RegExp(`[${PY_SPACE}]+`, "u");
const EDGE_SPACE = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, "gu");
const TRAILING_SPACE = new RegExp(`[${PY_SPACE}]+$`, "u");

// float() strips Python's whitespace except U+001C..U+001F (CPython maps only non-ASCII spaces to " ").
const FLOAT_SPACE = PY_SPACE.replace("\x1c\x1d\x1e\x1f", "");
const FLOAT_EDGE_SPACE = new RegExp(`^[${FLOAT_SPACE}]+|[${FLOAT_SPACE}]+$`, "gu");
const PY_FLOAT = /^[+-]?(?:(?:\d(?:_?\d)*)?\.?\d(?:_?\d)*(?:[eE][+-]?\d(?:_?\d)*)?|\d(?:_?\d)*\.|inf(?:inity)?|nan)$/i;

/** Python's float(text), or null where Python raises ValueError. */
export function pyFloat(text: string): number | null {
  const body = text.replace(FLOAT_EDGE_SPACE, "");
  if (!PY_FLOAT.test(body)) return null;
  const lower = body.toLowerCase().replace(/_/g, "");
  const sign = lower.startsWith("-") ? -1 : 1;
  const bare = lower.replace(/^[+-]/, "");
  if (bare.startsWith("inf")) return sign * Infinity;
  if (bare === "nan") return NaN;
  return Number(lower);
}

/** `text.split()` in Python: the non-blank runs. */
export function pySplit(text: string): string[] {
  return text.split(SPACE_RUN).filter((part) => part !== "");
}

/** `text.strip()` in Python. */
export function pyStrip(text: string): string {
  return text.replace(EDGE_SPACE, "");
}

/** `text.rstrip()` in Python. */
export function pyRstrip(text: string): string {
  return text.replace(TRAILING_SPACE, "");
}

/** `text[:count]` in Python (code points). */
export function pySlice(text: string, count: number): string {
  if (count <= 0) return "";
  let out = "";
  let taken = 0;
  for (const char of text) {
    if (taken === count) break;
    out += char;
    taken += 1;
  }
  return out;
}

/** `type(exc).__name__` in Python: the error's name, or its class's when it kept the default. */
export function errorName(error: unknown): string {
  if (!(error instanceof Error)) return "Error";
  if (error.name && error.name !== "Error") return error.name;
  return error.constructor?.name || "Error";
}

/** `f"{type(exc).__name__}: {exc}"` in Python. */
export function errorText(error: unknown): string {
  return `${errorName(error)}: ${error instanceof Error ? error.message : String(error)}`;
}

/** `json.dumps(value, sort_keys=True)` in Python: a canonical text of a JSON value. */
export function pySortedDumps(value: unknown): string {
  const sorted = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(sorted);
    if (!isDict(node)) return node;
    const keys = Object.keys(node).sort(codePointCompare);
    return fromEntries(keys.map((k) => [k, sorted(node[k])]));
  };
  return pyJsonDumps(sorted(value));
}

// ---- did you mean (difflib) -----------------------------------------------------------------

/** The known name a mistyped `name` most likely meant: one it starts (`provider` -> `provider_id`),
 * else the nearest by spelling (Python's difflib.get_close_matches, cutoff 0.6); null when none. */
export function closestName(name: string, known: readonly string[]): string | null {
  const prefixed = known.filter((candidate) => candidate.startsWith(name + "_"));
  if (prefixed.length > 0) return prefixed[0] ?? null;
  let best: [number, string] | null = null;
  for (const candidate of known) {
    const score = similarity(candidate, name);
    if (score === null) continue;
    if (best === null || score > best[0] || (score === best[0] && candidate > best[1])) best = [score, candidate];
  }
  return best === null ? null : best[1];
}

/** difflib's ratio of `a` and `b` (SequenceMatcher(None, a, b)) when it reaches 0.6, else null;
 * with the same quick rejections, so the same candidates pass. Characters are code points. */
function similarity(aText: string, bText: string): number | null {
  const a = Array.from(aText);
  const b = Array.from(bText);
  const total = a.length + b.length;
  const ratio = (matches: number): number => (total ? (2.0 * matches) / total : 1.0);
  const cutoff = 0.6;
  if (ratio(Math.min(a.length, b.length)) < cutoff) return null;
  const avail = new Map<string, number>();
  for (const ch of b) avail.set(ch, (avail.get(ch) ?? 0) + 1);
  let common = 0;
  for (const ch of a) {
    const left = avail.get(ch) ?? 0;
    if (left > 0) common += 1;
    avail.set(ch, left - 1);
  }
  if (ratio(common) < cutoff) return null;
  const score = ratio(matchingCharacters(a, b));
  return score >= cutoff ? score : null;
}

/** The total size of difflib's matching blocks of `a` and `b` (autojunk on, no junk function). */
function matchingCharacters(a: readonly string[], b: readonly string[]): number {
  const b2j = new Map<string, number[]>();
  b.forEach((ch, j) => {
    const list = b2j.get(ch);
    if (list === undefined) b2j.set(ch, [j]);
    else list.push(j);
  });
  if (b.length >= 200) {
    const popular = Math.floor(b.length / 100) + 1;
    for (const [ch, list] of [...b2j]) if (list.length > popular) b2j.delete(ch);
  }
  const longest = (alo: number, ahi: number, blo: number, bhi: number): [number, number, number] => {
    let [bestI, bestJ, bestSize] = [alo, blo, 0];
    let j2len = new Map<number, number>();
    for (let i = alo; i < ahi; i++) {
      const next = new Map<number, number>();
      for (const j of b2j.get(a[i] ?? "") ?? []) {
        if (j < blo) continue;
        if (j >= bhi) break;
        const k = (j2len.get(j - 1) ?? 0) + 1;
        next.set(j, k);
        if (k > bestSize) [bestI, bestJ, bestSize] = [i - k + 1, j - k + 1, k];
      }
      j2len = next;
    }
    while (bestI > alo && bestJ > blo && a[bestI - 1] === b[bestJ - 1]) [bestI, bestJ, bestSize] = [bestI - 1, bestJ - 1, bestSize + 1];
    while (bestI + bestSize < ahi && bestJ + bestSize < bhi && a[bestI + bestSize] === b[bestJ + bestSize]) bestSize += 1;
    return [bestI, bestJ, bestSize];
  };
  let matched = 0;
  const queue: [number, number, number, number][] = [[0, a.length, 0, b.length]];
  while (queue.length > 0) {
    const [alo, ahi, blo, bhi] = queue.pop() as [number, number, number, number];
    const [i, j, k] = longest(alo, ahi, blo, bhi);
    if (k === 0) continue;
    matched += k;
    if (alo < i && blo < j) queue.push([alo, i, blo, j]);
    if (i + k < ahi && j + k < bhi) queue.push([i + k, ahi, j + k, bhi]);
  }
  return matched;
}
