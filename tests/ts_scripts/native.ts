/** Equivalence and benchmark driver for ts-native (see tests/test_ts_equivalence_native.py). */

import { CATALOG, Context, FORMATS, dynamicVariants, loadServersJson, nativeTools } from "../pkg/index.js";
import type { PromptFamily, SkipRecord } from "../pkg/index.js";
import { runtimeEntry, specEntry, specMeta } from "../pkg/_runtime/native.js";
import { SPECS } from "../pkg/catalog_data.js";
import { checkLimits, convert, convertParameters } from "../pkg/_runtime/schema_dialects.js";
import { clearRuntimeTools } from "../pkg/_runtime/dynamic_variants.js";
import { clearNativeCaches as clearLists } from "../pkg/_runtime/tool_lists.js";

/** Every native cache of `catalog`: lists, MCP tools and, with `entries`, converted entries. */
function clearNativeCaches(catalog: typeof CATALOG, entries = false): void {
  clearLists(catalog, entries);
  clearRuntimeTools(catalog);
}
import type { Variant } from "../pkg/_runtime/variants.js";

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

interface NativeCase {
  readonly family: string;
  readonly format: string | null;
  readonly context: Json;
  readonly servers: string | null;
  readonly subagents: string | null;
}

/** One case as JSON text (the driver's own JSON.stringify would lose nothing, but text is cheaper). */
export function handle(input: Json): Json {
  if (input.convert !== undefined) return { text: JSON.stringify(converted(input.convert)) };
  if (input.static !== undefined) return { text: JSON.stringify(staticEntries(input.static)) };
  if (input.bench !== undefined) return { text: JSON.stringify(bench(input.bench)) };
  return { text: JSON.stringify(native(input as NativeCase)) };
}

/** Server files read once per process (mcpTools never changes what it is given). */
const SERVERS = new Map<string, Json>();

function native(c: NativeCase): Json {
  try {
    const ctx = Context.fromObject(c.context);
    let extra: Variant[] = [];
    let skipped: SkipRecord[] = [];
    if (c.servers !== null || c.subagents !== null) {
      let servers = c.servers !== null ? SERVERS.get(c.servers) : [];
      if (servers === undefined) SERVERS.set(c.servers!, (servers = loadServersJson(c.servers!)));
      if (!Array.isArray(servers)) servers = [servers];
      const subagents = c.subagents !== null ? JSON.parse(c.subagents) : [];
      [extra, skipped] = dynamicVariants(c.family as PromptFamily, ctx, { mcpServers: servers, subagents });
    }
    const tools = nativeTools(c.family as PromptFamily, ctx, { format: c.format, extraVariants: extra, skipped });
    return { tools, skipped };
  } catch (error) {
    const e = error as Error;
    return { error: `${e.name}: ${e.message}` };
  }
}

function outcome(run: () => Json): Json {
  try {
    return { ok: run() };
  } catch (error) {
    const e = error as Error;
    return { error: `${e.name}: ${e.message}` };
  }
}

function converted(c: { schema: Json; strict: boolean }): Json {
  const out: Json = {};
  for (const format of FORMATS) {
    for (const strict of [false, true]) {
      out[`${format}/${strict ? "True" : "False"}`] = outcome(() => {
        const conv = convert(c.schema, format, { strict });
        return { schema: conv.schema, notices: conv.notices.map((n) => [n.path, n.message]) };
      });
    }
    out[`params/${format}`] = outcome(() => convertParameters(c.schema, format));
    const variant = { name: "t", description: ["D."], strict: c.strict, parameters: [], input_schema: c.schema };
    let entry: Json = null;
    const got = outcome(() => (entry = runtimeEntry(format, variant, (p) => p.join(""))));
    out[`runtime/${format}`] = got;
    if (got.error !== undefined) continue;
    if (entry !== null) {
      out[`limits/${format}`] = outcome(() => checkLimits(format, [entry]).map((n) => [n.path, n.message]));
    }
  }
  return out;
}

/** Median microseconds per call of `run` over `repeats` batches of about `budget` seconds. */
export function perCall(run: () => unknown, repeats: number, budget: number): number {
  for (let i = 0; i < 50; i++) run(); // warm up (the JIT)
  let count = 0;
  const start = performance.now();
  while (performance.now() - start < 20) {
    run();
    count += 1;
  }
  const number = Math.max(1, Math.round((count * budget * 1000) / 20));
  const times: number[] = [];
  for (let r = 0; r < repeats; r++) {
    const t0 = performance.now();
    for (let i = 0; i < number; i++) run();
    times.push(((performance.now() - t0) / number) * 1000);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

function bench(b: { families: string[]; context: Json; repeats: number; budget: number }): Json {
  const ctx = Context.fromObject(b.context);
  for (let i = 0; i < 200; i++) {
    // warm the JIT on every path first, so that the first row measured is not the slowest
    for (const family of b.families) for (const format of FORMATS) nativeTools(family as PromptFamily, ctx, { format });
    clearNativeCaches(CATALOG, i % 2 === 0);
  }
  const rows = [];
  for (const family of b.families) {
    for (const format of FORMATS) {
      const call = (): Json => nativeTools(family as PromptFamily, ctx, { format });
      rows.push({
        family,
        format,
        tools: call().length,
        miss_us: perCall(() => (clearNativeCaches(CATALOG), call()), b.repeats, b.budget),
        hit_us: perCall(call, b.repeats, b.budget),
        first_us: perCall(() => (clearNativeCaches(CATALOG, true), call()), b.repeats, b.budget),
      });
    }
  }
  return rows;
}

/** Every spec variant's entry and META in `format`, as specEntry and specMeta make them. */
function staticEntries(format: string): Json {
  const out: Json = {};
  for (const [key, spec] of Object.entries(SPECS)) {
    const entry = specEntry(format, spec);
    out[key] = { entry, meta: specMeta(spec, entry) };
  }
  return out;
}
