/**
 * What an Offer works out from its inputs, kept per inputs and shared by equal Offers (mirrors
 * offer_plan.py). offer.ts's `Offer` asks for the plan of its inputs and makes one when there is
 * none: the run-time tools, then the tools list (or the prompt section), then the names sent,
 * exactly as an Offer always made them. A plan hands nothing out to be changed: every Offer gets
 * its own copies of what it gives its caller, and the argument checks are made on first use and
 * kept in the plan.
 */

import { fingerprint, keptValue } from "./cache.js";
import type { Catalog } from "./catalog.js";
import { fastCopy } from "./copies.js";
import { FORMATS, NAME, pathTo } from "./formats.js";
import type { TextPath } from "./prompt.js";
import { type Json } from "./schema_common.js";
import { dynamicVariants } from "./dynamic_variants.js";
import { nativeTools } from "./tool_lists.js";
import type { ArgumentsChecker } from "./validation.js";
import type { SkipRecord, Variant } from "./variants.js";
import { has, isDict, PyError, pyRepr } from "./pyspell.js";

/**
 * A request's MCP server list, prepared once and passed to every Offer in its place (offer_plan.py's
 * `McpServers`). An Offer keys its plan on the exact data of the server list (cache.ts's
 * `fingerprint`), a pass over every tool schema of every server on each new Offer; a prepared list
 * keeps an exact copy of the servers and that fingerprint, and an Offer made with it reads neither
 * again. The copy is private: a change to `servers` afterwards is not seen (prepare again). Data the
 * fingerprint cannot hold is kept as given, and Offers made with it are not kept, as with a plain list.
 */
export class McpServers {
  constructor(servers: readonly Json[]) {
    const key = fingerprint(servers);
    // What the fingerprint holds is plain JSON (finite numbers, no -0, no holes): JSON text
    // reads it back exactly.
    const copy = key === null ? [...servers] : (JSON.parse(JSON.stringify(servers)) as Json[]);
    PREPARED.set(this, { servers: copy, key });
    Object.freeze(this);
  }

  /** The number of servers. */
  get length(): number {
    return PREPARED.get(this)!.servers.length;
  }
}

const PREPARED = new WeakMap<McpServers, { servers: readonly Json[]; key: string | null }>();

/** The server list an Offer reads, and its fingerprint when prepared (else undefined). */
export function serversGiven(given: readonly Json[] | McpServers | undefined): [readonly Json[], string | null | undefined] {
  if (given instanceof McpServers) {
    const prepared = PREPARED.get(given)!;
    return [prepared.servers, prepared.key];
  }
  return [given ?? [], undefined];
}

/** The request's format and run-time tools; `F` is the format as given (a literal types the Offer's values). */
export interface OfferOptions<F extends string | null = string | null> {
  /** A native format name; null or left out: the text path. */
  format?: F | null | undefined;
  /** MCP servers `{uid, name, disabled, tools}`, as a list or prepared once (`McpServers`). */
  mcpServers?: readonly Json[] | McpServers | undefined;
  /** Subagent configs `{name, description}`. */
  subagents?: readonly Json[] | undefined;
}

/** The name a tool entry of `format` sends (null when it has none). */
export function entryName(format: string, entry: Json): string | null {
  let node = entry;
  for (const key of pathTo(FORMATS.get(format)!, NAME)) node = isDict(node) && has(node, key) ? node[key] : null;
  return typeof node === "string" ? node : null;
}

/**
 * What an Offer works out from its inputs (offer_plan.py's `Plan`), kept per inputs for the catalog
 * and shared by every Offer made from equal ones: nothing in it is handed out to be changed.
 * Made as the Offer always made it: the run-time tools, then the tools list (or the prompt
 * section), then the offered names. Every Offer gets its own copies of what it hands out; the
 * checks are made on first use and kept here.
 */
export class OfferPlan {
  readonly extra: readonly Variant[];
  readonly skipped: readonly SkipRecord[];
  readonly section: string = "";
  readonly variants: ReadonlyMap<string, Variant>;
  readonly enabledIds: readonly string[];
  readonly entries = new Map<string | null, Json>();
  readonly checkers = new Map<string, ArgumentsChecker>();
  readonly copyTools: () => Record<string, unknown>[];
  private first: Record<string, unknown>[] | null;

  constructor(catalog: Catalog<any>, textPath: TextPath<any>, family: string, context: unknown, format: string | null, options: OfferOptions) {
    const [extra, skipped] = dynamicVariants(catalog, family, context, {
      mcpServers: serversGiven(options.mcpServers)[0],
      subagents: options.subagents ?? [],
      shared: true,
    });
    this.extra = extra;
    let tools: Record<string, unknown>[] = [];
    if (format === null) {
      this.section = textPath.promptSection(family, context, extra, skipped);
    } else {
      if (!FORMATS.has(format)) {
        throw new PyError("KeyError", `unknown format ${pyRepr(format)}; known: ${[...FORMATS.keys()].join(", ")}`);
      }
      tools = nativeTools(catalog, family, context, { format, extraVariants: extra, skipped });
    }
    this.skipped = skipped.map((r) => ({ ...r }));
    // The first Offer hands out the list just made; the plan keeps a copy of its own, read by
    // the checks and copied for every later Offer.
    this.first = tools;
    const kept = fastCopy(tools);
    this.copyTools = () => fastCopy(kept);
    if (format !== null) for (const entry of kept) this.entries.set(entryName(format, entry), entry);
    const variants = catalog.assemble(family, context, extra);
    let sent: Set<unknown>;
    if (format === null) {
      const refused = new Set(this.skipped.map((r) => r.name));
      sent = new Set(variants.map((v) => v.name).filter((name) => !refused.has(name)));
    } else {
      sent = new Set(this.entries.keys());
    }
    this.variants = new Map(variants.filter((v) => sent.has(v.name)).map((v) => [v.name, v]));
    this.enabledIds = variants.map((v) => v.id);
  }

  /** The list made with the plan, for the Offer that made it (null afterwards). */
  firstTools(): Record<string, unknown>[] | null {
    const first = this.first;
    this.first = null;
    return first;
  }
}

/** At most this many plans are kept per catalog (least recently used go first). */
const PLAN_LIMIT = 256;
const PLANS = new WeakMap<object, Map<string, OfferPlan>>();

/**
 * The key of a plan: the format, the family, the checked context and the subagents, then the
 * fingerprint of the MCP servers (a prepared list's own); null, not kept, when any of them is not
 * plain data. Each fingerprint reads back one way only, so the two side by side do too. The text path's
 * TextPath object is part of the catalog's package, so the catalog keys it.
 */
function planKey(family: string, context: unknown, format: string | null, options: OfferOptions): string | null {
  const [servers, known] = serversGiven(options.mcpServers);
  const data = fingerprint([format, family, context, options.subagents ?? []]);
  const serversKey = known === undefined ? fingerprint(servers) : known;
  return data === null || serversKey === null ? null : `${data}${serversKey}`;
}

/** The plan kept for these inputs, else one made now (and kept unless its key is null). */
export function keptPlan(
  catalog: Catalog<any>,
  textPath: TextPath<any>,
  family: string,
  context: unknown,
  format: string | null,
  options: OfferOptions,
): { value: OfferPlan; made: boolean } {
  const make = () => new OfferPlan(catalog, textPath, family, context, format, options);
  return keptValue(PLANS, catalog, planKey(family, context, format, options), make, PLAN_LIMIT);
}
