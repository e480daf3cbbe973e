/**
 * The conformance runner for the TypeScript runtime: replays tests/conformance/corpus/ under
 * `node --test`, with no Python in the loop. Each case's input goes to the adapter of its module
 * (tests/ts_scripts/<module>.ts, `handle({op: function, ...input})`), and the answer must equal the
 * expected one: `expect_ts` where a documented difference applies, else `expect` (Python's).
 * Answers are compared as JSON text with key order, NaN and the infinities kept.
 *
 * The corpus folder comes from TOOLGEN_CONFORMANCE_CORPUS; tests/conformance/run.mjs (standalone)
 * and tests/test_conformance.py (pytest) set it. A module whose package is not in the build (the
 * js_names spec set needs the generator to render it) is skipped, saying so.
 */

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any
type Handle = (input: Json) => unknown;

interface Record_ {
  readonly id: string;
  readonly module: string;
  readonly function: string;
  readonly input: Json;
  readonly expect: Json;
  readonly differences?: readonly string[];
  readonly expect_ts?: Json;
}

const TAG = "$$";
const folder = process.env["TOOLGEN_CONFORMANCE_CORPUS"];

/** The corpus value `value` stands for (tests/conformance/corpus.py writes the tags). */
function decode(value: Json, shared: Map<string, Json>): Json {
  if (Array.isArray(value)) return value.map((item) => decode(item, shared));
  if (value === null || typeof value !== "object") return value;
  const keys = Object.keys(value);
  if (keys.length === 1) {
    const item = value[keys[0] as string];
    switch (keys[0]) {
      case TAG + "ref": {
        const found = shared.get(item);
        if (found === undefined) throw new Error(`the corpus refers to a missing shared value ${item}`);
        return decode(found, shared);
      }
      case TAG + "int":
        return Number(item); // the nearest double, as JSON.parse reads the number
      case TAG + "float":
        return { nan: NaN, inf: Infinity, "-inf": -Infinity }[item as "nan" | "inf" | "-inf"];
      case TAG + "text":
        return (item as Json[])
          .map((piece) => (Array.isArray(piece) ? (piece[0] as string).repeat(piece[1]) : decode(piece, shared)))
          .join("");
    }
  }
  const out: Record<string, Json> = {};
  for (const key of keys) {
    // an own key even for "__proto__", as JSON.parse made it
    Object.defineProperty(out, key, { value: decode(value[key], shared), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** JSON text with key order kept and NaN, the infinities and undefined spelled out (never dropped). */
function text(value: Json): string {
  if (typeof value === "number") return Number.isFinite(value) ? JSON.stringify(value) : `<${value}>`;
  if (value === undefined) return "<undefined>";
  if (typeof value === "bigint") return `<bigint ${value}>`;
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return "[" + value.map(text).join(",") + "]";
  if (typeof value.toJSON === "function") return text(value.toJSON());
  return "{" + Object.keys(value).map((k) => JSON.stringify(k) + ":" + text(value[k])).join(",") + "}";
}

/** Where two answers first differ, and both there (short). */
function firstDifference(expected: Json, got: Json, path = ""): string {
  if (expected !== null && got !== null && typeof expected === "object" && typeof got === "object") {
    const a = Object.keys(expected);
    const b = Object.keys(got);
    if (a.join("\0") === b.join("\0")) {
      for (const key of a) {
        if (text(expected[key]) !== text(got[key])) {
          return firstDifference(expected[key], got[key], Array.isArray(expected) ? `${path}[${key}]` : `${path}.${key}`);
        }
      }
    }
  }
  const [a, b] = [text(expected), text(got)];
  let at = 0; // texts are shown from a little before where they part
  while (at < a.length && a[at] === b[at]) at++;
  const from = Math.max(0, at - 200);
  const cut = (t: string): string => (from > 0 ? "..." : "") + t.slice(from, from + 600);
  return `at ${path || "the top"}:\n    expected: ${cut(a)}\n    got:      ${cut(b)}`;
}

function load(): { records: Record_[]; shared: Map<string, Json> } {
  if (!folder) throw new Error("set TOOLGEN_CONFORMANCE_CORPUS to the corpus folder (tests/conformance/run.mjs does)");
  const shared = new Map<string, Json>();
  for (const line of gunzipSync(readFileSync(join(folder, "shared.jsonl.gz"))).toString("ascii").split("\n")) {
    if (line) {
      const entry = JSON.parse(line);
      shared.set(entry.ref, entry.value);
    }
  }
  const records: Record_[] = [];
  for (const name of readdirSync(folder).filter((n) => n.endsWith(".jsonl")).sort()) {
    for (const line of readFileSync(join(folder, name), "ascii").split("\n")) {
      if (line) records.push(JSON.parse(line));
    }
  }
  return { records, shared };
}

/** The adapter of each module, or why it is not in this build. */
async function adapters(modules: Iterable<string>): Promise<Map<string, Handle | string>> {
  const out = new Map<string, Handle | string>();
  for (const module of modules) {
    const file = module === "js_names" ? "special" : module;
    try {
      const loaded = (await import(`../scripts/${file}.js`)) as { handle: Handle };
      out.set(module, loaded.handle);
    } catch (error) {
      const hint = ["js_names", "orders"].includes(module) ? ` (give its package: run.mjs --package ${module}=<folder>)` : "";
      out.set(module, `the adapter of ${module} does not load here${hint}: ${(error as Error).message.split("\n")[0]}`);
    }
  }
  return out;
}

/** What the adapter answers, errors as {"error": "Name: message"} (the corpus's spelling). */
async function answer(handle: Handle, record: Record_, input: Json): Promise<Json> {
  try {
    const given = record.module === "native" && record.function === "convert" ? { convert: input } : input;
    let value: Json = await handle({ op: record.function, ...given });
    if (record.module === "native" && value !== null && typeof value === "object" && typeof value.text === "string") {
      value = JSON.parse(value.text);
    }
    return JSON.parse(JSON.stringify(value ?? null, (_key, v) => (typeof v === "number" && !Number.isFinite(v) ? `<${v}>` : v)), (_key, v) =>
      typeof v === "string" && /^<(NaN|-?Infinity)>$/.test(v) ? Number(v.slice(1, -1)) : v,
    );
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    return { error: `${e.name}: ${e.message}` };
  }
}

const { records, shared } = load();
const groups = new Map<string, Record_[]>();
for (const record of records) {
  const key = `${record.module} ${record.function}`;
  const group = groups.get(key) ?? [];
  group.push(record);
  groups.set(key, group);
}
const handles = await adapters(new Set(records.map((r) => r.module)));

test(`the corpus has cases (${records.length})`, () => {
  assert.ok(records.length >= 10_000, `only ${records.length} cases`);
});

for (const [key, group] of [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
  const handle = handles.get(group[0]!.module);
  test(`${key} (${group.length} cases)`, { skip: typeof handle === "string" ? handle : false }, async () => {
    const differences: string[] = [];
    for (const record of group) {
      const input = decode(record.input, shared);
      const expected = decode(record.differences ? record.expect_ts : record.expect, shared);
      // the answer goes through JSON as the expectation did (Python wrote it as JSON)
      const got = await answer(handle as Handle, record, input);
      if (text(got) !== text(expected)) {
        differences.push(`${record.id}${record.differences ? ` (${record.differences.join(", ")})` : ""} ${firstDifference(expected, got)}`);
      }
    }
    assert.equal(differences.length, 0, `${differences.length} of ${group.length} cases differ:\n` + differences.slice(0, 10).join("\n"));
  });
}
