import assert from "node:assert/strict";
import { test } from "node:test";

import { SchemaRefused, argumentsChecker, coerceText, compileSchema, schemaRefusals } from "../validation.js";
import { MAX_PATTERN_TEXT, matches } from "../validation_scope.js";

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
  assert.deepEqual(problemsOf({ enum: [[1, { a: true }]] }, [1.0, { a: true }]), []);
  assert.deepEqual(problemsOf({ enum: [[1, { a: true }]] }, [1, { a: 1 }]), ['x: must be [1, {"a": true}] (got [1, {"a": 1}])']);
  assert.deepEqual(problemsOf({ type: "number" }, Number.NaN), ["x: not a JSON number (got NaN)"]);
  assert.deepEqual(problemsOf(false, 1), ["x: no value is allowed here"]);
});

test("bounds, lengths, patterns, items and properties", () => {
  assert.deepEqual(problemsOf({ multipleOf: 0.5 }, 1.25), ["x: must be a multiple of 0.5 (got 1.25)"]);
  assert.deepEqual(problemsOf({ minimum: 1, exclusiveMinimum: true }, 1), ["x: must be greater than 1 (got 1)"]);
  assert.deepEqual(problemsOf({ maxLength: 1 }, "\u{1F600}"), []);
  assert.deepEqual(problemsOf({ minItems: 2.0 }, [1]), ["x: must have at least 2 items"]);
  assert.deepEqual(problemsOf({ uniqueItems: true }, [{ a: 1, b: 2 }, { b: 2, a: 1 }]), ["x: items must be unique"]);
  assert.deepEqual(problemsOf({ uniqueItems: true }, [1, true]), []);
  assert.deepEqual(problemsOf({ items: [{ type: "string" }], additionalItems: false }, [1, 2]), [
    "x: must have at most 1 items",
    "x[0]: expected string, got integer 1",
  ]);
  assert.deepEqual(
    problemsOf({ properties: { a: { type: "string" } }, required: ["b"], additionalProperties: false }, { a: 1, c: 2 }),
    ["x.b: required, but missing", "x.a: expected string, got integer 1", "x.c: unknown parameter"],
  );
  assert.deepEqual(problemsOf({ oneOf: [{ type: "number" }, { type: "integer" }] }, 3), [
    "x: must match exactly one of these schemas, but matches 1 and 2 (got 3)",
  ]);
  assert.deepEqual(problemsOf({ anyOf: [{ type: "integer" }, { type: "string", maxLength: 1 }] }, "ab"), [
    'x: must match at least one of these schemas (got "ab"): 1) expected integer, got string "ab"; 2) must be at most 1 characters long',
  ]);
});

test("exact numbers: bigint values, decimal multipleOf, no overflow", () => {
  assert.deepEqual(problemsOf({ multipleOf: 0.0001 }, 0.0075), []);
  assert.deepEqual(problemsOf({ multipleOf: 0.5 }, 1e308), []);
  assert.deepEqual(problemsOf({ type: "integer" }, 10n ** 30n), []);
  assert.deepEqual(problemsOf({ multipleOf: 3 }, 10n ** 40n + 1n), [`x: must be a multiple of 3 (got ${10n ** 40n + 1n})`]);
  assert.deepEqual(problemsOf({ minimum: 2 ** 64 }, 2n ** 64n - 1n), [
    "x: must be at least 1.8446744073709552e+19 (got 18446744073709551615)", // a number bound, a bigint value
  ]);
  assert.deepEqual(problemsOf({ uniqueItems: true }, [1, 1n]), ["x: items must be unique"]);
  assert.deepEqual(problemsOf({ enum: [2 ** 53] }, 2n ** 53n), []);
  assert.deepEqual(problemsOf({ format: "int32" }, 2 ** 31), [
    "x: must be an integer from -2147483648 to 2147483647 (int32) (got 2147483648)",
  ]);
});

test("keywords beyond the common tool shape", () => {
  assert.deepEqual(problemsOf({ not: { type: "string" } }, "a"), ['x: must not match {"type": "string"} (got "a")']);
  const condition = { if: { minimum: 10 }, then: { multipleOf: 5 }, else: { maximum: 3 } };
  assert.deepEqual(problemsOf(condition, 12), ["x: must be a multiple of 5 (got 12)"]);
  assert.deepEqual(problemsOf(condition, 4), ["x: must be at most 3 (got 4)"]);
  assert.deepEqual(problemsOf({ contains: { type: "integer" } }, ["a"]), ['x: must contain at least 1 items matching {"type": "integer"}']);
  assert.deepEqual(problemsOf({ dependentRequired: { a: ["b"] } }, { a: 1 }), ["x.b: required when a is present, but missing"]);
  assert.deepEqual(problemsOf({ propertyNames: { maxLength: 2 } }, { abc: 1 }), [
    'x.abc: the name "abc" is not allowed: must be at most 2 characters long',
  ]);
  assert.deepEqual(problemsOf({ $defs: { n: { type: "integer" } }, properties: { a: { $ref: "#/$defs/n" } } }, { a: "1" }), [
    'x.a: expected integer, got string "1"',
  ]);
  assert.deepEqual(
    problemsOf({ properties: { a: {} }, allOf: [{ properties: { b: {} } }], unevaluatedProperties: false }, { a: 1, b: 2, c: 3 }),
    ["x.c: unknown parameter"],
  );
  assert.deepEqual(problemsOf({ format: "date" }, "2024-02-30"), ['x: must be a valid date, like "2024-05-01" (got "2024-02-30")']);
});

test("schemas that cannot be enforced are refused, every place listed", () => {
  const schema = { properties: { a: "junk" }, required: "a", multipleOf: 0, $ref: "https://example.com/s.json" };
  const refused = schemaRefusals(schema).map(String);
  assert.deepEqual(refused, [
    "/multipleOf: must be greater than 0",
    "/properties/a: must be a schema (an object or a boolean)",
    "/required: must be a list of property names",
    '/$ref: "https://example.com/s.json" is another document; pass retrieve= to let the validator read it (it never uses the network by itself)',
  ]);
  assert.throws(() => compileSchema(schema), (error: unknown) => error instanceof SchemaRefused && error.refusals.length === 4);
  assert.throws(() => argumentsChecker(schema), SchemaRefused);
  const fetched = compileSchema({ $ref: "https://example.com/s.json" }, { retrieve: () => ({ type: "integer" }) });
  const problems: string[] = [];
  fetched("1", "n", problems, false);
  assert.deepEqual(problems, ['n: expected integer, got string "1"']);
});

test("the Gemini dialect", () => {
  const check = argumentsChecker(
    {
      type: "OBJECT",
      properties: { unit: { type: "STRING", format: "enum", enum: ["c", "f"] }, n: { type: "INTEGER", format: "int32" } },
      required: ["unit"],
      propertyOrdering: ["unit", "n"],
    },
    { dialect: "gemini" },
  );
  assert.deepEqual(check({ unit: "c", n: 1 }, false), [{ unit: "c", n: 1 }, []]);
  assert.deepEqual(check({ unit: "k" }, false)[1], ['unit: must be one of "c", "f" (got "k")']);
  // OpenAPI semantics: the subset has no additionalProperties, so an undeclared key is allowed
  assert.deepEqual(check({ unit: "c", extra: 1 }, false), [{ unit: "c", extra: 1 }, []]);
  // nullable: true lets null through the whole node: its type, its enum, a bare anyOf
  const nulls = compileSchema(
    {
      type: "OBJECT",
      properties: {
        e: { type: "STRING", enum: ["a"], nullable: true },
        u: { anyOf: [{ type: "INTEGER" }, { type: "BOOLEAN" }], nullable: true },
        plain: { type: "STRING", enum: ["a"] },
      },
    },
    { dialect: "gemini" },
  );
  const problems: string[] = [];
  nulls({ e: null, u: null }, "x", problems, false);
  assert.deepEqual(problems, []);
  nulls({ plain: null }, "x", problems, false);
  assert.deepEqual(problems, ["x.plain: expected string, got null"]);
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

test("a text too long to match is a problem, as in Python; a matcher that gives up too", () => {
  const unmatched = "could not be checked against the pattern ^a*$: too long to match (send a shorter text)";
  assert.deepEqual(problemsOf({ pattern: "^a*$" }, "a".repeat(MAX_PATTERN_TEXT)), []);
  assert.deepEqual(problemsOf({ pattern: "^a*$" }, "a".repeat(MAX_PATTERN_TEXT + 1)), [`x: ${unmatched}`]);
  // code points, not UTF-16 units: MAX_PATTERN_TEXT emoji are checked
  assert.deepEqual(problemsOf({ pattern: "^a*$" }, "\u{1F600}".repeat(MAX_PATTERN_TEXT)), ["x: must match the pattern ^a*$"]);
  const key = "a".repeat(MAX_PATTERN_TEXT + 1);
  for (const closing of [{ additionalProperties: false }, { unevaluatedProperties: false }]) {
    const schema = { patternProperties: { "^a*$": { type: "integer" } }, ...closing };
    assert.deepEqual(problemsOf(schema, { [key]: "1" }), [`x.${key}: the name ${unmatched}`]);
  }
  // V8 throws RangeError when its backtracking stack runs out: reported, not thrown
  const exhausted = (): boolean => {
    throw new RangeError("Maximum call stack size exceeded");
  };
  assert.equal(matches(exhausted, "a"), null);
  // a real one: 30 nested groups repeated over 900,000 characters exhaust node 20's matcher
  const deep = "^" + "(".repeat(30) + "a|b" + ")".repeat(30) + "*$";
  const found = problemsOf({ pattern: deep }, "a".repeat(900_000));
  const gaveUp = [`x: could not be checked against the pattern ${deep}: too long to match (send a shorter text)`];
  assert.ok(found.length === 0 || JSON.stringify(found) === JSON.stringify(gaveUp), found.join("; "));
  assert.throws(() => matches(() => { throw new TypeError("other"); }, "a"), TypeError);
});
