import { test } from "node:test";
import assert from "node:assert/strict";

import { MatcherError, Selection, evaluate, normalize, select, truthy } from "../predicates.js";
import { pyFloat } from "../pyspell.js";

const DATA = new Selection({
  provider_sets: { big: ["openai", "anthropic"] },
  model_sets: { keys: ["claude-x"] },
  model_predicates: {
    gpt5: { any_contains: ["gpt-5"], none_contains: ["chat"] },
    claude4: { regex_first_match: { pattern: "-(\\d(?:\\.[05])?)", group: 1, gte: 4 } },
    keyed: { any: [{ in_set: "keys" }, { model_matches: "gpt5" }] },
  },
});

test("truthiness is JavaScript's, with empty lists falsy", () => {
  assert.deepEqual([null, false, 0, NaN, "", [], "x", 1, [0], {}].map(truthy), [
    false, false, false, false, false, false, true, true, true, true,
  ]);
});

test("ids are trimmed as String.prototype.trim does and lower-cased", () => {
  assert.equal(normalize("\ufeff OpenAI\u3000"), "openai");
  assert.equal(normalize("\u0085x"), "\u0085x");
});

test("field predicates compare booleans only with booleans", () => {
  assert.equal(evaluate({ field: "n", equals: 1 }, { n: true }), false);
  assert.equal(evaluate({ field: "n", in: [true, 2] }, { n: 2 }), true);
  assert.equal(evaluate({ field: "tabs", ends_with: ".md" }, { tabs: ["a.ts", "b.md"] }), true);
  assert.equal(evaluate({ field: "s", contains: "ABC" }, { s: "xabcx" }), true);
});

test("model predicates, sets and the first regex match", () => {
  assert.equal(evaluate({ model_matches: "claude4" }, { model_id: "Claude-4.5-sonnet" }, DATA), true);
  assert.equal(evaluate({ model_matches: "claude4" }, { model_id: "claude-3.5" }, DATA), false);
  assert.equal(evaluate({ model_matches: "keyed" }, { model_id: " CLAUDE-X " }, DATA), true);
  assert.equal(evaluate({ provider_in: "big" }, { provider_id: "OpenAI" }, DATA), true);
});

test("a provider test without a provider fails the whole rule, and selection tries the next", () => {
  assert.throws(() => evaluate({ provider_in: "big" }, {}, DATA), MatcherError);
  const rules = [
    ["a", { all: [{ provider_in: "big" }] }],
    ["b", { model_matches: "gpt5" }],
  ] as const;
  assert.equal(select(rules, { model_id: "gpt-5" }, DATA, "fallback"), "b");
  assert.equal(select(rules, { model_id: "gpt-5-chat" }, DATA, "fallback"), "fallback");
  assert.equal(select(rules, { model_id: "gpt-5" }, DATA, "fallback", { field: "model_id", truthy: false }), "fallback");
});

test("numbers read as Python's float() reads them", () => {
  assert.deepEqual(["4", " 4.5 ", "1_0", "inf", "", "4.", ".5", "0x1", "1__0"].map(pyFloat), [
    4, 4.5, 10, Infinity, null, 4, 0.5, null, null,
  ]);
});
