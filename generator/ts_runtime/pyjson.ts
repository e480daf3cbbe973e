/**
 * Text the way the Python runtime writes it, so both runtimes give the same messages.
 *
 * Python's `json.dumps`, `repr` of numbers, `str.split()`/`strip()` and `len` differ from their
 * JavaScript counterparts in small ways (float spelling, whitespace set, code points versus UTF-16
 * units); messages that quote values use these helpers instead. There is no Python module of this
 * name: the helpers serve several modules (labels, validation, replies).
 *
 * A JavaScript number cannot say whether it was written `3` or `3.0`: a safe integer is spelled
 * as a Python int, everything else as a Python float.
 */

/** Characters Python's `str.split()` and `str.strip()` treat as whitespace. */
const PY_SPACE =
  "\t\n\v\f\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006" +
  "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000";
const SPACE_RUN = new RegExp(`[${PY_SPACE}]+`, "u");
const EDGE_SPACE = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, "gu");

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
  return text.replace(new RegExp(`[${PY_SPACE}]+$`, "u"), "");
}

/** `len(text)` in Python: code points, a lone surrogate counting as one. */
export function pyLen(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
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

/** Python's `repr(float)`: shortest round-trip digits, exponent outside 1e-4 <= |x| < 1e16. */
function floatRepr(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (!Number.isFinite(value)) return value > 0 ? "Infinity" : "-Infinity";
  if (value === 0) return Object.is(value, -0) ? "-0.0" : "0.0";
  const [mantissa = "", exponent = "0"] = value.toExponential().split("e");
  const negative = mantissa.startsWith("-");
  const digits = mantissa.replace("-", "").replace(".", "");
  const exp = Number(exponent);
  let out: string;
  if (exp >= -4 && exp < 16) {
    if (exp >= 0) {
      const whole = digits.slice(0, exp + 1).padEnd(exp + 1, "0");
      out = `${whole}.${digits.slice(exp + 1) || "0"}`;
    } else {
      out = `0.${"0".repeat(-exp - 1)}${digits}`;
    }
  } else {
    const rest = digits.length > 1 ? `.${digits.slice(1)}` : "";
    const sign = exp < 0 ? "-" : "+";
    out = `${digits[0]}${rest}e${sign}${String(Math.abs(exp)).padStart(2, "0")}`;
  }
  return negative ? `-${out}` : out;
}

/** A number as Python's `str()` and `json.dumps` spell it (safe integers as ints). */
export function pyNumber(value: number): string {
  return Number.isSafeInteger(value) ? String(value) : floatRepr(value);
}

/** A JSON string literal as `json.dumps(..., ensure_ascii=False)` writes it. */
export function pyJsonString(text: string): string {
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const char = text[i] as string;
    if (char === '"') out += '\\"';
    else if (char === "\\") out += "\\\\";
    else if (char === "\n") out += "\\n";
    else if (char === "\r") out += "\\r";
    else if (char === "\t") out += "\\t";
    else if (char === "\b") out += "\\b";
    else if (char === "\f") out += "\\f";
    else if (code < 0x20) out += `\\u${code.toString(16).padStart(4, "0")}`;
    else out += char;
  }
  return `${out}"`;
}

/** How `pyDumps` lays out containers. */
export interface DumpOptions {
  /** `separators=(",", ":")` instead of Python's default `(", ", ": ")`. */
  compact?: boolean;
  /** `sort_keys=True` (code-point order, as Python sorts str). */
  sortKeys?: boolean;
}

function codePointOrder(a: string, b: string): number {
  const left = [...a];
  const right = [...b];
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const diff = (left[i] as string).codePointAt(0)! - (right[i] as string).codePointAt(0)!;
    if (diff !== 0) return diff;
  }
  return left.length - right.length;
}

/**
 * `json.dumps(value, ensure_ascii=False)` for JSON values; throws TypeError for anything else
 * (a function, a symbol, a bigint, a cycle), as Python does for values it cannot serialise.
 */
export function pyDumps(value: unknown, options: DumpOptions = {}): string {
  const item = options.compact ? "," : ", ";
  const pair = options.compact ? ":" : ": ";
  const seen = new Set<unknown>();
  const dump = (node: unknown): string => {
    if (node === null || node === undefined) return "null";
    if (node === true) return "true";
    if (node === false) return "false";
    if (typeof node === "number") return pyNumber(node);
    if (typeof node === "string") return pyJsonString(node);
    if (typeof node !== "object") throw new TypeError(`Object of type ${typeof node} is not JSON serializable`);
    if (seen.has(node)) throw new TypeError("Circular reference detected");
    seen.add(node);
    let out: string;
    if (Array.isArray(node)) {
      out = `[${node.map(dump).join(item)}]`;
    } else {
      let keys = Object.keys(node);
      if (options.sortKeys) keys = [...keys].sort(codePointOrder);
      const record = node as Record<string, unknown>;
      out = `{${keys.map((k) => `${pyJsonString(k)}${pair}${dump(record[k])}`).join(item)}}`;
    }
    seen.delete(node);
    return out;
  };
  return dump(value);
}

/** Characters `str.isprintable()` refuses (other, separator), which `repr` escapes. */
const UNPRINTABLE = /^[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]$/u;

function pyEscape(code: number): string {
  if (code < 0x100) return `\\x${code.toString(16).padStart(2, "0")}`;
  if (code < 0x10000) return `\\u${code.toString(16).padStart(4, "0")}`;
  return `\\U${code.toString(16).padStart(8, "0")}`;
}

/** Python's `repr()` of a str: single quotes unless the text holds one and no double quote. */
export function pyRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (char === quote || char === "\\") out += `\\${char}`;
    else if (char === "\n") out += "\\n";
    else if (char === "\r") out += "\\r";
    else if (char === "\t") out += "\\t";
    else if (char !== " " && UNPRINTABLE.test(char)) out += pyEscape(code);
    else out += char;
  }
  return out + quote;
}

/** Python's type name of a JSON value, for messages (`dict`, `list`, `str`, ...). */
export function pyTypeName(value: unknown): string {
  if (value === null || value === undefined) return "NoneType";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number") return Number.isSafeInteger(value) ? "int" : "float";
  if (typeof value === "string") return "str";
  if (Array.isArray(value)) return "list";
  if (typeof value === "object") return "dict";
  return typeof value;
}

/** A plain JSON-like object (not an array, not null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// ---- json.loads ------------------------------------------------------------------------------

/** A decoding error as Python's `json.JSONDecodeError` reports it (positions in code points). */
export class PyJsonError extends Error {
  /** The bare message (`Expecting value`), as Python's `exc.msg`. */
  readonly msg: string;
  /** Line and column, counted as Python counts them; null for a ValueError that is not a decode error. */
  readonly lineno: number | null;
  readonly colno: number | null;

  constructor(msg: string, text: string | null = null, pos = 0) {
    let lineno: number | null = null;
    let colno: number | null = null;
    if (text !== null) {
      const before = text.slice(0, pos);
      const newline = before.lastIndexOf("\n");
      lineno = before.split("\n").length;
      colno = newline < 0 ? pyLen(before) + 1 : pyLen(before.slice(newline));
    }
    super(lineno === null ? msg : `${msg}: line ${lineno} column ${colno}`);
    this.name = lineno === null ? "ValueError" : "JSONDecodeError";
    this.msg = msg;
    this.lineno = lineno;
    this.colno = colno;
  }
}

const JSON_SPACE = new Set([" ", "\t", "\n", "\r"]);
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};
const INT_MAX_STR_DIGITS = 4300;

class Expecting {
  constructor(readonly pos: number) {}
}

/**
 * `json.loads(text, parse_constant=refuse)` with CPython's scanner: the same values are read and
 * the same texts refused, with the same message and position (`PyJsonError`). NaN, Infinity and
 * -Infinity are refused with "<name> is not JSON", and integers longer than 4300 digits as
 * CPython refuses them. Objects get their keys as own properties (even `__proto__`).
 */
export function pyJsonLoads(text: string): unknown {
  if (text.startsWith("\ufeff")) throw new PyJsonError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0);
  const end = text.length;
  const space = (i: number): number => {
    while (i < end && JSON_SPACE.has(text[i] as string)) i++;
    return i;
  };
  const fail = (msg: string, pos: number): never => {
    throw new PyJsonError(msg, text, pos);
  };

  const hex4 = (from: number, errorAt: number): number => {
    let code = 0;
    for (let i = from; i < from + 4; i++) {
      const digit = parseInt(text[i] as string, 16);
      if (Number.isNaN(digit) || !/[0-9a-fA-F]/.test(text[i] as string)) fail("Invalid \\uXXXX escape", errorAt);
      code = code * 16 + digit;
    }
    return code;
  };

  const string = (start: number): [string, number] => {
    // `start` is just past the opening quote
    const begin = start - 1;
    let out = "";
    let at = start;
    for (;;) {
      let next = at;
      while (next < end) {
        const c = text.charCodeAt(next);
        if (c === 0x22 || c === 0x5c) break;
        if (c <= 0x1f) fail("Invalid control character at", next);
        next++;
      }
      out += text.slice(at, next);
      if (next >= end) fail("Unterminated string starting at", begin);
      if (text[next] === '"') return [out, next + 1];
      next++; // past the backslash
      if (next >= end) fail("Unterminated string starting at", begin);
      const kind = text[next] as string;
      if (kind !== "u") {
        const escaped = SIMPLE_ESCAPES[kind];
        if (escaped === undefined) fail("Invalid \\escape", next - 1);
        out += escaped;
        at = next + 1;
        continue;
      }
      next++;
      let stop = next + 4;
      if (stop >= end) fail("Invalid \\uXXXX escape", next - 1);
      let code = hex4(next, next - 1);
      if (code >= 0xd800 && code <= 0xdbff && stop + 6 < end && text[stop] === "\\" && text[stop + 1] === "u") {
        const low = hex4(stop + 2, stop + 1);
        if (low >= 0xdc00 && low <= 0xdfff) {
          out += String.fromCharCode(code, low);
          at = stop + 6;
          continue;
        }
      }
      out += String.fromCharCode(code);
      at = stop;
    }
  };

  const number = (start: number): [number, number] => {
    let i = start;
    if (text[i] === "-") {
      i++;
      if (i >= end) throw new Expecting(start);
    }
    const c = text[i] as string;
    if (c >= "1" && c <= "9") {
      i++;
      while (i < end && (text[i] as string) >= "0" && (text[i] as string) <= "9") i++;
    } else if (c === "0") {
      i++;
    } else {
      throw new Expecting(start);
    }
    let isFloat = false;
    const digit = (k: number) => k < end && (text[k] as string) >= "0" && (text[k] as string) <= "9";
    if (i < end - 1 && text[i] === "." && digit(i + 1)) {
      isFloat = true;
      i += 2;
      while (digit(i)) i++;
    }
    if (i < end - 1 && (text[i] === "e" || text[i] === "E")) {
      const eStart = i;
      i++;
      if (i < end - 1 && (text[i] === "-" || text[i] === "+")) i++;
      while (digit(i)) i++;
      if (digit(i - 1)) isFloat = true;
      else i = eStart;
    }
    const literal = text.slice(start, i);
    if (!isFloat) {
      const digits = literal.replace("-", "").length;
      if (digits > INT_MAX_STR_DIGITS) {
        throw new PyJsonError(
          `Exceeds the limit (${INT_MAX_STR_DIGITS} digits) for integer string conversion: value has ` +
            `${digits} digits; use sys.set_int_max_str_digits() to increase the limit`,
        );
      }
    }
    return [Number(literal), i];
  };

  const value = (i: number): [unknown, number] => {
    if (i >= end) throw new Expecting(i);
    const c = text[i] as string;
    if (c === '"') return string(i + 1);
    if (c === "{") return object(i + 1);
    if (c === "[") return array(i + 1);
    if (c === "n" && text.startsWith("null", i)) return [null, i + 4];
    if (c === "t" && text.startsWith("true", i)) return [true, i + 4];
    if (c === "f" && text.startsWith("false", i)) return [false, i + 5];
    for (const name of ["NaN", "Infinity", "-Infinity"]) {
      if (text.startsWith(name, i)) throw new PyJsonError(`${name} is not JSON`);
    }
    return number(i);
  };

  const object = (start: number): [unknown, number] => {
    const out: Record<string, unknown> = {};
    let i = space(start);
    if (i >= end || text[i] !== "}") {
      for (;;) {
        if (i >= end || text[i] !== '"') fail("Expecting property name enclosed in double quotes", i);
        const [key, afterKey] = string(i + 1);
        i = space(afterKey);
        if (i >= end || text[i] !== ":") fail("Expecting ':' delimiter", i);
        const [item, afterItem] = value(space(i + 1));
        Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
        i = space(afterItem);
        if (i < end && text[i] === "}") break;
        if (i >= end || text[i] !== ",") fail("Expecting ',' delimiter", i);
        i = space(i + 1);
      }
    }
    return [out, i + 1];
  };

  const array = (start: number): [unknown, number] => {
    const out: unknown[] = [];
    let i = space(start);
    if (i >= end || text[i] !== "]") {
      for (;;) {
        const [item, after] = value(i);
        out.push(item);
        i = space(after);
        if (i < end && text[i] === "]") break;
        if (i >= end || text[i] !== ",") fail("Expecting ',' delimiter", i);
        i = space(i + 1);
      }
    }
    return [out, i + 1];
  };

  let result: unknown;
  let after: number;
  try {
    [result, after] = value(space(0));
  } catch (error) {
    if (error instanceof Expecting) fail("Expecting value", error.pos);
    throw error;
  }
  after = space(after);
  if (after !== end) fail("Extra data", after);
  return result;
}
