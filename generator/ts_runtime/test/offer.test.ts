import assert from "node:assert/strict";
import { test } from "node:test";

import { Catalog } from "../catalog.js";
import type { CatalogData, ParameterData, SpecData } from "../data.js";
import { Offer } from "../offer.js";
import { TextPath } from "../prompt.js";
import { ToolResult, toolUse, type ToolUse } from "../tool_types.js";

function param(name: string, schema: ParameterData["schema"], required = true): ParameterData {
  return { name, required, instruction: [`The ${name}.`], description: [], usage: name, schema, dependencies: [], requires: null };
}

function spec(id: string, extra: Partial<SpecData> = {}): SpecData {
  return { id, spec: "fam", name: id, description: [`Does ${id}.`], requires: null, strict: false, parameters: [], ...extra };
}

const DATA: CatalogData = {
  selection: { provider_sets: {}, model_sets: {}, model_predicates: {} },
  rules: [],
  precondition: null,
  fallback: "fam",
  families: {
    fam: { description: "", labels: {}, tools: ["a", "b"], use_native_tools: false, context_fields: [], context_tests: [] },
  },
  specs: {
    "fam/a": spec("a", { parameters: [param("days", { type: "integer", maximum: 14 }), param("note", { type: "string" }, false)] }),
    "fam/b": spec("b", { requires: { field: "flag", truthy: true } }),
  },
  familySpecs: { fam: ["fam/a", "fam/b"] },
  placeholders: {},
  routing: { default: "openai-chat", rules: [] },
  mcp: { separator: "0mcp0", name_max_length: 64 },
  subagents: { name_prefix: "use_subagent_", max_length: 64 },
};

const CATALOG = new Catalog(DATA, (value: unknown) => (value ?? {}) as { readonly [k: string]: unknown });
const SERVERS = [{ uid: "wx", name: "weather", tools: [{ name: "now", inputSchema: { type: "object", properties: {} } }] }];

/** A dispatcher that records the calls it ran. */
function recorder() {
  const ran: ToolUse[] = [];
  const answer = (_config: unknown, use: ToolUse) => {
    ran.push(use);
    return ToolResult.ok("ran");
  };
  return { ran, execute: answer, executeAsync: async (config: unknown, use: ToolUse) => answer(config, use) };
}

test("what was sent is what may run; everything else is refused with the reason", () => {
  const offer = new Offer(CATALOG, new TextPath(CATALOG), "fam", {}, { mcpServers: SERVERS });
  assert.deepEqual(offer.names(), ["a", "wx0mcp0now"]);
  assert.match(offer.promptSection(), /## a/);
  const refusal = (name: string) => offer.refusal(name);
  assert.equal(refusal("a"), null);
  assert.match(refusal("b") ?? "", /: it is turned off in the current context\. Use one of the offered tools: a, wx0mcp0now\.$/);
  assert.match(refusal("zz0mcp0t") ?? "", /there is no MCP server 'zz' in this request/);
  assert.match(refusal("wx0mcp0later") ?? "", /the MCP server 'wx' offers no tool 'later' here/);
  assert.match(refusal("use_subagent_x") ?? "", /no subagent of that name is configured/);
  assert.match(refusal("made_up") ?? "", /no tool of that name exists/);
  const dispatcher = recorder();
  assert.equal(offer.execute(dispatcher, null, toolUse("b"))?.isError, true);
  assert.equal(offer.execute(dispatcher, null, toolUse("b", {}, true)), null);
  assert.deepEqual(dispatcher.ran, []);
});

test("arguments are checked against the sent schema, coerced on the text path, and typed", async () => {
  const offer = new Offer(CATALOG, new TextPath(CATALOG), "fam");
  const dispatcher = recorder();
  assert.equal(offer.execute(dispatcher, null, toolUse("a", { days: " 3 ", note: "n" }))?.content, "ran");
  assert.deepEqual(dispatcher.ran[0]?.params, { days: 3, note: "n" });
  assert.deepEqual(
    offer.execute(dispatcher, null, toolUse("a", { days: "99" })),
    ToolResult.error(
      "Invalid arguments for tool a:\n- days: must be at most 14 (got 99)\nPlease retry the call with every problem fixed.",
    ),
  );
  assert.deepEqual(await offer.executeAsync(dispatcher, null, toolUse("a", {}, false, "c1", "unreadable")), ToolResult.error("unreadable"));
  assert.deepEqual(await offer.executeAsync(dispatcher, null, toolUse("a", { days: "1" }, true)), ToolResult.ok("ran"));
  assert.equal(dispatcher.ran.length, 2); // the partial block went through unchecked
});

test("answerText and answerTextAsync answer a whole text-path turn: unknown tools and cut-off calls never run", async () => {
  const offer = new Offer(CATALOG, new TextPath(CATALOG), "fam", {});
  const { ran, ...dispatcher } = recorder();
  const text = "<a>\n<days>3</days>\n</a>\n<search_web>\n<query>x</query>\n</search_web>\n<a>\n<days>4";
  const turn = offer.answerText(dispatcher, null, text) ?? "";
  const [first, unknown, cut] = turn.split("\n\n");
  assert.equal(first, "[a] returned:\nran");
  assert.match(unknown ?? "", /^\[search_web\] failed:\nTool search_web is not available in this request: no tool of that name exists/);
  assert.match(cut ?? "", /^\[a\] failed:\nThe call to tool a was not run: the reply was cut off by the output limit \(no closing tag <\/a>\)/);
  assert.deepEqual(ran.map((u) => u.params), [{ days: 3 }]);
  assert.equal(offer.answerText(dispatcher, null, "no call"), null);
  assert.equal(await offer.answerTextAsync(dispatcher, null, text), turn);
  assert.throws(() => offer.answer(dispatcher, null, {}), /use answerText/);
});

test("answerAsync runs the calls of a turn concurrently and answers in call order", async () => {
  const native = new Catalog(
    { ...DATA, families: { fam: { ...DATA.families["fam"]!, use_native_tools: true } } },
    (value: unknown) => (value ?? {}) as { readonly [k: string]: unknown },
  );
  const offer = new Offer(native, new TextPath(native), "fam", {}, { format: "anthropic" });
  const finished: number[] = [];
  let release: () => void = () => undefined;
  const bothStarted = new Promise<void>((resolve) => (release = resolve));
  let started = 0;
  const dispatcher = {
    execute: () => {
      throw new Error("the sync path is not used");
    },
    executeAsync: async (_config: unknown, use: ToolUse) => {
      if (++started === 2) release();
      await bothStarted; // finishes only if both calls run at once
      if (use.params["days"] === 1) await Promise.resolve(); // the first call finishes last
      finished.push(use.params["days"] as number);
      return ToolResult.ok(`days ${use.params["days"]}`);
    },
    checkSync: (entry: string) => {
      throw new TypeError(`${entry} refused`);
    },
  };
  const response = {
    stop_reason: "tool_use",
    content: [
      { type: "tool_use", id: "t1", name: "a", input: { days: 1 } },
      { type: "tool_use", id: "t2", name: "a", input: { days: 2 } },
    ],
  };
  const messages = await offer.answerAsync(dispatcher, null, response, { timeout: 5 });
  assert.deepEqual(finished, [2, 1]);
  assert.deepEqual(
    (messages?.[0]?.["content"] as { tool_use_id: string; content: string }[]).map((b) => [b.tool_use_id, b.content]),
    [["t1", "days 1"], ["t2", "days 2"]],
  );
  assert.throws(() => offer.answer(dispatcher, null, response), /Offer\.answer refused/);
  assert.throws(() => offer.answerText(dispatcher, null, ""), /use answer$/);
});

test("an Offer for inputs seen before hands out what a fresh one does, and copies of its own", () => {
  const servers = JSON.parse(JSON.stringify(SERVERS));
  const snapshot = (offer: Offer) => JSON.stringify([offer.names(), offer.skipped, offer.degraded, offer.promptSection()]);
  const first = new Offer(CATALOG, new TextPath(CATALOG), "fam", {}, { mcpServers: servers });
  const before = snapshot(first);
  first.skipped.push({ server: null, uid: null, tool: null, name: "mine", reason: "" });
  (first.variants as Map<string, unknown>).clear();
  const again = new Offer(CATALOG, new TextPath(CATALOG), "fam", {}, { mcpServers: servers });
  assert.equal(snapshot(again), before);
  servers[0].tools[0].name = "later"; // changed in place: a plan of its own
  const changed = new Offer(CATALOG, new TextPath(CATALOG), "fam", {}, { mcpServers: servers });
  assert.deepEqual(changed.names(), ["a", "wx0mcp0later"]);
});

test("fingerprints tell apart what reads differently and refuse what is not plain data", async () => {
  const { fingerprint } = await import("../cache.js");
  assert.equal(fingerprint([{ a: 1, b: ["x"] }]), fingerprint([{ a: 1, b: ["x"] }]));
  const distinct = [["1"], [1], [true], ["1", ""], ['1"'], [{ a: "" }], [{ "": "a" }], [[]], [{}], [null]];
  assert.equal(new Set(distinct.map(fingerprint)).size, distinct.length);
  for (const bad of [[Number.NaN], [-0], [undefined], [new Map()], [() => 1], new Array(2)]) assert.equal(fingerprint(bad), null);
});
