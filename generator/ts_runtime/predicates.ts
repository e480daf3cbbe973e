/**
 * Evaluate declarative predicates (context requirements and family selection rules).
 *
 * Mirrors generator/runtime/predicates.py: predicates are plain data (see docs/spec-language.md).
 * Normalized ids are trimmed as String.prototype.trim does and lower-cased; truthiness is
 * JavaScript's, with empty lists falsy too; a provider test with no provider fails the whole matcher.
 */

import type { Json, JsonObject, Predicate, RuleData, SelectionData } from "./data.js";
import { pyFloat, pyRepr } from "./pyspell.js";

/** The code points String.prototype.trim strips (WhiteSpace and LineTerminator). */
export const JS_WHITESPACE =
  "\u0009\u000a\u000b\u000c\u000d\u0020\u00a0\u1680\u2000\u2001\u2002\u2003\u2004" +
  "\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff";

/** A predicate could not be evaluated (e.g. a provider test with no provider). */
export class MatcherError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MatcherError";
  }
}

/** Anything a predicate can read fields from: a Context or a plain object. */
export type FieldSource = { readonly [field: string]: unknown };

/** ECMAScript trim (the same code points as JS_WHITESPACE), then lower case. */
export function normalize(value: string): string {
  return value.trim().toLowerCase();
}

/** JavaScript truthiness; empty lists are falsy too (the documented deviation). */
export function truthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false) return false;
  if (typeof value === "number") return value !== 0 && !Number.isNaN(value);
  if (typeof value === "string" || Array.isArray(value)) return value.length > 0;
  return true;
}

/** Equality as the Python runtime's `_same`: booleans equal only booleans, lists element-wise. */
export function same(a: unknown, b: unknown): boolean {
  if (typeof a === "boolean" || typeof b === "boolean") return a === b;
  if (typeof a === "number" && typeof b === "number") return a === b;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, index) => jsonEqual(item, b[index]));
  }
  if (a === null || b === null || typeof a !== typeof b) return a === b;
  return jsonEqual(a, b);
}

/** Python `==` on JSON-like values (True == 1, as in Python, but only below containers). */
function jsonEqual(a: unknown, b: unknown): boolean {
  const numeric = (x: unknown): boolean => typeof x === "boolean" || typeof x === "number";
  if (numeric(a) && numeric(b)) return Number(a) === Number(b);
  if (numeric(a) || numeric(b)) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  }
  if (typeof a === "object" && a !== null && typeof b === "object" && b !== null) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return (
      ka.length === kb.length &&
      ka.every(
        (k) => Object.hasOwn(b, k) && jsonEqual((a as FieldSource)[k], (b as FieldSource)[k]),
      )
    );
  }
  return a === b;
}

/** A context field (null when absent). */
export function fieldValue(context: unknown, name: string): unknown {
  if (typeof context !== "object" || context === null) return null;
  const value = Object.hasOwn(context, name) ? (context as FieldSource)[name] : undefined;
  return value === undefined ? null : value;
}

/** The named sets and model predicates that selection rules refer to. */
export class Selection {
  readonly providerSets: ReadonlyMap<string, ReadonlySet<string>>;
  readonly modelSets: ReadonlyMap<string, ReadonlySet<string>>;
  readonly modelPredicates: { readonly [name: string]: JsonObject };
  private readonly regexes = new Map<string, RegExp>();

  constructor(data: SelectionData) {
    this.providerSets = new Map(Object.entries(data.provider_sets).map(([k, v]) => [k, new Set(v)]));
    this.modelSets = new Map(Object.entries(data.model_sets).map(([k, v]) => [k, new Set(v)]));
    this.modelPredicates = data.model_predicates;
  }

  modelMatches(name: string, modelId: string): boolean {
    const node = Object.hasOwn(this.modelPredicates, name) ? this.modelPredicates[name] : undefined;
    if (node === undefined) throw new MatcherError(`unknown model predicate ${name}`);
    return this.model(node, modelId);
  }

  private model(node: JsonObject, mid: string): boolean {
    for (const [key, arg] of Object.entries(node)) {
      let ok: boolean;
      const list = (Array.isArray(arg) ? arg : []) as readonly Json[];
      if (key === "any_contains") ok = list.some((s) => mid.includes(String(s)));
      else if (key === "all_contains") ok = list.every((s) => mid.includes(String(s)));
      else if (key === "none_contains") ok = !list.some((s) => mid.includes(String(s)));
      else if (key === "equals_any") ok = list.includes(mid);
      else if (key === "in_set") ok = this.modelSets.get(String(arg))?.has(mid) ?? false;
      else if (key === "model_matches") ok = this.modelMatches(String(arg), mid);
      else if (key === "any") ok = list.some((child) => this.model(child as JsonObject, mid));
      else if (key === "all") ok = list.every((child) => this.model(child as JsonObject, mid));
      else if (key === "regex_first_match") ok = this.regexFirstMatch(arg as JsonObject, mid);
      else throw new MatcherError(`unknown model predicate key '${key}'`);
      if (!ok) return false;
    }
    return true;
  }

  private regexFirstMatch(arg: JsonObject, mid: string): boolean {
    const source = String(arg["pattern"]);
    let pattern = this.regexes.get(source);
    if (pattern === undefined) {
      pattern = new RegExp(source);
      this.regexes.set(source, pattern);
    }
    const found = pattern.exec(mid);
    const group = found?.[Number(arg["group"])];
    if (group === undefined) return false;
    const value = pyFloat(group);
    return value !== null && value >= Number(arg["gte"]);
  }
}

/** Evaluate one predicate; may throw MatcherError (selection treats that as "no match"). */
export function evaluate(pred: Predicate, context: unknown, data: Selection | null = null): boolean {
  if (Object.hasOwn(pred, "all")) return (pred["all"] as readonly Predicate[]).every((c) => evaluate(c, context, data));
  if (Object.hasOwn(pred, "any")) return (pred["any"] as readonly Predicate[]).some((c) => evaluate(c, context, data));
  if (Object.hasOwn(pred, "not")) return !evaluate(pred["not"] as Predicate, context, data);
  if (Object.hasOwn(pred, "field")) {
    const value = fieldValue(context, String(pred["field"]));
    if (Object.hasOwn(pred, "truthy")) return truthy(value) === pred["truthy"];
    if (Object.hasOwn(pred, "equals")) return same(value, pred["equals"]);
    if (Object.hasOwn(pred, "in")) return (pred["in"] as readonly Json[]).some((option) => same(value, option));
    const items: readonly unknown[] = Array.isArray(value) ? value : [value];
    if (Object.hasOwn(pred, "contains")) {
      const needle = String(pred["contains"]).toLowerCase();
      return items.some((v) => typeof v === "string" && v.toLowerCase().includes(needle));
    }
    if (Object.hasOwn(pred, "ends_with")) {
      const suffix = String(pred["ends_with"]);
      return items.some((v) => typeof v === "string" && v.endsWith(suffix));
    }
    throw new MatcherError(`field predicate without a comparison: ${pyRepr(pred, true)}`);
  }
  if (data === null) throw new MatcherError("selection predicates need selection data");
  if (Object.hasOwn(pred, "provider_in")) {
    const provider = fieldValue(context, "provider_id");
    if (typeof provider !== "string") throw new MatcherError("provider_in needs a provider id");
    const set = data.providerSets.get(String(pred["provider_in"]));
    if (set === undefined) throw new MatcherError(`unknown provider set ${String(pred["provider_in"])}`);
    return set.has(normalize(provider));
  }
  if (Object.hasOwn(pred, "model_matches")) {
    const model = fieldValue(context, "model_id");
    if (typeof model !== "string") throw new MatcherError("model_matches needs a model id");
    return data.modelMatches(String(pred["model_matches"]), normalize(model));
  }
  if (Object.hasOwn(pred, "model_raw_contains")) {
    const model = fieldValue(context, "model_id");
    if (typeof model !== "string") throw new MatcherError("model_raw_contains needs a model id");
    return model.includes(String(pred["model_raw_contains"]));
  }
  throw new MatcherError(`unknown predicate ${pyRepr(pred, true)}`);
}

/** The first family whose rule holds, trying rules in order; `fallback` otherwise.
 *
 * A rule that throws MatcherError counts as not matching, and the next one is tried. */
export function select(
  rules: readonly RuleData[],
  context: unknown,
  data: Selection,
  fallback: string,
  precondition: Predicate | null = null,
): string {
  if (precondition !== null && !holdsQuietly(precondition, context, data)) return fallback;
  for (const [family, rule] of rules) {
    if (holdsQuietly(rule, context, data)) return family;
  }
  return fallback;
}

/** Whether `pred` holds; false when it cannot be evaluated (MatcherError). */
export function holdsQuietly(pred: Predicate, context: unknown, data: Selection | null): boolean {
  try {
    return evaluate(pred, context, data);
  } catch (error) {
    if (error instanceof MatcherError) return false;
    throw error;
  }
}
