/**
 * Timings of the TS return path for benchmarks/return_path.py --ts (not a test): the replies,
 * MCP servers and context of benchmarks/return_path_replies.py, through the generated package's
 * Offer, readCalls and resultMessages, as the Python cases time them. Microseconds per case:
 * the median of `repeats` batches of about `budget` seconds, after a warm-up of every case.
 */

import { Context, Coordinator, HANDLERS, Offer, ToolResult, toolUse, type ToolUse } from "../pkg/index.js";
import { readCalls, resultMessages } from "../pkg/_runtime/replies.js";
import { perCall } from "./native.js";

type Json = any;

interface Input {
  readonly bodies: { readonly [kind: string]: Json };
  readonly servers: Json[];
  readonly context: { readonly [field: string]: Json };
  readonly family: string;
  readonly format: string;
  readonly names: { readonly [key: string]: string };
  readonly args: { readonly [kind: string]: { readonly [key: string]: Json } };
  readonly repeats: number;
  readonly budget: number;
}

export function handle(input: Input): Json {
  const coordinator = new Coordinator();
  for (const id of Object.keys(HANDLERS)) {
    coordinator.register({ name: id, execute: () => ToolResult.ok("ok") });
  }
  const context = Context.fromObject(input.context);
  const options = { format: input.format, mcpServers: input.servers };
  const family = input.family as ConstructorParameters<typeof Offer>[0];
  const newOffer = (ctx: unknown = context) => new Offer(family, ctx as Context, options);
  const offer = newOffer();
  const pool = Array.from({ length: 4096 }, (_, n) => Context.fromObject({ ...input.context, cwd: `/home/user/project-${n}` }));
  let next = 0;
  const fresh = () => {
    next = (next + 1) % pool.length;
    return pool[next];
  };
  const cases: { [key: string]: () => unknown } = {
    "offer-new-context": () => newOffer(fresh()),
    "offer-seen-context": () => newOffer(),
    "offer-seen-no-mcp": () => new Offer(family, context, { format: input.format }),
  };
  const behaviour: { [key: string]: Json } = {};
  for (const [kind, body] of Object.entries(input.bodies)) {
    cases[`answer-new/${kind}`] = () => newOffer().answer(coordinator, null, body);
    cases[`answer-reused/${kind}`] = () => offer.answer(coordinator, null, body);
    cases[`read_calls/${kind}`] = () => readCalls(body, input.format);
    const uses = readCalls(body, input.format);
    cases[`execute/${kind}`] = () => uses.map((u) => offer.execute(coordinator, null, u));
    const answers = uses.map((u) => [u, offer.execute(coordinator, null, u)] as [ToolUse, ToolResult]);
    cases[`result_messages/${kind}`] = () => resultMessages(answers, input.format);
    const checks = Object.entries(input.args[kind] ?? {}).map(([key, value]) => toolUse(input.names[key] as string, value, false, "c"));
    cases[`check-toolgen/${kind}`] = () => checks.map((u) => offer.check(u));
    const messages = offer.answer(coordinator, null, body) ?? [];
    const ran = messages.filter((m: Json) => m["content"] === "ok").length;
    behaviour[kind] = { messages: messages.length, handlers_run: ran, refused: messages.length - ran };
  }
  for (let round = 0; round < 3; round++) for (const run of Object.values(cases)) for (let i = 0; i < 100; i++) run();
  const micros: { [key: string]: number } = {};
  for (const [key, run] of Object.entries(cases)) micros[key] = perCall(run, input.repeats, input.budget);
  return { micros, behaviour };
}
