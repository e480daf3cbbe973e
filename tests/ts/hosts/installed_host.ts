/**
 * A host project's module using the package installed from its `npm pack` tarball (see
 * tests/test_ts_package.py): compiled with the strict flags and the package's declarations checked
 * (no skipLibCheck), then run with node, once in an ES-module host and once in a CommonJS one
 * (where tsc turns the import into `require`, which loads the ES module on Node 20.19+).
 */

import { Context, Offer, ToolResult, nativeTools, readCalls, resultMessages, type AnthropicTool } from "cline-tools";
import * as anthropic from "cline-tools/anthropic";

declare const console: { log(text: string): void };

const context = Context.fromObject({
  provider_id: "anthropic",
  model_id: "claude-sonnet-4-5",
  enable_native_tool_calls: true,
});
const tools: AnthropicTool[] = nativeTools("gpt-5-native", context, { format: "anthropic" });
const offer = new Offer("gpt-5-native", context, { format: "anthropic" });
const reply = { content: [{ type: "tool_use", id: "c1", name: "read_file", input: { path: "README.md" } }] };
const calls = readCalls(reply, "anthropic");
const first = calls[0];
const messages = first === undefined ? [] : resultMessages([[first, ToolResult.ok("read")]], "anthropic");
// The one-format entry module (package.json exports "./anthropic"): the same values, typed for its format.
const oneFormat: AnthropicTool[] = anthropic.tools("gpt-5-native", context);
const oneFormatCalls = anthropic.readCalls(reply);
console.log(
  JSON.stringify({
    tools: tools.map((tool) => tool.name),
    offered: offer.names(),
    calls: calls.map((use) => [use.name, use.params]),
    results: messages,
    refused: offer.refusal("no_such_tool") !== null,
    oneFormat: [anthropic.DIALECT, JSON.stringify(oneFormat) === JSON.stringify(tools), oneFormatCalls.length],
  }),
);
