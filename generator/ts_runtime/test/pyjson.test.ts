import assert from "node:assert/strict";
import { test } from "node:test";

import { PyJsonError, pyJsonLoads, pyJsonScan } from "../pyjson.js";
import { jsonTextDepth, jsonTextTooDeep } from "../schema_common.js";
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

function outcome(read: (text: string) => unknown, text: string): unknown {
  try {
    return ["value", read(text)];
  } catch (e) {
    return ["error", (e as Error).name, (e as Error).message];
  }
}

/** Texts of a few JSON characters, made up deterministically (a small linear congruential walk). */
function texts(alphabet: string, count: number, longest: number): string[] {
  const out: string[] = [];
  let seed = 7;
  for (let n = 0; n < count; n++) {
    let text = "";
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const size = seed % (longest + 1);
    for (let i = 0; i < size; i++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      text += alphabet[seed % alphabet.length];
    }
    out.push(text);
  }
  return out;
}

test("json.loads: the JSON.parse shortcut reads what the scanner reads, and leaves it every error", () => {
  const cases = [
    ...texts('{}[]":, a1-.eE\n\t\ufeffnul\\', 3000, 14),
    '{"a": 1}  ',
    '{"__proto__": {"b": [1, 2.5, -0]}}',
    '"\\ud800"',
    "1e400",
    "\ufeff{}",
    "9".repeat(4301),
    `[1.${"9".repeat(4400)}]`,
  ];
  for (const text of cases) assert.deepEqual(outcome(pyJsonLoads, text), outcome(pyJsonScan, text), JSON.stringify(text));
});

test("the depth bound agrees with the bracket scan", () => {
  for (const text of texts('{}[]"\\ ab', 3000, 40)) {
    for (const limit of [0, 1, 3, 6]) {
      assert.equal(jsonTextTooDeep(text, limit), jsonTextDepth(text, limit) > limit, JSON.stringify([text, limit]));
    }
  }
  assert.ok(jsonTextTooDeep("[".repeat(101)) && !jsonTextTooDeep(`["${"[".repeat(500)}"]`));
});
