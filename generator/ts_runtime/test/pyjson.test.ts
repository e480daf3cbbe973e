import assert from "node:assert/strict";
import { test } from "node:test";

import { PyJsonError, pyJsonLoads } from "../pyjson.js";
import { pyLen, pySlice, pySortedDumps, pySplit, pyStrip } from "../pyspell.js";

function error(text: string): string {
  try {
    pyJsonLoads(text);
  } catch (e) {
    assert.ok(e instanceof PyJsonError);
    return e.message;
  }
  return "no error";
}

test("json.loads: the values CPython reads, own keys even for __proto__", () => {
  assert.deepEqual(pyJsonLoads(' {"a": [1, -0.5e-3, true, null, "\\u00e4\\ud83d\\ude00"]} '), {
    a: [1, -0.0005, true, null, "\u00e4\u{1F600}"],
  });
  const odd = pyJsonLoads('{"__proto__": 1}') as Record<string, unknown>;
  assert.deepEqual(Object.keys(odd), ["__proto__"]);
});

test("json.loads: CPython's messages and positions (columns in code points)", () => {
  assert.equal(error("[1,]"), "Expecting value: line 1 column 4");
  assert.equal(error('{"a":1,}'), "Expecting property name enclosed in double quotes: line 1 column 8");
  assert.equal(error('"\\u123"'), "Invalid \\uXXXX escape: line 1 column 3");
  assert.equal(error('"abc'), "Unterminated string starting at: line 1 column 1");
  assert.equal(error("1."), "Extra data: line 1 column 2");
  assert.equal(error('{"\u{1F600}" 1}'), "Expecting ':' delimiter: line 1 column 6");
  assert.equal(error('{\n"a": 1,\n"b" 2}'), "Expecting ':' delimiter: line 3 column 5");
  assert.equal(error("\ufeff{}"), "Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1");
  assert.equal(error("[NaN]"), "NaN is not JSON");
  assert.match(error("1".repeat(4301)), /^Exceeds the limit \(4300 digits\)/);
});

test("Python's whitespace, lengths and sorted dumps", () => {
  assert.deepEqual(pySplit("\x1c a\u00a0b\ufeff "), ["a", "b\ufeff"]);
  assert.equal(pyStrip("\u3000x\x85"), "x");
  assert.equal(pyLen("a\u{1F600}"), 2);
  assert.equal(pySlice("\u{1F600}\u{1F600}", 1), "\u{1F600}");
  assert.equal(pySortedDumps({ b: 1, a: [true, { d: null, c: 0.5 }] }), '{"a": [true, {"c": 0.5, "d": null}], "b": 1}');
});
