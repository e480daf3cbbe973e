/**
 * Run-time (dynamic) tools: MCP server tools here, and the API for subagent tools too;
 * mirrors runtime/dynamic_tools.py.
 *
 * One bad run-time tool never costs the others: `mcpTools` leaves out (and reports) a tool it
 * cannot offer, and rewrites or notes what it must change. MCP tool names outside
 * `[A-Za-z0-9_-]` are rewritten by a reversible rule (`encodeMcpToolName`).
 *
 * `loadServersJson` reads a servers file as Python's `json.loads` does: NaN and ±Infinity are
 * numbers, an integer of more than 4300 digits stands for TOO_LONG, containers nested deeper
 * than MAX_NESTING are cut off. Integers beyond 2^53 lose precision (JavaScript numbers).
 */

import { fastCopy } from "./copies.js";
import { NAME_SAFE_CHARS } from "./formats.js";
import { MAX_NESTING, UNENCODABLE, hasLoneSurrogate, jsonBrackets, jsonTypeName, nestingDepth, printable, type Json, type Schema } from "./schema_common.js";
import type { ParameterData } from "./data.js";
import { dropUnchecked } from "./unchecked.js";
import { MCP_TOOL_ID, makeParameter, makeVariant, type SkipRecord, type Variant } from "./variants.js";
import { codePointCompare, has, isDict, PyError, pyJsonDumps, pyLen, pyRepr, pyStr, pyTruthy, TOO_LONG } from "./pyspell.js";

export { MCP_TOOL_ID, SUBAGENTS_TOOL_ID, mergeTools, skipRecord } from "./variants.js";
export { splitSubagents, subagentName, subagentNames, subagentTools, subagentsActive } from "./subagents.js";

const NAME_SAFE = /* @__PURE__ */ new RegExp(`^[${NAME_SAFE_CHARS}]+$`);
/** Starts every rewritten MCP tool name; a tool name that itself starts so is rewritten too. */
export const ESCAPE_MARK = "_x_";
/** Stands in for a subtree `loadServersJson` cut off past MAX_NESTING. */
const TOO_DEEP_KEY = "\u0000toolgen: nested too deeply";
/** Python's limit on the digits of an integer read from text (sys.get_int_max_str_digits()). */
const MAX_INT_DIGITS = 4300;
const SENTINEL = "\u0000toolgen: ";
const SENTINELS: Record<string, Json> = {
  [SENTINEL + "NaN"]: NaN,
  [SENTINEL + "Infinity"]: Infinity,
  [SENTINEL + "-Infinity"]: -Infinity,
  [SENTINEL + "too long"]: TOO_LONG,
};

// ---- MCP ----------------------------------------------------------------------------------

/** One parameter per root property; `required` from the ROOT `required` list only. */
function mcpParameters(inputSchema: Schema): ParameterData[] {
  const properties = inputSchema["properties"];
  if (!isDict(properties)) return [];
  const rootRequired = inputSchema["required"];
  const required = new Set(
    Array.isArray(rootRequired) ? rootRequired.filter((r): r is string => typeof r === "string") : [],
  );
  return Object.entries(properties).map(([propName, prop]) => {
    const schema: Schema = isDict(prop) ? fastCopy(prop) : {};
    const text = schema["description"];
    return makeParameter(propName, required.has(propName), typeof text === "string" ? text : "", schema, null);
  });
}

function skip(server: Schema, tool: string | null, name: string | null, reason: string): SkipRecord {
  return {
    server: has(server, "name") ? server["name"] : null,
    uid: has(server, "uid") ? server["uid"] : null,
    tool: tool !== null ? printable(tool) : null,
    name,
    reason,
  };
}

/** `tool` as it may appear in a provider tool name; `decodeMcpToolName` reverses it. */
export function encodeMcpToolName(tool: string): string {
  if (NAME_SAFE.test(tool) && !tool.startsWith(ESCAPE_MARK)) return tool;
  let out = ESCAPE_MARK;
  for (const char of tool) {
    if (char === "_") out += "__";
    else if (char === "-" || /^[A-Za-z0-9]$/.test(char)) out += char;
    else out += `_${char.codePointAt(0)!.toString(16)}_`;
  }
  return out;
}

/** The original tool name behind `encodeMcpToolName(text)`; null if `text` is malformed. */
export function decodeMcpToolName(text: string): string | null {
  const decoded = decodeEscapes(text);
  if (decoded === null || encodeMcpToolName(decoded) !== text) return null;
  return decoded;
}

function decodeEscapes(text: string): string | null {
  if (!text.startsWith(ESCAPE_MARK)) return text;
  const body = text.slice(ESCAPE_MARK.length);
  let out = "";
  let i = 0;
  while (i < body.length) {
    const char = body[i];
    if (char !== "_") {
      out += char;
      i += 1;
    } else if (body.slice(i + 1, i + 2) === "_") {
      out += "_";
      i += 2;
    } else {
      const end = body.indexOf("_", i + 1);
      if (end < 0) return null;
      const digits = body.slice(i + 1, end);
      if (!/^[0-9a-f]{1,6}$/.test(digits)) return null;
      const code = parseInt(digits, 16);
      if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return null;
      out += String.fromCodePoint(code);
      i = end + 1;
    }
  }
  return out;
}

// A string literal (kept), a non-finite number, or an integer literal (group 2: its digits).
const NUMBER_TOKENS = /"(?:[^"\\]|\\[\s\S])*"|(-?Infinity|NaN)|(?<![0-9.eE+-])-?(0|[1-9][0-9]*)(?![0-9.eE])/g;

/** Parse an MCP servers file as the Python runtime does (see the module comment). */
export function loadServersJson(text: string): Json {
  const cuts: [number, number][] = [];
  let start = -1;
  for (const [bracket, depth] of jsonBrackets(text)) {
    if (depth !== MAX_NESTING + 1) continue;
    if (bracket.char === "[" || bracket.char === "{") start = bracket.index;
    else if (start >= 0) {
      cuts.push([start, bracket.index + 1]);
      start = -1;
    }
  }
  if (start >= 0) cuts.push([start, text.length]);
  if (cuts.length > 0) {
    const marker = JSON.stringify({ [TOO_DEEP_KEY]: true });
    const pieces: string[] = [];
    let last = 0;
    for (const [begin, end] of cuts) {
      pieces.push(text.slice(last, begin), marker);
      last = end;
    }
    pieces.push(text.slice(last));
    text = pieces.join("");
  }
  let replaced = false;
  text = text.replace(NUMBER_TOKENS, (token: string, special?: string, digits?: string) => {
    if (special !== undefined) {
      replaced = true;
      return JSON.stringify(SENTINEL + special);
    }
    if (digits !== undefined && digits.length > MAX_INT_DIGITS) {
      replaced = true;
      return JSON.stringify(SENTINEL + "too long");
    }
    return token;
  });
  let data: Json;
  try {
    data = JSON.parse(text);
  } catch (exc) {
    throw new PyError("ValueError", `${(exc as Error).message}`);
  }
  return replaced ? restoreSentinels(data) : data;
}

function restoreSentinels(value: Json): Json {
  const swap = (v: Json): Json => (typeof v === "string" && has(SENTINELS, v) ? SENTINELS[v] : v);
  const stack: Json[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (Array.isArray(item)) {
      for (let i = 0; i < item.length; i++) {
        item[i] = swap(item[i]);
        stack.push(item[i]);
      }
    } else if (isDict(item)) {
      for (const key of Object.keys(item)) {
        item[key] = swap(item[key]);
        stack.push(item[key]);
      }
    }
  }
  return swap(value);
}

/** Every value inside `value` (itself included), walked without recursion. */
function* nodes(value: Json): Generator<Json> {
  const stack: Json[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    yield item;
    if (Array.isArray(item)) stack.push(...item);
    else if (isDict(item)) stack.push(...Object.values(item));
  }
}

function tooDeep(value: Json): boolean {
  if (nestingDepth(value) > MAX_NESTING) return true;
  for (const item of nodes(value)) if (isDict(item) && has(item, TOO_DEEP_KEY)) return true;
  return false;
}

/** Remove NaN and ±Infinity (not valid JSON) from `schema` in place; return their paths. */
function dropNonFinite(schema: Schema): string[] {
  const dropped: string[] = [];
  const stack: [Json, string][] = [[schema, ""]];
  const bad = (v: Json): boolean => typeof v === "number" && !Number.isFinite(v);
  while (stack.length > 0) {
    const [item, path] = stack.pop()!;
    if (isDict(item)) {
      for (const key of Object.keys(item)) {
        const value = item[key];
        const where = `${path}/${key}`;
        if (bad(value)) {
          delete item[key];
          dropped.push(`${where} (${pyJsonDumps(value)})`);
        } else {
          stack.push([value, where]);
        }
      }
    } else if (Array.isArray(item)) {
      const kept: Json[] = [];
      item.forEach((value, i) => {
        if (bad(value)) dropped.push(`${path}/${i} (${pyJsonDumps(value)})`);
        else {
          kept.push(value);
          stack.push([value, `${path}/${i}`]);
        }
      });
      item.splice(0, item.length, ...kept);
    }
  }
  return dropped.sort(codePointCompare);
}

export interface McpToolsOptions {
  separator: string;
  maxLength?: number | undefined;
}

/** Spec variants for the tools of every enabled MCP server, and the tools left out. */
export function mcpTools(servers: readonly Json[], options: McpToolsOptions): [Variant[], SkipRecord[]] {
  const { separator, maxLength = 64 } = options;
  if (!separator) throw new PyError("ValueError", "the MCP separator must not be empty");
  const variants: Variant[] = [];
  const skipped: SkipRecord[] = [];
  const taken = new Set<string>();
  for (const server of servers) {
    if (!isDict(server)) {
      skipped.push(skip({}, null, null, "server entry is not an object"));
      continue;
    }
    const tools = server["tools"];
    for (const tool of Array.isArray(tools) ? tools : []) {
      let [variant, reason, name] = mcpVariant(server, tool, separator, maxLength);
      if (variant !== null && taken.has(variant["name"])) [variant, reason] = [null, "duplicate name"];
      if (variant === null) {
        const found = isDict(tool) ? tool["name"] : null;
        const toolName = typeof found === "string" && found ? found : null;
        skipped.push(skip(server, toolName, name, reason));
        continue;
      }
      taken.add(variant["name"]);
      variants.push(variant);
    }
  }
  return [variants, skipped];
}

function mcpVariant(
  server: Schema,
  tool: Json,
  separator: string,
  maxLength: number,
): [Variant | null, string, string | null] {
  const uid = pyTruthy(server["uid"]) ? pyStr(server["uid"]) : "";
  const serverName = pyTruthy(server["name"]) ? pyStr(server["name"]) : uid;
  const toolName = isDict(tool) ? tool["name"] : null;
  if (typeof toolName !== "string" || !toolName) return [null, "tool has no name", null];
  const encoded = encodeMcpToolName(toolName);
  const name = `${uid}${separator}${encoded}`;
  const raw: Json = has(tool, "inputSchema") ? tool["inputSchema"] : null;
  if (pyTruthy(server["disabled"])) return [null, "server disabled", name];
  if (!uid) return [null, "server has no uid", name];
  if (uid.includes(separator)) return [null, `server uid contains the separator ${pyRepr(separator)}`, name];
  if ((uid + separator).indexOf(separator) !== uid.length) {
    // "a0mcp" + "0mcp0": its names would split at the wrong place, maybe onto another server.
    return [null, `server uid ends with a start of the separator ${pyRepr(separator)}`, name];
  }
  if (!NAME_SAFE.test(uid)) return [null, "server uid has characters outside [A-Za-z0-9_-]", name];
  if (hasLoneSurrogate([toolName, tool["description"] ?? null, raw, serverName])) return [null, UNENCODABLE, name];
  const length = pyLen(name);
  if (length > maxLength) {
    const rewritten = encoded !== toolName ? " (tool name rewritten)" : "";
    return [null, `name is ${length} characters, over the limit of ${maxLength}${rewritten}`, name];
  }
  if (raw !== null && !isDict(raw)) {
    const kind = jsonTypeName(raw);
    return [null, `inputSchema is not a JSON object (got ${kind})`, name];
  }
  if (raw !== null && tooDeep(raw)) return [null, `inputSchema nests deeper than ${MAX_NESTING} levels`, name];
  for (const item of nodes(tool)) {
    if (item === TOO_LONG) return [null, "tool holds an integer with too many digits to read", name];
  }
  const schema: Schema = raw !== null ? fastCopy(raw) : { type: "object", properties: {} };
  const dropped = dropNonFinite(schema);
  const [unchecked, left] = dropUnchecked(schema);
  if (left.length > 0) return [null, "its inputSchema cannot be checked: " + left.join("; "), name];
  const text = tool["description"];
  let description = `${serverName}: ${typeof text === "string" && text ? text : toolName}`;
  const degraded: SkipRecord[] = [];
  for (const [lead, found] of [
    ["as NaN/Infinity is not JSON", dropped],
    ["as its arguments could not be checked against them", unchecked],
  ] as const) {
    if (found.length > 0) {
      const note = `toolgen dropped from the input schema, ${lead}: ` + found.join(", ");
      description += `\n\n(${note})`;
      degraded.push(skip(server, toolName, name, note));
    }
  }
  const origin = { server: has(server, "name") ? server["name"] : null, uid, tool: toolName };
  const variant = makeVariant(MCP_TOOL_ID, name, description, mcpParameters(schema), schema, origin);
  // offered all the same; Offer.degraded and toolgen show report it
  return [degraded.length > 0 ? { ...variant, degraded } : variant, "", name];
}

/** `[server uid, original tool name]` for a name built by `mcpTools`, else null. */
export function parseMcpName(name: string, separator: string): [string, string] | null {
  if (!separator || !name.includes(separator)) return null;
  const at = name.indexOf(separator);
  const uid = name.slice(0, at);
  const tool = name.slice(at + separator.length);
  const decoded = tool ? decodeMcpToolName(tool) : null;
  if (!uid || !decoded) return null;
  return [uid, decoded];
}
