/**
 * Python's `json.loads` for the return path, with CPython's error messages and positions (in code
 * points), so both runtimes report a malformed reply the same way. There is no Python module of
 * this name; the other Python spellings (`json.dumps`, `repr`, `len`, ...) are in pyspell.ts.
 */

import { put, pyLen } from "./pyspell.js";

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
const LONG_DIGITS = new RegExp(`[0-9]{${INT_MAX_STR_DIGITS + 1}}`);

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
  // JSON.parse reads the same grammar to the same values; it only also takes integers longer than
  // CPython does. So a text it reads without a run of that many digits is taken from it, and
  // everything else (errors included, whose texts must be CPython's) goes through the scanner.
  // A text that opens a container it does not close (arguments cut off) goes there at once:
  // JSON.parse would only throw, which costs more than the rest of reading a call.
  if (closesWhatItOpens(text)) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (text.length <= INT_MAX_STR_DIGITS || !LONG_DIGITS.test(text)) return parsed;
    } catch {
      // the scanner says why, as CPython does
    }
  }
  return pyJsonScan(text);
}

/** Whether `text`'s last character past JSON blanks closes the container its first one opens
 * (true for a text that opens none). */
function closesWhatItOpens(text: string): boolean {
  let first = 0;
  while (first < text.length && JSON_SPACE.has(text[first] as string)) first++;
  let last = text.length - 1;
  while (last > first && JSON_SPACE.has(text[last] as string)) last--;
  const opens = text[first];
  if (opens === "{") return text[last] === "}" && last > first;
  if (opens === "[") return text[last] === "]" && last > first;
  return true;
}

/** `pyJsonLoads` by CPython's scanner alone (what the JSON.parse shortcut must agree with). */
export function pyJsonScan(text: string): unknown {
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
        put(out, key, item);
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
