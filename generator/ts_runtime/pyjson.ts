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
