/**
 * Where a `$ref` leads: URI resolution, JSON pointers, `$id` resources and anchors (mirrors
 * schema_index.py). URIs are resolved by RFC 3986 section 5 (also `urn:` bases); the index
 * walks each document once, following only the places that hold schemas.
 */

import { isDict } from "./pyspell.js";

const URI = /^(?:([^:/?#]+):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#([\s\S]*))?$/;

/** `$schema` values (without a trailing `#`, http or https) and the dialect each selects. */
export const DIALECT_URIS: Readonly<Record<string, string>> = {
  "json-schema.org/draft/2020-12/schema": "2020-12",
  "json-schema.org/draft/2019-09/schema": "2019-09",
  "json-schema.org/draft-07/schema": "draft7",
  "json-schema.org/draft-06/schema": "draft7",
  "json-schema.org/draft-04/schema": "draft7",
};

const ONE = new Set([
  "additionalProperties",
  "unevaluatedProperties",
  "unevaluatedItems",
  "additionalItems",
  "propertyNames",
  "contains",
  "items",
  "not",
  "if",
  "then",
  "else",
]);
const MANY = new Set(["allOf", "anyOf", "oneOf", "prefixItems", "items"]);
const MAP = new Set(["properties", "patternProperties", "dependentSchemas", "$defs", "definitions"]);

/** The dialect a `$schema` URI selects, null when toolgen does not know it. */
export function dialectOf(uri: string): string | null {
  const bare = uri.endsWith("#") ? uri.slice(0, -1) : uri;
  for (const scheme of ["https://", "http://"]) {
    if (bare.startsWith(scheme)) return DIALECT_URIS[bare.slice(scheme.length)] ?? null;
  }
  return null;
}

function removeDots(path: string): string {
  const out: string[] = [];
  const segments = path.split("/");
  segments.forEach((segment, index) => {
    const last = index === segments.length - 1;
    if (segment === ".") {
      if (last) out.push("");
    } else if (segment === "..") {
      if (out.length > 1 || (out.length === 1 && out[0] !== "")) out.pop();
      if (last) out.push("");
    } else {
      out.push(segment);
    }
  });
  return out.join("/");
}

type UriParts = [string | undefined, string | undefined, string, string | undefined, string | undefined];

function parts(uri: string): UriParts {
  const m = URI.exec(uri) as RegExpExecArray;
  return [m[1], m[2], m[3] ?? "", m[4], m[5]];
}

/** `ref` resolved against `base` (RFC 3986, section 5.2). */
export function resolveUri(base: string, ref: string): string {
  let [scheme, authority, path, query, fragment] = parts(ref);
  const [bScheme, bAuthority, bPath, bQuery] = parts(base);
  if (scheme === undefined) {
    scheme = bScheme;
    if (authority === undefined) {
      authority = bAuthority;
      if (path === "") {
        path = bPath;
        query = query === undefined ? bQuery : query;
      } else if (!path.startsWith("/")) {
        path = bAuthority !== undefined && bPath === "" ? "/" + path : bPath.slice(0, bPath.lastIndexOf("/") + 1) + path;
      }
    }
  }
  path = removeDots(path);
  let text = scheme !== undefined ? `${scheme}:` : "";
  if (authority !== undefined) text += "//" + authority;
  text += path;
  if (query !== undefined) text += "?" + query;
  if (fragment !== undefined) text += "#" + fragment;
  return text;
}

/** `[uri without its fragment, the fragment or null]`. */
export function splitFragment(uri: string): [string, string | null] {
  const at = uri.indexOf("#");
  return at < 0 ? [uri, null] : [uri.slice(0, at), uri.slice(at + 1)];
}

function unquote(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A URI fragment read as a JSON pointer (percent-decoded, `~1` and `~0`), or null. */
export function decodePointer(fragment: string): string[] | null {
  const text = unquote(fragment);
  if (text === "") return [];
  if (!text.startsWith("/")) return null;
  return text
    .slice(1)
    .split("/")
    .map((p) => p.replaceAll("~1", "/").replaceAll("~0", "~"));
}

/** A JSON pointer for keys and indices (`/properties/a~1b`). */
export function pointerText(path: readonly (string | number)[]): string {
  return path.map((p) => "/" + String(p).replaceAll("~", "~0").replaceAll("/", "~1")).join("");
}

/** A schema found by URI: the value, its base URI, dialect, document and pointer in it. */
export interface Located {
  readonly schema: any;
  readonly base: string;
  readonly dialect: string;
  readonly document: string;
  readonly pointer: readonly (string | number)[];
}

/** Every resource and anchor of the documents added, by absolute URI. */
export class SchemaIndex {
  readonly resources = new Map<string, Located>();
  readonly anchors = new Map<string, Located>();
  readonly dynamic = new Map<string, Located>();
  /** Each schema object walked: where it is and which base and dialect it has. */
  readonly places = new Map<object, Located>();
  readonly documents = new Map<string, unknown>();

  /** Walk a document; return its `$schema` values that name no known dialect. */
  add(document: unknown, uri: string, dialect: string): [Located, string][] {
    this.documents.set(uri, document);
    const unknown: [Located, string][] = [];
    const stack: Located[] = [{ schema: document, base: uri, dialect, document: uri, pointer: [] }];
    while (stack.length > 0) {
      let place = stack.pop() as Located;
      const node = place.schema;
      if (!isDict(node)) continue;
      let base = place.base;
      let current = place.dialect;
      const root = place.pointer.length === 0;
      const declared = node["$schema"];
      if (typeof declared === "string" && (root || Object.prototype.hasOwnProperty.call(node, "$id"))) {
        const found = dialectOf(declared);
        if (found === null) unknown.push([place, declared]);
        else current = found;
      }
      const ident = node["$id"];
      const anchors: string[] = [];
      // draft 7: $ref overrides its siblings, $id too
      if (typeof ident === "string" && !(current === "draft7" && "$ref" in node && !root)) {
        const [target, fragment] = splitFragment(resolveUri(base, ident));
        if (!ident.startsWith("#")) base = target;
        if (current === "draft7" && fragment) anchors.push(target + "#" + fragment);
      }
      place = { schema: node, base, dialect: current, document: place.document, pointer: place.pointer };
      this.places.set(node, place);
      if (root && !this.resources.has(uri)) this.resources.set(uri, place); // the document's own URI
      if (!this.resources.has(base)) this.resources.set(base, place);
      for (const key of ["$anchor", "$dynamicAnchor"]) {
        const name = node[key];
        if (typeof name === "string" && current !== "draft7") {
          anchors.push(base + "#" + name);
          if (key === "$dynamicAnchor" && !this.dynamic.has(base + "#" + name)) this.dynamic.set(base + "#" + name, place);
        }
      }
      for (const anchor of anchors) if (!this.anchors.has(anchor)) this.anchors.set(anchor, place);
      stack.push(...this.children(place));
    }
    return unknown;
  }

  private children(place: Located): Located[] {
    const out: Located[] = [];
    const child = (schema: unknown, at: readonly (string | number)[]): void => {
      out.push({ schema, base: place.base, dialect: place.dialect, document: place.document, pointer: at });
    };
    for (const [key, value] of Object.entries(place.schema as Record<string, unknown>)) {
      const at = [...place.pointer, key];
      if (MAP.has(key) && isDict(value)) {
        for (const [name, sub] of Object.entries(value)) child(sub, [...at, name]);
      } else if (key === "dependencies" && isDict(value)) {
        for (const [name, sub] of Object.entries(value)) if (isDict(sub)) child(sub, [...at, name]);
      } else if (MANY.has(key) && Array.isArray(value)) {
        value.forEach((sub, index) => child(sub, [...at, index]));
      } else if (ONE.has(key)) {
        child(value, at);
      }
    }
    return out;
  }

  /** The schema an absolute URI (with or without a fragment) names, or null. */
  locate(uri: string): Located | null {
    const [target, fragment] = splitFragment(uri);
    if (fragment === null || fragment === "") return this.resources.get(target) ?? null;
    const path = decodePointer(fragment);
    if (path === null) return this.anchors.get(target + "#" + fragment) ?? null;
    const start = this.resources.get(target);
    if (start === undefined) return null;
    let node: any = start.schema;
    let place = start;
    const pointer: (string | number)[] = [...start.pointer];
    for (const part of path) {
      if (isDict(node) && Object.prototype.hasOwnProperty.call(node, part)) {
        node = node[part];
        pointer.push(part);
      } else if (Array.isArray(node) && /^[0-9]+$/.test(part) && Number(part) < node.length) {
        node = node[Number(part)];
        pointer.push(Number(part));
      } else {
        return null;
      }
      if (isDict(node)) place = this.places.get(node) ?? place;
    }
    return { schema: node, base: place.base, dialect: place.dialect, document: start.document, pointer };
  }
}
