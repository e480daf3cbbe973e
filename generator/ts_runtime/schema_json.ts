/**
 * Hooks of the JSON-Schema policies (anthropic, bedrock-converse, OpenAI) and OpenAI strict mode;
 * mirrors runtime/schema_json.py. The keyword tables are in formats.ts.
 */

import { DialectError, extraSentence, ordered, type Json, type Schema } from "./schema_common.js";
import { fastCopy } from "./copies.js";
import { Hooks, type NodeWork, type Walker } from "./schema_walk.js";
import { has, isDict, put, pyConcat, pyIn, pyIter, pyRepr } from "./pyspell.js";

/** Standard JSON Schema stays as it is; draft-4 tuples and `nullable` are rewritten. */
export class JsonHooks extends Hooks {
  override keyword(w: Walker, node: NodeWork, key: string, value: Json): void {
    const { n, at, origins, out } = node;
    if (key === "nullable") return; // applied in complete
    if (key === "items" && Array.isArray(value)) {
      // draft-4 tuple form
      const path = w.child("items", at, origins);
      out["prefixItems"] = value.map((s, i) => w.node(s, [...path, i]));
    } else if (key === "additionalItems" && Array.isArray(n["items"])) {
      out["items"] = w.children("additionalItems", value, at, origins);
    } else if (key === "dependencies" && isDict(value)) {
      const path = w.child(key, at, origins);
      const deps: Schema = {};
      for (const [name, d] of Object.entries(value)) {
        put(deps, name, Array.isArray(d) ? fastCopy(d) : w.node(d, [...path, name]));
      }
      out[key] = deps;
    } else {
      put(out, key, w.children(key, value, at, origins));
    }
  }

  override complete(w: Walker, node: NodeWork): void {
    const out = node.out;
    if (node.n["nullable"] === true) makeNullable(out);
    if (node.isRoot) {
      if (!has(out, "type")) out["type"] = "object";
      if (!has(out, "properties")) out["properties"] = {};
      if (!has(out, "required")) out["required"] = [];
      if (w.policy.closedRoot && !has(out, "additionalProperties")) out["additionalProperties"] = false;
    }
  }
}

/** Lets `null` through a converted schema (in place). */
function makeNullable(out: Schema): void {
  const t = has(out, "type") ? out["type"] : null;
  if (t !== null) {
    const types = Array.isArray(t) ? t : [t];
    if (!pyIn("null", types)) out["type"] = [...types, "null"];
    if (has(out, "enum") && !pyIn(null, out["enum"])) out["enum"] = pyConcat(out["enum"], [null]);
    if (has(out, "const") && out["const"] !== null) {
      const value = out["const"];
      delete out["const"];
      out["enum"] = [value, null];
    }
  } else if (has(out, "anyOf")) {
    // a null branch may carry a description or title: it still lets null through
    if (!pyIter(out["anyOf"]).some((b) => isDict(b) && b["type"] === "null")) {
      out["anyOf"] = pyConcat(out["anyOf"], [{ type: "null" }]);
    }
  } else if (has(out, "enum") && !pyIn(null, out["enum"])) {
    out["enum"] = pyConcat(out["enum"], [null]);
  }
  // an untyped schema already accepts null
}

/** OpenAI strict mode (`strict: true`): the Structured-Outputs subset of JSON Schema. */
export class StrictHooks extends Hooks {
  override prepare(w: Walker, node: NodeWork): void {
    const n = node.n;
    let t = has(n, "type") ? n["type"] : null;
    if (t === null && !["anyOf", "oneOf", "enum", "const"].some((k) => has(n, k))) {
      if (has(n, "properties")) t = "object";
      else if (has(n, "items")) t = "array";
      else {
        throw new DialectError(
          node.at,
          `${w.dialect}: schema has no type`,
          "give it a 'type' (strict mode cannot express 'any value')",
        );
      }
      const rebuilt: Schema = { type: t };
      for (const [k, v] of Object.entries(n)) if (k !== "type") put(rebuilt, k, v);
      node.n = rebuilt;
    }
    node.state = Array.isArray(t) ? t : t ? [t] : [];
  }

  override keyword(w: Walker, node: NodeWork, key: string, value: Json): void {
    if (key === "nullable") return;
    if (key === "items" && Array.isArray(value)) w.refuse(node, key);
    if (key === "additionalProperties") {
      if (value !== false) {
        throw new DialectError(
          w.child(key, node.at, node.origins),
          `${w.dialect}: objects must have additionalProperties false ` +
            "(free-form maps cannot be expressed)",
          "declare the properties, take the map as a list of key/value " +
            "objects, or use strict=False",
        );
      }
      return; // re-added in complete
    }
    if (key === "format" && !pyIn(value, w.policy.formats.get("*"))) {
      node.extras.push(extraSentence(key, value));
      return;
    }
    put(node.out, key, w.children(key, value, node.at, node.origins));
  }

  override complete(w: Walker, node: NodeWork): void {
    const out = node.out;
    const types: Json[] = node.state;
    if (node.n["nullable"] === true) makeNullable(out);
    if (pyIn("array", types) && !has(out, "items")) {
      throw new DialectError(
        node.at,
        `${w.dialect}: an array needs 'items'`,
        "give the element schema, e.g. items: {type: string}",
      );
    }
    if (node.isRoot && !has(out, "properties")) {
      // a bare root object is a tool without parameters
      out["properties"] = {};
    }
    if (pyIn("object", types)) closeObject(w, node);
    super.complete(w, node);
  }
}

/** Strict objects: declared properties, all required (optional ones nullable), closed. */
function closeObject(w: Walker, node: NodeWork): void {
  const out = node.out;
  if (!has(out, "properties")) {
    throw new DialectError(
      node.at,
      `${w.dialect}: an object needs declared 'properties'`,
      "declare the properties (an empty object needs properties: {}), " + "or use strict=False",
    );
  }
  const props: Schema = out["properties"];
  const given = has(out, "required") ? pyIter(out["required"]) : [];
  for (const r of given) {
    if (!pyIn(r, props)) {
      throw new DialectError(
        w.child("required", node.at, node.origins),
        `${w.dialect}: required names ${pyRepr(r)}, which is not a property`,
        "declare the property or drop it from required",
      );
    }
  }
  for (const name of Object.keys(props)) {
    if (!pyIn(name, given)) put(props, name, nullableCopy(props[name]));
  }
  out["required"] = Object.keys(props);
  out["additionalProperties"] = false;
}

/** A copy of a converted schema that also accepts null (for optional strict properties). */
function nullableCopy(schema: Schema): Schema {
  const out: Schema = { ...schema };
  const t = has(out, "type") ? out["type"] : null;
  if (t !== null || has(out, "anyOf")) {
    makeNullable(out);
    return ordered(out);
  }
  if (has(out, "enum") || has(out, "const")) {
    if (has(out, "const")) {
      const value = out["const"];
      delete out["const"];
      out["enum"] = [value, null];
    } else if (!pyIn(null, out["enum"])) {
      out["enum"] = pyConcat(out["enum"], [null]);
    }
    return ordered(out);
  }
  // a $ref (or something else without a type): wrap it
  const wrapped: Schema = {};
  if (has(out, "description")) {
    wrapped["description"] = out["description"];
    delete out["description"];
  }
  wrapped["anyOf"] = [out, { type: "null" }];
  return wrapped;
}
