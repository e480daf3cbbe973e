/**
 * Fresh copies of the catalog's JSON-like data, for callers who may change what they get;
 * mirrors runtime/copies.py.
 */

import { put, type Json, type Schema } from "./schema_common.js";

/** Deep copy of JSON-like data: new objects and arrays, scalars shared. */
export function fastCopy<T = Json>(value: T): T {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map((v) => fastCopy(v)) as T;
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) {
    return value; // a marker object (TooLong), kept as it is
  }
  const out: Schema = {};
  for (const [k, v] of Object.entries(value as Schema)) put(out, k, fastCopy(v));
  return out as T;
}

/** A function returning a fresh copy of JSON-like `value` each time it is called. */
export function copier<T = Json>(value: T): () => T {
  const kept = fastCopy(value);
  return () => fastCopy(kept);
}
