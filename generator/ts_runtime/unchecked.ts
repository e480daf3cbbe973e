/**
 * What of a run-time tool's schema the argument check cannot enforce, taken out before it is sent
 * (mirrors unchecked.py): a `pattern` (or a `patternProperties` name) that ecma_regex does not
 * accept as an ECMA-262 pattern, and every keyword the validator lists in `schemaRefusals` (once
 * it has that API). dynamic_tools.ts notes them in the tool's description and reports the tool as
 * degraded: it is still offered.
 */

import { compilePattern, PatternError } from "./ecma_regex.js";
import { codePointCompare, has, isDict } from "./pyspell.js";
import { DEF_CONTAINERS, SCHEMA_LIST, SCHEMA_MAP, SCHEMA_ONE, type Json, type Schema } from "./schema_common.js";
import * as validation from "./validation.js";

const REASON = "not an ECMA-262 pattern toolgen can check";

/** An item of the validator's `schemaRefusals(schema)`: keys to the keyword's schema, and the keyword. */
interface Refusal {
  readonly path?: readonly (string | number)[];
  readonly keyword?: string;
}

// A validator without `schemaRefusals` enforces every keyword it reads.
const REFUSALS = (validation as unknown as Record<string, unknown>)["schemaRefusals"] as
  | ((schema: Json) => Iterable<Refusal>)
  | undefined;

function pointer(path: readonly (string | number)[]): string {
  return path.map((key) => `/${key}`).join("");
}

function goodPattern(source: unknown): boolean {
  if (typeof source !== "string") return true; // not a pattern at all: the check ignores it
  try {
    compilePattern(source);
  } catch (error) {
    if (error instanceof PatternError) return false;
    throw error;
  }
  return true;
}

/** Remove from `schema` (in place) what the check cannot enforce; `"<pointer> (<why>)"` each. */
export function dropUnchecked(schema: Schema): string[] {
  const dropped: string[] = [];
  const stack: [Json, (string | number)[]][] = [[schema, []]];
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    if (!isDict(node)) continue;
    if (has(node, "pattern") && !goodPattern(node["pattern"])) {
      delete node["pattern"];
      dropped.push(`${pointer([...path, "pattern"])} (${REASON})`);
    }
    const names = has(node, "patternProperties") ? node["patternProperties"] : null;
    if (isDict(names)) {
      for (const name of Object.keys(names).filter((n) => !goodPattern(n))) {
        delete names[name];
        dropped.push(`${pointer([...path, "patternProperties", name])} (${REASON})`);
      }
    }
    for (const [key, value] of Object.entries(node)) {
      if (SCHEMA_ONE.includes(key)) stack.push([value, [...path, key]]);
      else if (SCHEMA_LIST.includes(key) && Array.isArray(value)) value.forEach((v, i) => stack.push([v, [...path, key, i]]));
      else if ((SCHEMA_MAP.includes(key) || DEF_CONTAINERS.includes(key)) && isDict(value)) {
        for (const [name, v] of Object.entries(value)) stack.push([v, [...path, key, name]]);
      }
    }
  }
  if (REFUSALS !== undefined) {
    for (const refusal of [...REFUSALS(schema)]) {
      let holder: Json = schema;
      const where = [...(refusal.path ?? [])];
      for (const key of where) holder = isDict(holder) && has(holder, String(key)) ? holder[String(key)] : null;
      const keyword = refusal.keyword;
      if (keyword !== undefined && isDict(holder) && has(holder, keyword)) {
        delete holder[keyword];
        dropped.push(`${pointer([...where, keyword])} (not checked: ${String(refusal)})`);
      }
    }
  }
  return dropped.sort(codePointCompare);
}
