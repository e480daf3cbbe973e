/**
 * What one request offered the model, used both to send the tools and to answer the calls
 * (mirrors offer.py).
 *
 * An `Offer` is built once per request from a family, a context, a format (null for the text
 * path) and the request's run-time tools (MCP servers, subagent configs). It builds what is sent
 * (`tools()` for a native format, `promptSection()` for the text path) and remembers the names
 * that went out, so dispatch cannot disagree with it: `execute(coordinator, config, use)` refuses
 * a call to any tool that was not sent (a static tool turned off by its requirements, an MCP tool
 * of a disabled or unknown server, a subagent that is not configured, a name the model made up)
 * with one tool-error result, then checks the arguments against exactly the parameters schema that
 * was sent for that tool in the request's format (sent_schema.ts; on the text path, the tool's JSON
 * Schema with text coercion) and hands the handler typed values. Nothing throws for the model's
 * mistakes.
 *
 * One call answers a whole turn: `answer(coordinator, config, response)` (native formats: the
 * response as the SDK returns it) and `answerText(coordinator, config, text)` (the text path)
 * read every call, answer each as `execute` does and return what goes into the next request;
 * `answerAsync` and `answerTextAsync` run the calls concurrently, async handlers awaited. A call
 * the output limit cut off, and on the text path a tag calling a tool that does not exist, are
 * answered with an error and never run.
 */

import type { Catalog } from "./catalog.js";
import { parseMcpName } from "./dynamic_tools.js";
import { parametersSchema } from "./native.js";
import { keptPlan, McpServers, serversGiven, type OfferOptions, type OfferPlan } from "./offer_plan.js";
import type { ResponseOf, ResultMessage, ToolEntry } from "./format_types.js";
import type { TextPath } from "./prompt.js";
import { type Json } from "./schema_common.js";
import { sentChecker, sentParameters } from "./sent_schema.js";
import { cutOffError, readCalls, resultMessages, textResult } from "./replies.js";
import { ToolResult, toolUse, type ToolUse } from "./tool_types.js";
import { argumentsChecker, type ArgumentsChecker } from "./validation.js";
import type { SkipRecord, Variant } from "./variants.js";
import { errorText, has, isDict, put, PyError, pyRepr, pyStr } from "./pyspell.js";

export type { OfferOptions };
export { McpServers };

/** At most this many offered names are listed in a refusal. */
const LISTED = 40;

/** What a Coordinator offers the Offer (dispatch.ts). */
export interface Dispatcher<Config = unknown> {
  execute(config: Config, block: ToolUse): ToolResult | null;
  executeAsync(config: Config, block: ToolUse, options?: { timeout?: number | null | undefined }): Promise<ToolResult | null>;
  /** Throws when the coordinator is bound for async: a sync entry point calls it first. */
  checkSync?(entry: string): void;
  /** A short label for a call (the text path's results start with it). */
  label?(use: Pick<ToolUse, "name" | "params">): string;
}

/** `result`, or an error result when a handler returned something else (null, ...). */
function given(use: ToolUse, result: unknown): ToolResult {
  if (result instanceof ToolResult) return result;
  const kind = result === null || result === undefined ? "NoneType" : typeof result === "object" ? ((result as object).constructor?.name ?? "object") : typeof result;
  return ToolResult.error(`Error executing tool ${use.name}: its handler returned ${kind}, not a ToolResult`);
}

function textTurn<Config>(coordinator: Dispatcher<Config>, uses: readonly ToolUse[], results: readonly ToolResult[]): string {
  return uses
    .map((u, k) => textResult(u, results[k] as ToolResult, coordinator.label === undefined ? null : coordinator.label(u)))
    .join("\n\n");
}

/** The `tools` entry of an Offer for format `F` (none on the text path). */
export type OfferTool<F extends string | null> = F extends string ? ToolEntry<F> : never;
/** What an Offer for format `F` answers: that format's result messages. */
export type OfferAnswer<F extends string | null> = F extends string ? ResultMessage<F> : never;
/** The response an Offer for format `F` reads (format_types.ts). */
export type OfferResponse<F extends string | null> = F extends string ? ResponseOf<F> : unknown;

// Text-path checkers of static variants, per variant object and names of the parameters sent: the catalog's
// variants live as long as the package.
const STATIC_CHECKERS = new WeakMap<object, Map<string, ArgumentsChecker>>();

/**
 * The text path's schema: an MCP tool's own, else the parameters' (as every format's derives). A
 * top-level union without a `type` of its own gets its branches' types, so that text coercion
 * reads its value as they say.
 */
function inputSchema(variant: Variant, params: readonly Variant["parameters"][number][]): Json {
  let schema: Json = variant.input_schema;
  if (schema === null || schema === undefined) {
    schema = parametersSchema(params.map((p) => ({ name: p.name, required: p.required, instruction: "", schema: p.schema })));
  }
  const properties = isDict(schema) && has(schema, "properties") ? schema["properties"] : null;
  if (!isDict(properties)) return schema;
  const typed: Record<string, Json> = {};
  for (const [name, prop] of Object.entries(properties)) put(typed, name, withBranchTypes(prop));
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(schema as Record<string, Json>)) put(out, key, value);
  put(out, "properties", typed);
  return out;
}

function withBranchTypes(prop: Json): Json {
  if (!isDict(prop) || has(prop, "type")) return prop;
  const branches = has(prop, "anyOf") ? prop["anyOf"] : has(prop, "oneOf") ? prop["oneOf"] : null;
  const types: string[] = [];
  for (const branch of Array.isArray(branches) ? branches : []) {
    const declared = isDict(branch) && has(branch, "type") ? branch["type"] : null;
    if (declared === null || declared === undefined) return prop; // a branch of any type: nothing to coerce to
    for (const name of Array.isArray(declared) ? declared : [declared]) {
      if (typeof name === "string" && !types.includes(name)) types.push(name);
    }
  }
  if (types.length === 0) return prop;
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(prop)) put(out, key, value);
  put(out, "type", types);
  return out;
}

// Per catalog variant: whether its parameter schemas hold no placeholder, so that what it sends in
// a format depends only on the parameters sent.
const FIXED = new WeakMap<object, boolean>();

function fixedSchema(variant: Variant): boolean {
  let known = FIXED.get(variant);
  if (known === undefined) {
    known = !JSON.stringify(variant.parameters.map((p) => p.schema)).includes("{{");
    FIXED.set(variant, known);
  }
  return known;
}

/** The tools offered in one request; see the module comment. */
export class Offer<C extends object = { readonly [field: string]: unknown }, F extends string | null = string | null> {
  readonly catalog: Catalog<C>;
  readonly textPath: TextPath<C>;
  readonly family: string;
  readonly context: C;
  readonly format: string | null;
  /** The run-time tools of this request (shared with other Offers: read only). */
  readonly extraVariants: readonly Variant[];
  /** Run-time tools left out of this request, with reasons (`{server, uid, tool, name, reason}`). */
  readonly skipped: SkipRecord[];
  /** The offered tools by name, in the order they were sent. */
  readonly variants: ReadonlyMap<string, Variant>;
  private readonly plan: OfferPlan;
  private sentTools: Record<string, unknown>[] | null = null;
  private readonly serversGiven: readonly Json[];
  private servers: Map<string, Json> | null = null;

  /**
   * Throws NativeToolsUnavailable (from nativeTools) when the family or context does not use
   * native tools: use the text path then.
   */
  constructor(catalog: Catalog<C>, textPath: TextPath<C>, family: string, context: unknown = null, options: OfferOptions<F> = {}) {
    this.catalog = catalog;
    this.textPath = textPath;
    this.family = catalog.knownFamily(family);
    this.context = catalog.asContext(context);
    this.format = options.format ?? null;
    const format = this.format;
    const kept = keptPlan(catalog, textPath, this.family, this.context, format, options);
    this.plan = kept.value;
    if (kept.made) this.sentTools = kept.value.firstTools();
    this.extraVariants = this.plan.extra;
    this.skipped = this.plan.skipped.map((r) => ({ ...r }));
    this.variants = new Map(this.plan.variants);
    this.serversGiven = [...serversGiven(options.mcpServers)[0]];
  }

  // ---- sending ----------------------------------------------------------------------------

  /** The request's native `tools` list (empty on the text path), typed by the Offer's format. */
  tools(): OfferTool<F>[];
  tools(): unknown[] {
    if (this.sentTools === null) this.sentTools = this.plan.copyTools(); // made on first use
    return [...this.sentTools];
  }

  /** The text path's '# Tools' section (empty for a native format). */
  promptSection(): string {
    return this.plan.section;
  }

  /** The names of the offered tools, in the order they were sent. */
  names(): string[] {
    return [...this.variants.keys()];
  }

  /**
   * Offered run-time tools whose schema lost what the check cannot enforce (a pattern that is not
   * ECMA-262, ...), one `{server, uid, tool, name, reason}` each.
   */
  get degraded(): SkipRecord[] {
    return this.extraVariants.filter((v) => this.variants.has(v.name)).flatMap((v) => (v.degraded ?? []).map((r) => ({ ...r })));
  }

  // ---- dispatching ------------------------------------------------------------------------

  /**
   * Tool calls in a (possibly still streaming) text-path reply. Every tool of the family is read,
   * offered or not, so that a call to a tool this request did not offer reaches `execute` and is
   * refused there instead of passing as prose.
   */
  parseCalls(text: string): ToolUse[] {
    return this.textPath.parseCalls(text, this.family, this.extraVariants);
  }

  /** Why a call to `name` is refused, or null when `name` was offered. */
  refusal(name: string): string | null {
    if (this.variants.has(name)) return null;
    const separator = this.catalog.data.mcp.separator || "";
    const names = [...this.variants.keys()];
    let offered = names.slice(0, LISTED).join(", ") || "none";
    if (names.length > LISTED) offered += ` and ${names.length - LISTED} more`; // many MCP tools: keep it short
    const prefix = this.catalog.data.subagents.name_prefix || "";
    const parsed = separator ? parseMcpName(name, separator) : null;
    let reason: string;
    if (parsed !== null) {
      const [uid, tool] = parsed;
      if (this.servers === null) {
        this.servers = new Map(this.serversGiven.filter(isDict).map((s) => [pyStr(has(s, "uid") ? s["uid"] : null), s]));
      }
      const server = this.servers.get(uid);
      if (server === undefined) reason = `there is no MCP server ${pyRepr(uid)} in this request`;
      else if (has(server, "disabled") && server["disabled"]) reason = `the MCP server ${pyRepr(uid)} is disabled`;
      else {
        const left = this.skipped.find((r) => r.name === name);
        reason =
          left !== undefined
            ? `toolgen left the tool ${pyRepr(tool)} of the MCP server ${pyRepr(uid)} out of this request (${left.reason})`
            : `the MCP server ${pyRepr(uid)} offers no tool ${pyRepr(tool)} here`;
      }
    } else if (prefix && name.startsWith(prefix)) {
      reason = "no subagent of that name is configured for this request";
    } else if ((this.catalog.variants.get(this.family) ?? []).some((v) => v.name === name)) {
      reason = "it is turned off in the current context";
    } else {
      reason = "no tool of that name exists";
    }
    return `Tool ${name} is not available in this request: ${reason}. Use one of the offered tools: ${offered}.`;
  }

  /** `use`'s arguments typed by the schema that was sent, and every problem found. */
  check(use: ToolUse): [Record<string, unknown>, string[]] {
    const variant = this.variants.get(use.name);
    if (variant === undefined) throw new PyError("KeyError", pyRepr(use.name));
    return this.checker(variant)(use.params, this.format === null);
  }

  /**
   * Answer one call: refuse it, report its argument problems, or run its handler. A partial
   * block of an offered tool goes to the handler's preview unchecked (its values are still
   * growing); a partial block of any other tool is dropped. Throws nothing but AsyncHandlerError
   * (an async handler on this sync path: the developer's mistake).
   */
  execute<Config>(coordinator: Dispatcher<Config>, config: Config, use: ToolUse): ToolResult | null {
    const screened = this.screen(use);
    return screened.answered ? screened.answer : coordinator.execute(config, screened.run);
  }

  /** `execute` through `coordinator.executeAsync`: the same checks, async handlers awaited. */
  async executeAsync<Config>(
    coordinator: Dispatcher<Config>,
    config: Config,
    use: ToolUse,
    options: { timeout?: number | null | undefined } = {},
  ): Promise<ToolResult | null> {
    const screened = this.screen(use);
    return screened.answered ? screened.answer : coordinator.executeAsync(config, screened.run, options);
  }

  // ---- answering a whole turn --------------------------------------------------------------

  /**
   * The calls of a finished text-path reply, in order, as `answerText` answers them: a call whose
   * closing tag never came has `error` set and is never run; a tag calling a tool that does not
   * exist is returned by its name and refused by `execute`.
   */
  readReply(text: string): ToolUse[] {
    return this.textPath
      .parseReply(text, this.family, this.extraVariants)
      .map((use) => (use.partial ? toolUse(use.name, {}, false, "", cutOffError(use.name, `no closing tag </${use.name}>`)) : use));
  }

  /**
   * Answer every call of a native `response` (as the SDK returns it); null when the reply has no
   * call. The result is `resultMessages` of the format, in call order: append it after the
   * assistant's turn. Throws `AsyncHandlerError` before running anything when `coordinator` is
   * bound for async (use `answerAsync`).
   */
  answer<Config>(coordinator: Dispatcher<Config>, config: Config, response: OfferResponse<F>): OfferAnswer<F>[] | null;
  answer<Config>(coordinator: Dispatcher<Config>, config: Config, response: unknown): unknown[] | null {
    const format = this.native("answer");
    coordinator.checkSync?.("Offer.answer");
    const uses = readCalls(response, format);
    if (uses.length === 0) return null;
    return resultMessages(uses.map((u) => [u, given(u, this.execute(coordinator, config, u))] as [ToolUse, ToolResult]), format);
  }

  /** `answer` with the calls run concurrently (results in call order) through `executeAsync`. */
  answerAsync<Config>(
    coordinator: Dispatcher<Config>,
    config: Config,
    response: OfferResponse<F>,
    options?: { timeout?: number | null | undefined },
  ): Promise<OfferAnswer<F>[] | null>;
  async answerAsync<Config>(
    coordinator: Dispatcher<Config>,
    config: Config,
    response: unknown,
    options: { timeout?: number | null | undefined } = {},
  ): Promise<unknown[] | null> {
    const format = this.native("answerAsync");
    const uses = readCalls(response, format);
    if (uses.length === 0) return null;
    const results = await this.gather(coordinator, config, uses, options);
    return resultMessages(uses.map((u, k) => [u, results[k] as ToolResult] as [ToolUse, ToolResult]), format);
  }

  /**
   * Answer every call of a finished text-path reply; null when it has no call. The result is the
   * text of the next user turn: one `textResult` block per call in call order, separated by a
   * blank line (a string fits every SDK: wrap it as that SDK's user message).
   */
  answerText<Config>(coordinator: Dispatcher<Config>, config: Config, text: string): string | null {
    this.onTextPath("answerText");
    coordinator.checkSync?.("Offer.answerText");
    const uses = this.readReply(text);
    if (uses.length === 0) return null;
    return textTurn(coordinator, uses, uses.map((u) => given(u, this.execute(coordinator, config, u))));
  }

  /** `answerText` with the calls run concurrently, as `answerAsync` runs them. */
  async answerTextAsync<Config>(
    coordinator: Dispatcher<Config>,
    config: Config,
    text: string,
    options: { timeout?: number | null | undefined } = {},
  ): Promise<string | null> {
    this.onTextPath("answerTextAsync");
    const uses = this.readReply(text);
    if (uses.length === 0) return null;
    return textTurn(coordinator, uses, await this.gather(coordinator, config, uses, options));
  }

  private async gather<Config>(
    coordinator: Dispatcher<Config>,
    config: Config,
    uses: readonly ToolUse[],
    options: { timeout?: number | null | undefined },
  ): Promise<ToolResult[]> {
    const results = await Promise.all(uses.map((u) => this.executeAsync(coordinator, config, u, options)));
    return results.map((r, k) => given(uses[k] as ToolUse, r));
  }

  private native(method: string): string {
    if (this.format === null) {
      throw new PyError(
        "ValueError",
        `Offer.${method} answers a native format's response; this offer is for the text path (format=None): use answerText`,
      );
    }
    return this.format;
  }

  private onTextPath(method: string): void {
    if (this.format !== null) {
      throw new PyError(
        "ValueError",
        `Offer.${method} answers a text-path reply; this offer is for the native format ${pyRepr(this.format)}: use answer`,
      );
    }
  }

  private screen(use: ToolUse): { answered: true; answer: ToolResult | null } | { answered: false; run: ToolUse } {
    if (use.error !== null && use.error !== undefined) {
      return { answered: true, answer: use.partial ? null : ToolResult.error(use.error) };
    }
    const refused = this.refusal(use.name);
    if (refused !== null) return { answered: true, answer: use.partial ? null : ToolResult.error(refused) };
    if (use.partial) return { answered: false, run: use };
    let params: Record<string, unknown>;
    let problems: string[];
    try {
      [params, problems] = this.check(use);
    } catch (error) {
      // a schema the checker cannot read must not cost the call
      const text = `Could not check the arguments of tool ${use.name}: ${errorText(error)}`;
      return { answered: true, answer: ToolResult.error(text) };
    }
    if (problems.length > 0) {
      const lines = problems.map((p) => `- ${p}`).join("\n");
      const text = `Invalid arguments for tool ${use.name}:\n${lines}\nPlease retry the call with every problem fixed.`;
      return { answered: true, answer: ToolResult.error(text) };
    }
    return { answered: false, run: toolUse(use.name, params, use.partial, use.id, use.error) };
  }

  private checker(variant: Variant): ArgumentsChecker {
    const checkers = this.plan.checkers;
    let found = checkers.get(variant.name);
    if (found === undefined) {
      found = this.format === null ? this.textChecker(variant) : this.sentChecker(variant, this.format);
      checkers.set(variant.name, found);
    }
    return found;
  }

  /** The check of the parameters schema this request sent for `variant`. */
  private sentChecker(variant: Variant, format: string): ArgumentsChecker {
    const [schema, dialect] = sentParameters(format, this.plan.entries.get(variant.name) ?? null);
    const own: unknown = variant.input_schema;
    let required: Set<string>;
    let identity: [object, string] | null = null;
    if (own === null || own === undefined) {
      required = new Set(variant.parameters.filter((p) => p.required).map((p) => p.name));
      const properties = isDict(schema) && has(schema, "properties") ? schema["properties"] : null;
      if (variant.spec !== null && fixedSchema(variant)) {
        identity = [variant, JSON.stringify([format, dialect, isDict(properties) ? Object.keys(properties) : []])];
      }
    } else {
      const listed = isDict(own) && has(own, "required") ? own["required"] : null;
      required = new Set((Array.isArray(listed) ? listed : []).filter((r): r is string => typeof r === "string"));
    }
    return sentChecker(schema, dialect, required, identity);
  }

  /** The text path's check: the tool's JSON Schema, with text coercion. */
  private textChecker(variant: Variant): ArgumentsChecker {
    const params = this.catalog.visibleParameters(variant, this.context, this.plan.enabledIds);
    if (variant.spec === null) return argumentsChecker(inputSchema(variant, params));
    let perVariant = STATIC_CHECKERS.get(variant);
    if (perVariant === undefined) STATIC_CHECKERS.set(variant, (perVariant = new Map()));
    const key = JSON.stringify(params.map((p) => p.name));
    let cached = perVariant.get(key);
    if (cached === undefined) perVariant.set(key, (cached = argumentsChecker(inputSchema(variant, params))));
    return cached;
  }
}
