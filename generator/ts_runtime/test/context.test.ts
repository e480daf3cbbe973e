import { test } from "node:test";
import assert from "node:assert/strict";

import { ContextError, contextFromObject } from "../context.js";
import type { FieldTypes } from "../context.js";
import { pyRepr } from "../pyspell.js";

const TYPES: FieldTypes = { provider_id: ["string", true], width: ["integer", false], tabs: ["string_list", false] };
const DEFAULTS = { provider_id: null, width: 900, tabs: [] };

test("defaults fill in what is not given", () => {
  assert.deepEqual(contextFromObject(TYPES, DEFAULTS, { width: 3 }), { provider_id: null, width: 3, tabs: [] });
});

test("every problem is reported at once", () => {
  assert.throws(
    () => contextFromObject(TYPES, DEFAULTS, { provider: "x", width: 1.5, tabs: [1] }),
    (error: unknown) =>
      error instanceof ContextError &&
      error.message ===
        "invalid context: unknown key 'provider' (did you mean 'provider_id'?); " +
          "width: expected integer, got number; tabs: expected string_list, got array",
  );
});

test("integers beyond the safe range are refused", () => {
  assert.throws(() => contextFromObject(TYPES, DEFAULTS, { width: 2 ** 53 }), /integer out of range/);
});

test("pyRepr quotes as Python does", () => {
  assert.equal(pyRepr("it's"), `"it's"`);
  assert.equal(pyRepr("a\nb"), "'a\\nb'");
});
