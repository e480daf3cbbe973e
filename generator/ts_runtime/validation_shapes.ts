/**
 * The validator's checks of arrays and objects: items, contains, properties, dependencies
 * (mirrors validation_shapes.py).
 */

import { show, uniqueKey } from "./json_values.js";
import { has, isDict, put } from "./pyspell.js";
import { allOfRuns } from "./validation_checks.js";
import { matches, passes, under, unmatched, type Node, type Problem, type Run, type Scope } from "./validation_scope.js";

// ---- arrays ----------------------------------------------------------------------------------

export function arrays(scope: Scope): Run | null {
  const schema = scope.schema;
  const items = schema["items"];
  let prefix: Node[] = [];
  let rest: Node | null = null;
  if (scope.has("prefixItems") && scope.dialect === "2020-12") prefix = scope.subs("prefixItems") ?? [];
  if (Array.isArray(items)) {
    // draft 7's array form (also read in 2020-12)
    prefix = items.length > 0 ? (scope.subs("items") ?? []) : [];
    if (scope.has("additionalItems")) rest = scope.sub("additionalItems");
  } else if (scope.has("items")) {
    rest = scope.sub("items");
  }
  scope.node.parts["prefix"] = prefix.length;
  scope.node.parts["items"] = rest !== null;
  const low = scope.count("minItems");
  const high = scope.count("maxItems");
  const unique = scope.has("uniqueItems") ? schema["uniqueItems"] : false;
  if (typeof unique !== "boolean") scope.refuse("uniqueItems", "must be true or false");
  const contains = containsCheck(scope);
  const closed = rest !== null && rest.place.schema === false;
  if (closed) rest = null;
  const runs = prefix.map((n) => n.run);
  const restRun = rest !== null ? rest.run : null;
  if (!(runs.length > 0 || restRun || closed || unique === true || contains) && low === null && high === null) {
    return null;
  }
  const size = runs.length;
  return (value, problems) => {
    if (!Array.isArray(value)) return value;
    const count = value.length;
    if (low !== null && count < low) problems.push([`must have at least ${low} items`]);
    if (high !== null && count > high) problems.push([`must have at most ${high} items`]);
    if (closed && count > size) problems.push([`must have at most ${size} items`]);
    if (unique === true && new Set(value.map(uniqueKey)).size < count) problems.push(["items must be unique"]);
    let out = value;
    for (let index = 0; index < count; index++) {
      const check = index < size ? runs[index] : restRun;
      if (!check) {
        if (index >= size) break;
        continue;
      }
      const item = value[index];
      const start = problems.length;
      const next = check(item, problems, false);
      if (problems.length > start) under(problems, start, index);
      if (next !== item) {
        if (out === value) out = [...value];
        out[index] = next;
      }
    }
    if (contains !== null) contains(value, problems);
    return out;
  };
}

function containsCheck(scope: Scope): ((value: unknown[], problems: Problem[]) => void) | null {
  const modern = scope.dialect === "2020-12" || scope.dialect === "2019-09";
  const low = modern ? scope.count("minContains") : null;
  const high = modern ? scope.count("maxContains") : null;
  if (!scope.has("contains")) return null;
  const node = scope.sub("contains");
  if (node === null) return null;
  scope.node.parts["contains"] = node;
  const least = low === null ? 1 : low;
  const matching = `matching ${show(scope.schema["contains"])}`;
  const check = node.run;
  return (value, problems) => {
    let found = 0;
    for (const item of value) if (passes(check, item)) found += 1;
    if (found < least) problems.push([`must contain at least ${least} items ${matching}`]);
    if (high !== null && found > high) problems.push([`must contain at most ${high} items ${matching} (has ${found})`]);
  };
}

// ---- objects ---------------------------------------------------------------------------------

export function objects(scope: Scope): Run | null {
  const schema = scope.schema;
  const props = new Map<string, Run>();
  if (scope.has("properties")) {
    const raw = schema["properties"];
    if (isDict(raw)) {
      for (const key of Object.keys(raw)) {
        const sub = scope.sub("properties", key);
        if (sub !== null) props.set(key, sub.run);
      }
    } else {
      scope.refuse("properties", "must map property names to schemas");
    }
  }
  const required = scope.has("required") ? (scope.names("required", schema["required"]) ?? []) : [];
  const patterns: [string, (text: string) => boolean, Run][] = [];
  const rawPatterns = schema["patternProperties"];
  if (scope.has("patternProperties") && !isDict(rawPatterns)) scope.refuse("patternProperties", "must map patterns to schemas");
  for (const source of isDict(rawPatterns) ? Object.keys(rawPatterns) : []) {
    const search = scope.pattern("patternProperties", source);
    const sub = scope.sub("patternProperties", source);
    if (search !== null && sub !== null) patterns.push([source, search, sub.run]);
  }
  const extra = scope.has("additionalProperties") ? scope.sub("additionalProperties") : null;
  const closed = extra !== null && extra.place.schema === false;
  const extraRun = extra === null || closed ? null : extra.run;
  const names = scope.has("propertyNames") ? scope.sub("propertyNames") : null;
  const low = scope.count("minProperties");
  const high = scope.count("maxProperties");
  const [needs, depends] = dependencies(scope);
  scope.node.parts["properties"] = new Set(props.keys());
  scope.node.parts["patterns"] = patterns.map((p) => p[1]);
  scope.node.parts["additional"] = extra !== null;
  const general = patterns.length > 0 || extraRun !== null || names !== null;
  if (!(props.size > 0 || required.length > 0 || closed || general || needs.size > 0 || depends.size > 0) && low === null && high === null) {
    return null;
  }
  const namesRun = names !== null ? names.run : null;

  /** patternProperties, additionalProperties and propertyNames for one property. */
  const more = (key: string, item: unknown, matched: boolean, problems: Problem[]): unknown => {
    for (const [source, search, patternRun] of patterns) {
      const hit = matches(search, key);
      if (hit === null) {
        problems.push([`the name ${unmatched(source)}`]); // reported, and not also an unknown parameter
        matched = true;
      } else if (hit) {
        item = patternRun(item, problems, false);
        matched = true;
      }
    }
    if (!matched) {
      if (closed) problems.push(["unknown parameter"]);
      else if (extraRun !== null) item = extraRun(item, problems, false);
    }
    if (namesRun !== null) {
      const found: Problem[] = [];
      namesRun(key, found, false);
      for (const problem of found) problems.push([`the name ${show(key)} is not allowed: ${problem[0]}`]);
    }
    return item;
  };

  return (value, problems, coerce) => {
    if (!isDict(value)) return value;
    for (const key of required) if (!has(value, key)) problems.push(["required, but missing", key]);
    if (low !== null || high !== null) {
      const size = Object.keys(value).length;
      if (low !== null && size < low) problems.push([`must have at least ${low} properties`]);
      if (high !== null && size > high) problems.push([`must have at most ${high} properties`]);
    }
    let out = value;
    for (const [key, item] of Object.entries(value)) {
      const sub = props.get(key);
      let next = item;
      const start = problems.length;
      if (sub !== undefined) next = sub(item, problems, coerce);
      if (general) next = more(key, next, sub !== undefined, problems);
      else if (sub === undefined && closed) problems.push(["unknown parameter"]);
      if (problems.length > start) under(problems, start, key);
      if (next !== item) {
        if (out === value) out = { ...value };
        put(out, key, next);
      }
    }
    for (const [key, wanted] of needs) {
      if (!has(value, key)) continue;
      for (const name of wanted) {
        if (!has(value, name)) problems.push([`required when ${key} is present, but missing`, name]);
      }
    }
    for (const [key, depend] of depends) if (has(value, key)) depend(value, problems, false);
    return out;
  };
}

/** dependentRequired, dependentSchemas and draft 7's dependencies, by property name. */
function dependencies(scope: Scope): [Map<string, readonly string[]>, Map<string, Run>] {
  const needs = new Map<string, readonly string[]>();
  const depends = new Map<string, Run>();
  const parts = new Map<string, Node>();
  for (const key of ["dependentRequired", "dependentSchemas", "dependencies"]) {
    if (!scope.has(key)) continue;
    const raw = scope.schema[key];
    if (!isDict(raw)) {
      scope.refuse(key, "must map property names to a list of names or a schema");
      continue;
    }
    for (const [name, value] of Object.entries(raw)) {
      if (key !== "dependentSchemas" && Array.isArray(value)) {
        const found = scope.names(key, value);
        if (found && found.length > 0) needs.set(name, [...(needs.get(name) ?? []), ...found]);
      } else if (key !== "dependentRequired") {
        const sub = scope.sub(key, name);
        if (sub !== null) {
          parts.set(name, sub);
          const previous = depends.get(name);
          depends.set(name, previous === undefined ? sub.run : (allOfRuns(previous, sub.run) as Run));
        }
      } else {
        scope.refuse(key, "must map property names to lists of names");
      }
    }
  }
  scope.node.parts["dependentSchemas"] = parts;
  return [needs, depends];
}
