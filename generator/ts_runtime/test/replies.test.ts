import assert from "node:assert/strict";
import { test } from "node:test";

import {
  decodeArguments,
  readCalls,
  resultMessage,
  resultMessages,
  textResult,
} from "../replies.js";
import { ToolResult, toolUse } from "../tool_types.js";

const CHAT = {
  choices: [
    {
      index: 0,
      message: {
        role: "assistant",
        tool_calls: [
          { id: "a", type: "function", function: { name: "read_file", arguments: '{"path": "x"}' } },
          { id: "b", type: "function", function: { name: "list_files", arguments: '{"path": ' } },
          { id: "a", type: "function", function: { name: "list_files", arguments: "{}" } },
          { type: "function", function: { name: "list_files", arguments: "{}" } },
        ],
      },
    },
  ],
};

test("readCalls reads every call in order, each unreadable one with its error", () => {
  const uses = readCalls(CHAT, "openai-chat");
  assert.deepEqual(uses[0], toolUse("read_file", { path: "x" }, false, "a"));
  assert.equal(
    uses[1]?.error,
    "The call to tool list_files was not run: its arguments are not valid JSON " +
      "(Expecting value at line 1 column 10). Send it again, corrected.",
  );
  assert.equal(
    uses[2]?.error,
    "The call to tool list_files was not run: another call of the reply already has the id 'a'. " +
      "Send it again, corrected.",
  );
  assert.equal(uses[3]?.id, "toolgen-call-3");
  assert.match(uses[3]?.error ?? "", /the reply gave it no call id/);
});

test("readCalls enters the call path anywhere and reports unknown shapes", () => {
  const [choice] = CHAT.choices;
  assert.ok(choice !== undefined);
  assert.equal(readCalls(choice, "openai-chat").length, 4);
  assert.equal(readCalls(choice.message, "openai-chat").length, 4);
  const problems: string[] = [];
  const untyped: string = "openai-chat"; // a format known only at run time takes any response
  assert.deepEqual(readCalls({ hello: 1 }, untyped, { problems }), []);
  assert.deepEqual(readCalls({ choices: [] }, "openai-chat", { problems }), []);
  assert.deepEqual(problems, [
    "unknown response shape: dict without choices[0].message.tool_calls",
    "the response has no choices[0] (empty)",
  ]);
  assert.throws(() => readCalls({}, "nope"));
});

test("Gemini calls without ids get synthetic ids and no error", () => {
  const reply = { candidates: [{ content: { parts: [{ text: "hi" }, { functionCall: { name: "t", args: { a: 1 } } }] } }] };
  const [use] = readCalls(reply, "gemini");
  assert.deepEqual(use, toolUse("t", { a: 1 }, false, "toolgen-call-0"));
  assert.deepEqual(resultMessage(use!, ToolResult.error("bad"), "gemini"), {
    functionResponse: { name: "t", response: { error: "bad" } },
  });
});

test("decodeArguments refuses non-objects, deep nesting and long text", () => {
  assert.deepEqual(decodeArguments("  "), [{}, null]);
  assert.deepEqual(decodeArguments("[1]"), [{}, "its arguments are a JSON array, not an object"]);
  assert.deepEqual(decodeArguments("NaN"), [{}, "its arguments are not valid JSON (NaN is not JSON)"]);
  assert.deepEqual(decodeArguments("[".repeat(101)), [{}, "its arguments are nested more than 100 levels deep"]);
  assert.deepEqual(decodeArguments('{"a":"\u{1F600}"}', 5), [{}, "its arguments are 9 characters long; at most 5 are read"]);
});

test("result messages per format", () => {
  const use = toolUse("read_file", {}, false, "c1");
  assert.deepEqual(resultMessages([[use, ToolResult.ok("text")]], "bedrock-converse"), [
    { role: "user", content: [{ toolResult: { toolUseId: "c1", content: [{ text: "text" }], status: "success" } }] },
  ]);
  assert.deepEqual(resultMessages([], "anthropic"), []);
  assert.deepEqual(resultMessages([[use, ToolResult.deny()]], "openai-chat"), [
    { role: "tool", tool_call_id: "c1", content: "The user denied this operation." },
  ]);
  assert.equal(textResult(use, ToolResult.error("no")), "[read_file] failed:\nno");
  assert.equal(textResult(use, ToolResult.ok("x"), "[read_file for 'a']"), "[read_file for 'a'] returned:\nx");
});
