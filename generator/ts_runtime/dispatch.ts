/**
 * Tool dispatch: the coordinator that routes tool calls to handlers (mirrors dispatch.py).
 *
 * `Bindings` holds what the specs say (the generated dispatch.ts): every tool id in enum order
 * with its handler binding, and the tools that serve MCP and subagent calls. The handlers belong
 * to the project using the package: `Coordinator.fromNamespace` builds them from an object of
 * handler classes by class name (a module namespace: `import * as handlers from "./handlers.js"`),
 * and `Coordinator.fromHandlers` takes ready handler objects by tool name (the generated
 * `HandlerMap` type makes a missing tool a compile error).
 *
 * Routing (`getHandler`), first match wins:
 * 1. a name containing the MCP separator goes to the MCP tool's handler;
 * 2. the static table;
 * 3. a dynamic subagent tool name goes to a `SharedToolHandler` around a subagents handler,
 *    created on first use and cached per name; the cache keeps the `MAX_DYNAMIC_HANDLERS` names
 *    used most recently, because a model can invent any number of names.
 *
 * `execute` is synchronous; `executeAsync` awaits handlers, with an optional timeout in seconds.
 * Neither throws for a handler's failure: its exception becomes an error result naming the tool.
 * An async handler on the sync path is the developer's mistake, not the model's, so it throws
 * `AsyncHandlerError` (a TypeError), never answered to the model: `fromNamespace`, `fromHandlers`
 * and `register` refuse `async` methods unless the coordinator is bound with `asynchronous: true`;
 * a coordinator bound so refuses the sync `execute` before running anything; and a sync method
 * that returns a thenable on the sync path throws too.
 */

import { parseMcpName } from "./dynamic_tools.js";
import { escapeLabelText, fillLabel } from "./labels.js";
import {
  AsyncHandlerError,
  asyncMethods,
  BIND_ASYNC,
  refuseAsync,
  refuseThenable,
  SharedToolHandler,
  TimedOut,
  USE_ASYNC,
  within,
} from "./handler_calls.js";
import { ToolResult, type ToolHandler, type ToolUse } from "./tool_types.js";

export { AsyncHandlerError, SharedToolHandler };
export type { ToolHandler };
import { errorName, errorText, isDict, own, pyGeneral, pyLen } from "./pyspell.js";

/** How many subagent tool names a Coordinator keeps a handler for (least recently used go). */
export const MAX_DYNAMIC_HANDLERS = 256;


/** One entry of the static table: the handler class and how to build it. */
export interface Binding {
  readonly class_name: string;
  readonly takes_validator: boolean;
  readonly shares: string | null;
}

/** A handler class of a namespace: built with the validator when its binding takes one. */
export type HandlerClass = new (validator?: unknown) => ToolHandler<any, any>;

/** Where `fromNamespace` finds handler classes by name: an object (a module namespace) or a Map. */
export type HandlerNamespace = Readonly<Record<string, unknown>> | ReadonlyMap<string, unknown>;

/** A line for the host's log; the default logger drops it (the result already reports it). */
export type DispatchLog = (level: "warning" | "error", message: string, error?: unknown) => void;

/** The namespace lacks handler classes; `missing` maps each class to its tool ids. */
export class MissingHandlersError extends Error {
  readonly missing: Readonly<Record<string, readonly string[]>>;

  constructor(missing: Readonly<Record<string, readonly string[]>>) {
    const lines = Object.entries(missing).map(([name, ids]) => `  ${name} (for ${ids.join(", ")})`);
    super(
      `${lines.length} handler class(es) missing from the implementation namespace:\n` +
        lines.join("\n"),
    );
    this.name = "MissingHandlersError";
    this.missing = Object.fromEntries(Object.entries(missing).map(([k, v]) => [k, [...v]]));
  }
}

/** The handler bindings of a spec set (the data of the generated dispatch.ts). */
export class Bindings {
  /** Every tool id in enum order: null (no handler), else class_name, takes_validator, shares. */
  readonly handlers: Readonly<Record<string, Binding | null>>;
  /** The tool whose handler receives every MCP tool call. */
  readonly mcpTool: string | null;
  /** The tool whose handler class serves the dynamic subagent tools. */
  readonly subagentsTool: string | null;
  /** Separates server uid and tool name in an MCP tool name. */
  readonly mcpSeparator: string;
  readonly subagentPrefix: string;
  readonly subagentMaxLength: number;
  /** Label templates by tool id (specs `label:`); see labels.ts. */
  readonly labels: Readonly<Record<string, string>>;

  constructor(data: {
    handlers?: Readonly<Record<string, Binding | null>>;
    mcpTool?: string | null;
    subagentsTool?: string | null;
    mcpSeparator?: string;
    subagentPrefix?: string;
    subagentMaxLength?: number;
    labels?: Readonly<Record<string, string>>;
  } = {}) {
    this.handlers = data.handlers ?? {};
    this.mcpTool = data.mcpTool ?? null;
    this.subagentsTool = data.subagentsTool ?? null;
    this.mcpSeparator = data.mcpSeparator ?? "";
    this.subagentPrefix = data.subagentPrefix ?? "";
    this.subagentMaxLength = data.subagentMaxLength ?? 0;
    this.labels = data.labels ?? {};
  }

  /** Whether `name` has the shape of a dynamic subagent tool name. */
  isSubagentToolName(name: string): boolean {
    const prefix = this.subagentPrefix;
    const length = pyLen(name);
    return (
      prefix !== "" &&
      name.startsWith(prefix) &&
      pyLen(prefix) < length &&
      length <= this.subagentMaxLength
    );
  }

  /** Whether `name` is routed to the MCP tool (it holds the separator). */
  isMcpName(name: string): boolean {
    return this.mcpSeparator !== "" && name.includes(this.mcpSeparator);
  }

  /**
   * A short label for `use`, e.g. `[read_file for 'src/app.ts']`; never throws.
   *
   * A static tool fills its own template; an MCP tool name fills the MCP tool's template with
   * the server and tool from the name; a dynamic subagent name shows its prompt. Anything else
   * (or a tool without a template) is labelled with its name in brackets.
   */
  label(use: Pick<ToolUse, "name" | "params">): string {
    const name = typeof use.name === "string" ? use.name : String(use.name);
    try {
      return this.fillFor(name, use.params);
    } catch {
      return `[${name}]`;
    }
  }

  private fillFor(name: string, params: unknown): string {
    const template = own(this.labels, name);
    if (template !== undefined) return fillLabel(template, params);
    const mcpTemplate = this.mcpTool === null ? undefined : own(this.labels, this.mcpTool);
    if (this.isMcpName(name) && mcpTemplate !== undefined) {
      const parsed = parseMcpName(name, this.mcpSeparator);
      const at = name.indexOf(this.mcpSeparator);
      const [server, tool] = parsed ?? [
        name.slice(0, at),
        name.slice(at + this.mcpSeparator.length),
      ];
      const values = { ...(isDict(params) ? params : {}), server_name: server, tool_name: tool };
      return fillLabel(mcpTemplate, values);
    }
    if (this.isSubagentToolName(name)) {
      return fillLabel(`[${escapeLabelText(name)} for '{prompt}']`, params);
    }
    return `[${name}]`;
  }

  /** The static table as JSON-able rows (`toolgen show dispatch`), in enum order. */
  table(): { id: string; handler_class: string | null; takes_validator: boolean; shares: string | null }[] {
    return Object.entries(this.handlers).map(([id, binding]) => ({
      id,
      handler_class: binding ? binding.class_name : null,
      takes_validator: Boolean(binding && binding.takes_validator),
      shares: binding ? binding.shares : null,
    }));
  }
}

function lookup(namespace: HandlerNamespace, className: string): HandlerClass | null {
  const found = namespace instanceof Map ? namespace.get(className) : own(namespace as Record<string, unknown>, className);
  return typeof found === "function" ? (found as HandlerClass) : null;
}

function build(factory: HandlerClass, binding: Binding, validator: unknown): ToolHandler<any, any> {
  return binding.takes_validator ? new factory(validator) : new factory();
}

/** `Type: message` (or the type alone), as the Python runtime describes an exception. */
function describe(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text ? errorText(error) : errorName(error);
}

/** Options of a Coordinator. */
export interface CoordinatorOptions {
  /** Makes the handler behind each dynamic subagent tool name; without it the subagents tool's handler is shared. */
  subagentFactory?: (() => ToolHandler<any, any>) | null | undefined;
  /** Receives a line for each handler failure (default: dropped; the result reports it). */
  log?: DispatchLog | undefined;
  /** Bound for the async paths: async handlers allowed, the sync `execute` refused. */
  asynchronous?: boolean | undefined;
}

/** Options of `fromNamespace`. */
export interface NamespaceOptions extends Pick<CoordinatorOptions, "log" | "asynchronous"> {
  /** Handed to the classes whose binding takes the validator. */
  validator?: unknown;
  /** Register what exists and skip missing classes instead of throwing MissingHandlersError. */
  lenient?: boolean | undefined;
}

/** A call answered without running a handler, or the handler (a partial block's has `handlePartialBlock`). */
type Route = { answered: true; answer: ToolResult | null } | { answered: false; handler: ToolHandler<any, any> };

/**
 * Routes tool calls to registered handlers; see the module comment for the routing order.
 * A subclass (the generated dispatch.ts) sets the static `bindings`.
 */
export class Coordinator<Config = unknown> {
  static bindings: Bindings = new Bindings();

  private readonly handlers = new Map<string, ToolHandler<any, any>>();
  private readonly dynamic = new Map<string, SharedToolHandler<any>>();
  private readonly subagentFactory: (() => ToolHandler<any, any>) | null;
  private readonly log: DispatchLog;
  /** Bound for the async paths: async handlers allowed, the sync `execute` refused. */
  readonly asynchronous: boolean;

  constructor(options: CoordinatorOptions = {}) {
    this.subagentFactory = options.subagentFactory ?? null;
    this.log = options.log ?? (() => undefined);
    this.asynchronous = options.asynchronous ?? false;
  }

  /** The bindings of this coordinator's class. */
  get bindings(): Bindings {
    return (this.constructor as typeof Coordinator).bindings;
  }

  /**
   * Build and register every handler of the bindings from `namespace` (classes by class name).
   *
   * A class whose binding takes the validator is built with `validator`, others with no
   * arguments. Tools that share a handler get a `SharedToolHandler` around the same instance.
   * Missing classes throw one `MissingHandlersError` naming all of them, unless `lenient`.
   * Handlers with an `async` method throw one `AsyncHandlerError` naming all of them unless
   * `asynchronous` (the coordinator is then for `executeAsync` and the Offer's async answers).
   */
  static fromNamespace<T extends typeof Coordinator<any>>(
    this: T,
    namespace: HandlerNamespace,
    options: NamespaceOptions = {},
  ): InstanceType<T> {
    const bindings = this.bindings;
    const missing: Record<string, string[]> = {};
    for (const [toolId, binding] of Object.entries(bindings.handlers)) {
      if (binding !== null && lookup(namespace, binding.class_name) === null) {
        (missing[binding.class_name] ??= []).push(toolId);
      }
    }
    if (Object.keys(missing).length > 0 && !options.lenient) throw new MissingHandlersError(missing);

    const owners = new Map<string, ToolHandler<any, any>>();
    for (const [toolId, binding] of Object.entries(bindings.handlers)) {
      if (binding === null || binding.shares !== null) continue;
      const factory = lookup(namespace, binding.class_name);
      if (factory !== null) owners.set(toolId, build(factory, binding, options.validator));
    }

    let subagentFactory: (() => ToolHandler<any, any>) | null = null;
    const subagentBinding =
      bindings.subagentsTool !== null ? own(bindings.handlers, bindings.subagentsTool) ?? null : null;
    if (subagentBinding !== null) {
      const subagentClass = lookup(namespace, subagentBinding.class_name);
      if (subagentClass !== null) {
        subagentFactory = () => build(subagentClass, subagentBinding, options.validator);
      }
    }

    const asynchronous = options.asynchronous ?? false;
    const coordinator = new this({ subagentFactory, log: options.log, asynchronous }) as InstanceType<T>;
    const found: string[] = [];
    for (const [toolId, binding] of Object.entries(bindings.handlers)) {
      if (binding === null) continue;
      let handler: ToolHandler<any, any> | undefined;
      if (binding.shares === null) handler = owners.get(toolId);
      else if (owners.has(binding.shares)) handler = new SharedToolHandler(toolId, owners.get(binding.shares)!);
      if (handler !== undefined) {
        coordinator.handlers.set(toolId, handler);
        found.push(...asyncMethods(handler, toolId));
      }
    }
    if (subagentBinding !== null && bindings.subagentsTool !== null && !coordinator.handlers.has(bindings.subagentsTool)) {
      const subagentClass = lookup(namespace, subagentBinding.class_name);
      if (subagentClass !== null) found.push(...asyncMethods(subagentClass, bindings.subagentsTool)); // dynamic names only
    }
    if (found.length > 0 && !asynchronous) {
      throw new AsyncHandlerError("async handlers bound for sync execution", found, BIND_ASYNC);
    }
    return coordinator;
  }

  /**
   * Register ready handler objects by tool name (the generated `HandlerMap` checks the keys).
   * A handler whose own `name` differs from its key is registered as a `SharedToolHandler`,
   * so one object can serve several tools, as shared bindings do.
   */
  static fromHandlers<T extends typeof Coordinator<any>>(
    this: T,
    handlers: Readonly<Record<string, ToolHandler<any, any>>>,
    options: CoordinatorOptions = {},
  ): InstanceType<T> {
    const coordinator = new this(options) as InstanceType<T>;
    const found: string[] = [];
    for (const [toolId, handler] of Object.entries(handlers)) {
      coordinator.handlers.set(toolId, handler.name === toolId ? handler : new SharedToolHandler(toolId, handler));
      found.push(...asyncMethods(handler, toolId));
    }
    if (found.length > 0 && !coordinator.asynchronous) {
      throw new AsyncHandlerError("async handlers bound for sync execution", found, BIND_ASYNC);
    }
    return coordinator;
  }

  /** Register `handler` under `handler.name` (replacing any handler of that name). */
  register(handler: ToolHandler<any, any>): void {
    const name: unknown = handler?.name;
    if (typeof name !== "string" || !name) {
      throw new TypeError(`a handler needs a non-empty string 'name' attribute, got ${String(handler)}`);
    }
    const found = asyncMethods(handler, name);
    if (found.length > 0 && !this.asynchronous) {
      throw new AsyncHandlerError("an async handler registered for sync execution", found, BIND_ASYNC);
    }
    this.handlers.set(name, handler);
  }

  /** Throw `AsyncHandlerError` when this coordinator is bound for async (a sync `entry` point such
   * as `Offer.answer` calls this before running anything). */
  checkSync(entry: string): void {
    if (!this.asynchronous) return;
    const found = [...this.handlers].flatMap(([name, handler]) => asyncMethods(handler, name));
    throw new AsyncHandlerError(
      `${entry} is sync, and this coordinator was bound with asynchronous: true`,
      found.length > 0 ? found : ["(no async handler yet)"],
      USE_ASYNC,
    );
  }

  /** The statically registered tool names, in registration order. */
  names(): string[] {
    return [...this.handlers.keys()];
  }

  /** Whether `getHandler(name)` finds a handler (without creating a dynamic one). */
  has(name: string): boolean {
    const bindings = this.bindings;
    if (bindings.isMcpName(name)) {
      return bindings.mcpTool !== null && this.handlers.has(bindings.mcpTool);
    }
    if (this.handlers.has(name) || this.dynamic.has(name)) return true;
    return (
      bindings.isSubagentToolName(name) &&
      (this.subagentFactory !== null ||
        (bindings.subagentsTool !== null && this.handlers.has(bindings.subagentsTool)))
    );
  }

  /** A short label for a call, e.g. `[read_file for 'src/app.ts']`; never throws. */
  label(use: Pick<ToolUse, "name" | "params">): string {
    return this.bindings.label(use);
  }

  /** The handler for a tool-use name, or null; see the module comment for the order. */
  getHandler(name: string): ToolHandler<any, any> | null {
    const bindings = this.bindings;
    if (bindings.isMcpName(name)) {
      return bindings.mcpTool !== null ? this.handlers.get(bindings.mcpTool) ?? null : null;
    }
    const handler = this.handlers.get(name);
    if (handler !== undefined) return handler;
    if (!bindings.isSubagentToolName(name)) return null;
    const cached = this.dynamic.get(name);
    if (cached !== undefined) {
      this.dynamic.delete(name);
      this.dynamic.set(name, cached);
      return cached;
    }
    let inner: ToolHandler<any, any> | null = null;
    if (this.subagentFactory !== null) inner = this.subagentFactory();
    else if (bindings.subagentsTool !== null) inner = this.handlers.get(bindings.subagentsTool) ?? null;
    if (inner === null || inner === undefined) return null;
    const made = new SharedToolHandler(name, inner);
    this.dynamic.set(name, made);
    while (this.dynamic.size > MAX_DYNAMIC_HANDLERS) {
      this.dynamic.delete(this.dynamic.keys().next().value as string);
    }
    return made;
  }

  private route(block: ToolUse): Route {
    if (block.error !== null && block.error !== undefined) {
      return { answered: true, answer: block.partial ? null : ToolResult.error(block.error) };
    }
    let handler: ToolHandler<any, any> | null;
    try {
      handler = this.getHandler(block.name);
    } catch (error) {
      this.log("error", `dispatch: could not create the handler for ${block.name}`, error);
      return {
        answered: true,
        answer: block.partial ? null : ToolResult.error(`Error executing tool ${block.name}: ${describe(error)}`),
      };
    }
    if (block.partial) {
      // a preview goes to the handler's handlePartialBlock, when it has one; its result is null
      if (handler !== null && typeof handler.handlePartialBlock === "function") return { answered: false, handler };
      return { answered: true, answer: null };
    }
    if (handler === null) {
      return { answered: true, answer: ToolResult.error(`No handler registered for tool: ${block.name}`) };
    }
    return { answered: false, handler };
  }

  /**
   * Run a tool call synchronously; never throws.
   *
   * A partial (still streaming) block goes to the handler's `handlePartialBlock` when it has
   * one, and the result is null. A complete block returns the handler's result, an error result
   * for an unknown name, or an error result naming the tool and the exception it threw. A block
   * that could not be read from the reply (`block.error`) never reaches a handler. Throws
   * `AsyncHandlerError` (a developer error) when the coordinator is bound for async or the
   * handler is async.
   */
  execute(config: Config, block: ToolUse): ToolResult | null {
    this.checkSync("Coordinator.execute");
    const route = this.route(block);
    if (route.answered) return route.answer;
    const handler = route.handler;
    if (block.partial) {
      refuseAsync(handler, "handlePartialBlock", block.name);
      let value: unknown;
      try {
        value = handler.handlePartialBlock!(config, block);
      } catch (error) {
        this.log("error", `dispatch: partial block of ${block.name} failed`, error);
        return null;
      }
      refuseThenable(value, handler, "handlePartialBlock", block.name);
      return null;
    }
    refuseAsync(handler, "execute", block.name);
    let result: ToolResult | Promise<ToolResult>;
    try {
      result = handler.execute(config, block);
    } catch (error) {
      this.log("error", `dispatch: ${block.name} threw`, error);
      return ToolResult.error(`Error executing tool ${block.name}: ${describe(error)}`);
    }
    refuseThenable(result, handler, "execute", block.name);
    return result as ToolResult;
  }

  /**
   * Run a tool call, awaiting async handlers (and promises a handler returns); never rejects.
   *
   * Answers as `execute` does. `timeout` (seconds) bounds the wait: past it the result is an
   * error naming the tool (the handler's promise cannot be cancelled; it settles unobserved).
   */
  async executeAsync(
    config: Config,
    block: ToolUse,
    options: { timeout?: number | null | undefined } = {},
  ): Promise<ToolResult | null> {
    const timeout = options.timeout ?? null;
    const route = this.route(block);
    if (route.answered) return route.answer;
    const handler = route.handler;
    if (block.partial) {
      try {
        await within(Promise.resolve().then(() => handler.handlePartialBlock!(config, block)), timeout);
      } catch (error) {
        this.log("error", `dispatch: partial block of ${block.name} failed`, error);
      }
      return null;
    }
    try {
      return await within(Promise.resolve().then(() => handler.execute(config, block)), timeout);
    } catch (error) {
      if (error instanceof TimedOut) {
        this.log("warning", `dispatch: ${block.name} timed out after ${timeout} s`);
        return ToolResult.error(`Error executing tool ${block.name}: no result within ${pyGeneral(timeout!)} s`);
      }
      this.log("error", `dispatch: ${block.name} threw`, error);
      return ToolResult.error(`Error executing tool ${block.name}: ${describe(error)}`);
    }
  }
}
