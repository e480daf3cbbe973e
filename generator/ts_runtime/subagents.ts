/**
 * Subagent tools: one run-time tool per configured subagent, named to fit every provider;
 * mirrors runtime/subagents.py. Each config `{name, description}` becomes a spec variant with
 * tool id `use_subagents`, so its calls go to the subagents handler.
 */

import { UNENCODABLE, hasLoneSurrogate, printable, utf8Encode, type Json, type Schema } from "./schema_common.js";
import { fieldValue } from "./predicates.js";
import { SUBAGENTS_TOOL_ID, makeParameter, makeVariant, type SkipRecord, type Variant } from "./variants.js";
import { PyError, pyRepr } from "./pyspell.js";

const HASH_HEX = 8;
const UNSAFE = /[^a-z0-9_]+/g;

// ---- SHA-256 (synchronous and dependency-free: the runtime runs in browsers, Deno and Bun) --

const K = /* @__PURE__ */ new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** The SHA-256 of `text` (UTF-8), as lowercase hex. */
export function sha256Hex(text: string): string {
  const data = utf8Encode(text);
  const bitLength = data.length * 8;
  const padded = new Uint8Array(Math.ceil((data.length + 9) / 64) * 64);
  padded.set(data);
  padded[data.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bitLength / 2 ** 32));
  view.setUint32(padded.length - 4, bitLength >>> 0);
  // the state as a tuple (exact indexes), the schedule as 32-bit words (reads within 0..63)
  const h: [number, number, number, number, number, number, number, number] = [
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ];
  const w = new Uint32Array(64);
  const word = (i: number): number => w[i] ?? 0;
  const rotr = (x: number, n: number): number => (x >>> n) | (x << (32 - n));
  for (let offset = 0; offset < padded.length; offset += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(offset + i * 4);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(word(i - 15), 7) ^ rotr(word(i - 15), 18) ^ (word(i - 15) >>> 3);
      const s1 = rotr(word(i - 2), 17) ^ rotr(word(i - 2), 19) ^ (word(i - 2) >>> 10);
      w[i] = word(i - 16) + s0 + word(i - 7) + s1;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 64; i++) {
      const t1 = hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + (K[i] ?? 0) + word(i);
      const t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      hh = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    h[0] = (h[0] + a) >>> 0;
    h[1] = (h[1] + b) >>> 0;
    h[2] = (h[2] + c) >>> 0;
    h[3] = (h[3] + d) >>> 0;
    h[4] = (h[4] + e) >>> 0;
    h[5] = (h[5] + f) >>> 0;
    h[6] = (h[6] + g) >>> 0;
    h[7] = (h[7] + hh) >>> 0;
  }
  return [...h].map((x) => x.toString(16).padStart(8, "0")).join("");
}

function shortHash(text: string): string {
  return sha256Hex(text).slice(0, HASH_HEX);
}

/** Python's `text.strip("_")`, `rstrip("_")`. */
function stripUnderscores(text: string, left: boolean): string {
  return left ? text.replace(/^_+|_+$/g, "") : text.replace(/_+$/, "");
}

function fit(prefix: string, base: string, suffix: string, maxLength: number): string {
  const room = maxLength - prefix.length - suffix.length;
  if (room < 1) {
    throw new PyError(
      "ValueError",
      `prefix ${pyRepr(prefix)} leaves no room for a name within ${maxLength} characters`,
    );
  }
  const cut = base.slice(0, room);
  return prefix + (stripUnderscores(cut, false) || cut) + suffix;
}

/** `prefix + body` with no `separator` in it (see subagents.py `_scrub`). */
function scrub(prefix: string, body: string, separator: string): string {
  if (!separator) return prefix + body;
  if (prefix.includes(separator)) {
    throw new PyError("ValueError", `subagent prefix ${pyRepr(prefix)} contains the MCP separator ${pyRepr(separator)}`);
  }
  for (let text of [body, "subagent"]) {
    let found: number;
    while ((found = (prefix + text).indexOf(separator)) >= 0) {
      const start = Math.max(found, prefix.length) - prefix.length;
      const end = found + separator.length - prefix.length;
      text = text.slice(0, start) + (end - start > 1 ? "_" : "") + text.slice(end);
    }
    if (text) return prefix + text;
  }
  throw new PyError("ValueError", `no subagent name is left once ${pyRepr(separator)} is removed`);
}

export interface SubagentNameOptions {
  prefix?: string | undefined;
  maxLength?: number | undefined;
  separator?: string | undefined;
}

/** The tool name for one subagent: `prefix` + the name sanitized, within `maxLength`. */
export function subagentName(name: string, options: SubagentNameOptions = {}): string {
  const { prefix = "use_subagent_", maxLength = 64, separator = "" } = options;
  const base = stripUnderscores(name.toLowerCase().replace(UNSAFE, "_"), true) || "subagent";
  const cleaned = scrub(prefix, base, separator).slice(prefix.length);
  if (cleaned === base && prefix.length + base.length <= maxLength) return prefix + base;
  const fitted = fit(prefix, cleaned, "_" + shortHash(name), maxLength);
  return scrub(prefix, fitted.slice(prefix.length), separator);
}

function configName(config: Schema): string {
  const name = config["name"];
  if (!name) return "";
  return typeof name === "string" ? name : pyRepr(name);
}

/** Tool names for `configs`, in order, all distinct (`_2`, `_3`, ... for a name taken). */
export function subagentNames(configs: readonly Schema[], options: SubagentNameOptions = {}): string[] {
  const { prefix = "use_subagent_", maxLength = 64, separator = "" } = options;
  const names: string[] = [];
  const taken = new Set<string>();
  for (const config of configs) {
    const name = subagentName(configName(config), { prefix, maxLength, separator });
    let candidate = name;
    let n = 1;
    while (taken.has(candidate)) {
      n += 1;
      candidate = fit(prefix, name.slice(prefix.length), `_${n}`, maxLength);
      candidate = scrub(prefix, candidate.slice(prefix.length), separator);
    }
    taken.add(candidate);
    names.push(candidate);
  }
  return names;
}

/** The configs a tool can be made of, and skip records for the rest (lone surrogates). */
export function splitSubagents(configs: readonly Schema[]): [Schema[], SkipRecord[]] {
  const kept: Schema[] = [];
  const skipped: SkipRecord[] = [];
  for (const config of configs) {
    if (!hasLoneSurrogate([config["name"] ?? null, config["description"] ?? null])) {
      kept.push(config);
      continue;
    }
    const name = config["name"];
    const tool = typeof name === "string" ? printable(name) : null;
    skipped.push({ server: null, uid: null, tool, name: null, reason: UNENCODABLE });
  }
  return [kept, skipped];
}

export interface SubagentToolsOptions extends SubagentNameOptions {
  /** Skip records of refused configs are appended here when given. */
  skipped?: SkipRecord[] | undefined;
}

/** One variant per subagent config `{name, description}`, named by `subagentNames`. */
export function subagentTools(configs: readonly Schema[], options: SubagentToolsOptions = {}): Variant[] {
  const { prefix = "use_subagent_", maxLength = 64, separator = "" } = options;
  const [kept, refused] = splitSubagents(configs);
  if (options.skipped !== undefined) options.skipped.push(...refused);
  const names = subagentNames(kept, { prefix, maxLength, separator });
  return kept.map((config, i) => {
    const name = names[i];
    if (name === undefined) throw new Error("toolgen: subagentNames gave fewer names than configs");
    const label = configName(config) || name.slice(prefix.length);
    const text = config["description"];
    const description =
      typeof text === "string" && text ? text : `Delegate a task to the ${label} subagent.`;
    const prompt = makeParameter(
      "prompt",
      true,
      "The task for the subagent. It cannot see this conversation, so make the prompt self-contained.",
      { type: "string" },
      "Task for the subagent",
    );
    return makeVariant(SUBAGENTS_TOOL_ID, name, description, [prompt], null, { server: null, uid: null, tool: label });
  });
}

/** Whether subagent tools are offered: enabled, not a subagent run, and the family lists them. */
export function subagentsActive(context: Json, familyTools: readonly string[] | null): boolean {
  if (!fieldValue(context, "subagents_enabled") || fieldValue(context, "is_subagent_run")) return false;
  const tools = familyTools ?? [];
  return tools.length === 0 || tools.includes(SUBAGENTS_TOOL_ID);
}
