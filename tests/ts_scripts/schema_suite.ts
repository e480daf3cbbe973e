/**
 * The TypeScript side of tests/test_schema_suite.py: one input per suite file, each case's verdict.
 *
 * The suite's JSON is read losslessly here (`readLossless`): an integer literal a double cannot
 * hold exactly becomes a bigint, as a lossless reader would feed the validator. Remote documents
 * come as text too and are served by the `retrieve` callback; nothing touches the network.
 */

import { SchemaRefused, compileSchema, type Check } from "../pkg/_runtime/validation.js";

/** JSON text to values, integers beyond 2**53 as bigints (the suite's bignum cases need them). */
export function readLossless(text: string): unknown {
  let at = 0;
  const space = (): void => {
    while (at < text.length && " \t\n\r".includes(text[at] as string)) at++;
  };
  const fail = (): never => {
    throw new SyntaxError(`bad JSON at ${at}`);
  };
  const value = (): unknown => {
    space();
    const c = text[at];
    if (c === "{") {
      at++;
      const out: Record<string, unknown> = {};
      space();
      if (text[at] === "}") {
        at++;
        return out;
      }
      for (;;) {
        space();
        const key = value();
        if (typeof key !== "string") fail();
        space();
        if (text[at++] !== ":") fail();
        Object.defineProperty(out, key as string, { value: value(), enumerable: true, writable: true, configurable: true });
        space();
        const next = text[at++];
        if (next === "}") return out;
        if (next !== ",") fail();
      }
    }
    if (c === "[") {
      at++;
      const out: unknown[] = [];
      space();
      if (text[at] === "]") {
        at++;
        return out;
      }
      for (;;) {
        out.push(value());
        space();
        const next = text[at++];
        if (next === "]") return out;
        if (next !== ",") fail();
      }
    }
    if (c === '"') {
      const start = at;
      at++;
      while (text[at] !== '"') at += text[at] === "\\" ? 2 : 1;
      at++;
      return JSON.parse(text.slice(start, at));
    }
    const match = /^-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?|^true|^false|^null/.exec(text.slice(at, at + 400));
    if (match === null) return fail();
    at += match[0].length;
    if (match[0] === "true") return true;
    if (match[0] === "false") return false;
    if (match[0] === "null") return null;
    const number = Number(match[0]);
    if (match[1] === undefined && match[2] === undefined && !Number.isSafeInteger(number)) return BigInt(match[0]);
    return number;
  };
  const result = value();
  space();
  if (at !== text.length) fail();
  return result;
}

type Input = { text: string; dialect: string; remotes: Record<string, string> };
type Verdict = { refused: string | null; cases: (boolean | string)[] };

export function handle(input: Input): Verdict[] {
  const cache = new Map<string, unknown>();
  const retrieve = (uri: string): unknown => {
    const text = input.remotes[uri];
    if (text === undefined) throw new Error(`no such document: ${uri}`);
    if (!cache.has(uri)) cache.set(uri, readLossless(text));
    return cache.get(uri);
  };
  const groups = readLossless(input.text) as { schema: unknown; tests: { data: unknown }[] }[];
  return groups.map((group) => {
    let check: Check;
    try {
      check = compileSchema(group.schema, { dialect: input.dialect, retrieve });
    } catch (error) {
      if (error instanceof SchemaRefused) return { refused: error.message, cases: [] };
      throw error;
    }
    const cases = group.tests.map((test) => {
      const problems: string[] = [];
      try {
        check(test.data, "", problems, false);
      } catch (error) {
        return `crash: ${error instanceof Error ? error.message : String(error)}`;
      }
      return problems.length === 0;
    });
    return { refused: null, cases };
  });
}
