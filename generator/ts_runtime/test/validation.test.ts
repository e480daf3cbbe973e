import assert from "node:assert/strict";
import { test } from "node:test";

import { argumentsChecker, coerceText, compileSchema } from "../validation.js";

function problemsOf(schema: unknown, value: unknown, coerce = false): string[] {
  const problems: string[] = [];
  compileSchema(schema)(value, "x", problems, coerce);
  return problems;
}

test("types, enum and const", () => {
  assert.deepEqual(problemsOf({ type: "integer" }, true), ["x: expected integer, got boolean true"]);
  assert.deepEqual(problemsOf({ type: "number" }, "2.5"), ['x: expected number, got string "2.5"']);
  assert.deepEqual(problemsOf({ type: "string", nullable: true }, null), []);
  assert.deepEqual(problemsOf({ type: "string", enum: ["metric", "imperial"] }, "kelvin"), [
    'x: must be one of "metric", "imperial" (got "kelvin")',
  ]);
  assert.deepEqual(problemsOf({ const: 1 }, true), ["x: must be 1 (got true)"]);
  assert.deepEqual(problemsOf({ enum: [[1, { a: true }]] }, [1.0, { a: 1 }]), []);
});

test("bounds, lengths, patterns, items and properties", () => {
  assert.deepEqual(problemsOf({ multipleOf: 0.5 }, 1.25), ["x: must be a multiple of 0.5 (got 1.25)"]);
  assert.deepEqual(problemsOf({ minimum: 1, exclusiveMinimum: true }, 1), ["x: must be greater than 1 (got 1)"]);
  assert.deepEqual(problemsOf({ maxLength: 1 }, "\u{1F600}"), []);
  assert.deepEqual(problemsOf({ pattern: "^(?P<a>x)\\Z" }, "x"), []);
  assert.deepEqual(problemsOf({ uniqueItems: true }, [{ a: 1, b: 2 }, { b: 2, a: 1 }]), ["x: items must be unique"]);
  assert.deepEqual(problemsOf({ items: [{ type: "string" }], additionalItems: false }, [1, 2]), [
    "x: must have at most 1 items",
    "x[0]: expected string, got integer 1",
  ]);
  assert.deepEqual(
    problemsOf({ properties: { a: { type: "string" } }, required: ["b"], additionalProperties: false }, { a: 1, c: 2 }),
    ["x.b: required, but missing", "x.a: expected string, got integer 1", "x.c: unknown parameter"],
  );
  assert.deepEqual(problemsOf({ oneOf: [{ type: "number" }, { type: "integer" }] }, 3), [
    "x: matches more than one of the allowed schemas",
  ]);
});

test("text-path coercion", () => {
  assert.equal(coerceText(" 3", ["integer"]), 3);
  assert.equal(coerceText("\u0663", ["integer"]), 3);
  assert.equal(coerceText("1e3", ["number"]), 1000);
  assert.equal(coerceText("TRUE", ["boolean"]), true);
  assert.deepEqual(coerceText('["a"]', ["array"]), ["a"]);
  assert.equal(coerceText("x", ["integer", "string"]), "x");
  const check = argumentsChecker({
    type: "object",
    properties: { days: { type: "integer" }, note: { type: "string" } },
    required: ["days"],
  });
  assert.deepEqual(check({ days: "3", note: null }, true), [{ days: 3 }, []]);
  assert.deepEqual(check({ days: "three" }, true), [{ days: "three" }, ['days: expected integer, got text "three"']]);
});
