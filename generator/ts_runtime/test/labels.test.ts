import assert from "node:assert/strict";
import { test } from "node:test";

import { LabelSyntaxError, MISSING, fillLabel, labelNames, parseLabel } from "../labels.js";

test("templates fill from params: alternatives, JSON for non-strings, blanks squeezed, long cut", () => {
  assert.equal(fillLabel("[w for '{path|absolutePath}']", { absolutePath: "/a" }), "[w for '/a']");
  assert.equal(fillLabel("{a} {b}", { a: [1, { k: null }], b: true }), '[1,{"k":null}] true');
  assert.equal(fillLabel("{a}", { a: " x \n\t y\u3000" }), "x y");
  assert.equal(fillLabel("{a}", { a: "" }), MISSING);
  assert.equal(fillLabel("{a}", "not params"), MISSING);
  assert.equal(fillLabel("{a}", { a: "\u{1F600}".repeat(70) }), "\u{1F600}".repeat(59) + MISSING);
  assert.equal(fillLabel("{{literal}} {a}", { a: 1.5 }), "{literal} 1.5");
  assert.equal(fillLabel("{broken", {}), "{broken");
});

test("parseLabel refuses malformed templates with the offset", () => {
  assert.deepEqual(parseLabel("a{b | c}d"), ["a", ["b", "c"], "d"]);
  assert.deepEqual(labelNames("{a}{b|a}"), ["a", "b"]);
  const optional = "[s '{r}'{? in '{f|g}'}{{?}}]";
  assert.deepEqual(parseLabel(optional), ["[s '", ["r"], "'", { optional: [" in '", ["f", "g"], "'"] }, "{?}]"]);
  assert.deepEqual(labelNames(optional), ["r", "f", "g"]);
  assert.equal(fillLabel(optional, { r: "x" }), "[s 'x'{?}]");
  assert.equal(fillLabel(optional, { r: "x", g: 2 }), "[s 'x' in '2'{?}]");
  assert.equal(fillLabel(optional, { g: 2 }), `[s '${MISSING}' in '2'{?}]`);
  const bad = [["x}", 1], ["{a", 0], ["{}", 0], ["{a b}", 0], ["{? no names}", 0], ["a {?{b}", 2], ["{?{a}{?{b}}}", 5], ["{?{a}}}", 0]] as const;
  for (const [template, offset] of bad) {
    assert.throws(() => parseLabel(template), (e: unknown) => e instanceof LabelSyntaxError && e.offset === offset);
  }
});
