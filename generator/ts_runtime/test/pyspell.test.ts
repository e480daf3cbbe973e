import assert from "node:assert/strict";
import { test } from "node:test";

import { closestName, pyFloat, pyGeneral, pyLen, pyRepr } from "../pyspell.js";

test("repr escapes what Python does not print, and writes catalog arrays as tuples", () => {
  assert.equal(pyRepr("a\u200bb"), "'a\\u200bb'");
  assert.equal(pyRepr("it's"), `"it's"`);
  assert.equal(pyRepr(["a"], true), "('a',)");
  assert.equal(pyRepr({ k: [1, 2.5] }, true), "{'k': (1, 2.5)}");
  assert.equal(pyRepr({ k: [1, 2.5] }), "{'k': [1, 2.5]}");
});

test("format(x, 'g') as Python writes it", () => {
  assert.deepEqual([30, 0.5, 1234567, 0.00001, 2.5e-7, 0].map(pyGeneral), ["30", "0.5", "1.23457e+06", "1e-05", "2.5e-07", "0"]);
});

test("float(text) strips Python's whitespace, but not U+001C..U+001F or U+FEFF", () => {
  assert.equal(pyFloat("\u3000 1.5\u0085\t"), 1.5);
  assert.equal(pyFloat("\u001c1"), null);
  assert.equal(pyFloat("\ufeff1"), null);
});

test("len counts code points; did-you-mean prefers a name the key starts", () => {
  assert.equal(pyLen("a\u{1f600}"), 2);
  assert.equal(pyLen("\ud800"), 1);
  assert.equal(closestName("provider", ["model_id", "provider_id"]), "provider_id");
  assert.equal(closestName("modle_id", ["model_id", "provider_id"]), "model_id");
  assert.equal(closestName("zzz", ["model_id"]), null);
});
