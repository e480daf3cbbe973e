/** Tests of the native tool runtime (formats, converters, run-time tools), where it lives. */

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  decodeMcpToolName,
  encodeMcpToolName,
  loadServersJson,
  mcpTools,
  parseMcpName,
} from "../dynamic_tools.js";
import { FORMATS, descriptionPath, propertiesPath } from "../formats.js";
import { NativeToolsUnavailable, adapt, parametersSchema, placeholderPaths, runtimeEntry } from "../native.js";
import { DialectError } from "../schema_common.js";
import { convert, toolEntry } from "../schema_dialects.js";
import { sha256Hex, subagentName, subagentNames, subagentTools } from "../subagents.js";
import { buildTools, type NativeCatalog } from "../tool_lists.js";
import type { SkipRecord } from "../variants.js";
import { pyJsonDumps, pyNumber, pyRepr, TOO_LONG } from "../pyspell.js";

const plainText = (pieces: readonly unknown[]): string => pieces.filter((p) => typeof p === "string").join("");

test("one record per format, in declared order, with the paths the envelope implies", () => {
  assert.deepEqual([...FORMATS.keys()], ["anthropic", "openai-chat", "openai-responses", "gemini", "bedrock-converse"]);
  assert.deepEqual(descriptionPath(FORMATS.get("openai-chat")!), ["function", "description"]);
  assert.deepEqual(propertiesPath(FORMATS.get("bedrock-converse")!), ["toolSpec", "inputSchema", "json", "properties"]);
});

test("Python spellings: float repr, json.dumps text, repr of strings", () => {
  assert.equal(pyNumber(1.5e20), "1.5e+20");
  assert.equal(pyNumber(0.0001), "0.0001");
  assert.equal(pyNumber(0.00001), "1e-05");
  assert.equal(pyNumber(12.5), "12.5");
  assert.equal(pyNumber(NaN, true), "NaN");
  assert.equal(pyJsonDumps({ a: [1, "é\n", null, true] }), '{"a": [1, "é\\n", null, true]}');
  assert.equal(pyRepr("it's"), `"it's"`);
  assert.equal(pyRepr("tab\there\u200b"), "'tab\\there\\u200b'");
  assert.equal(pyRepr(["a", null, false]), "['a', None, False]");
});

test("sha256 matches the standard vectors", () => {
  assert.equal(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  assert.equal(sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  assert.equal(sha256Hex("é".repeat(100)).length, 64);
});

test("MCP tool names outside the safe set are rewritten reversibly", () => {
  assert.equal(encodeMcpToolName("read_file"), "read_file");
  assert.equal(encodeMcpToolName("files/read"), "_x_files_2f_read");
  assert.equal(encodeMcpToolName("my_tool v2"), "_x_my__tool_20_v2");
  assert.equal(encodeMcpToolName("😀"), "_x__1f600_");
  for (const name of ["files/read", "café", "_x_a", "a b_c", "😀"]) {
    assert.equal(decodeMcpToolName(encodeMcpToolName(name)), name);
  }
  assert.equal(decodeMcpToolName("_x_a_zz_"), null);
  assert.equal(decodeMcpToolName("_x_a_d800_"), null);
  assert.deepEqual(parseMcpName("srv0mcp0_x_files_2f_read", "0mcp0"), ["srv", "files/read"]);
  assert.equal(parseMcpName("no-separator", "0mcp0"), null);
});

test("loadServersJson reads NaN, Infinity, over-long integers and over-deep schemas as Python does", () => {
  const data = loadServersJson('[NaN, -Infinity, "NaN", ' + "9".repeat(4301) + ", 12]");
  assert.ok(Number.isNaN(data[0]));
  assert.equal(data[1], -Infinity);
  assert.equal(data[2], "NaN");
  assert.equal(data[3], TOO_LONG);
  assert.equal(data[4], 12);
  const deep = "[".repeat(150) + "]".repeat(150);
  const cut = loadServersJson(deep);
  let node = cut;
  let depth = 0;
  while (Array.isArray(node)) {
    node = node[0];
    depth += 1;
  }
  assert.equal(depth, 100);
  assert.deepEqual(Object.keys(node), ["\u0000toolgen: nested too deeply"]);
  assert.throws(() => loadServersJson("{"), /ValueError/);
});

test("mcpTools skips bad tools with reasons and notes dropped non-finite numbers", () => {
  const servers = loadServersJson(
    JSON.stringify([
      {
        uid: "s1",
        name: "srv",
        tools: [
          { name: "ok", description: "Fine.", inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] } },
          { name: "ok", description: "Again." },
          { description: "No name." },
        ],
      },
      { uid: "off", name: "off", disabled: true, tools: [{ name: "x" }] },
    ]).replace('"Fine."', '"Fine."').replace('"required":["q"]', '"required":["q"],"maximum":NaN'),
  );
  const [variants, skipped] = mcpTools(servers, { separator: "0mcp0" });
  const [only] = variants;
  assert.ok(only !== undefined && variants.length === 1);
  assert.equal(only.name, "s10mcp0ok");
  assert.match(String(only.description[0]), /NaN\/Infinity is not JSON: \/maximum \(NaN\)\)$/);
  assert.deepEqual(
    skipped.map((s) => s.reason),
    ["duplicate name", "tool has no name", "server disabled"],
  );
});

test("subagent names fit, stay distinct and never hold the MCP separator", () => {
  assert.equal(subagentName("Code Reviewer"), "use_subagent_code_reviewer");
  const long = subagentName("x".repeat(80));
  assert.equal(long.length, 64);
  assert.match(long, /_[0-9a-f]{8}$/);
  assert.deepEqual(subagentNames([{ name: "a" }, { name: "A" }]), ["use_subagent_a", "use_subagent_a_2"]);
  assert.ok(!subagentName("a0mcp0b", { separator: "0mcp0" }).includes("0mcp0"));
  const skipped: SkipRecord[] = [];
  const tools = subagentTools([{ name: "ok" }, { name: "bad\ud800" }], { skipped });
  assert.equal(tools.length, 1);
  assert.equal(skipped.length, 1);
});

test("toolEntry lays out each envelope, and refuses what a format cannot take with a located error", () => {
  const schema = parametersSchema([{ name: "path", required: true, instruction: "Where.", schema: { type: "string" } }]);
  assert.deepEqual(Object.keys(toolEntry("openai-chat", "t", "d", schema)["function"]), ["name", "description", "strict", "parameters"]);
  assert.deepEqual(toolEntry("gemini", "t", "d", schema)["parameters"].type, "OBJECT");
  assert.throws(
    () => convert({ type: "object", properties: { m: { type: "object", additionalProperties: { type: "string" } } } }, "gemini"),
    (exc: unknown) => exc instanceof DialectError && exc.path.join("/") === "properties/m/additionalProperties",
  );
  assert.throws(() => toolEntry("anthropic", "bad name", "d", schema), /tool name 'bad name' is not allowed/);
});

test("gemini sends a schema its subset cannot express as parametersJsonSchema", () => {
  const variant = {
    name: "m",
    description: ["Maps."],
    strict: false,
    parameters: [],
    input_schema: { type: "object", properties: { h: { type: "object", additionalProperties: { type: "string" } } } },
  };
  const entry = runtimeEntry("gemini", variant, plainText)!;
  assert.deepEqual(Object.keys(entry), ["name", "description", "parametersJsonSchema"]);
  assert.throws(() => runtimeEntry("openai-chat", { ...variant, strict: true, name: "bad name" }, plainText), DialectError);
});

test("adapt drops gated parameters, swaps conditional text and fills only the marked placeholders", () => {
  const schema = parametersSchema([
    { name: "a", required: true, instruction: "A in {{CWD}}.", schema: { type: "string" } },
    { name: "b", required: true, instruction: "B.", schema: { type: "string" } },
  ]);
  const entry = toolEntry("anthropic", "t", "Base.", schema);
  const meta = {
    gates: [["b", { field: "x" }]] as const,
    texts: [[null, "Base.", ["Base.", [" More.", { field: "y" }]]]] as const,
    placeholders: true,
    paths: placeholderPaths(entry),
  };
  const out = adapt("anthropic", structuredClone(entry), meta, () => false, () => "Base. More.", (t) => t.replace("{{CWD}}", "/w"));
  assert.deepEqual(out, {
    name: "t",
    description: "Base. More.",
    input_schema: { type: "object", properties: { a: { type: "string", description: "A in /w." } }, required: ["a"] },
  });
});

test("buildTools raises NativeToolsUnavailable when the family or the context turns native calls off", () => {
  const catalog: NativeCatalog = {
    families: { f: { use_native_tools: true }, t: { use_native_tools: false } },
    variants: new Map([
      ["f", []],
      ["t", []],
    ]),
    data: {
      mcp: { separator: "0mcp0", name_max_length: 64 },
      subagents: { name_prefix: "use_subagent_", max_length: 64 },
    },
    holds: () => true,
    assemble: () => [],
    resolveText: plainText,
    resolvePlaceholders: (t) => t,
    asContext: (c) => c ?? {},
    route: () => "anthropic",
  };
  assert.throws(() => buildTools(catalog, "anthropic", "t", {}), NativeToolsUnavailable);
  assert.throws(() => buildTools(catalog, "anthropic", "f", { enable_native_tool_calls: false }), /enable_native_tool_calls/);
  assert.deepEqual(buildTools(catalog, "anthropic", "f", {}), []);
});

test("known difference: integer-like property keys come first in JavaScript objects", () => {
  const servers = loadServersJson('[{"uid":"s","name":"s","tools":[{"name":"t","inputSchema":{"type":"object","properties":{"b":{"type":"string"},"0":{"type":"string"}}}}]}]');
  const [variants] = mcpTools(servers, { separator: "0mcp0" });
  const schema = variants[0]?.input_schema as { properties: object };
  assert.deepEqual(Object.keys(schema.properties), ["0", "b"]); // Python keeps ["b", "0"]
});
