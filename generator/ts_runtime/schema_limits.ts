/**
 * `checkLimits`: checks request-ready tool dicts against a provider's limits; mirrors
 * runtime/schema_limits.py.
 */

import {
  DESCRIPTION,
  NAME,
  PARAMETERS,
  STRICT,
  fullmatch,
  pathTo,
  record,
  type FormatRecord,
  type Slot,
} from "./formats.js";
import { DialectError, SCHEMA_ONE, type Json, type Notice, type Path, type Schema } from "./schema_common.js";
import { has, isDict, pyLen, pyRepr } from "./pyspell.js";

/** A malformed entry: a level of the envelope is missing (Python: KeyError). */
class Missing extends Error {}

function read(rec: FormatRecord, tool: Schema, slot: Slot, strict: boolean): Json {
  const path = pathTo(rec, slot);
  const last = path[path.length - 1];
  if (last === undefined) throw new Error(`toolgen: ${rec.name}: an empty path for ${slot}`);
  let holder: Json = tool;
  for (const key of path.slice(0, -1)) {
    if (!isDict(holder) || !has(holder, key)) throw new Missing(pyRepr(key));
    holder = holder[key];
  }
  if (!isDict(holder)) throw new Missing(pyRepr(last));
  if (has(holder, last)) return holder[last];
  if (strict) throw new Missing(pyRepr(last));
  return null;
}

function unpack(rec: FormatRecord, tool: Json, i: number): [Json, Json, Json, Json] {
  if (!isDict(tool)) throw new DialectError([i], "tool entry is not an object");
  try {
    return [
      read(rec, tool, NAME, true),
      read(rec, tool, DESCRIPTION, false) || "",
      read(rec, tool, PARAMETERS, false),
      rec.strict !== null && read(rec, tool, STRICT, false),
    ];
  } catch (exc) {
    if (!(exc instanceof Missing)) throw exc;
    throw new DialectError([i], `${rec.name}: malformed tool entry (missing ${exc.message})`);
  }
}

function walkSchemas(schema: Json, path: Path, visit: (s: Schema, p: Path) => void): void {
  if (!isDict(schema)) return;
  visit(schema, path);
  for (const [k, v] of Object.entries(schema)) {
    if (["properties", "$defs", "patternProperties", "dependentSchemas"].includes(k) && isDict(v)) {
      for (const [name, s] of Object.entries(v)) walkSchemas(s, [...path, k, name], visit);
    } else if (["anyOf", "oneOf", "allOf", "prefixItems"].includes(k) && Array.isArray(v)) {
      v.forEach((s, j) => walkSchemas(s, [...path, k, j], visit));
    } else if (SCHEMA_ONE.includes(k) && isDict(v)) {
      walkSchemas(v, [...path, k], visit);
    }
  }
}

/** Refuses a tool name outside the format's rules (`at`: path of the name). */
export function checkName(rec: FormatRecord, name: Json, at: Path): void {
  if (typeof name !== "string" || !fullmatch(rec.toolName, name)) {
    throw new DialectError(
      at,
      `${rec.name}: tool name ${pyRepr(name)} is not allowed`,
      `names must match ${rec.toolName.pattern}`,
    );
  }
}

/** Refuses an empty description where the format requires one. */
export function refuseEmptyDescription(rec: FormatRecord, description: Json, at: Path): void {
  if (rec.descriptionRequired && !description) {
    throw new DialectError(
      at,
      `${rec.name}: the tool description must not be empty`,
      "write a one-line description of what the tool does",
    );
  }
}

/** Refuses property names of `schema` outside the format's rule (`at`: its path). */
export function checkPropertyKeys(rec: FormatRecord, schema: Schema, at: Path): void {
  const properties = has(schema, "properties") ? schema["properties"] : null;
  if (rec.propertyKey === null || !isDict(properties)) return;
  for (const key of Object.keys(properties)) {
    if (!fullmatch(rec.propertyKey, key)) {
      throw new DialectError(
        [...at, "properties", key],
        `${rec.name}: ` + rec.propertyKeyMessage.replace("{name!r}", () => pyRepr(key)),
        rec.propertyKeyHint,
      );
    }
  }
}

/** Checks request-ready tool dicts against `dialect`: errors throw, soft limits are notices. */
export function checkLimits(dialect: string, tools: Json[]): Notice[] {
  const rec = record(dialect);
  const notices: Notice[] = [];
  const seen = new Map<string, number>();
  const rootType = rec.schema.rootType;
  tools.forEach((tool, i) => {
    const [name, description, params, strict] = unpack(rec, tool, i);
    const npath = [i, ...pathTo(rec, NAME)];
    checkName(rec, name, npath);
    if (seen.has(name)) {
      throw new DialectError(
        npath,
        `${dialect}: tool name ${pyRepr(name)} is used twice (also tool ${seen.get(name)})`,
        "give every tool a distinct name",
      );
    }
    seen.set(name, i);
    const dpath = [i, ...pathTo(rec, DESCRIPTION)];
    refuseEmptyDescription(rec, description, dpath);
    const limit = rec.maxDescription;
    const length = typeof description === "string" ? pyLen(description) : 0;
    if (limit !== null && typeof description === "string" && length > limit) {
      notices.push({
        path: dpath,
        message: `${dialect}: description of ${pyRepr(name)} has ${length} characters (more than ${limit})`,
      });
    }
    if (params === null && rec.parametersOptional) return;
    const ppath = [i, ...pathTo(rec, PARAMETERS)];
    if (!isDict(params) || params["type"] !== rootType) {
      throw new DialectError(
        ppath,
        `${dialect}: parameters of ${pyRepr(name)} must be an object schema (type ${pyRepr(rootType)})`,
        "wrap the value in an object property",
      );
    }
    if (rec.propertyKeyEverywhere || rec.schema.types.size > 0) walkSchemas(params, ppath, nodeCheck(rec));
    else checkPropertyKeys(rec, params, ppath);
    if (strict === true) walkSchemas(params, ppath, checkStrictNode);
  });
  if (rec.maxTools !== null && tools.length > rec.maxTools) {
    notices.push({ path: [], message: `${dialect}: ${tools.length} tools in one request (more than ${rec.maxTools})` });
  }
  return notices;
}

function nodeCheck(rec: FormatRecord): (schema: Schema, path: Path) => void {
  const types = [...rec.schema.types.values()];
  return (schema, path) => {
    checkPropertyKeys(rec, schema, path);
    if (types.length === 0) return;
    const enumValues = has(schema, "enum") ? schema["enum"] : null;
    if (enumValues !== null && !(enumValues as Json[]).every((e) => typeof e === "string")) {
      throw new DialectError(
        [...path, "enum"],
        `${rec.name}: enum values must be strings`,
        "convert_parameters moves non-string enums into the description",
      );
    }
    const t = has(schema, "type") ? schema["type"] : null;
    if (t !== null && !types.includes(t)) {
      throw new DialectError(
        [...path, "type"],
        `${rec.name}: type ${pyRepr(t)} is not one of its types`,
        "use one of " + types.join(", "),
      );
    }
  };
}

function checkStrictNode(schema: Schema, path: Path): void {
  const t = schema["type"];
  const types = Array.isArray(t) ? t : [t];
  if (types.includes("object")) {
    const props = schema["properties"];
    if (!isDict(props)) throw new DialectError(path, "strict: an object needs declared properties");
    if (schema["additionalProperties"] !== false) {
      throw new DialectError(path, "strict: an object needs additionalProperties false");
    }
    const required: Json[] = has(schema, "required") ? schema["required"] : [];
    const keys = Object.keys(props);
    const sameOrder = required.length === keys.length && required.every((r, j) => r === keys[j]);
    const sameSet = new Set(required).size === keys.length && keys.every((k) => required.includes(k));
    if (!sameOrder && !sameSet) {
      throw new DialectError(
        [...path, "required"],
        "strict: every property must be required",
        "make optional properties nullable instead",
      );
    }
  }
  if (types.includes("array") && !has(schema, "items")) throw new DialectError(path, "strict: an array needs 'items'");
}
