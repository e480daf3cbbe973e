/**
 * Keys and tables for what the runtime keeps per request inputs (mirrors cache.py's
 * `fingerprint`; cache.py's LRU class is a Map with `keptValue` here): the kept tool lists, MCP
 * variants, converted run-time tools (tool_lists.ts) and Offer plans (offer_plan.ts).
 */

/**
 * A key for JSON data taken from a request (an MCP server list, subagent configs, a context), as
 * cache.py's `fingerprint`: equal texts mean equal data. Strings go in with their length before
 * them, numbers end with ";" and every container is closed, so the text reads back one way only
 * (JSON.stringify would not do: it writes NaN as null). null for what is not plain JSON data (a
 * number that is not finite or is -0, undefined, a hole, a function, an object of a class,
 * nesting past MAX_FINGERPRINT_DEPTH): such a request is simply not cached.
 */
export function fingerprint(value: unknown): string | null {
  return keyText(value, 0);
}

const MAX_FINGERPRINT_DEPTH = 1000;

function keyText(value: unknown, depth: number): string | null {
  switch (typeof value) {
    case "string":
      return `${value.length}"${value}`;
    case "number":
      return Number.isFinite(value) && !Object.is(value, -0) ? `${value};` : null;
    case "boolean":
      return value ? "t" : "f";
    case "object":
      break;
    default:
      return null;
  }
  if (value === null) return "n";
  if (depth >= MAX_FINGERPRINT_DEPTH) return null;
  let text: string;
  if (Array.isArray(value)) {
    text = "[";
    for (let i = 0; i < value.length; i++) {
      const item = i in value ? keyText(value[i], depth + 1) : null;
      if (item === null) return null;
      text += item;
    }
    return text + "]";
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return null;
  text = "{";
  for (const key of Object.keys(value)) {
    const item = keyText((value as Record<string, unknown>)[key], depth + 1);
    if (item === null) return null;
    text += `${key.length}"${key}${item}`;
  }
  return text + "}";
}

/**
 * The value kept under `key` in `owner`'s table (moved to the most recently used end), else
 * `make()`, kept unless `key` is null; at most `limit` per owner, the least recently used go
 * first. `made` says whether it was made now.
 */
export function keptValue<V>(
  tables: WeakMap<object, Map<string, V>>,
  owner: object,
  key: string | null,
  make: () => V,
  limit: number,
): { value: V; made: boolean } {
  let table = tables.get(owner);
  if (table === undefined) tables.set(owner, (table = new Map()));
  const found = key === null ? undefined : table.get(key);
  if (found !== undefined) {
    table.delete(key as string);
    table.set(key as string, found);
    return { value: found, made: false };
  }
  const value = make();
  if (key !== null) {
    if (table.size >= limit) table.delete(table.keys().next().value!);
    table.set(key, value);
  }
  return { value, made: true };
}
