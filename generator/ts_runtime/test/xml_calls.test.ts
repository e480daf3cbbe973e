import { test } from "node:test";
import assert from "node:assert/strict";

import { StreamingParser, parsePartialJsonArray, parseToolCalls } from "../xml_calls.js";
import { Block } from "../xml_block.js";
import { Grammar, Rope } from "../xml_grammar.js";

const TOOLS = { read_file: ["path"], write_to_file: ["path", "content"], condense: [] };

function calls(text: string): unknown[] {
  return parseToolCalls(text, TOOLS).map((u) => [u.name, u.params, u.partial]);
}

test("a complete call, trimmed values, prose ignored", () => {
  assert.deepEqual(calls("Sure.\n<read_file>\n<path> src/a.ts\u00a0</path>\n</read_file> done"), [
    ["read_file", { path: "src/a.ts" }, false],
  ]);
});

test("a content parameter may hold its own closing tag: the last well-formed one wins", () => {
  assert.deepEqual(calls("<write_to_file><content>a</content>b</content><path>p</path></write_to_file>"), [
    ["write_to_file", { content: "a</content>b", path: "p" }, false],
  ]);
});

test("cut anywhere: half a tag is no call, an open call is partial without a tag fragment", () => {
  assert.deepEqual(calls("<read_fi"), []);
  assert.deepEqual(calls("<read_file><path>src</pa"), [["read_file", { path: "src" }, true]]);
  assert.deepEqual(calls("<read_file><path>a</path></read_file"), [["read_file", { path: "a" }, true]]);
});

test("streaming gives what parsing each prefix gives", () => {
  const text = "x <read_file><path>a</path></read_file> <write_to_file><content>q</content>r</content></write_to_file>";
  const parser = new StreamingParser(TOOLS);
  for (let i = 0; i < text.length; i++) {
    assert.deepEqual(
      parser.feed(text[i] as string).map((u) => [u.name, u.params, u.partial]),
      calls(text.slice(0, i + 1)),
    );
  }
  assert.equal(parser.text, text);
  parser.reset();
  assert.deepEqual(parser.feed(""), []);
});

test("the whitespace scans of an open call stay linear however it is chunked", () => {
  const grammar = new Grammar(TOOLS, ["content"]);
  const block = new Block(grammar.tool("write_to_file"), "<write_to_file>".length);
  let text = "<write_to_file><content>";
  const rope = new Rope(text);
  const feeds = 2000;
  for (let i = 0; i < feeds; i++) {
    const chunk = i % 7 === 0 ? "</content> " : "ab ";
    text += chunk;
    rope.append(chunk);
    block.advance(rope);
    block.partial(rope, true);
  }
  assert.equal(rope.slice(0), text);
  // each character once, plus a tail of at most two tags per feed (as the Python runtime)
  const bound = text.length + feeds * 2 * block.tool.maxTag;
  assert.ok(block.scanned <= bound, `scanned ${block.scanned} of ${text.length}`);
});

test("the partial JSON array reader returns the complete strings", () => {
  assert.deepEqual(parsePartialJsonArray('["a", "b'), ["a"]);
  assert.deepEqual(parsePartialJsonArray(' ["a\\n", "\\ud83d\\ude00"] x'), ["a\n", "\ud83d\ude00"]);
  assert.deepEqual(parsePartialJsonArray('["a", 1, "b"]'), ["a"]);
  assert.deepEqual(parsePartialJsonArray('["\\x"]'), []);
  assert.deepEqual(parsePartialJsonArray(42), []);
});

test("the rope slices, scans and trims across its parts", () => {
  const rope = new Rope();
  let text = "";
  for (const chunk of [" a", "b  ", "\u00a0", "  ", "cd e", " ", "\u3000f  "]) {
    rope.append(chunk);
    text += chunk;
  }
  for (let a = 0; a <= text.length; a++) {
    for (let b = a; b <= text.length; b++) {
      assert.equal(rope.slice(a, b), text.slice(a, b));
      assert.equal(rope.span(a, b), text.slice(a, b).trim());
      const first = text.slice(a, b).search(/[^\s\ufeff]/u);
      assert.equal(rope.nonWs(a, b), first < 0 ? -1 : a + first);
    }
  }
});
