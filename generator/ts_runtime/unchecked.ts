/**
 * What of a run-time tool's schema the argument check cannot enforce, taken out before it is sent
 * (mirrors unchecked.py): a `pattern` (or a `patternProperties` name) that ecma_regex does not
 * accept as an ECMA-262 pattern, and every keyword the validator lists in `schemaRefusals`.
 * dynamic_tools.ts notes them in the tool's description and reports the tool as degraded: it is
 * still offered. What cannot be taken out keyword by keyword is returned as left over: that tool
 * is left out and reported.
 */

import { compilePattern, PatternError } from "./ecma_regex.js";
import { codePointCompare, has, isDict } from "./pyspell.js";
import { DEF_CONTAINERS, SCHEMA_LIST, SCHEMA_MAP, SCHEMA_ONE, type Json, type Schema } from "./schema_common.js";
import { schemaRefusals } from "./validation.js";

const REASON = "not an ECMA-262 pattern toolgen can check";
/** Removing a keyword can uncover another refusal below it; this many rounds at most. */
const ROUNDS = 8;

function pointer(path: readonly (string | number)[]): string {
  return path.map((key) => "/" + String(key).replaceAll("~", "~0").replaceAll("/", "~1")).join("");
}

/** The schema node at a JSON pointer of `schema` (null when there is none). */
function holderAt(schema: Json, at: string): Json {
  if (at && !at.startsWith("/")) return null; // a pointer into another document
  let node: Json = schema;
  for (const part of at ? at.split("/").slice(1) : []) {
    const key = part.replaceAll("~1", "/").replaceAll("~0", "~");
    if (isDict(node)) node = has(node, key) ? node[key] : null;
    else if (Array.isArray(node) && /^[0-9]+$/.test(key) && Number(key) < node.length) node = node[Number(key)] as Json;
    else return null;
  }
  return node;
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

/**
 * Remove from `schema` (in place) what the check cannot enforce. Returns `[dropped, left]`:
 * `"<pointer>: <why>"` for each keyword taken out, and the refusals no keyword's removal could cure.
 */
export function dropUnchecked(schema: Schema): [string[], string[]] {
  const dropped: string[] = [];
  const stack: [Json, (string | number)[]][] = [[schema, []]];
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    if (!isDict(node)) continue;
    if (has(node, "pattern") && !goodPattern(node["pattern"])) {
      delete node["pattern"];
      dropped.push(`${pointer([...path, "pattern"])}: ${REASON}`);
    }
    const names = has(node, "patternProperties") ? node["patternProperties"] : null;
    if (isDict(names)) {
      for (const name of Object.keys(names).filter((n) => !goodPattern(n))) {
        delete names[name];
        dropped.push(`${pointer([...path, "patternProperties", name])}: ${REASON}`);
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
  for (let round = 0; round < ROUNDS; round++) {
    let removed = false;
    for (const refusal of schemaRefusals(schema)) {
      const holder = holderAt(schema, refusal.pointer);
      if (isDict(holder) && has(holder, refusal.keyword)) {
        delete holder[refusal.keyword];
        dropped.push(String(refusal));
        removed = true;
      }
    }
    if (!removed) break;
  }
  const left = schemaRefusals(schema).map(String);
  return [dropped.sort(codePointCompare), left];
}
