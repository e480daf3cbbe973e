/**
 * JSON values as JSON Schema sees them: types, equality, exact numbers, plain schemas
 * (mirrors json_values.py: the same answers).
 *
 * `1` and `1.0` are the same integer, `true` is not `1`, NaN or an infinity is no JSON number.
 * A `bigint` (from a lossless JSON reader) is an integer, compared exactly with numbers.
 * `multipleOf` is decided in exact decimal arithmetic on the shortest decimal form of each
 * number (BigInt), as Python does on `repr`: `0.0075` is a multiple of `0.0001`.
 */

import { isDict, pyJsonDumps, pyLen, pySlice, pyTypeName } from "./pyspell.js";

export const JSON_TYPES: readonly string[] = ["null", "boolean", "integer", "number", "string", "array", "object"];

/** Where a value is not plain JSON (keys and indices) and why. */
export type PlainProblem = readonly [readonly (string | number)[], string];

/** Whether a value is a JSON number (a finite number or a bigint). */
export function isJsonNumber(value: unknown): value is number | bigint {
  return typeof value === "bigint" || (typeof value === "number" && Number.isFinite(value));
}

/** The JSON type of a value (an integral number is an integer), null for anything else. */
export function jsonType(value: unknown): string | null {
  switch (typeof value) {
    case "string":
      return "string";
    case "boolean":
      return "boolean";
    case "bigint":
      return "integer";
    case "number":
      if (Number.isInteger(value)) return "integer";
      return Number.isFinite(value) ? "number" : null;
    default:
      if (value === null) return "null";
      if (Array.isArray(value)) return "array";
      return isDict(value) ? "object" : null;
  }
}

/** JSON Schema's equality: numbers by value, booleans apart from numbers, deep. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (typeof a === "boolean" || typeof b === "boolean") return a === b;
  if ((typeof a === "number" || typeof a === "bigint") && (typeof b === "number" || typeof b === "bigint")) {
    return a == b; // exact between a number and a bigint
  }
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
  }
  if (isDict(a)) {
    if (!isDict(b)) return false;
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length &&
      keys.every((k) => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual(a[k], b[k]))
    );
  }
  return a === b;
}

/** A string key equal for JSON-equal values (`1` and `1.0` alike, `true` apart). */
export function uniqueKey(value: unknown): string {
  if (typeof value === "boolean") return value ? "b1" : "b0";
  if (typeof value === "bigint") return "n" + String(value);
  if (typeof value === "number") return "n" + (Number.isInteger(value) ? String(BigInt(value)) : String(value));
  if (typeof value === "string") return "s" + JSON.stringify(value);
  if (Array.isArray(value)) return "a[" + value.map(uniqueKey).join(",") + "]";
  if (isDict(value)) {
    const keys = Object.keys(value).sort();
    return "o{" + keys.map((k) => JSON.stringify(k) + ":" + uniqueKey(value[k])).join(",") + "}";
  }
  return value === null ? "z" : "?";
}

/** A number's exact decimal value: `[digits, exponent]` with value = digits * 10**exponent. */
function decimal(value: number | bigint): [bigint, number] {
  if (typeof value === "bigint") return [value, 0];
  const [mantissa = "0", exponent = "0"] = String(value).split("e");
  const point = mantissa.indexOf(".");
  const digits = point < 0 ? mantissa : mantissa.slice(0, point) + mantissa.slice(point + 1);
  const scale = point < 0 ? 0 : mantissa.length - point - 1;
  return [BigInt(digits), Number(exponent) - scale];
}

/** Whether `value` is an integer multiple of `step` (> 0), in exact decimal arithmetic. */
export function isMultiple(value: number | bigint, step: number | bigint): boolean {
  if (typeof value === "number" && typeof step === "number" && Number.isSafeInteger(value) && Number.isSafeInteger(step)) {
    return value % step === 0;
  }
  const [a, ae] = decimal(value);
  const [b, be] = decimal(step);
  const low = Math.min(ae, be);
  const scaledA = a * 10n ** BigInt(ae - low);
  const scaledB = b * 10n ** BigInt(be - low);
  return scaledA % scaledB === 0n;
}

/** A short JSON rendering of a value for a problem message (60 characters at most). */
export function show(value: unknown): string {
  let text: string;
  try {
    text = pyJsonDumps(value);
  } catch {
    text = String(value);
  }
  return pyLen(text) <= 60 ? text : pySlice(text, 57) + "...";
}

/** A number as Python's `str` writes it in a problem message. */
export function numberText(value: number | bigint): string {
  return pyJsonDumps(value);
}

/**
 * `value` as plain JSON: objects, arrays, strings, numbers (or bigints), booleans and null.
 * Frozen objects are copied; what is not JSON (NaN, a Map, a function, nesting deeper than
 * `limit`) is left out and reported in `problems`. A key whose value is `undefined` is absent.
 */
export function plainJson(
  value: unknown,
  limit: number,
  problems: PlainProblem[],
  at: readonly (string | number)[] = [],
): unknown {
  if (value === null || typeof value === "string" || typeof value === "boolean" || typeof value === "bigint") {
    return value;
  }
  if (typeof value === "number") {
    if (Number.isFinite(value)) return value;
    problems.push([at, `${pyNumber(value)} is not a JSON number`]);
    return 0; // reported once, here
  }
  if ((Array.isArray(value) || isDict(value)) && at.length >= limit) {
    problems.push([at, `nested deeper than ${limit} levels`]);
    return {}; // an empty schema: the place is reported once, here
  }
  if (Array.isArray(value)) return value.map((item, index) => plainJson(item, limit, problems, [...at, index]));
  if (isDict(value) && (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined) continue;
      Object.defineProperty(out, key, {
        value: plainJson(item, limit, problems, [...at, key]),
        writable: true,
        enumerable: true,
        configurable: true,
      });
    }
    return out;
  }
  const name = isDict(value) ? (value.constructor?.name ?? "object") : pyTypeName(value);
  problems.push([at, `a ${name} is not a JSON value`]);
  return null;
}

function pyNumber(value: number): string {
  return Number.isNaN(value) ? "nan" : value > 0 ? "inf" : "-inf";
}
