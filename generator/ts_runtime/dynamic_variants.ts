/**
 * The run-time tools of a request: subagent tools and MCP tools, and those left out with reasons
 * (the Python Catalog.dynamic_variants). Apart from tool_lists.ts, which converts what this
 * returns: a program that never passes run-time tools imports none of the MCP reading, schema
 * checking and pattern code behind them.
 */

import { fingerprint, keptValue } from "./cache.js";
import { copier } from "./copies.js";
import { mcpTools } from "./dynamic_tools.js";
import type { Json } from "./schema_common.js";
import { subagentTools, subagentsActive } from "./subagents.js";
import { CACHE_LIMIT, type NativeCatalog } from "./tool_lists.js";
import { skipRecord, type SkipRecord, type Variant } from "./variants.js";
import { has, isDict, keyError, pyRepr, pyStr } from "./pyspell.js";

export interface DynamicOptions {
  /** MCP servers: `{uid, name, disabled, tools}` objects with MCP `tools/list` entries. */
  mcpServers?: readonly Json[] | undefined;
  /** Subagent configs `{name, description}`. */
  subagents?: readonly Json[] | undefined;
  /** The kept MCP variants themselves, read only, instead of copies (the Offer). */
  shared?: boolean | undefined;
}

/** What mcpTools made of one server list, kept read only; `copy()` hands out copies. */
interface RuntimeTools {
  readonly variants: readonly Variant[];
  readonly skipped: readonly SkipRecord[];
  readonly copy: () => [Variant[], SkipRecord[]];
}

const RUNTIME_TOOLS = new WeakMap<object, Map<string, RuntimeTools>>();

/** mcpTools of `servers`, kept per server list (its fingerprint) for the catalog. */
function keptMcpTools(catalog: NativeCatalog, servers: readonly Json[]): RuntimeTools {
  const make = (): RuntimeTools => {
    const [variants, skipped] = mcpTools(servers, {
      separator: catalog.data.mcp.separator,
      maxLength: catalog.data.mcp.name_max_length,
    });
    return { variants, skipped, copy: copier([variants, skipped]) as () => [Variant[], SkipRecord[]] };
  };
  return keptValue(RUNTIME_TOOLS, catalog, fingerprint(servers), make, CACHE_LIMIT).value;
}

/**
 * Run-time tools for a request: [subagent tools + MCP tools, tools left out with reasons]
 * (the Python Catalog.dynamic_variants). Subagent tools exist only when subagents are active
 * for this family and context.
 */
export function dynamicVariants(
  catalog: NativeCatalog,
  family: Json,
  context: Json,
  options: DynamicOptions = {},
): [Variant[], SkipRecord[]] {
  const ctx = catalog.asContext(context);
  const extra: Variant[] = [];
  const skipped: SkipRecord[] = [];
  const name = pyStr(family);
  if (!has(catalog.families, name)) {
    throw keyError(`unknown family ${pyRepr(name)}; known: ${Object.keys(catalog.families).join(", ")}`);
  }
  const tools = catalog.families[name].tools;
  const subagents = options.subagents ?? [];
  if (subagents.length > 0 && subagentsActive(ctx, tools)) {
    const configs = subagents.filter((c) => isDict(c));
    for (const c of subagents) {
      if (!isDict(c)) skipped.push(skipRecord({}, "subagents", "config is not an object"));
    }
    extra.push(
      ...subagentTools(configs, {
        prefix: catalog.data.subagents.name_prefix,
        maxLength: catalog.data.subagents.max_length,
        separator: catalog.data.mcp.separator,
        skipped,
      }),
    );
  }
  const servers = options.mcpServers ?? [];
  if (servers.length > 0) {
    const kept = keptMcpTools(catalog, servers);
    const [found, leftOut] = options.shared ? [kept.variants, kept.skipped] : kept.copy();
    extra.push(...found);
    skipped.push(...leftOut.map((record) => ({ ...record })));
  }
  return [extra, skipped];
}

/** Forget the MCP tools kept for `catalog` (benchmarks measure a first call with it). */
export function clearRuntimeTools(catalog: NativeCatalog): void {
  RUNTIME_TOOLS.delete(catalog);
}
