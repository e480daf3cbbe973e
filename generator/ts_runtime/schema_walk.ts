/**
 * The walker every dialect shares: normalization and the policy-driven emitter; mirrors
 * runtime/schema_walk.py. The format's CUSTOM keywords go to its hooks (schema_json,
 * schema_gemini).
 */

import { fastCopy } from "./copies.js";
import { CUSTOM, DESCRIBE, KEEP, RENAME, type FormatRecord, type SchemaPolicy } from "./formats.js";
import { DEF_CONTAINERS, DialectError, JSON_TYPES, METADATA, SCHEMA_LIST, SCHEMA_MAP, SCHEMA_ONE, extraSentence, ordered, render, withExtras, type Json, type Notice, type Origins, type Path, type Schema } from "./schema_common.js";
import { RefResolver } from "./schema_refs.js";
import { has, isDict, put, pyRepr } from "./pyspell.js";

/** One schema node being emitted: the normalized input, where it is, and the output so far. */
export interface NodeWork {
  n: Schema;
  readonly at: Path;
  readonly origins: Origins;
  readonly isRoot: boolean;
  readonly out: Schema;
  /** Sentences for keywords moved into the description. */
  readonly extras: string[];
  /** Whatever the policy's hooks computed for this node in `prepare`. */
  state: Json;
}

/** The code behind one policy's CUSTOM keywords and the per-node steps around the loop. */
export class Hooks {
  prepare(_w: Walker, _node: NodeWork): void {}

  keyword(w: Walker, node: NodeWork, key: string, _value: Json): void {
    w.refuse(node, key);
  }

  complete(_w: Walker, node: NodeWork): void {
    if (node.extras.length > 0) {
      node.out["description"] = withExtras(node.out["description"], node.extras);
    }
  }
}

/** Walks an input schema and emits it as one format's policy says. */
export class Walker extends RefResolver {
  readonly record: FormatRecord;
  readonly policy: SchemaPolicy;
  readonly hooks: Hooks;
  readonly notices: Notice[] = [];

  constructor(root: Json, record: FormatRecord, policy: SchemaPolicy, hooks: Hooks, label?: string | null) {
    super(root, label == null ? record.name + policy.label : label);
    this.record = record;
    this.policy = policy;
    this.hooks = hooks;
  }

  /** Converts one schema. `at`: its input path; `origins`: input paths of merged keys. */
  node(schema: Json, at: Path, origins?: Origins, isRoot: boolean = false): Schema {
    if (schema === true) schema = {};
    if (!isDict(schema)) {
      throw new DialectError(
        at,
        `expected a schema object, got ${render(schema)}`,
        "a 'false' schema accepts nothing; remove the property instead",
      );
    }
    let origs: Origins;
    [schema, at, origs] = this.deref(schema, at, origins);
    if (has(schema, "$ref")) return this.recursiveRef(schema, at, origs);
    if (has(schema, "allOf") && this.policy.mergeAllOf) [schema, origs] = this.mergeAllOf(schema, at, origs);
    const n: Schema = {};
    for (const [k, v] of Object.entries(schema as Schema)) {
      if (METADATA.includes(k) || DEF_CONTAINERS.includes(k)) continue;
      put(n, k, v);
    }
    const normalized = this.normalizeCommon(n, at, origs);
    if (this.policy.oneOfAsAnyOf && has(normalized, "oneOf")) {
      if (has(normalized, "anyOf")) {
        throw new DialectError(
          this.child("oneOf", at, origs),
          `${this.dialect}: both oneOf and anyOf on one schema`,
          "combine them into one anyOf",
        );
      }
      this.notices.push({
        path: this.child("oneOf", at, origs),
        message: `${this.dialect}: oneOf emitted as anyOf (exclusivity not enforced)`,
      });
    }
    if (isRoot) this.checkRoot(normalized, at);
    return ordered(this.emit(normalized, at, origs, isRoot));
  }

  /** Dialect-independent rewrites; returns the (possibly rebuilt) node dict. */
  private normalizeCommon(n: Schema, at: Path, origins: Origins): Schema {
    for (const [key, bound] of [
      ["exclusiveMinimum", "minimum"],
      ["exclusiveMaximum", "maximum"],
    ] as const) {
      if (typeof n[key] === "boolean" && has(n, key)) {
        if (n[key] && has(n, bound)) {
          // draft-4: the bound itself is exclusive
          const rebuilt: Schema = {};
          for (const [k, v] of Object.entries(n)) {
            if (k === bound) rebuilt[key] = v;
            else if (k !== key) put(rebuilt, k, v);
          }
          n = rebuilt;
        } else if (n[key]) {
          throw new DialectError(this.child(key, at, origins), `${key}: true without ${bound}`, `give ${bound} or remove ${key}`);
        } else {
          delete n[key];
        }
      }
    }
    const t = has(n, "type") ? n["type"] : null;
    if (t !== null) {
      const types = Array.isArray(t) ? t : [t];
      for (const x of types) {
        if (!JSON_TYPES.includes(x as string)) {
          throw new DialectError(
            this.child("type", at, origins),
            `unknown type ${render(x)}`,
            "use one of " + JSON_TYPES.join(", "),
          );
        }
      }
      if (Array.isArray(t)) {
        if (t.length === 0) throw new DialectError(this.child("type", at, origins), "empty type list");
        if (t.length === 1) n["type"] = t[0];
      }
    }
    if (has(n, "nullable") && typeof n["nullable"] !== "boolean") {
      throw new DialectError(this.child("nullable", at, origins), "nullable must be a boolean");
    }
    return n;
  }

  private checkRoot(n: Schema, at: Path): void {
    const t = has(n, "type") ? n["type"] : null;
    const union = ["anyOf", "oneOf"].some((k) => has(n, k));
    if (t === null && has(n, "properties") && !["anyOf", "oneOf", "allOf"].some((k) => has(n, k))) return;
    if (t !== "object" || union || n["nullable"] === true) {
      throw new DialectError(
        at,
        `${this.dialect}: tool parameters must be one object schema ` +
          `(got ${union ? "a union" : "type " + render(t)})`,
        "wrap the value in an object property, or split a union into one tool per branch",
      );
    }
  }

  recursiveRef(schema: Schema, at: Path, origins: Origins): Schema {
    const target = this.target(schema["$ref"], at);
    if (!this.policy.recursiveRefs) {
      throw new DialectError(
        [...at, "$ref"],
        `${this.dialect}: recursive $ref ${pyRepr(schema["$ref"])} cannot be expressed`,
        "bound the recursion (unroll it a fixed number of levels) or take the " +
          "recursive part as a JSON string",
      );
    }
    const ref = target.length === 0 ? "#" : "#/$defs/" + this.defName(target);
    const out: Schema = { $ref: ref };
    for (const [k, v] of Object.entries(schema)) {
      if (k === "$ref" || METADATA.includes(k)) continue;
      if (k === "description" || k === "title") {
        out[k] = v;
      } else {
        throw new DialectError(
          this.child(k, at, origins),
          `${this.dialect}: keyword ${pyRepr(k)} next to a recursive $ref`,
          "move it into the referenced definition",
        );
      }
    }
    return out;
  }

  /** One normalized node in the format: each keyword as the policy's table says. */
  emit(n: Schema, at: Path, origins: Origins, isRoot: boolean): Schema {
    const node: NodeWork = { n, at, origins, isRoot, out: {}, extras: [], state: null };
    this.hooks.prepare(this, node);
    const table = this.policy.keywords;
    const fallback = this.policy.default;
    for (const [k, v] of Object.entries(node.n)) {
      const action = table.get(k) ?? fallback;
      if (action === KEEP) put(node.out, k, this.children(k, v, at, origins));
      else if (action === DESCRIBE) node.extras.push(extraSentence(k, v));
      else if (action === CUSTOM) this.hooks.keyword(this, node, k, v);
      else if (action.startsWith(RENAME)) put(node.out, action.slice(RENAME.length), this.children(k, v, at, origins));
      else this.refuse(node, k);
    }
    this.hooks.complete(this, node);
    return node.out;
  }

  /** Refuses `key` with the policy's wording. */
  refuse(node: NodeWork, key: string): never {
    throw new DialectError(
      this.child(key, node.at, node.origins),
      `${this.dialect}: keyword ${pyRepr(key)} ${this.policy.refuseMessage}`,
      this.policy.refuseHint,
    );
  }

  /** Adds the `$defs` of recursive targets to the root output. */
  finish(rootOut: Schema): Schema {
    if (this.defOrder.length === 0) return rootOut;
    const defs: Schema = {};
    // node() may append targets it meets on the way; the array iterator reaches them too
    for (const target of this.defOrder) {
      put(defs, this.defName(target), this.node(this.get(target), target));
    }
    const out: Schema = { ...rootOut };
    out["$defs"] = defs;
    return ordered(out);
  }

  /** Converts the sub-schemas under `key`. */
  children(key: string, value: Json, at: Path, origins: Origins): Json {
    const path = this.child(key, at, origins);
    if (SCHEMA_ONE.includes(key)) {
      if (typeof value === "boolean") return value;
      return this.node(value, path);
    }
    if (SCHEMA_LIST.includes(key)) {
      if (!Array.isArray(value)) throw new DialectError(path, `${key} must be a list of schemas`);
      return value.map((v, i) => this.node(v, [...path, i]));
    }
    if (SCHEMA_MAP.includes(key)) {
      if (!isDict(value)) throw new DialectError(path, `${key} must map names to schemas`);
      const out: Schema = {};
      for (const [name, v] of Object.entries(value)) put(out, name, this.node(v, [...path, name]));
      return out;
    }
    return fastCopy(value);
  }
}

