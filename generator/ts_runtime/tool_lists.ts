/**
 * Build a request's native `tools` list; mirrors runtime/tool_lists.py and the generated
 * providers.py (`native_tools`, `format_for`).
 *
 * The Python package converts every spec variant at generation time (generated/<format>.py:
 * TOOLS and META, made by runtime/native.py's spec_entry and spec_meta) and adapts the entries
 * per context. The TypeScript package applies the same rules (native.ts: specEntry, specMeta)
 * to its catalog data on first use, per format and variant, then adapts the entries exactly as
 * the Python runtime does: baking them would put every format's converted text into the
 * package beside the catalog data. A small per-context cache keeps repeated calls cheap.
 */

import { fingerprint } from "./cache.js";
import { copier, fastCopy } from "./copies.js";
import { FORMATS } from "./formats.js";
import { NativeToolsUnavailable, adapt, runtimeEntry, specEntry, specMeta, type EntryMeta } from "./native.js";
import { fieldValue, truthy } from "./predicates.js";
import { type Json, type Schema } from "./schema_common.js";
import { skipRecord, type SkipRecord, type Variant } from "./variants.js";
import { has, keyError, PyError, pyRepr, pyStr } from "./pyspell.js";

/** What nativeTools needs of the catalog: the runtime's Catalog (catalog.ts) has this shape. */
export interface NativeCatalog {
  readonly families: { readonly [family: string]: Json };
  /** Each family's resolved spec variants, in prompt order. */
  readonly variants: ReadonlyMap<string, readonly Json[]>;
  /** The catalog data: MCP `{separator, name_max_length}`, SUBAGENTS `{name_prefix, max_length}`. */
  readonly data: {
    readonly mcp: { readonly separator: string; readonly name_max_length: number };
    readonly subagents: { readonly name_prefix: string; readonly max_length: number };
  };
  /** Whether a requirement holds (null: no requirement; one that cannot be evaluated does not). */
  holds(predicate: Json, context: unknown): boolean;
  /** Static enabled tools, then subagent tools, then MCP tools (run-time tools replace use_subagents). */
  assemble(family: string, context: unknown, extraVariants: readonly Json[]): readonly Json[];
  resolveText(pieces: Json, context: unknown, placeholders?: boolean): string;
  resolvePlaceholders(text: string, context: unknown): string;
  /** A checked context from a Context, a plain object or null (the defaults). */
  asContext(context: unknown): Json;
  /** The native format a provider's requests use. */
  route(providerId: unknown, modelId?: unknown): string;
}

/** Options of `nativeTools`; `F` is the format's name as given (a literal selects its entry type). */
export interface NativeToolsOptions<F extends string = string> {
  /** The format; the context's routed format when left out. */
  format?: F | null | undefined;
  /** Run-time tools (subagents, MCP) from dynamicVariants (dynamic_variants.ts). */
  extraVariants?: readonly Variant[] | undefined;
  /** Marks the last tool as a prompt-cache breakpoint (anthropic only). */
  cacheControl?: boolean | undefined;
  /** Run-time tools the format cannot take are appended here when given. */
  skipped?: SkipRecord[] | undefined;
}

/** The native format the context's provider (and model) use. */
export function formatFor(catalog: NativeCatalog, context: Json): string {
  return catalog.route(fieldValue(context, "provider_id"), fieldValue(context, "model_id"));
}

// ---- the entries of the static tools (what generated/<format>.py holds in Python) ----------

interface StaticEntry {
  readonly entry: Schema | null;
  readonly meta: EntryMeta | null;
  readonly copy: (() => Schema) | null;
}

let ENTRIES = new WeakMap<object, Map<string, StaticEntry>>();

function staticEntry(dialect: string, variant: Json): StaticEntry {
  let perFormat = ENTRIES.get(variant);
  if (perFormat === undefined) ENTRIES.set(variant, (perFormat = new Map()));
  let found = perFormat.get(dialect);
  if (found === undefined) {
    const entry = specEntry(dialect, variant);
    const meta = specMeta(variant, entry);
    found = { entry, meta, copy: entry === null ? null : copier(entry) };
    perFormat.set(dialect, found);
  }
  return found;
}

// ---- the tools list ------------------------------------------------------------------------

/**
 * The request-ready `tools` list for `family`: the routed format unless `format` is given.
 *
 * Throws NativeToolsUnavailable when native tool calling is off (family label or context).
 * A run-time tool the format cannot take never fails the list: it is left out and, when
 * `skipped` is given, reported there as `{server, uid, tool, name, reason}`.
 */
export function nativeTools(
  catalog: NativeCatalog,
  family: Json,
  context: Json = null,
  options: NativeToolsOptions = {},
): Schema[] {
  const ctx = catalog.asContext(context);
  const chosen = options.format || formatFor(catalog, ctx);
  if (!FORMATS.has(chosen)) {
    throw keyError(`unknown format ${pyRepr(chosen)}; known: ${[...FORMATS.keys()].join(", ")}`);
  }
  return buildTools(catalog, chosen, family, ctx, options);
}

/** The `tools` list of a request for `family` in `context`, in `dialect` (tool_lists.build_tools). */
export function buildTools(
  catalog: NativeCatalog,
  dialect: string,
  family: Json,
  context: Json,
  options: NativeToolsOptions = {},
): Schema[] {
  const cacheControl = Boolean(options.cacheControl);
  if (cacheControl && !FORMATS.get(dialect)!.cacheControl) {
    throw new PyError("ValueError", "cache_control is an Anthropic option");
  }
  const name = pyStr(family);
  const ctx = catalog.asContext(context);
  const data = has(catalog.families, name) ? catalog.families[name] : undefined;
  if (data === undefined) throw keyError(name);
  if (!data.use_native_tools) {
    throw new NativeToolsUnavailable(`family ${pyRepr(name)} does not use native tool calling`);
  }
  // A project whose context has no such switch leaves the decision to the family label.
  const switchable = ctx !== null && typeof ctx === "object" && "enable_native_tool_calls" in ctx;
  const enabled = switchable ? ctx.enable_native_tool_calls : true;
  if (!truthy(enabled)) {
    throw new NativeToolsUnavailable("native tool calls are off in this context (enable_native_tool_calls)");
  }
  const extra = options.extraVariants ?? [];
  let result: Schema[];
  if (extra.some((v) => v.input_schema === null || v.input_schema === undefined)) {
    // Subagent tools replace the static use_subagents: the list is made whole here.
    result = build(catalog, dialect, name, ctx, extra, options.skipped);
  } else if (extra.length > 0) {
    // MCP tools come after the static ones, which are what they are without them: the static
    // part comes from the cache, and only the request's own tools are converted.
    result = staticList(catalog, dialect, name, data, ctx, false);
    result.push(...runtimeEntries(catalog, dialect, ctx, extra, options.skipped));
  } else {
    return staticList(catalog, dialect, name, data, ctx, cacheControl);
  }
  if (cacheControl) markCacheBreakpoint(result);
  return result;
}

/** Anthropic's prompt-cache breakpoint on the last tool of a list (none on an empty list). */
function markCacheBreakpoint(tools: Schema[]): void {
  const last = tools[tools.length - 1];
  if (last !== undefined) last["cache_control"] = { type: "ephemeral" };
}

/** The family's static tools in `ctx`, from the cache when it has them. */
function staticList(catalog: NativeCatalog, dialect: string, name: string, data: Json, ctx: Json, cacheControl: boolean): Schema[] {
  const key = cacheKey(catalog, dialect, name, data, ctx, cacheControl);
  const lists = listsOf(catalog);
  if (key !== null) {
    const cached = lists.get(key);
    if (cached !== undefined) {
      lists.delete(key); // most recently used last
      lists.set(key, cached);
      return fastCopy(cached);
    }
  }
  const result = build(catalog, dialect, name, ctx, [], undefined);
  if (cacheControl) markCacheBreakpoint(result);
  if (key !== null) {
    if (lists.size >= CACHE_LIMIT) lists.delete(lists.keys().next().value!);
    lists.set(key, fastCopy(result));
  }
  return result;
}

/** A run-time tool converted for a dialect: a copier of its entry (null: not offered), or why
 * the dialect cannot take it. */
interface Converted {
  readonly copy: (() => Schema) | null;
  readonly error: unknown;
}

/** Run-time tools converted per dialect and the variant's fingerprint (tool_lists.py's
 * `_CONVERTED`): an MCP server's tools are sent with every request. */
const CONVERTED = new Map<string, Converted>();
const CONVERTED_LIMIT = 4096;

/** The key of `variant`'s conversion, or null when it may depend on the context (a text piece
 * with a condition: run-time tools have none, a hand-made one might). */
function convertedKey(dialect: string, variant: Variant): string | null {
  try {
    const texts: Json[] = [variant.description, ...variant.parameters.map((p: Json) => p.instruction)];
    if (!texts.every((pieces) => Array.isArray(pieces) && pieces.every((piece: Json) => typeof piece === "string"))) return null;
  } catch {
    return null; // a malformed variant: converted (and refused) afresh every time
  }
  const found = fingerprint(variant);
  return found === null ? null : `${dialect}\u0000${found}`;
}

/** Run-time tools converted for `dialect`; one the dialect cannot take is left out (and reported
 * in `skipped`), never failing the list. */
function runtimeEntries(
  catalog: NativeCatalog,
  dialect: string,
  ctx: Json,
  variants: readonly Variant[],
  skipped: SkipRecord[] | undefined,
): Schema[] {
  // MCP and subagent text comes from servers and users: never fill placeholders in it.
  const serverText = (pieces: readonly Json[]): string => catalog.resolveText(pieces, ctx, false);
  const result: Schema[] = [];
  for (const variant of variants) {
    const key = convertedKey(dialect, variant);
    let kept = key === null ? undefined : CONVERTED.get(key);
    if (kept === undefined) {
      try {
        const entry = runtimeEntry(dialect, variant, serverText);
        kept = { copy: entry === null ? null : copier(entry), error: null };
      } catch (exc) {
        kept = { copy: null, error: exc }; // one bad run-time tool never costs the others
      }
      if (key !== null) {
        if (CONVERTED.size >= CONVERTED_LIMIT) CONVERTED.clear();
        CONVERTED.set(key, kept);
      }
    }
    if (kept.error !== null) {
      if (skipped !== undefined) skipped.push(skipRecord(variant, dialect, kept.error));
    } else if (kept.copy !== null) {
      result.push(kept.copy());
    }
  }
  return result;
}

/** Lists kept per catalog: at most this many contexts' lists (least recently used go first). */
export const CACHE_LIMIT = 256;
const LISTS = new WeakMap<object, Map<string, Schema[]>>();

/** Forget the cached lists of `catalog` and, with `entries`, the converted static entries too
 * (benchmarks measure a first call and a cache miss with it; dynamic_variants.ts keeps its own). */
export function clearNativeCaches(catalog: NativeCatalog, entries: boolean = false): void {
  LISTS.delete(catalog);
  if (entries) {
    ENTRIES = new WeakMap();
    CONVERTED.clear();
  }
}

function listsOf(catalog: NativeCatalog): Map<string, Schema[]> {
  let lists = LISTS.get(catalog);
  if (lists === undefined) LISTS.set(catalog, (lists = new Map()));
  return lists;
}

/**
 * The cache key of a family's static list: only what it depends on (the generated
 * `context_fields` and the outcomes of its `context_tests`), as in the Python runtime; a
 * family without them is not cached. JSON text keeps `true` and `1` apart.
 */
function cacheKey(
  catalog: NativeCatalog,
  dialect: string,
  family: string,
  data: Json,
  ctx: Json,
  cacheControl: boolean,
): string | null {
  const fields: readonly string[] | undefined = data.context_fields;
  if (!Array.isArray(fields)) return null;
  const tests: readonly Json[] = Array.isArray(data.context_tests) ? data.context_tests : [];
  const values = fields.map((f) => fieldValue(ctx, f));
  const outcomes = tests.map((t) => catalog.holds(t, ctx));
  return JSON.stringify([dialect, family, cacheControl, values, outcomes]);
}

/** `fn` with its results kept per argument, for one build (a predicate or text seen again);
 * `fn` never returns undefined. */
function memoized<K, V>(fn: (key: K) => V): (key: K) => V {
  const known = new Map<K, V>();
  return (key: K): V => {
    let value = known.get(key);
    if (value === undefined) known.set(key, (value = fn(key)));
    return value;
  };
}

/** The whole list made afresh: the static tools `assemble` keeps, then the run-time ones (which it
 * puts after them). */
function build(
  catalog: NativeCatalog,
  dialect: string,
  family: string,
  ctx: Json,
  extraVariants: readonly Variant[],
  skipped: SkipRecord[] | undefined,
): Schema[] {
  const requirement = memoized((predicate: Json): boolean => catalog.holds(predicate, ctx));
  const text = (pieces: readonly Json[]): string => catalog.resolveText(pieces, ctx);
  const placeholders = memoized((value: string): string => catalog.resolvePlaceholders(value, ctx));
  const result: Schema[] = [];
  const runTime: Variant[] = [];
  for (const variant of catalog.assemble(family, ctx, extraVariants)) {
    if (variant.spec === null || variant.spec === undefined) {
      runTime.push(variant);
      continue;
    }
    const found = staticEntry(dialect, variant);
    if (found.copy !== null) {
      let built = found.copy();
      if (found.meta !== null) built = adapt(dialect, built, found.meta, requirement, text, placeholders);
      result.push(built);
    }
  }
  return result.concat(runtimeEntries(catalog, dialect, ctx, runTime, skipped));
}
