/**
 * The parameters schema a request sent for one tool, and the check compiled from it
 * (mirrors sent_schema.py).
 *
 * A native request sends each tool's parameters in its format's own schema (OpenAI's closed root
 * and strict mode's nullable required members, Gemini's UPPERCASE subset or its
 * `parametersJsonSchema` fallback, keywords a format drops or describes): the arguments of a call
 * are checked against exactly that schema, read back from the tool entry that went out
 * (`sentParameters`), by the validator in the slot's dialect (Gemini's subset:
 * `compileSchema(schema, { dialect: "gemini" })`). Checks are compiled once per process for each sent schema (`sentChecker`).
 *
 * A `null` for a parameter the tool's own schema (the spec's, an MCP server's) does not require
 * is removed after the check, before the handler sees it: OpenAI strict sends optional parameters
 * as required and nullable, and the model fills them with `null`. Where the schema sent does not
 * allow that null (a format without strict mode), the problem ends with NULL_HINT: the model is
 * told to leave the parameter out instead.
 */

import { FORMATS, PARAMETERS, pathTo } from "./formats.js";
import { has, isDict, put } from "./pyspell.js";
import type { Json, Schema } from "./schema_common.js";
import { compileSchema, type ArgumentsChecker } from "./validation.js";

/** The dialect of standard JSON Schema (draft 2020-12 and draft 7 keywords). */
export const JSON_DIALECT = "json";
/** The dialect of Gemini's `Schema`: an OpenAPI subset with UPPERCASE type names. */
export const GEMINI_DIALECT = "gemini";
/** Compiled checks kept per process; the table is emptied when it would pass this. */
export const CACHE_LIMIT = 1024;

const CHECKERS = new Map<string, ArgumentsChecker>();
// Checks cached per object (a catalog variant) and key, for schemas the object fixes.
const ANCHORED = new WeakMap<object, Map<string, ArgumentsChecker>>();
const EMPTY: Schema = {};

/**
 * `[schema, dialect]`: the parameters `entry`, a tool of format `formatName`, sent. The record's
 * PARAMETERS slot in the format's dialect, else its `jsonSchemaKey` slot (full JSON Schema); an
 * entry with neither sent no schema, which accepts any arguments.
 */
export function sentParameters(formatName: string, entry: unknown): [Json, string] {
  const rec = FORMATS.get(formatName)!;
  const path = pathTo(rec, PARAMETERS);
  const key = path[path.length - 1]!;
  let holder: unknown = entry;
  for (const step of path.slice(0, -1)) holder = isDict(holder) && has(holder, step) ? holder[step] : null;
  if (!isDict(holder)) return [EMPTY, JSON_DIALECT];
  if (has(holder, key)) return [holder[key], rec.schema.hooks === GEMINI_DIALECT ? GEMINI_DIALECT : JSON_DIALECT];
  if (rec.jsonSchemaKey !== null && has(holder, rec.jsonSchemaKey)) return [holder[rec.jsonSchemaKey], JSON_DIALECT];
  return [EMPTY, JSON_DIALECT];
}

/**
 * The check of one sent schema: `(params, coerce) => [typed arguments, problems]`. `required`
 * names the parameters the tool's own schema requires: after a check without problems, a `null`
 * for any other parameter is removed. Cached per (dialect, schema text, required). A caller that
 * knows the schema is fixed by an object and a key (a catalog variant, the format and the names it
 * sent) passes them as `identity`: the cache is then keyed on those, without reading the schema.
 */
export function sentChecker(
  schema: Json,
  dialect: string,
  required: ReadonlySet<string>,
  identity: readonly [object, string] | null = null,
): ArgumentsChecker {
  if (identity !== null) {
    const known = ANCHORED.get(identity[0])?.get(identity[1]);
    if (known !== undefined) return known;
  }
  const key = JSON.stringify([dialect, schema, [...required].sort()]);
  let found = CHECKERS.get(key);
  if (found === undefined) {
    if (CHECKERS.size >= CACHE_LIMIT) CHECKERS.clear();
    found = checker(schema, dialect, required);
    CHECKERS.set(key, found);
  }
  if (identity !== null) {
    let perAnchor = ANCHORED.get(identity[0]);
    if (perAnchor === undefined) ANCHORED.set(identity[0], (perAnchor = new Map()));
    perAnchor.set(identity[1], found);
  }
  return found;
}

function checker(schema: Json, dialect: string, required: ReadonlySet<string>): ArgumentsChecker {
  const check = compileSchema(schema, { dialect: dialect === GEMINI_DIALECT ? "gemini" : "2020-12" });
  return (params) => {
    const problems: string[] = [];
    const given: Schema = {};
    for (const [k, v] of Object.entries(params)) put(given, k, v as Json);
    const value = check(given, "", problems, false);
    let typed: Schema = isDict(value) ? value : given;
    if (problems.length === 0) {
      const kept: Schema = {};
      for (const [k, v] of Object.entries(typed)) if ((v !== null && v !== undefined) || required.has(k)) put(kept, k, v);
      typed = kept;
      return [typed, problems];
    }
    return [typed, nullHints(problems, given, required)];
  };
}

/** Ends a problem of an optional parameter sent as null that the schema sent does not allow. */
export const NULL_HINT = " (leave the parameter out instead of sending null)";

/**
 * `problems` with NULL_HINT on those of optional parameters the model sent as null: formats
 * without strict mode send an optional parameter as it is, not nullable, and the model that fills
 * it with null is told to leave it out instead (a null has no parts, so every problem of that
 * parameter is at its own place).
 */
function nullHints(problems: string[], given: Schema, required: ReadonlySet<string>): string[] {
  const places = Object.entries(given)
    .filter(([k, v]) => v === null && !required.has(k))
    .map(([k]) => `${k}: `);
  if (places.length === 0) return problems;
  return problems.map((p) => (places.some((place) => p.startsWith(place)) ? p + NULL_HINT : p));
}
