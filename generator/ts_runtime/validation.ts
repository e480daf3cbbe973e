/**
 * Checking a tool call's arguments against the schema that was sent, before its handler runs
 * (mirrors validation.py: the same keywords, refusals, coercion rules and problem texts).
 *
 * `compileSchema` turns a JSON Schema into closures once (validation_compile.ts);
 * `argumentsChecker` wraps a tool's parameter schema and gives back `[typed arguments,
 * problems]`, every problem named by its place (`days`, `items[2].name`). A schema the validator
 * cannot enforce throws `SchemaRefused` listing every refused place; `schemaRefusals` gives the
 * list without throwing. Dialects: `$schema` selects 2020-12 (the default), 2019-09 or draft 7;
 * `dialect: "gemini"` reads Gemini's Schema subset with OpenAPI semantics (objects are open,
 * `nullable: true` lets null through the node). Numbers may be `bigint` (from a lossless
 * reader); they are integers, compared exactly. docs/validation.md lists every keyword.
 *
 * Text-path coercion (`coerce`, for the top-level values the XML reader gives as strings), when
 * the declared types do not include "string": integer (optional sign and digits), number (a
 * JSON-style number, finite), boolean (`true`/`false` in any letter case), array / object (JSON
 * text of that type, nesting at most MAX_NESTING); anything else stays a string.
 */

import { isDict, put } from "./pyspell.js";
import { placeText, type Problem } from "./validation_scope.js";
import { DIALECTS, Refusal, SchemaRefused, compileRoot, type Retrieve } from "./validation_compile.js";

export { coerceText } from "./validation_scope.js";
export { DIALECTS, Refusal, SchemaRefused, type Retrieve };

/** A compiled schema: `check(value, path, problems, coerce)` gives the (coerced) value. */
export type Check = (value: unknown, path: string, problems: string[], coerce: boolean) => unknown;

/** A tool's argument check: `(params, coerce) => [typed arguments, problems]`. */
export type ArgumentsChecker = (
  params: Readonly<Record<string, unknown>>,
  coerce: boolean,
) => [Record<string, unknown>, string[]];

/** Options of the compiling functions: the dialect (default 2020-12) and a `retrieve` callback. */
export interface SchemaOptions {
  readonly dialect?: string;
  readonly retrieve?: Retrieve | null;
}

const TOO_DEEP = "nested too deeply to check";

function text(problem: Problem, path: string): string {
  return `${placeText(problem, path) || "arguments"}: ${problem[0]}`;
}

function compiled(schema: unknown, options: SchemaOptions): ReturnType<typeof compileRoot> {
  return compileRoot(schema, options.dialect ?? "2020-12", options.retrieve ?? null);
}

/** Every place of `schema` the validator cannot enforce (empty: it can), never throwing. */
export function schemaRefusals(schema: unknown, options: SchemaOptions = {}): Refusal[] {
  return compiled(schema, options)[1];
}

/** The check for a schema; throws SchemaRefused (listing every place) when it cannot be enforced. */
export function compileSchema(schema: unknown, options: SchemaOptions = {}): Check {
  const [root, refusals] = compiled(schema, options);
  if (refusals.length > 0) throw new SchemaRefused(refusals);
  const run = root.run;
  return (value, path, problems, coerce) => {
    const found: Problem[] = [];
    try {
      value = run(value, found, coerce);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error; // the stack ran out: values nested too deeply
      found.push([TOO_DEEP]);
    }
    for (const p of found) problems.push(text(p, path));
    return value;
  };
}

/**
 * A tool's argument check: `(params, coerce) => [typed arguments, problems]`. Throws
 * SchemaRefused when the schema cannot be enforced. `null` for a parameter the schema does not
 * require is removed first: strict formats make optional parameters nullable and the model sends
 * `null` for one it leaves out.
 */
export function argumentsChecker(schema: Readonly<Record<string, unknown>>, options: SchemaOptions = {}): ArgumentsChecker {
  const [root, refusals] = compiled(schema, options);
  if (refusals.length > 0) throw new SchemaRefused(refusals);
  const run = root.run;
  const raw = isDict(schema) ? schema["required"] : undefined;
  const required = new Set((Array.isArray(raw) ? raw : []).filter((r) => typeof r === "string"));
  return (params, coerce) => {
    const found: Problem[] = [];
    const cleaned: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(params)) {
      if ((value !== null && value !== undefined) || required.has(key)) put(cleaned, key, value);
    }
    let value: unknown = cleaned;
    try {
      value = run(cleaned, found, coerce);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      found.push([TOO_DEEP]);
    }
    return [isDict(value) ? value : cleaned, found.map((p) => text(p, ""))];
  };
}
