/**
 * Compiling a schema into runs: dialects, references, combinators, unevaluated keywords
 * (mirrors validation_compile.py: the same refusals, the same problem texts).
 */

import { jsonType, plainJson, show, type PlainProblem } from "./json_values.js";
import { isDict } from "./pyspell.js";
import { MAX_NESTING } from "./schema_common.js";
import { SchemaIndex, pointerText, resolveUri, splitFragment, type Located } from "./schema_index.js";
import { formats, nullPasses, numbers, readTypes, strings, typed, values } from "./validation_checks.js";
import { Node, Scope, accept, gotText, passes, placeText, type Problem, type Run } from "./validation_scope.js";
import { arrays, objects } from "./validation_shapes.js";
import { unevaluated } from "./validation_unevaluated.js";
import { KEYWORDS } from "./validation_keywords.js";

export const DIALECTS: readonly string[] = ["2020-12", "2019-09", "draft7", "gemini"];

type KeywordTable = ReadonlyMap<string, ReadonlyMap<string, readonly [string, string]>>;
let keywords: KeywordTable | null = null;

/** Each dialect's keywords: [status, note] by name (made on first use: importing stays cheap, and a
 * bundle that never validates leaves the tables out). */
function keywordTable(): KeywordTable {
  return (keywords ??= new Map(
    DIALECTS.map((dialect) => [
      dialect,
      new Map(KEYWORDS.filter((row) => row[2].includes(dialect)).map(([name, status, , note]) => [name, [status, note] as const])),
    ]),
  ));
}

/** Reads the schema of another document a `$ref` names (or throws). */
export type Retrieve = (uri: string) => unknown;

/**
 * A place in a schema the validator cannot enforce: where, which keyword, and why. `pointer` is
 * the JSON pointer of the schema object holding `keyword` ("" for the root); in a document
 * fetched through `retrieve` it is prefixed by that document's URI.
 */
export class Refusal {
  constructor(
    readonly pointer: string,
    readonly keyword: string,
    readonly reason: string,
  ) {}

  toString(): string {
    const key = this.keyword.replaceAll("~", "~0").replaceAll("/", "~1");
    const where = this.pointer + (this.keyword ? "/" + key : "");
    return `${where || "/"}: ${this.reason}`;
  }
}

/** A schema with keywords the validator cannot enforce; `refusals` lists every place. */
export class SchemaRefused extends Error {
  readonly refusals: readonly Refusal[];

  constructor(refusals: readonly Refusal[]) {
    super(`the schema cannot be checked: ${refusals.map(String).join("; ")}`);
    this.name = "SchemaRefused";
    this.refusals = refusals;
  }
}

const reject: Run = (value, problems) => {
  problems.push(["no value is allowed here"]);
  return value;
};

function follow(target: Node): Run {
  return (value, problems, coerce) => target.run(value, problems, coerce);
}

/** One compilation: the index, the compiled schema objects and the refusals found. */
class Compiler {
  readonly index = new SchemaIndex();
  readonly nodes = new Map<object, Node>();
  readonly refusals: Refusal[] = [];
  needsDynamic = false;
  readonly stack: string[] = [];
  readonly dynamicNodes = new Map<string, Node>();
  readonly edges = new Map<Node, [Node, string][]>();
  fetched = new Map<string, unknown>();

  constructor(
    readonly dialect: string,
    readonly retrieve: Retrieve | null,
    readonly dynamic = false,
  ) {}

  compile(schema: unknown): Node {
    const found: PlainProblem[] = [];
    const plain = plainJson(schema, MAX_NESTING, found);
    this.plainRefusals("", found);
    const root: Located = { schema: plain, base: "", dialect: this.dialect, document: "", pointer: [] };
    if (!(isDict(plain) || typeof plain === "boolean")) {
      this.refusals.push(new Refusal("", "", "a schema must be an object or a boolean"));
      return new Node(root);
    }
    this.addDocument(plain, "", this.dialect);
    const node = this.node((isDict(plain) ? this.index.places.get(plain) : undefined) ?? root);
    this.closeDynamic();
    this.refuseLoops();
    return node;
  }

  private plainRefusals(document: string, found: readonly PlainProblem[]): void {
    for (const [path, reason] of found) {
      const keyword = path.length > 0 ? String(path[path.length - 1]) : "";
      this.refusals.push(new Refusal(this.pointer(document, path.slice(0, -1)), keyword, reason));
    }
  }

  private pointer(document: string, path: readonly (string | number)[]): string {
    const text = pointerText(path);
    return document === "" ? text : `${document}#${text}`;
  }

  private addDocument(document: unknown, uri: string, dialect: string): void {
    for (const [place, declared] of this.index.add(document, uri, dialect)) {
      this.refuse(place, "$schema", `${show(declared)} is not a dialect toolgen knows`);
    }
    if (!this.dynamic) {
      for (const place of this.index.places.values()) {
        if (isDict(place.schema) && Object.prototype.hasOwnProperty.call(place.schema, "$dynamicRef")) {
          this.needsDynamic = true;
        }
      }
    }
  }

  readonly refuse = (place: Located, keyword: string, reason: string): void => {
    const refusal = new Refusal(this.pointer(place.document, place.pointer), keyword, reason);
    const text = String(refusal);
    if (!this.refusals.some((r) => String(r) === text && r.pointer === refusal.pointer)) this.refusals.push(refusal);
  };

  // ---- schema objects --------------------------------------------------------------------------

  /** The compiled schema at `place` (memoised, so recursion closes into a loop). */
  readonly node = (place: Located): Node => {
    const schema = place.schema;
    if (typeof schema === "boolean") {
      const node = new Node(place);
      node.run = schema ? accept : reject;
      return node;
    }
    if (typeof schema !== "object" || schema === null) {
      this.refuse(place, "", "a schema must be an object or a boolean");
      return new Node(place);
    }
    const found = this.nodes.get(schema);
    if (found !== undefined) return found;
    const where = this.index.places.get(schema) ?? place;
    const node = new Node(where);
    this.nodes.set(schema, node);
    if (isDict(schema)) this.build(node);
    else this.refuse(where, "", "a schema must be an object or a boolean");
    return node;
  };

  private build(node: Node): void {
    const place = node.place;
    let schema: Record<string, unknown> = place.schema;
    const table = keywordTable().get(place.dialect)!;
    if (place.dialect === "draft7" && Object.prototype.hasOwnProperty.call(schema, "$ref")) {
      schema = { $ref: schema["$ref"] }; // draft 7: $ref overrides its siblings
    }
    const known: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(schema)) {
      const status = table.get(key);
      if (status === undefined) {
        if (place.dialect === "gemini") this.refuse(place, key, "Gemini's Schema has no such keyword");
      } else if (status[0] === "refused") {
        this.refuse(place, key, status[1]);
      } else {
        Object.defineProperty(known, key, { value, enumerable: true, writable: true, configurable: true });
      }
    }
    const scope = new Scope(node, this.node, this.refuse);
    scope.schema = known;
    const types = readTypes(scope);
    node.types = types;
    const steps = [
      values(scope),
      numbers(scope),
      strings(scope),
      formats(scope),
      arrays(scope),
      objects(scope),
      this.reference(scope, "$ref"),
      this.reference(scope, "$dynamicRef"),
      this.allOf(scope),
      this.anyOf(scope, "anyOf"),
      this.anyOf(scope, "oneOf"),
      this.not(scope),
      this.conditional(scope),
      unevaluated(scope),
    ];
    let run = typed(
      types,
      steps.filter((s): s is Run => s !== null),
    );
    if (place.dialect === "gemini" && known["nullable"] === true) run = nullPasses(run);
    if (this.dynamic && (place.pointer.length === 0 || typeof schema["$id"] === "string")) {
      node.resource = node.base;
      run = this.entering(node.base, run);
    }
    node.run = run;
  }

  /** `run` with `base` on the dynamic scope while it runs. */
  private entering(base: string, run: Run): Run {
    const stack = this.stack;
    return (value, problems, coerce) => {
      stack.push(base);
      try {
        return run(value, problems, coerce);
      } finally {
        stack.pop();
      }
    };
  }

  /** Record that `target` runs on the same value (to find endless loops). */
  private edge(scope: Scope, target: Node, key: string): void {
    let list = this.edges.get(scope.node);
    if (list === undefined) this.edges.set(scope.node, (list = []));
    list.push([target, key]);
  }

  // ---- references ------------------------------------------------------------------------------

  private locate(scope: Scope, key: string, uri: string): Located | null {
    let found = this.index.locate(uri);
    const [document] = splitFragment(uri);
    if (found === null && !this.index.documents.has(document)) {
      if (this.retrieve === null) {
        scope.refuse(
          key,
          `${show(uri)} is another document; pass retrieve= to let the validator read it (it never uses the network by itself)`,
        );
        return null;
      }
      if (!this.fetch(scope, key, document)) return null;
      found = this.index.locate(uri);
    }
    if (found === null) scope.refuse(key, `${show(uri)} points to nothing`);
    return found;
  }

  private fetch(scope: Scope, key: string, document: string): boolean {
    let fetched = this.fetched.get(document);
    if (fetched === undefined) {
      try {
        fetched = (this.retrieve as Retrieve)(document);
      } catch (error) {
        // the caller's callback: any failure refuses the $ref
        scope.refuse(key, `could not retrieve ${show(document)}: ${error instanceof Error ? error.message : String(error)}`);
        return false;
      }
      this.fetched.set(document, fetched);
    }
    const found: PlainProblem[] = [];
    const plain = plainJson(fetched, MAX_NESTING, found);
    this.plainRefusals(document, found);
    if (!(isDict(plain) || typeof plain === "boolean")) {
      scope.refuse(key, `${show(document)} is not a schema`);
      return false;
    }
    this.addDocument(plain, document, scope.dialect);
    return true;
  }

  private reference(scope: Scope, key: string): Run | null {
    if (!scope.has(key)) return null;
    const ref = scope.schema[key];
    if (typeof ref !== "string") {
      scope.refuse(key, "must be a URI reference (a string)");
      return null;
    }
    const uri = resolveUri(scope.node.base, ref);
    const located = this.locate(scope, key, uri);
    if (located === null) return null;
    const target = this.node(located);
    this.edge(scope, target, key);
    const [, fragment] = splitFragment(uri);
    const anchor = isDict(located.schema) ? located.schema["$dynamicAnchor"] : undefined;
    if (key === "$dynamicRef" && fragment && anchor === fragment) {
      this.needsDynamic = true;
      return this.dynamicRef(scope, target, fragment);
    }
    (scope.node.parts["refs"] ??= []).push(target);
    return this.dynamic ? this.entering(target.base, follow(target)) : follow(target);
  }

  /** A `$dynamicRef` to a dynamic anchor: the outermost resource in scope that has it. */
  private dynamicRef(scope: Scope, fixed: Node, name: string): Run {
    const stack = this.stack;
    const nodes = this.dynamicNodes;
    const suffix = "#" + name;
    const pick = (): Node => {
      for (const base of stack) {
        const found = nodes.get(base + suffix);
        if (found !== undefined) return found;
      }
      return fixed;
    };
    scope.node.parts["dynamic"] = pick;
    return this.entering(fixed.base, (value, problems, coerce) => pick().run(value, problems, coerce));
  }

  /** Compile every dynamic anchor, so that no `$dynamicRef` compiles at run time. */
  private closeDynamic(): void {
    while (this.dynamicNodes.size < this.index.dynamic.size) {
      for (const [uri, place] of [...this.index.dynamic]) {
        if (!this.dynamicNodes.has(uri)) this.dynamicNodes.set(uri, this.node(place));
      }
    }
  }

  /** Refuse references that come back to a schema without reading into the value. */
  private refuseLoops(): void {
    const state = new Map<Node, number>(); // 1: on the path, 2: done
    for (const start of [...this.nodes.values()]) {
      if (state.has(start)) continue;
      const stack: [Node, number][] = [[start, 0]];
      state.set(start, 1);
      while (stack.length > 0) {
        const [node, index] = stack.pop()!;
        const edges = this.edges.get(node) ?? [];
        if (index >= edges.length) {
          state.set(node, 2);
          continue;
        }
        stack.push([node, index + 1]);
        const [target, key] = edges[index]!;
        const mark = state.get(target) ?? 0;
        if (mark === 1) {
          this.refuse(
            node.place,
            key,
            "leads back to a schema it is inside of without reading into the value (an endless loop)",
          );
        } else if (mark === 0 && isDict(target.place.schema)) {
          state.set(target, 1);
          stack.push([target, 0]);
        }
      }
    }
  }

  // ---- combinators -----------------------------------------------------------------------------

  private branches(scope: Scope, key: string): Node[] | null {
    if (!scope.has(key)) return null;
    const nodes = scope.subs(key);
    if (nodes !== null && nodes.length > 0) {
      for (const node of nodes) this.edge(scope, node, key);
      scope.node.parts[key] = nodes;
    }
    return nodes;
  }

  private allOf(scope: Scope): Run | null {
    const nodes = this.branches(scope, "allOf");
    if (!nodes || nodes.length === 0) return null;
    const runs = nodes.map((n) => n.run);
    return (value, problems) => {
      for (const branch of runs) value = branch(value, problems, false);
      return value;
    };
  }

  private anyOf(scope: Scope, key: string): Run | null {
    const nodes = this.branches(scope, key);
    if (!nodes || nodes.length === 0) return null;
    const exactlyOne = key === "oneOf";
    return (value, problems) => {
      const failed: Problem[][] = [];
      const passing: number[] = [];
      let result = value;
      for (let index = 0; index < nodes.length; index++) {
        const found: Problem[] = [];
        const typedValue = (nodes[index] as Node).run(value, found, false);
        if (found.length > 0) {
          failed.push(found);
        } else if (passing.length === 0) {
          passing.push(index);
          result = typedValue;
          if (!exactlyOne) return result;
        } else {
          passing.push(index);
        }
      }
      if (passing.length === 0) {
        problems.push([summary(nodes, failed, value, exactlyOne)]);
      } else if (passing.length > 1) {
        const which = listed(passing.map((i) => String(i + 1)));
        problems.push([`must match exactly one of these schemas, but matches ${which} (got ${show(value)})`]);
      }
      return result;
    };
  }

  private not(scope: Scope): Run | null {
    if (!scope.has("not")) return null;
    const node = scope.sub("not");
    if (node === null) return null;
    this.edge(scope, node, "not");
    const check = node.run;
    const shown = show(scope.schema["not"]);
    return (value, problems) => {
      if (passes(check, value)) problems.push([`must not match ${shown} (got ${show(value)})`]);
      return value;
    };
  }

  private conditional(scope: Scope): Run | null {
    if (!scope.has("if")) return null;
    const found: Record<string, Node | null> = {};
    for (const key of ["if", "then", "else"]) found[key] = scope.has(key) ? scope.sub(key) : null;
    for (const [key, node] of Object.entries(found)) {
      if (node !== null) {
        this.edge(scope, node, key);
        scope.node.parts[key] = node;
      }
    }
    const condition = found["if"];
    const then = found["then"];
    const otherwise = found["else"];
    if (!condition || (!then && !otherwise)) return null;
    const test = condition.run;
    const thenRun = then ? then.run : null;
    const elseRun = otherwise ? otherwise.run : null;
    return (value, problems) => {
      const branch = passes(test, value) ? thenRun : elseRun;
      return branch === null ? value : branch(value, problems, false);
    };
  }
}

function listed(words: string[]): string {
  return words.length === 1 ? (words[0] as string) : words.slice(0, -1).join(", ") + " and " + words[words.length - 1];
}

/** One problem for a value no branch of anyOf/oneOf accepts, naming what each wanted. */
function summary(nodes: readonly Node[], failed: Problem[][], value: unknown, exactlyOne: boolean): string {
  const types: string[] = [];
  const kind = jsonType(value);
  let typeOnly = true;
  nodes.forEach((node, index) => {
    const found = failed[index] as Problem[];
    const wanted = node.types.includes("number") ? [...node.types, "integer"] : node.types;
    if (!typeOnly || found.length !== 1 || (found[0] as Problem).length !== 1 || wanted.length === 0 || (kind !== null && wanted.includes(kind))) {
      typeOnly = false; // not a branch that failed on its type alone
      return;
    }
    for (const t of node.types) if (!types.includes(t)) types.push(t);
  });
  if (typeOnly) return `expected ${types.join(" or ")}, got ${gotText(value, false)}`;
  const lead = exactlyOne ? "exactly one" : "at least one";
  const parts = failed.map((found, index) => {
    const texts = found.slice(0, 3).map((p) => (p.length > 1 ? `${placeText(p)}: ${p[0]}` : String(p[0])));
    if (found.length > 3) texts.push(`${found.length - 3} more`);
    return `${index + 1}) ${texts.join(", ")}`;
  });
  return `must match ${lead} of these schemas (got ${show(value)}): ${parts.join("; ")}`;
}

/** The compiled root of `schema` and the refused places (none: it can be enforced). */
export function compileRoot(schema: unknown, dialect: string, retrieve: Retrieve | null): [Node, Refusal[]] {
  if (!DIALECTS.includes(dialect)) throw new Error(`unknown dialect '${dialect}'; known: ${DIALECTS.join(", ")}`);
  let compiler = new Compiler(dialect, retrieve);
  let root = compiler.compile(schema);
  if (compiler.needsDynamic) {
    const fetched = compiler.fetched;
    compiler = new Compiler(dialect, retrieve, true);
    compiler.fetched = fetched;
    root = compiler.compile(schema);
  }
  return [root, compiler.refusals];
}
