/**
 * The run-time context's behaviour; the generated context.ts declares only its fields.
 *
 * Mirrors generator/runtime/context.py: `contextFromObject` refuses unknown keys (suggesting the
 * closest declared field), values of the wrong type, integers outside JavaScript's safe range,
 * NaN and infinite numbers, and text with a lone surrogate, reporting every problem at once with
 * the same messages as Python's `Context.from_mapping`.
 */

/** The largest integer magnitude a context holds (Number.MAX_SAFE_INTEGER). */
export const MAX_SAFE_INTEGER = 2 ** 53 - 1;

/** A field's kind, as declared in toolgen.yaml. */
export type FieldKind = "string" | "boolean" | "integer" | "number" | "string_list";
/** Kind and nullability per field, in declared order. */
export type FieldTypes = { readonly [field: string]: readonly [FieldKind, boolean] };

/** A context object had unknown keys, values of the wrong type, or values out of range. */
export class ContextError extends Error {
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super("invalid context: " + problems.join("; "));
    this.name = "ContextError";
    this.problems = problems;
  }
}

/** A context from JSON-like data, completed with `defaults`; throws ContextError. */
export function contextFromObject<C extends object>(fieldTypes: FieldTypes, defaults: C, data: unknown): C {
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw new ContextError([`expected a JSON object, got ${pythonTypeName(data)}`]);
  }
  const problems: string[] = [];
  const values: { [field: string]: unknown } = { ...(defaults as { readonly [field: string]: unknown }) };
  for (const [key, value] of Object.entries(data)) {
    const spec = Object.hasOwn(fieldTypes, key) ? fieldTypes[key] : undefined;
    if (spec === undefined) {
      problems.push(`unknown key ${pyRepr(key)}${closestHint(key, Object.keys(fieldTypes))}`);
      continue;
    }
    const [kind, nullable] = spec;
    let reason: string;
    if (value === null && nullable) {
      values[key] = null;
    } else if (!fits(value, kind)) {
      problems.push(`${key}: expected ${kind}${nullable ? " or null" : ""}, got ${describe(value)}`);
    } else if ((reason = outOfRange(value)) !== "") {
      problems.push(`${key}: ${reason}`);
    } else {
      values[key] = Array.isArray(value) ? Object.freeze([...value]) : value;
    }
  }
  if (problems.length > 0) {
    throw new ContextError(problems);
  }
  const context = Object.freeze(values);
  CHECKED.add(context);
  return context as C;
}

/** Contexts made by contextFromObject: passed through by asContext without a second check. */
const CHECKED = new WeakSet<object>();

/** A checked context as is; null/undefined as the defaults; anything else checked by contextFromObject. */
export function asContext<C extends object>(fieldTypes: FieldTypes, defaults: C, value: unknown): C {
  if (typeof value === "object" && value !== null && CHECKED.has(value)) return value as C;
  return contextFromObject(fieldTypes, defaults, value ?? {});
}

function fits(value: unknown, kind: FieldKind): boolean {
  switch (kind) {
    case "string":
      return typeof value === "string";
    case "boolean":
      return typeof value === "boolean";
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "number":
      return typeof value === "number";
    case "string_list":
      return Array.isArray(value) && value.every((item) => typeof item === "string");
  }
}

/** Why a well-typed value cannot be used ("" when it can). */
function outOfRange(value: unknown): string {
  if (typeof value === "number") {
    if (Number.isNaN(value) || !Number.isFinite(value)) {
      return `${Number.isNaN(value) ? "nan" : value > 0 ? "inf" : "-inf"} is not a finite number`;
    }
    if (Number.isInteger(value) && Math.abs(value) > MAX_SAFE_INTEGER) {
      return `integer out of range (at most ${MAX_SAFE_INTEGER} either side of 0)`;
    }
  }
  if (hasLoneSurrogate(value)) {
    return "text holds a lone surrogate (U+D800..U+DFFF), which UTF-8 cannot encode";
  }
  return "";
}

function hasLoneSurrogate(value: unknown): boolean {
  if (typeof value === "string") {
    return /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(value);
  }
  return Array.isArray(value) && value.some(hasLoneSurrogate);
}

/** A value's JSON type name, as Python's context errors name it. */
function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  switch (typeof value) {
    case "boolean":
      return "boolean";
    case "number":
      return Number.isInteger(value) ? "integer" : "number";
    case "string":
      return "string";
    case "object":
      return "object";
    default:
      return typeof value;
  }
}

/** What Python's context errors call a non-object value (its Python type name, as JSON decodes it). */
function pythonTypeName(value: unknown): string {
  if (value === null || value === undefined) return "NoneType";
  if (Array.isArray(value)) return "list";
  if (typeof value === "string") return "str";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  return typeof value;
}

/** The hint " (did you mean 'provider_id'?)" for a mistyped key, or "". */
function closestHint(key: string, known: readonly string[]): string {
  const close = closestName(key, known);
  return close === null ? "" : ` (did you mean ${pyRepr(close)}?)`;
}

/** The known name a mistyped `name` most likely meant: one it starts (`provider` -> `provider_id`),
 * else the nearest by spelling (Python's difflib.get_close_matches, cutoff 0.6); null when none. */
export function closestName(name: string, known: readonly string[]): string | null {
  const prefixed = known.filter((candidate) => candidate.startsWith(name + "_"));
  if (prefixed.length > 0) return prefixed[0] ?? null;
  let best: [number, string] | null = null;
  for (const candidate of known) {
    const score = similarity(candidate, name);
    if (score === null) continue;
    if (best === null || score > best[0] || (score === best[0] && candidate > best[1])) best = [score, candidate];
  }
  return best === null ? null : best[1];
}

/** difflib's ratio of `a` and `b` (SequenceMatcher(None, a, b)) when it reaches 0.6, else null;
 * with the same quick rejections, so the same candidates pass. Characters are code points. */
function similarity(aText: string, bText: string): number | null {
  const a = Array.from(aText);
  const b = Array.from(bText);
  const total = a.length + b.length;
  const ratio = (matches: number): number => (total ? (2.0 * matches) / total : 1.0);
  const cutoff = 0.6;
  if (ratio(Math.min(a.length, b.length)) < cutoff) return null;
  const avail = new Map<string, number>();
  for (const ch of b) avail.set(ch, (avail.get(ch) ?? 0) + 1);
  let common = 0;
  for (const ch of a) {
    const left = avail.get(ch) ?? 0;
    if (left > 0) common += 1;
    avail.set(ch, left - 1);
  }
  if (ratio(common) < cutoff) return null;
  const score = ratio(matchingCharacters(a, b));
  return score >= cutoff ? score : null;
}

/** The total size of difflib's matching blocks of `a` and `b` (autojunk on, no junk function). */
function matchingCharacters(a: readonly string[], b: readonly string[]): number {
  const b2j = new Map<string, number[]>();
  b.forEach((ch, j) => {
    const list = b2j.get(ch);
    if (list === undefined) b2j.set(ch, [j]);
    else list.push(j);
  });
  if (b.length >= 200) {
    const popular = Math.floor(b.length / 100) + 1;
    for (const [ch, list] of [...b2j]) if (list.length > popular) b2j.delete(ch);
  }
  const longest = (alo: number, ahi: number, blo: number, bhi: number): [number, number, number] => {
    let [bestI, bestJ, bestSize] = [alo, blo, 0];
    let j2len = new Map<number, number>();
    for (let i = alo; i < ahi; i++) {
      const next = new Map<number, number>();
      for (const j of b2j.get(a[i] ?? "") ?? []) {
        if (j < blo) continue;
        if (j >= bhi) break;
        const k = (j2len.get(j - 1) ?? 0) + 1;
        next.set(j, k);
        if (k > bestSize) [bestI, bestJ, bestSize] = [i - k + 1, j - k + 1, k];
      }
      j2len = next;
    }
    while (bestI > alo && bestJ > blo && a[bestI - 1] === b[bestJ - 1]) [bestI, bestJ, bestSize] = [bestI - 1, bestJ - 1, bestSize + 1];
    while (bestI + bestSize < ahi && bestJ + bestSize < bhi && a[bestI + bestSize] === b[bestJ + bestSize]) bestSize += 1;
    return [bestI, bestJ, bestSize];
  };
  let matched = 0;
  const queue: [number, number, number, number][] = [[0, a.length, 0, b.length]];
  while (queue.length > 0) {
    const [alo, ahi, blo, bhi] = queue.pop() as [number, number, number, number];
    const [i, j, k] = longest(alo, ahi, blo, bhi);
    if (k === 0) continue;
    matched += k;
    if (alo < i && blo < j) queue.push([alo, i, blo, j]);
    if (i + k < ahi && j + k < bhi) queue.push([i + k, ahi, j + k, bhi]);
  }
  return matched;
}

/** Python's repr() of a string, as the Python runtime's messages show keys. */
export function pyRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === "\\" || ch === quote) out += "\\" + ch;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (code < 0x20 || code === 0x7f) out += "\\x" + code.toString(16).padStart(2, "0");
    else out += ch;
  }
  return out + quote;
}
