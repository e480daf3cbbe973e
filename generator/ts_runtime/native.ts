/**
 * Request-ready native tool lists from per-dialect entries; mirrors runtime/native.py.
 *
 * An entry is a spec variant's tool converted for one dialect with placeholders unresolved.
 * At request time `adapt` drops parameters whose context requirements fail, fills conditional
 * text and placeholders; `runtimeEntry` converts run-time tools (subagents, MCP) with the same
 * converter, so static and run-time tools can never differ.
 */

import { copier, fastCopy } from "./copies.js";
import {
  DESCRIPTION,
  FORMATS,
  JSON_SCHEMA,
  NAME,
  PARAMETERS,
  STRICT,
  descriptionPath,
  pathTo,
  propertiesPath,
  type Slot,
} from "./formats.js";
import { MAX_NESTING, DialectError, extrasLead, nestingDepth, ordered, type Json, type Schema } from "./schema_common.js";
import { convertWith, layOut, toolEntry } from "./schema_dialects.js";
import { codePointCompare, has, isDict, put, PyError, pyJsonDumps, pyLen } from "./pyspell.js";

export { copier, fastCopy };

/** Where each dialect keeps the tool description and the parameter properties. */
export const DESCRIPTION_PATH: ReadonlyMap<string, readonly string[]> = new Map(
  [...FORMATS].map(([name, rec]) => [name, descriptionPath(rec)]),
);
export const PROPERTIES_PATH: ReadonlyMap<string, readonly string[]> = new Map(
  [...FORMATS].map(([name, rec]) => [name, propertiesPath(rec)]),
);

/** The family or the context does not use native tool calling: send the text-path prompt instead. */
export class NativeToolsUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NativeToolsUnavailable";
  }
}

/** What of an entry depends on the context (the generated META of a provider module). */
export interface EntryMeta {
  /** [parameter name, requirement] pairs. */
  readonly gates: readonly (readonly [string, Json])[];
  /** [parameter name or null for the tool, unconditional text, all pieces]. */
  readonly texts: readonly (readonly [string | null, string, readonly Json[]])[];
  readonly placeholders: boolean;
  readonly paths?: readonly (readonly string[])[] | null;
}

/** A parameter as `parametersSchema` reads it (instruction already resolved). */
export interface ResolvedParameter {
  readonly name: string;
  readonly required: boolean;
  readonly instruction: string;
  readonly schema: Schema;
}

const COMBINATORS = ["anyOf", "oneOf", "allOf"];

/** The canonical JSON Schema of a tool's parameters. */
export function parametersSchema(params: readonly ResolvedParameter[]): Schema {
  const properties: Schema = {};
  const required: string[] = [];
  for (const param of params) {
    const schema: Schema = { ...param.schema };
    // A schema without a type is a string, unless a union or intersection says its types itself.
    const prop: Schema = {};
    if (has(schema, "type") || !COMBINATORS.some((k) => has(schema, k))) {
      prop["type"] = has(schema, "type") ? schema["type"] : "string";
    }
    delete schema["type"];
    if (param.instruction) prop["description"] = param.instruction;
    for (const [k, v] of Object.entries(schema)) put(prop, k, v);
    put(properties, param.name, prop);
    if (param.required) required.push(param.name);
  }
  return { type: "object", properties, required };
}

/** A path's parent path and last key (the paths here, from format records and specs, are never empty). */
function splitLast(path: readonly string[]): [readonly string[], string] {
  const last = path[path.length - 1];
  if (last === undefined) throw new Error("toolgen: an empty path where a key path was expected");
  return [path.slice(0, -1), last];
}

function at(entry: Json, path: readonly string[]): Json {
  for (const key of path) entry = entry[key];
  return entry;
}

function fill(value: Json, resolve: (text: string) => string): Json {
  if (typeof value === "string") return value.includes("{{") ? resolve(value) : value;
  if (Array.isArray(value)) return value.map((v) => fill(v, resolve));
  if (isDict(value)) {
    const out: Schema = {};
    for (const [k, v] of Object.entries(value)) put(out, k, fill(v, resolve));
    return out;
  }
  return value;
}

function hasBraces(value: Json): boolean {
  if (typeof value === "string") return value.includes("{{");
  if (Array.isArray(value)) return value.some(hasBraces);
  if (isDict(value)) return Object.values(value).some(hasBraces);
  return false;
}

/** Python's ordering of tuples of strings (code point order, shorter prefix first). */
function comparePaths(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; ; i++) {
    const x = a[i];
    const y = b[i];
    if (x === undefined || y === undefined) return a.length - b.length;
    if (x !== y) return codePointCompare(x, y);
  }
}

/** Paths (object keys only) to every value of `entry` holding a `{{` string, sorted. */
export function placeholderPaths(entry: Schema): string[][] {
  const found: string[][] = [];
  const pending: [Schema, string[]][] = [[entry, []]];
  while (pending.length > 0) {
    const [holder, path] = pending.pop()!;
    for (const [key, value] of Object.entries(holder)) {
      if (isDict(value)) pending.push([value, [...path, key]]);
      else if (hasBraces(value)) found.push([...path, key]);
    }
  }
  return found.sort(comparePaths);
}

const isConditional = (piece: Json): boolean => typeof piece !== "string";
const plainText = (pieces: readonly Json[]): string => pieces.filter((p) => typeof p === "string").join("");
const pieceText = (piece: Json): string => (typeof piece === "string" ? piece : piece[0]);

/**
 * A spec variant's entry in `dialect`, placeholders unresolved; null without a description.
 *
 * `spec` is the variant as catalog data holds it (SPECS). The same rules as runtime/native.py's
 * spec_entry, whose results the Python package holds baked in generated/<format>.py.
 */
export function specEntry(dialect: string, spec: Json): Schema | null {
  const description = plainText(spec.description);
  if (!description && !spec.description.some(isConditional)) return null;
  const schema = parametersSchema(
    spec.parameters.map((p: Json) => ({
      name: p.name,
      required: p.required,
      instruction: plainText(p.instruction),
      schema: p.schema,
    })),
  );
  // Formats without a strict mode take the same tool without it.
  const strict = Boolean(spec.strict) && FORMATS.get(dialect)!.strict !== null;
  return toolEntry(dialect, spec.name, description, schema, { strict });
}

/** What of `spec`'s entry `built` depends on the context (null: nothing), as spec_meta. */
export function specMeta(spec: Json, built: Schema | null): EntryMeta | null {
  const gates: [string, Json][] = [];
  for (const p of spec.parameters) if (p.requires !== null) gates.push([p.name, p.requires]);
  const texts: [string | null, string, readonly Json[]][] = [];
  if (spec.description.some(isConditional)) texts.push([null, plainText(spec.description), spec.description]);
  for (const p of spec.parameters) {
    if (p.instruction.some(isConditional)) texts.push([p.name, plainText(p.instruction), p.instruction]);
  }
  const allText: Json[][] = [spec.description, ...spec.parameters.map((p: Json) => p.instruction)];
  const braces = allText.some((t) => t.some((piece) => pieceText(piece).includes("{{")));
  if (gates.length === 0 && texts.length === 0 && !braces) return null;
  const paths = braces && built !== null ? placeholderPaths(built) : [];
  return { gates, texts, placeholders: braces, paths };
}

export type Holds = (requirement: Json) => boolean;
export type TextOf = (pieces: readonly Json[]) => string;
export type Fill = (text: string) => string;

/** Adapt `result`, a private copy of an entry, to the context in place, and return it. */
export function adapt(
  dialect: string,
  result: Schema,
  meta: EntryMeta,
  holds: Holds,
  text: TextOf,
  placeholders: Fill,
): Schema {
  const propsPath = PROPERTIES_PATH.get(dialect)!;
  const properties: Schema = at(result, propsPath);
  const parent: Schema = at(result, propsPath.slice(0, -1));
  for (const [name, requirement] of meta.gates) {
    if (has(properties, name) && !holds(requirement)) {
      delete properties[name];
      const required = parent["required"];
      if (Array.isArray(required) && required.includes(name)) required.splice(required.indexOf(name), 1);
    }
  }
  const swapped: [Schema, string][] = [];
  const [descParent, descKey] = splitLast(DESCRIPTION_PATH.get(dialect)!);
  for (const [name, plain, pieces] of meta.texts) {
    let holder: Schema;
    let key: string;
    if (name === null) {
      holder = at(result, descParent);
      key = descKey;
    } else if (has(properties, name)) {
      holder = properties[name];
      key = "description";
    } else {
      continue;
    }
    swapText(holder, key, plain, text(pieces), name !== null);
    swapped.push([holder, key]);
  }
  if (!meta.placeholders) return result;
  const paths = meta.paths;
  if (paths == null) return fill(result, placeholders);
  // Each value once, as a fill over the whole entry would: swapped texts and stored paths.
  for (const path of paths) {
    const [parentPath, last] = splitLast(path);
    const holder = find(result, parentPath);
    if (holder !== null && has(holder, last)) swapped.push([holder, last]);
  }
  const done = new Map<Schema, Set<string>>();
  for (const [holder, key] of swapped) {
    let keys = done.get(holder);
    if (keys === undefined) done.set(holder, (keys = new Set()));
    if (!keys.has(key) && has(holder, key)) {
      keys.add(key);
      holder[key] = fill(holder[key], placeholders);
    }
  }
  return result;
}

/** The object at `path` in `entry`, or null where a gate removed part of the path. */
function find(entry: Json, path: readonly string[]): Schema | null {
  for (const key of path) {
    if (!isDict(entry) || !has(entry, key)) return null;
    entry = entry[key];
  }
  return isDict(entry) ? entry : null;
}

/** Put the context's text where the converter put the unconditional text `plain`. */
function swapText(holder: Schema, key: string, plain: string, resolved: string, optional: boolean): void {
  const current: Json = has(holder, key) ? holder[key] : null;
  if (current !== null && current !== plain) {
    const tail = [...current].slice(pyLen(extrasLead(plain))).join("");
    holder[key] = extrasLead(resolved) + tail;
  } else if (resolved || !optional) {
    holder[key] = resolved;
    if (current === null) {
      const reordered = ordered(holder);
      for (const k of Object.keys(holder)) delete holder[k];
      for (const [k, v] of Object.entries(reordered)) put(holder, k, v);
    }
  } else {
    delete holder[key];
  }
}

/** A variant as runtimeEntry reads it (run-time tools from dynamic_tools/subagents). */
export type RuntimeVariant = Schema;

/**
 * Convert a run-time tool (subagent or MCP variant) exactly as static ones are converted.
 *
 * Returns null for a tool without a description. Throws DialectError for a tool the dialect
 * cannot take; for gemini, a schema its subset refuses or bends goes out as full JSON Schema
 * under `parametersJsonSchema`.
 */
export function runtimeEntry(dialect: string, variant: RuntimeVariant, text: TextOf): Schema | null {
  const description = text(variant["description"]);
  if (!description) return null;
  let schema: Json = has(variant, "input_schema") ? variant["input_schema"] : null;
  if (schema === null) {
    schema = parametersSchema(
      (variant["parameters"] as Schema[]).map((p) => ({
        name: p["name"],
        required: p["required"],
        schema: p["schema"],
        instruction: text(p["instruction"]),
      })),
    );
  } else if (nestingDepth(schema) > MAX_NESTING) {
    throw new DialectError([], `input schema nests deeper than ${MAX_NESTING} levels`);
  }
  const rec = FORMATS.get(dialect)!;
  // Strict is asked of every format; those without a strict mode take the tool without it.
  const strict = Boolean(variant["strict"]) && rec.strict !== null;
  const notices: unknown[] = [];
  let entry: Schema | null = null;
  try {
    entry = toolEntry(dialect, variant["name"], description, schema, { strict, notices });
  } catch (exc) {
    if (!(exc instanceof DialectError)) throw exc;
    const named = exc.path.length === 1 && (exc.path[0] === "name" || exc.path[0] === "description");
    if (rec.jsonSchemaKey === null || named) throw exc;
    notices.push(exc);
  }
  if (rec.jsonSchemaKey !== null && notices.length > 0) {
    // The format's schema subset refused or bent the schema: send full JSON Schema instead.
    entry = jsonSchemaEntry(dialect, variant["name"], description, schema);
  }
  try {
    pyJsonDumps(entry);
  } catch (exc) {
    throw new DialectError([], `the converted tool is not valid JSON: ${(exc as Error).message}`);
  }
  if (containsNonFinite(entry)) {
    throw new DialectError([], "the converted tool is not valid JSON: Out of range float values are not JSON compliant");
  }
  return entry;
}

function containsNonFinite(value: Json): boolean {
  const stack: Json[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === "number" && !Number.isFinite(item)) return true;
    if (Array.isArray(item)) stack.push(...item);
    else if (isDict(item)) stack.push(...Object.values(item));
  }
  return false;
}

/** A tool entry whose parameters are full JSON Schema under the record's `jsonSchemaKey`. */
function jsonSchemaEntry(dialect: string, name: Json, description: string, schema: Json): Schema {
  const rec = FORMATS.get(dialect)!;
  if (rec.jsonSchemaKey === null) throw new PyError("ValueError", `${dialect} has no full JSON Schema key`);
  toolEntry(dialect, name, description, { type: "object", properties: {} });
  const label = `${dialect} ${rec.jsonSchemaKey}`;
  const converted = convertWith(schema, rec, JSON_SCHEMA, label).schema;
  const entry = layOut(
    rec.envelope,
    new Map<Slot, Json>([
      [NAME, name],
      [DESCRIPTION, description],
      [PARAMETERS, converted],
      [STRICT, false],
    ]),
  );
  const path = pathTo(rec, PARAMETERS);
  const key = path[path.length - 1];
  const holder: Schema = at(entry, path.slice(0, -1));
  const renamed: [string, Json][] = Object.entries(holder).map(([k, v]) => [k === key ? rec.jsonSchemaKey! : k, v]);
  for (const k of Object.keys(holder)) delete holder[k];
  for (const [k, v] of renamed) put(holder, k, v);
  return entry;
}
