/**
 * `unevaluatedProperties` and `unevaluatedItems`: the annotations of neighbouring keywords
 * (mirrors validation_unevaluated.py). Only a schema object that has one of the two pays.
 */

import { isDict } from "./pyspell.js";
import { matches, passes, under, type Node, type Run, type Scope } from "./validation_scope.js";

/** unevaluatedProperties and unevaluatedItems of a schema object, null without them. */
export function unevaluated(scope: Scope): Run | null {
  const props = scope.has("unevaluatedProperties") ? scope.sub("unevaluatedProperties") : null;
  const items = scope.has("unevaluatedItems") ? scope.sub("unevaluatedItems") : null;
  if (props === null && items === null) return null;
  const node = scope.node;
  const propRun = props !== null ? props.run : null;
  const itemRun = items !== null ? items.run : null;
  const propsClosed = props !== null && props.place.schema === false;
  node.parts["unevaluatedProperties"] = props !== null;
  node.parts["unevaluatedItems"] = items !== null;
  return (value, problems) => {
    if (propRun !== null && isDict(value)) {
      const seen = evaluatedProperties(node, value, true);
      if (seen !== true) {
        for (const [key, item] of Object.entries(value)) {
          if (seen.has(key)) continue;
          if (propsClosed) {
            problems.push(["unknown parameter", key]);
          } else {
            const start = problems.length;
            propRun(item, problems, false);
            under(problems, start, key);
          }
        }
      }
    }
    if (itemRun !== null && Array.isArray(value)) {
      const done = evaluatedItems(node, value, true);
      if (done !== true) {
        value.forEach((item, index) => {
          if (done.has(index)) return;
          const start = problems.length;
          itemRun(item, problems, false);
          under(problems, start, index);
        });
      }
    }
    return value;
  };
}

/** The subschemas of `node` that were applied to `value` and passed. */
function applied(node: Node, value: unknown): Node[] {
  const parts = node.parts;
  const found: Node[] = ((parts["refs"] ?? []) as Node[]).filter((n) => passes(n.run, value));
  const pick = parts["dynamic"] as (() => Node) | undefined;
  if (pick !== undefined) {
    const chosen = pick();
    if (passes(chosen.run, value)) found.push(chosen);
  }
  for (const key of ["allOf", "anyOf", "oneOf"]) {
    for (const n of (parts[key] ?? []) as Node[]) if (passes(n.run, value)) found.push(n);
  }
  const condition = parts["if"] as Node | undefined;
  if (condition !== undefined) {
    let branch: Node | undefined;
    if (passes(condition.run, value)) {
      found.push(condition);
      branch = parts["then"];
    } else {
      branch = parts["else"];
    }
    if (branch !== undefined && passes(branch.run, value)) found.push(branch);
  }
  if (isDict(value)) {
    for (const [key, sub] of (parts["dependentSchemas"] ?? new Map()) as Map<string, Node>) {
      if (Object.prototype.hasOwnProperty.call(value, key) && passes(sub.run, value)) found.push(sub);
    }
  }
  return found;
}

/** The property names of `value` that `node` evaluated (true: all of them). */
function evaluatedProperties(node: Node, value: Record<string, unknown>, own = false): Set<string> | true {
  const parts = node.parts;
  if (parts["additional"] || (parts["unevaluatedProperties"] && !own)) return true;
  const seen = new Set<string>();
  const names = parts["properties"] as Set<string> | undefined;
  const keys = Object.keys(value);
  if (names) for (const k of keys) if (names.has(k)) seen.add(k);
  for (const search of (parts["patterns"] ?? []) as ((text: string) => boolean)[]) {
    // a name too long to match is reported where it is matched: not again here
    for (const k of keys) if (matches(search, k) !== false) seen.add(k);
  }
  for (const sub of applied(node, value)) {
    const more = evaluatedProperties(sub, value);
    if (more === true) return true;
    for (const k of more) seen.add(k);
  }
  return seen;
}

/** The indexes of `value` that `node` evaluated (true: all of them). */
function evaluatedItems(node: Node, value: unknown[], own = false): Set<number> | true {
  const parts = node.parts;
  if (parts["items"] || (parts["unevaluatedItems"] && !own)) return true;
  const seen = new Set<number>();
  for (let i = 0; i < Math.min(parts["prefix"] ?? 0, value.length); i++) seen.add(i);
  const contains = parts["contains"] as Node | undefined;
  if (contains !== undefined) value.forEach((item, i) => passes(contains.run, item) && seen.add(i));
  for (const sub of applied(node, value)) {
    const more = evaluatedItems(sub, value);
    if (more === true) return true;
    for (const i of more) seen.add(i);
  }
  return seen;
}
