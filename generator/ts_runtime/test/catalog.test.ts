import { test } from "node:test";
import assert from "node:assert/strict";

import { Catalog, asText } from "../catalog.js";
import type { CatalogData, SpecData } from "../data.js";
import { toolBlock, toolsSection } from "../prompt_blocks.js";
import { TextPath } from "../prompt.js";
import { fillLabel, parseLabel, LabelSyntaxError } from "../labels.js";
import { pyNumber } from "../pyspell.js";

function spec(id: string, extra: Partial<SpecData> = {}): SpecData {
  return { id, spec: "fam", name: id, description: [`Does ${id} in {{CWD}}.`], requires: null, strict: false, parameters: [], ...extra };
}

const DATA: CatalogData = {
  selection: { provider_sets: { p: ["anthropic"] }, model_sets: {}, model_predicates: {} },
  rules: [["fam", { provider_in: "p" }]],
  precondition: { field: "model_id", truthy: true },
  fallback: "fam",
  families: {},
  specs: {
    "fam/a": spec("a", {
      parameters: [
        { name: "x", required: true, instruction: ["The x.", [" Only with b.", { field: "flag", truthy: true }]], description: [], usage: "X", schema: {}, dependencies: [], requires: null },
        { name: "y", required: false, instruction: ["The y."], description: ["Y needs b."], usage: null, schema: {}, dependencies: ["b"], requires: null },
      ],
    }),
    "fam/b": spec("b", { requires: { field: "flag", truthy: true } }),
  },
  familySpecs: { fam: ["fam/a", "fam/b"] },
  placeholders: { CWD: { field: "cwd", default: "/", map: [] } },
  routing: { default: "openai-chat", rules: [{ providers: ["anthropic"], when: null, format: "anthropic" }] },
  mcp: { separator: "__mcp__", name_max_length: 64 },
  subagents: { name_prefix: "use_subagent_", max_length: 64 },
};

const CATALOG = new Catalog(DATA, (value: unknown) => (value ?? {}) as { readonly [k: string]: unknown });

test("requirements, dependencies and conditional text", () => {
  assert.deepEqual(CATALOG.enabledTools("fam", {}), ["a"]);
  assert.deepEqual(CATALOG.enabledTools("fam", { flag: true }), ["a", "b"]);
  assert.throws(() => CATALOG.enabledTools("nope", {}), /unknown family 'nope'; known: fam/);
  const section = new TextPath(CATALOG).promptSection("fam", { flag: false, cwd: "/w" });
  assert.equal(
    section,
    toolsSection([toolBlock("a", "Does a in /w.", [{ name: "x", required: true, instruction: "The x.", description: "", usage: "X" }], ["", "Y needs b."])]),
  );
});

test("routing normalizes the provider", () => {
  assert.equal(CATALOG.route(" Anthropic "), "anthropic");
  assert.equal(CATALOG.route(null), "openai-chat");
});

test("values read in prompt text as the modelled system shows them", () => {
  assert.deepEqual([true, [1, "a"], 2.0, 1.5, 1e-5, 1e22, 0.1].map(asText), ["true", "1,a", "2", "1.5", "1e-05", "10000000000000000000000", "0.1"]);
  assert.equal(pyNumber(1.234e-7), "1.234e-07");
  assert.equal(pyNumber(123456789012345.6), "123456789012345.6");
});

test("labels", () => {
  assert.equal(fillLabel("[read {path|file}]", { file: "  a\n b " }), "[read a b]");
  assert.equal(fillLabel("{x}", { x: "é".repeat(70) }), "é".repeat(59) + "\u2026");
  assert.equal(fillLabel("{{x}} {y}", {}), "{x} \u2026");
  assert.throws(() => parseLabel("{a"), LabelSyntaxError);
});
