/**
 * The input side of the schema walk: `$ref` resolution and `allOf` merging; mirrors
 * runtime/schema_refs.py. `schema_walk.Walker` builds on it.
 */

import { DEF_CONTAINERS, DialectError, SCHEMA_MAP, joinDescriptions, type Json, type Origins, type Path, utf8Decode, type Schema } from "./schema_common.js";
import { has, isDict, put, pyEqual, PyError, pyIn, pyIter, pyRepr, pyTypeName } from "./pyspell.js";

/** Python's urllib.parse.unquote: %XX runs decoded as UTF-8, invalid bytes replaced. */
function unquote(text: string): string {
  if (!text.includes("%")) return text;
  return text.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => {
    const bytes = new Uint8Array(run.length / 3);
    for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(run.slice(i * 3 + 1, i * 3 + 3), 16);
    return utf8Decode(bytes);
  });
}

function decodePointer(fragment: string): string[] {
  if (fragment === "") return [];
  if (fragment === "/") return [""];
  if (!fragment.startsWith("/")) throw new RangeError(fragment);
  return fragment
    .slice(1)
    .split("/")
    .map((p) => unquote(p).replaceAll("~1", "/").replaceAll("~0", "~"));
}

/** Python's `dict(value)` for the JSON values an allOf merge meets. */
function asDict(value: Json): Schema {
  if (isDict(value)) return value;
  if (Array.isArray(value) && value.length === 0) return {};
  throw new TypeError(`'${pyTypeName(value)}' object is not iterable`);
}

/** A Path as a Map key. */
function pathKey(path: Path): string {
  return JSON.stringify(path);
}

/** Resolves refs and merges `allOf` in the input schema `root`; `dialect` names the format. */
export class RefResolver {
  readonly root: Json;
  readonly dialect: string;
  private reachCache = new Map<string, Set<string>>();
  readonly defNames = new Map<string, string>();
  readonly defOrder: Path[] = [];

  constructor(root: Json, dialect: string) {
    this.root = root;
    this.dialect = dialect;
  }

  /** The path (into the input) a `$ref` at `at` points to. */
  target(ref: Json, at: Path): Path {
    if (typeof ref !== "string" || !ref.startsWith("#")) {
      throw new DialectError(
        [...at, "$ref"],
        `cannot resolve $ref ${pyRepr(ref)}: only local JSON pointers ('#/...') are supported`,
        "bundle external schemas into $defs and refer to them as '#/$defs/<name>'",
      );
    }
    let parts: string[];
    try {
      parts = decodePointer(ref.slice(1));
    } catch {
      throw new DialectError(
        [...at, "$ref"],
        `cannot resolve $ref ${pyRepr(ref)}: anchors are not supported`,
        "use a JSON pointer such as '#/$defs/<name>'",
      );
    }
    let node: Json = this.root;
    const path: (string | number)[] = [];
    for (const part of parts) {
      if (isDict(node) && has(node, part)) {
        node = node[part];
        path.push(part);
      } else if (Array.isArray(node) && /^[0-9]+$/.test(part) && Number(part) < node.length) {
        node = node[Number(part)];
        path.push(Number(part));
      } else {
        throw new DialectError([...at, "$ref"], `$ref ${pyRepr(ref)} points to nothing`, "fix the pointer");
      }
    }
    return path;
  }

  get(path: Path): Json {
    let node = this.root;
    for (const part of path) node = node[part];
    return node;
  }

  private refsBelow(node: Json, at: Path): Path[] {
    const found: Path[] = [];
    const visit = (n: Json, p: Path, inMap: boolean = false): void => {
      if (isDict(n)) {
        if (inMap) {
          for (const [k, v] of Object.entries(n)) visit(v, [...p, k]);
          return;
        }
        if (has(n, "$ref")) found.push(this.target(n["$ref"], p));
        for (const [k, v] of Object.entries(n)) {
          if (
            k === "$ref" ||
            DEF_CONTAINERS.includes(k) ||
            k === "enum" ||
            k === "const" ||
            k === "default" ||
            k === "examples"
          ) {
            continue;
          }
          visit(v, [...p, k], SCHEMA_MAP.includes(k));
        }
      } else if (Array.isArray(n)) {
        n.forEach((v, i) => visit(v, [...p, i]));
      }
    };
    visit(node, at);
    return found;
  }

  /** Every ref target reachable from `target` by following refs. */
  private reachable(target: Path): Set<string> {
    const key = pathKey(target);
    const known = this.reachCache.get(key);
    if (known !== undefined) return known;
    const seen = new Set<string>();
    const stack: Path[] = [target];
    while (stack.length > 0) {
      const t = stack.pop()!;
      for (const next of this.refsBelow(this.get(t), t)) {
        const nextKey = pathKey(next);
        if (!seen.has(nextKey)) {
          seen.add(nextKey);
          stack.push(next);
        }
      }
    }
    this.reachCache.set(key, seen);
    return seen;
  }

  isRecursive(target: Path): boolean {
    return this.reachable(target).has(pathKey(target));
  }

  defName(target: Path): string {
    const key = pathKey(target);
    const known = this.defNames.get(key);
    if (known !== undefined) return known;
    let base =
      target.length === 2 && DEF_CONTAINERS.includes(String(target[0]))
        ? String(target[1])
        : target.map(String).join("_");
    base = base.replace(/[^A-Za-z0-9_.-]/gu, "_") || "def";
    let name = base;
    let n = 2;
    const taken = new Set(this.defNames.values());
    while (taken.has(name)) {
      name = `${base}_${n}`;
      n += 1;
    }
    this.defNames.set(key, name);
    this.defOrder.push(target);
    return name;
  }

  /** Follows non-recursive refs; returns (schema, base path, per-key origin paths). */
  deref(node: Json, at: Path, origins?: Origins): [Schema, Path, Origins] {
    origins = new Map(origins ?? []);
    let hops = 0;
    while (isDict(node) && has(node, "$ref")) {
      const target = this.target(node["$ref"], at);
      if (this.isRecursive(target)) return [node, at, origins];
      hops += 1;
      if (hops > 64) throw new DialectError([...at, "$ref"], "$ref chain too long");
      let resolved = this.get(target);
      if (resolved === true) resolved = {};
      if (!isDict(resolved)) {
        throw new DialectError([...at, "$ref"], `$ref ${pyRepr(node["$ref"])} does not point to a schema`);
      }
      const merged: Schema = {};
      const newOrigins: Origins = new Map();
      for (const [k, v] of Object.entries(resolved)) {
        put(merged, k, v);
        newOrigins.set(k, target);
      }
      for (const [k, v] of Object.entries(node)) {
        if (k === "$ref") continue;
        if (k === "description" && has(resolved, "description")) {
          merged[k] = joinDescriptions(v, resolved["description"]);
        } else {
          put(merged, k, v);
        }
        newOrigins.set(k, origins.get(k) ?? at);
      }
      node = merged;
      origins = newOrigins;
    }
    return [node, at, origins];
  }

  child(key: string, at: Path, origins: Origins): Path {
    return [...(origins.get(key) ?? at), key];
  }

  mergeAllOf(node: Schema, at: Path, origins: Origins): [Schema, Origins] {
    const members = pyIter(node["allOf"]);
    const basePath = this.child("allOf", at, origins);
    const out: Schema = {};
    for (const [k, v] of Object.entries(node)) if (k !== "allOf") put(out, k, v);
    const outOrigins: Origins = new Map(Object.keys(out).map((k) => [k, origins.get(k) ?? at]));
    members.forEach((member: Json, i: number) => {
      const mpath = [...basePath, i];
      if (member === true) return;
      if (!isDict(member)) throw new DialectError(mpath, "allOf member is not a schema");
      let [m, mAt, mOrigins] = this.deref(member, mpath);
      if (has(m, "$ref")) {
        throw new DialectError(
          mpath,
          `${this.dialect}: cannot flatten allOf with a recursive $ref`,
          "move the recursive part into a property",
        );
      }
      if (has(m, "allOf")) [m, mOrigins] = this.mergeAllOf(m, mAt, mOrigins);
      for (const [k, v] of Object.entries(m)) {
        const src = mOrigins.get(k) ?? mAt;
        if (!has(out, k)) {
          put(out, k, v);
          outOrigins.set(k, src);
        } else if (k === "description") {
          out[k] = joinDescriptions(out[k], v);
        } else if (k === "required") {
          const current = pyIter(out[k]);
          out[k] = [...current, ...pyIter(v).filter((r) => !pyIn(r, out[k]))];
        } else if (k === "properties") {
          const props: Schema = {};
          for (const [pk, pv] of Object.entries(asDict(out[k]))) put(props, pk, pv);
          if (!isDict(v)) throw new PyError("AttributeError", `'${pyTypeName(v)}' object has no attribute 'items'`);
          for (const [pk, pv] of Object.entries(v)) {
            if (has(props, pk) && !pyEqual(props[pk], pv)) {
              throw new DialectError(
                [...src, "properties", pk],
                `${this.dialect}: allOf members give property ${pyRepr(pk)} different schemas`,
                "merge the two definitions by hand",
              );
            }
            put(props, pk, pv);
          }
          out[k] = props;
        } else if (!pyEqual(out[k], v)) {
          throw new DialectError(
            [...src, k],
            `${this.dialect}: allOf members disagree on ${pyRepr(k)}`,
            "merge the allOf members by hand",
          );
        }
      }
    });
    return [out, outOrigins];
  }
}
