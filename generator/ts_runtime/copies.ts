/**
 * Fresh copies of the catalog's JSON-like data, for callers who may change what they get;
 * mirrors runtime/copies.py.
 */

import { type Json, type Schema } from "./schema_common.js";
import { put, TooLong } from "./pyspell.js";

/** Deep copy of JSON-like data: new objects and arrays, scalars shared (the TOO_LONG marker too). */
export function fastCopy<T = Json>(value: T): T {
  if (typeof value !== "object" || value === null || value instanceof TooLong) return value;
  if (Array.isArray(value)) {
    const copied = new Array(value.length);
    for (let i = 0; i < value.length; i++) copied[i] = fastCopy(value[i]);
    return copied as T;
  }
  const out: Schema = {};
  // for-in is the fastest walk of own keys here: JSON objects inherit no enumerable keys.
  for (const k in value as Schema) {
    if (k === "__proto__") put(out, k, fastCopy((value as Schema)[k]));
    else out[k] = fastCopy((value as Schema)[k]);
  }
  return out as T;
}

/** A function returning a fresh copy of JSON-like `value` each time it is called. */
export function copier<T = Json>(value: T): () => T {
  const kept = fastCopy(value);
  return () => fastCopy(kept);
}
