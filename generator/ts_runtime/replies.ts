/**
 * The return path: tool calls read from a provider's reply, and results sent back to it
 * (mirrors replies.py: the same rules, problems and error texts).
 *
 * A response is a parsed JSON body or an SDK object; a key is tried as written, then in
 * snake_case. What differs per format lives in its record (formats.ts): `callPath` and
 * `callFields` say where the calls are and how one is spelled, `resultEnvelope` and
 * `resultGroup` how results go back.
 *
 * Rules of `readCalls`: every call of a reply is returned in reply order with its call id; the
 * call path may be entered anywhere along it (a list is the call list itself); arguments are
 * decoded once and a call whose arguments are not a JSON object, are nested deeper than
 * MAX_NESTING or exceed `maxArgumentChars` comes back with `error` set and empty `params`, as
 * does a call without a tool name and a second call reusing an id. A call without an id gets
 * `toolgen-call-<n>` (an error too, except for Gemini, whose older responses carry no ids).
 * A call cut off by the output limit (`FormatRecord.cutOff`: the reply's last call when the
 * response says it stopped at the limit and nothing follows the call, or a call whose own status
 * says it is incomplete) comes back with `error` set (`cutOffError`) and is never run.
 * Nothing throws; a response of an unknown shape gives no calls and a line in `problems`.
 */

import { record, type CallFields, type CutOff, type FormatRecord } from "./formats.js";
import { PyJsonError, pyJsonLoads } from "./pyjson.js";
import { MAX_NESTING, jsonTextTooDeep, jsonTypeOf, nestingDepth } from "./schema_common.js";
import { SYNTHETIC_ID_PREFIX } from "./results.js";
import { toolUse, type ToolUse } from "./tool_types.js";
import type { ResponseOf } from "./format_types.js";
import { errorText, isDict, PyError, pyLen, pyRepr, pyStrip, pyTypeName } from "./pyspell.js";

/**
 * The longest arguments toolgen reads, in characters of JSON text; longer ones make the call an
 * error before any parsing.
 */
export const MAX_ARGUMENT_CHARS = 4_000_000;
export { SYNTHETIC_ID_PREFIX, resultMessage, resultMessages, textResult } from "./results.js";

export const MISSING: unique symbol = Symbol("missing");
export type Found = unknown | typeof MISSING;
type Key = string | number;

// ---- reading nested values from JSON bodies or SDK objects ---------------------------------

const SPELLINGS = new Map<string, readonly string[]>();

/** `key` as the JSON body spells it, then in snake_case as SDK objects do. */
function spellings(key: string): readonly string[] {
  let found = SPELLINGS.get(key);
  if (found === undefined) {
    const snake = key.replace(/(?<!^)(?=[A-Z])/g, "_").toLowerCase();
    found = snake === key ? [key] : [key, snake];
    SPELLINGS.set(key, found);
  }
  return found;
}

/** Python's type name of a node, for problems (`dict`, `list`, a class name). */
export function kindOf(node: unknown): string {
  if (typeof node === "object" && node !== null && !Array.isArray(node)) {
    const proto = Object.getPrototypeOf(node);
    if (proto !== null && proto !== Object.prototype) return proto.constructor?.name || "object";
  }
  return pyTypeName(node);
}

/** `node[key]` for objects and arrays; MISSING if absent. */
export function field(node: unknown, key: Key): Found {
  if (typeof key === "number") {
    if (Array.isArray(node) && -node.length <= key && key < node.length) {
      return node[key < 0 ? node.length + key : key];
    }
    return MISSING;
  }
  if (typeof node !== "object" || node === null || Array.isArray(node)) return MISSING;
  const plain = Object.getPrototypeOf(node) === Object.prototype || Object.getPrototypeOf(node) === null;
  for (const name of spellings(key)) {
    if (plain ? Object.hasOwn(node, name) : name in node) return (node as Record<string, unknown>)[name];
  }
  return MISSING;
}

export function walk(node: unknown, path: readonly Key[]): unknown {
  let at: Found = node;
  for (const key of path) {
    at = field(at, key);
    if (at === MISSING || at === null || at === undefined) return null;
  }
  return at;
}

function spell(path: readonly Key[]): string {
  return path.map((k) => (typeof k === "number" ? `[${k}]` : `.${k}`)).join("").replace(/^\.+/, "");
}

/** The call list of `response`, entered at the first step of `path` it has. */
function callList(response: unknown, path: readonly Key[], problems: string[]): readonly unknown[] {
  let node: unknown = response;
  if (Array.isArray(node)) return node;
  const start = path.findIndex((key) => typeof key === "string" && field(node, key) !== MISSING);
  if (start < 0) {
    problems.push(`unknown response shape: ${kindOf(node)} without ${spell(path)}`);
    return [];
  }
  for (let i = start; i < path.length; i++) {
    const key = path[i] as Key;
    if (typeof key === "number" && !(Array.isArray(node) && node.length > 0)) {
      const kind = Array.isArray(node) ? "empty" : kindOf(node);
      problems.push(`the response has no ${spell(path.slice(0, i + 1))} (${kind})`);
      return [];
    }
    const next = field(node, key);
    if (next === null || next === undefined || next === MISSING) return []; // e.g. a text reply
    node = next;
  }
  if (!Array.isArray(node)) {
    problems.push(`unknown response shape: ${spell(path)} is a ${kindOf(node)}, not a list`);
    return [];
  }
  return node;
}

// ---- arguments -------------------------------------------------------------------------------

/** Whether the strings and scalars in `value` add up to more than `limit` characters. */
function sizePast(value: unknown, limit: number): boolean {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (isDict(item)) {
      const keys = Object.keys(item);
      total += 2 + keys.reduce((sum, k) => sum + pyLen(k) + 4, 0);
      stack.push(...keys.map((k) => item[k]));
    } else if (Array.isArray(item)) {
      total += 2 + item.length;
      stack.push(...item);
    } else if (typeof item === "string") {
      total += pyLen(item) + 2;
    } else {
      total += 4;
    }
    if (total > limit) return true;
  }
  return false;
}

/** The length of `text` in code points, counted only when its UTF-16 length passes `limit`. */
function longerThan(text: string, limit: number): number | null {
  if (text.length <= limit) return null;
  const length = pyLen(text);
  return length > limit ? length : null;
}

/**
 * A call's arguments as an object, or `[{}, reason]` when they cannot be taken.
 *
 * JSON text is decoded (empty text means no arguments); an object is taken as it is. Both are
 * held to `maxChars` characters and MAX_NESTING levels; NaN and Infinity are refused.
 */
export function decodeArguments(
  value: unknown,
  maxChars: number = MAX_ARGUMENT_CHARS,
): [Record<string, unknown>, string | null] {
  if (value === null || value === undefined) return [{}, null];
  const text = typeof value === "string" ? value : null;
  if (typeof value === "string") {
    const length = longerThan(value, maxChars);
    if (length !== null) {
      return [{}, `its arguments are ${length} characters long; at most ${maxChars} are read`];
    }
    if (!pyStrip(value)) return [{}, null];
    if (jsonTextTooDeep(value)) {
      return [{}, `its arguments are nested more than ${MAX_NESTING} levels deep`];
    }
    try {
      value = pyJsonLoads(value);
    } catch (error) {
      if (!(error instanceof PyJsonError)) throw error;
      const where = error.lineno === null ? "" : ` at line ${error.lineno} column ${error.colno}`;
      return [{}, `its arguments are not valid JSON (${error.msg}${where})`];
    }
  } else if (isDict(value)) {
    if (nestingDepth(value) > MAX_NESTING) {
      return [{}, `its arguments are nested more than ${MAX_NESTING} levels deep`];
    }
    if (sizePast(value, maxChars)) return [{}, `its arguments are longer than ${maxChars} characters`];
  }
  if (!isDict(value)) {
    const kind = jsonTypeOf(value) ?? kindOf(value);
    return [{}, `its arguments are a JSON ${kind}, not an object`];
  }
  const unsafe = text !== null && !hasUnsafeLiteral(text) ? null : unsafeInteger(value, "");
  if (unsafe !== null) {
    return [{}, `its argument ${pyRepr(unsafe)} holds an integer beyond \u00b1(2**53 - 1), which JavaScript cannot hold exactly`];
  }
  return [value, null];
}

const SIXTEEN_DIGITS = /\d{16}/;
/** Integer literals of JSON text, outside strings (not a float's digits, not an exponent). */
const INTEGER_LITERALS = /"(?:[^"\\]|\\[\s\S])*"|(?<![\d.eE+-])(-?\d{16,})(?![\d.eE])/g;

/** Whether JSON text holds an integer literal beyond ±(2**53 - 1) (from JSON text, 1e20 is a float). */
function hasUnsafeLiteral(text: string): boolean {
  if (!SIXTEEN_DIGITS.test(text)) return false;
  for (const match of text.matchAll(INTEGER_LITERALS)) {
    const digits = match[1];
    if (digits !== undefined && (digits.startsWith("-") ? -BigInt(digits) : BigInt(digits)) > BigInt(Number.MAX_SAFE_INTEGER)) {
      return true;
    }
  }
  return false;
}

/** Where the first integral number beyond ±(2**53 - 1) is in `value` (`a.b[0]`), or null.
 * A double that large may be an integer that lost digits (Python would hand over the exact one):
 * such a call is refused rather than run with another number (docs/conformance.md, big-integers). */
function unsafeInteger(value: unknown, path: string): string | null {
  if (typeof value === "number") {
    return Number.isInteger(value) && Math.abs(value) > Number.MAX_SAFE_INTEGER ? path : null;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unsafeInteger(value[i], `${path}[${i}]`);
      if (found !== null) return found;
    }
  } else if (isDict(value)) {
    for (const key of Object.keys(value)) {
      const found = unsafeInteger(value[key], path ? `${path}.${key}` : key);
      if (found !== null) return found;
    }
  }
  return null;
}

/** The error text for the model about a call that was not run. */
export function refusal(name: string, reason: string): string {
  const who = name ? `tool ${name}` : "a tool without a name";
  return `The call to ${who} was not run: ${reason}. Send it again, corrected.`;
}

/**
 * The error text for the model about a call the output limit cut off (`detail`: how the reply
 * showed it); the call was not run, so it must come again, whole.
 */
export function cutOffError(name: string, detail: string): string {
  const who = name ? `tool ${name}` : "a tool without a name";
  return (
    `The call to ${who} was not run: the reply was cut off by the output limit ` +
    `(${detail}) before the call was complete. Send it again in full; if it is long, ` +
    "split the work into smaller calls."
  );
}

/** The response's stop value when it is one of `cut.values` (the output limit), else null. */
function stopValue(response: unknown, cut: CutOff): string | null {
  if (Array.isArray(response)) return null;
  const start = cut.path.findIndex((key) => typeof key === "string" && field(response, key) !== MISSING);
  if (start < 0) return null;
  const value = walk(response, cut.path.slice(start));
  return cut.values.find((v) => value === v) ?? null;
}

/** How the reply shows that the call in `item` was cut off, or "" when it was not. */
function cutDetail(item: unknown, cut: CutOff | null, stop: string | null, last: boolean): string {
  if (cut === null) return "";
  if (cut.callStatus.length > 0) {
    const status = walk(item, cut.callStatus);
    const found = cut.callStatusValues.find((v) => status === v);
    if (found !== undefined) return `the call's status is ${found}`;
  }
  return stop !== null && last ? stop : "";
}

// ---- reading calls ---------------------------------------------------------------------------

export function callsRecord(format: string): [FormatRecord, CallFields] {
  const rec = record(format);
  if (rec.callFields === null) throw new PyError("ValueError", `format ${pyRepr(format)} has no native tool calls`);
  return [rec, rec.callFields];
}

/** A complete ToolUse from a call's raw fields; `error` set when it cannot be run. */
export function makeUse(
  rawName: unknown,
  rawId: unknown,
  args: unknown,
  idsOptional: boolean,
  position: number,
  maxChars: number,
): ToolUse {
  const name = typeof rawName === "string" ? rawName : "";
  let callId = rawId;
  let reason: string | null = null;
  if (typeof callId !== "string" || !callId) {
    callId = `${SYNTHETIC_ID_PREFIX}${position}`;
    if (!idsOptional) reason = "the reply gave it no call id";
  }
  if (!name) reason = "the reply names no tool";
  let params: Record<string, unknown> = {};
  if (reason === null) [params, reason] = decodeArguments(args, maxChars);
  const id = callId as string;
  if (reason !== null) return toolUse(name, {}, false, id, refusal(name, reason));
  return toolUse(name, params, false, id);
}

/** `use` as an error when an earlier call of the reply had the same id. */
export function markDuplicate(use: ToolUse, seen: Set<string>): ToolUse {
  if (!seen.has(use.id)) {
    seen.add(use.id);
    return use;
  }
  if (use.error !== null) return use;
  const reason = `another call of the reply already has the id ${pyRepr(use.id)}`;
  return toolUse(use.name, {}, false, use.id, refusal(use.name, reason));
}

/** The call `item` holds, or null when it is not a call (text, reasoning, ...). */
function asCall(item: unknown, fields: CallFields): unknown {
  if (fields.wrapper !== null) {
    const call = field(item, fields.wrapper);
    return call === MISSING || call === undefined ? null : call;
  }
  if (fields.marker !== null) {
    const [key, wanted] = fields.marker;
    if (field(item, key) !== wanted) return null;
  }
  return item;
}

/** The call `item` holds as a ToolUse (numbered `position`), or null for no call. */
export function readCall(item: unknown, fields: CallFields, position: number, maxChars: number): ToolUse | null {
  const call = asCall(item, fields);
  if (call === null) return null;
  return makeUse(
    walk(call, fields.name),
    walk(call, fields.id),
    walk(call, fields.arguments),
    fields.idsOptional,
    position,
    maxChars,
  );
}

/** Options of `readCalls`. */
export interface ReadOptions {
  /** Receives a line per response or element that could not be read. */
  problems?: string[] | undefined;
  maxArgumentChars?: number | undefined;
}

/**
 * Every tool call in a provider `response` of `format`, in order; never throws, except for an
 * unknown format. A call that cannot be run comes back with `error` set: answer it with
 * `ToolResult.error(use.error)`. For a format named by a literal, `response` is typed by what is
 * read from it (format_types.ts: the SDK's response object or the parsed JSON body fit).
 */
export function readCalls<F extends string>(response: ResponseOf<F>, format: F, options: ReadOptions = {}): ToolUse[] {
  const [rec, fields] = callsRecord(format);
  const maxChars = options.maxArgumentChars ?? MAX_ARGUMENT_CHARS;
  const found: string[] = [];
  let items: readonly unknown[];
  try {
    items = callList(response, rec.callPath, found);
  } catch (error) {
    found.push(`the response could not be read: ${errorText(error)}`);
    items = [];
  }
  let stop: string | null = null;
  try {
    stop = rec.cutOff === null ? null : stopValue(response, rec.cutOff);
  } catch (error) {
    found.push(`the stop reason could not be read: ${errorText(error)}`);
  }
  const uses: ToolUse[] = [];
  const seen = new Set<string>();
  items.forEach((item, number) => {
    let use: ToolUse | null;
    let cut: string;
    try {
      use = readCall(item, fields, uses.length, maxChars);
      cut = use === null ? "" : cutDetail(item, rec.cutOff, stop, number === items.length - 1);
    } catch (error) {
      found.push(`element ${number} not read: ${errorText(error)}`); // one hostile element only
      return;
    }
    if (use !== null) {
      use = markDuplicate(use, seen);
      if (cut) use = toolUse(use.name, {}, false, use.id, cutOffError(use.name, cut));
      uses.push(use);
    }
  });
  options.problems?.push(...found);
  return uses;
}
