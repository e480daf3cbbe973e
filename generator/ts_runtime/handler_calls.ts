/**
 * How one handler method is called, sync or async, and the one developer error of the two
 * (mirrors handler_calls.py).
 *
 * dispatch.ts routes a call to a handler; this module calls it: `SharedToolHandler` serves a
 * handler under another tool's name, `within` bounds an awaited call by a timeout, and
 * `AsyncHandlerError` is what an async handler throws where only sync execution is possible: a
 * mistake in the program, thrown to the developer, never a result for the model. `asyncMethods`
 * finds such methods when handlers are bound, `refuseAsync` and `refuseThenable` when a sync call
 * would start or has started one.
 */

import type { ToolHandler, ToolResult, ToolUse } from "./tool_types.js";

/** Async handlers where only sync execution is possible: a developer error, never a result.
 * `handlers` lists each async method found, as `Class.method (tool)`. */
export class AsyncHandlerError extends TypeError {
  readonly handlers: readonly string[];

  constructor(where: string, handlers: readonly string[], remedy: string) {
    super(`${where}: ${handlers.join("; ")}. ${remedy}`);
    this.name = "AsyncHandlerError";
    this.handlers = [...handlers];
  }
}

export const BIND_ASYNC =
  "Bind them with Coordinator.fromNamespace(namespace, {asynchronous: true}) (or fromHandlers(map, " +
  "{asynchronous: true}), or new Coordinator({asynchronous: true}) before register) and answer with " +
  "Offer.answerAsync, Offer.answerTextAsync or Coordinator.executeAsync.";
export const USE_ASYNC = "Answer with Offer.answerAsync, Offer.answerTextAsync or Coordinator.executeAsync.";

/** The class name of a handler (or handler class) for messages; a plain object: "handler". */
export function ownerName(target: unknown): string {
  if (typeof target === "function") return (target as { name?: string }).name || "handler";
  const name = (target as { constructor?: { name?: string } } | null)?.constructor?.name;
  return name && name !== "Object" ? name : "handler";
}

/** `Class.method (tool)` for each async method of a handler (or the prototype of a class). */
export function asyncMethods(handler: unknown, tool: string): string[] {
  const target = handler instanceof SharedToolHandler ? handler.inner : handler;
  const methods =
    typeof target === "function" ? (target as { prototype?: unknown }).prototype : (target as unknown);
  if (typeof methods !== "object" || methods === null) return [];
  return ["execute", "handlePartialBlock"]
    .filter((attr) => isAsyncFunction((methods as Record<string, unknown>)[attr]))
    .map((attr) => `${ownerName(target)}.${attr} (${tool})`);
}

/** Throws AsyncHandlerError for a thenable a sync call returned (its rejection is dropped first). */
export function refuseThenable(value: unknown, handler: unknown, attr: string, name: string): void {
  if (!isThenable(value)) return;
  Promise.resolve(value).catch(() => undefined); // the work started; do not leak a rejection
  const target = handler instanceof SharedToolHandler ? handler.inner : handler;
  throw new AsyncHandlerError(
    "a handler returned an awaitable on a sync path",
    [`${ownerName(target)}.${attr} (${name})`],
    "Make the method sync, or make it async and bind it for async (asynchronous: true). " + USE_ASYNC,
  );
}

/** Serves a tool under another name with the same handler instance (no copy). */
export class SharedToolHandler<Config = unknown> implements ToolHandler<Config> {
  readonly name: string;
  readonly inner: ToolHandler<Config, any>;

  constructor(name: string, inner: ToolHandler<Config, any>) {
    this.name = name;
    this.inner = inner;
  }

  execute(config: Config, block: ToolUse): ToolResult | Promise<ToolResult> {
    return this.inner.execute(config, block);
  }

  /** Passes on what the inner handler returns (a promise, for an async one). */
  handlePartialBlock(config: Config, block: ToolUse): unknown {
    const partial = this.inner.handlePartialBlock;
    return partial === undefined ? undefined : partial.call(this.inner, config, block);
  }
}

export function isAsyncFunction(method: unknown): boolean {
  return typeof method === "function" && method.constructor?.name === "AsyncFunction";
}

export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

export class TimedOut extends Error {}

/** The host's timer functions (every JS runtime has them; the ES library types do not declare them). */
const timers = globalThis as unknown as {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
};

/** `promise`, or a TimedOut rejection after `timeout` seconds (null: no limit). */
export function within<T>(promise: Promise<T>, timeout: number | null): Promise<T> {
  if (timeout === null) return promise;
  let timer: unknown;
  const limit = new Promise<never>((_, reject) => {
    timer = timers.setTimeout(() => reject(new TimedOut()), Math.max(timeout, 0) * 1000);
  });
  return Promise.race([promise, limit]).finally(() => timers.clearTimeout(timer));
}

/** Throw AsyncHandlerError before calling an async method on the sync path (one made by a
 * subagent factory, or put in the table behind `register`'s back). */
export function refuseAsync(handler: ToolHandler<any, any>, attr: "execute" | "handlePartialBlock", name: string): void {
  const target = handler instanceof SharedToolHandler ? handler.inner : handler;
  if (isAsyncFunction(target[attr])) {
    throw new AsyncHandlerError("an async handler reached a sync path", [`${ownerName(target)}.${attr} (${name})`], BIND_ASYNC);
  }
}
