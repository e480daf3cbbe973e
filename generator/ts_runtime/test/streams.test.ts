import assert from "node:assert/strict";
import { test } from "node:test";

import { AnthropicStream, GeminiStream, OpenAIChatStream, OpenAIResponsesStream } from "../streams.js";
import { toolUse } from "../tool_types.js";

test("Anthropic stream: partial previews, then the complete call", () => {
  const stream = new AnthropicStream();
  stream.feed({ type: "content_block_start", index: 1, content_block: { type: "tool_use", id: "t1", name: "read_file", input: {} } });
  const seen = ['{"pa', 'th": "src/', 'a.ts"}'].map((piece) =>
    stream.feed({ type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: piece } }),
  );
  assert.deepEqual(seen.map((s) => s[0]?.params), [{}, { path: "src/" }, { path: "src/a.ts" }]);
  assert.deepEqual(stream.feed({ type: "content_block_stop", index: 1 }), [toolUse("read_file", { path: "src/a.ts" }, false, "t1")]);
  assert.deepEqual(stream.feed(null), []);
});

test("OpenAI Chat stream: calls close at finish_reason or finish()", () => {
  const stream = new OpenAIChatStream();
  stream.feed({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: "c", function: { name: "read_", arguments: '{"path"' } }] } }] });
  stream.feed({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { name: "file", arguments: ': "x"}' } }] } }] });
  assert.deepEqual(stream.calls, [toolUse("read_file", { path: "x" }, true, "c")]);
  assert.deepEqual(stream.finish(), [toolUse("read_file", { path: "x" }, false, "c")]);
});

test("OpenAI Responses stream: previews from deltas, the call complete at arguments.done", () => {
  const stream = new OpenAIResponsesStream();
  const added = stream.feed({
    type: "response.output_item.added",
    output_index: 1,
    item: { type: "function_call", id: "fc_1", call_id: "call_1", name: "read_file", arguments: "" },
  });
  assert.deepEqual(added, [toolUse("read_file", {}, true, "call_1")]);
  const delta = (piece: string) =>
    stream.feed({ type: "response.function_call_arguments.delta", output_index: 1, item_id: "fc_1", delta: piece });
  assert.deepEqual(delta('{"path": "sr')[0]?.params, { path: "sr" });
  delta('c"}');
  const done = stream.feed({ type: "response.function_call_arguments.done", output_index: 1, arguments: '{"path": "src"}' });
  assert.deepEqual(done, [toolUse("read_file", { path: "src" }, false, "call_1")]);
  // the item's done event comes after: the call is already complete, nothing changes
  assert.deepEqual(stream.feed({ type: "response.output_item.done", output_index: 1, item: { type: "function_call" } }), []);
  assert.deepEqual(stream.feed(null), []);
});

test("OpenAI Responses stream: whole arguments win; completed closes open calls", () => {
  const stream = new OpenAIResponsesStream();
  stream.feed({ type: "response.output_item.added", output_index: 0, item: { type: "function_call", call_id: "a", name: "w" } });
  stream.feed({ type: "response.function_call_arguments.delta", output_index: 0, delta: '{"lost' });
  const done = stream.feed({
    type: "response.output_item.done",
    output_index: 0,
    item: { type: "function_call", call_id: "a", name: "w", arguments: '{"k": 1}' },
  });
  assert.deepEqual(done, [toolUse("w", { k: 1 }, false, "a")]);
  stream.feed({ type: "response.output_item.added", output_index: 1, item: { type: "function_call", call_id: "b", name: "v" } });
  stream.feed({ type: "response.function_call_arguments.delta", output_index: 1, delta: '{"x": [1' });
  const closed = stream.feed({ type: "response.completed", response: {} });
  assert.equal(closed.length, 1);
  assert.match(closed[0]?.error ?? "", /not valid JSON/);
});

test("Gemini stream: each functionCall part complete, numbered across chunks", () => {
  const stream = new GeminiStream();
  const chunk = (parts: unknown[]) => ({ candidates: [{ content: { role: "model", parts } }] });
  assert.deepEqual(stream.feed(chunk([{ text: "Let me" }])), []);
  assert.deepEqual(stream.feed(chunk([{ functionCall: { name: "a", args: { x: 1 } } }])), [
    toolUse("a", { x: 1 }, false, "toolgen-call-0"),
  ]);
  assert.deepEqual(stream.feed(chunk([{ functionCall: { name: "b" } }, { functionCall: { id: "toolgen-call-0", name: "c" } }])), [
    toolUse("b", {}, false, "toolgen-call-1"),
    toolUse("c", {}, false, "toolgen-call-0", "The call to tool c was not run: another call of the reply already has the id 'toolgen-call-0'. Send it again, corrected."),
  ]);
  assert.equal(stream.finish().length, 3);
  assert.deepEqual(stream.problems, []);
});
