/**
 * Hooks of the Gemini policy: the OpenAPI-subset `Schema` of the Gemini API (UPPERCASE types);
 * mirrors runtime/schema_gemini.py. The keyword table is formats.GEMINI.
 */

import { DialectError, extraSentence, isNumber, joinDescriptions, jsonTypeOf, type Json, type Schema } from "./schema_common.js";
import { checkPropertyKeys } from "./schema_limits.js";
import { fastCopy } from "./copies.js";
import { Hooks, type NodeWork, type Walker } from "./schema_walk.js";
import { has, isDict, keyError, own, put, pyIn, pyIndex, pyIter, pyLen, pyRepr } from "./pyspell.js";

/** What Gemini makes of a node's type, nulls and union, worked out before its keywords. */
interface Shape {
  types: Json[];
  gtypes: string[];
  nullable: boolean;
  anyOf: Json;
  nullBranches: number[];
  /** The one non-null anyOf branch, merged into the node (anyOf [X, null] -> X, nullable). */
  collapsed: Schema | null;
}

const NULL_BRANCH_KEYS = ["type", "description", "title"];

function sameList(a: Json[], b: Json[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** Gemini's OpenAPI-subset `Schema` (google-genai `types.Schema`), UPPERCASE types. */
export class GeminiHooks extends Hooks {
  override prepare(w: Walker, node: NodeWork): void {
    const n = node.n;
    let nullable = n["nullable"] === true;
    const t = has(n, "type") ? n["type"] : null;
    let types: Json[] = Array.isArray(t) ? [...t] : t ? [t] : [];
    if (types.includes("null") && types.length > 1) {
      types.splice(types.indexOf("null"), 1);
      nullable = true;
    }
    const anyOf = has(n, "anyOf") ? n["anyOf"] : has(n, "oneOf") ? n["oneOf"] : null;
    let nullBranches: number[] = [];
    if (Array.isArray(anyOf)) {
      nullBranches = [];
      anyOf.forEach((b, i) => {
        if (isDict(b) && b["type"] === "null" && Object.keys(b).every((k) => NULL_BRANCH_KEYS.includes(k))) {
          nullBranches.push(i);
        }
      });
      nullable = nullable || nullBranches.length > 0;
    }
    if (types.length === 0 && anyOf === null) types = inferType(w, node);
    const gtypes = types.map((x) => {
      const g = w.policy.types.get(x);
      if (g === undefined) throw keyError(x);
      return g;
    });
    node.state = { types, gtypes, nullable, anyOf, nullBranches, collapsed: null } satisfies Shape;
  }

  override keyword(w: Walker, node: NodeWork, key: string, value: Json): void {
    const run = own(KEYWORDS, key);
    if (run === undefined) throw new Error(`toolgen: gemini: no hook for the keyword ${pyRepr(key)}`);
    run(w, node, key, value);
  }

  override complete(w: Walker, node: NodeWork): void {
    const out = node.out;
    const shape: Shape = node.state;
    if (shape.collapsed !== null) {
      for (const [ck, cv] of Object.entries(shape.collapsed)) {
        if (ck === "description") out["description"] = joinDescriptions(out["description"] ?? null, cv);
        else if (!has(out, ck)) put(out, ck, cv);
      }
    }
    if (!has(node.n, "type") && !has(out, "type") && shape.gtypes.length > 0) {
      out["type"] = shape.gtypes[0];
      if (shape.nullable) out["nullable"] = true;
    }
    const types = w.policy.types;
    if (out["type"] === types.get("array") && !has(out, "items")) {
      throw new DialectError(
        node.at,
        `${w.dialect}: an array needs 'items'`,
        "give the element schema, e.g. items: {type: string}",
      );
    }
    const props = out["properties"];
    const emptyProps = !has(out, "properties") || !props || (isDict(props) && Object.keys(props).length === 0);
    if (out["type"] === types.get("object") && !node.isRoot && emptyProps) {
      throw new DialectError(
        node.at,
        `${w.dialect}: an object below the root needs declared properties`,
        "declare its properties, or take the value as a JSON string",
      );
    }
    super.complete(w, node);
    if (node.isRoot) {
      if (!has(out, "type")) out["type"] = w.policy.rootType;
      if (!has(out, "properties")) out["properties"] = {};
      if (!has(out, "required")) out["required"] = [];
    }
  }
}

function inferType(w: Walker, node: NodeWork): Json[] {
  const n = node.n;
  if (has(n, "properties")) return ["object"];
  if (has(n, "items")) return ["array"];
  const values = [...(has(n, "enum") ? pyIter(n["enum"]) : []), ...(has(n, "const") ? [n["const"]] : [])];
  const kinds = new Set(values.filter((v) => v !== null).map((v) => jsonTypeOf(v)));
  if (kinds.size === 1) {
    const [kind] = [...kinds];
    return kind !== undefined && kind !== null && w.policy.types.has(kind) ? [kind] : [];
  }
  if (kinds.size === 2 && kinds.has("integer") && kinds.has("number")) return ["number"];
  throw new DialectError(
    node.at,
    `${w.dialect}: schema has no type`,
    "give it a 'type' (Gemini cannot express 'any value')",
  );
}

// ---- the CUSTOM keywords of formats.GEMINI, one function each ------------------------------

type Keyword = (w: Walker, node: NodeWork, key: string, value: Json) => void;

const type_: Keyword = (w, node, key) => {
  const out = node.out;
  const shape: Shape = node.state;
  if (key === "type" && shape.gtypes.length === 1) {
    out["type"] = shape.gtypes[0];
  } else if (key === "type") {
    out["anyOf"] = shape.gtypes.map((g) => ({ type: g }));
    if (shape.anyOf !== null) {
      throw new DialectError(
        w.child(key, node.at, node.origins),
        `${w.dialect}: a type list together with anyOf`,
        "fold the types into the anyOf branches",
      );
    }
  }
  if (shape.nullable && !has(out, "nullable")) out["nullable"] = true;
};

const items: Keyword = (w, node, key, value) => {
  if (Array.isArray(value)) w.refuse(node, key);
  node.out["items"] = w.node(value, w.child(key, node.at, node.origins));
};

const additionalProperties: Keyword = (w, node, key, value) => {
  if (value !== false) {
    // false is dropped: the subset cannot close an object (it is sent open)
    throw new DialectError(
      w.child(key, node.at, node.origins),
      `${w.dialect}: free-form maps (additionalProperties) cannot be expressed`,
      "declare fixed properties, or take a list of {key, value} objects",
    );
  }
};

const anyOf: Keyword = (w, node, key, value) => {
  const shape: Shape = node.state;
  const n = node.n;
  const path = w.child(key, node.at, node.origins);
  const conv: Schema[] = [];
  for (let i = 0; i < pyLen(value); i++) {
    if (!shape.nullBranches.includes(i)) conv.push(w.node(pyIndex(value, i), [...path, i]));
  }
  const only = conv.length === 1 ? conv[0] : undefined;
  if (only !== undefined && !["type", "properties", "items"].some((x) => has(n, x))) {
    shape.collapsed = only;
  } else {
    node.out["anyOf"] = conv;
  }
  if (shape.nullable) node.out["nullable"] = true;
};

const enum_: Keyword = (_w, node, _key, value) => {
  const shape: Shape = node.state;
  const all = pyIter(value);
  const values = shape.nullable ? all.filter((e) => e !== null) : [...all];
  const stringType = sameList(shape.types, ["string"]);
  if (all.every((e) => typeof e === "string") && stringType) node.out["enum"] = [...all];
  else if (values.every((e) => typeof e === "string") && stringType) node.out["enum"] = values;
  else node.extras.push(extraSentence("enum", values));
};

const const_: Keyword = (_w, node, key, value) => {
  if (typeof value === "string" && sameList(node.state.types, ["string"])) node.out["enum"] = [value];
  else node.extras.push(extraSentence(key, value));
};

const format: Keyword = (w, node, key, value) => {
  const gtypes: string[] = node.state.gtypes;
  const only = gtypes.length === 1 ? gtypes[0] : undefined;
  if (only !== undefined && pyIn(value, w.policy.formats.get(only) ?? [])) node.out["format"] = value;
  else node.extras.push(extraSentence(key, value));
};

const exclusiveBound: Keyword = (_w, node, key, value) => {
  const bound = key === "exclusiveMinimum" ? "minimum" : "maximum";
  if (
    sameList(node.state.types, ["integer"]) &&
    isNumber(value) &&
    Number.isInteger(value) &&
    !has(node.n, bound)
  ) {
    node.out[bound] = value + (bound === "minimum" ? 1 : -1);
  } else {
    node.extras.push(extraSentence(key, value));
  }
};

const properties: Keyword = (w, node, key, value) => {
  const path = w.child(key, node.at, node.origins);
  if (!isDict(value)) throw new DialectError(path, "properties must map names to schemas");
  checkPropertyKeys(w.record, { [key]: value }, node.origins.get(key) ?? node.at);
  node.out["properties"] = w.children(key, value, node.at, node.origins);
};

const required: Keyword = (w, node, key, value) => {
  const props = has(node.n, "properties") ? node.n["properties"] : {};
  for (const r of pyIter(value)) {
    if (!pyIn(r, props)) {
      throw new DialectError(
        w.child(key, node.at, node.origins),
        `${w.dialect}: required names ${pyRepr(r)}, which is not a property`,
        "declare the property or drop it from required",
      );
    }
  }
  node.out["required"] = [...pyIter(value)];
};

const default_: Keyword = (_w, node, key, value) => {
  // the SDK's Schema cannot carry a null default
  if (value === null) node.extras.push(extraSentence(key, value));
  else put(node.out, key, fastCopy(value));
};

const KEYWORDS: Record<string, Keyword> = {
  type: type_,
  nullable: type_,
  items,
  additionalProperties,
  anyOf,
  oneOf: anyOf,
  enum: enum_,
  const: const_,
  format,
  exclusiveMinimum: exclusiveBound,
  exclusiveMaximum: exclusiveBound,
  properties,
  required,
  default: default_,
};
