/**
 * ECMA-262 regular expressions (`u` flag semantics) for JSON Schema's `pattern` keywords
 * (mirrors ecma_regex.py: the same answers and the same errors).
 *
 * `compilePattern` reads a pattern with the same parser as the Python runtime
 * (ecma_regex_syntax), refuses what the Python runtime refuses (ecma_regex_rules; ecma_regex.py's
 * docstring lists the rules), and writes the tree back as a `u`-flag RegExp in which every class,
 * `\p{..}` and `\s` included, is spelled out as code point ranges from the committed Unicode
 * table: the answers do not depend on the engine's Unicode version.
 */

import { complement, MAX_CODE } from "./ecma_regex_sets.js";
import type { Ranges } from "./ecma_regex_sets.js";
import { plan } from "./ecma_regex_rules.js";
import type { Plan } from "./ecma_regex_rules.js";
import { parse } from "./ecma_regex_syntax.js";
import { PatternError } from "./ecma_regex_tree.js";
import type { Alternative, Disjunction, Node, Repeat } from "./ecma_regex_tree.js";

export { PatternError } from "./ecma_regex_tree.js";

function char(code: number): string {
  return /^[A-Za-z0-9_]$/.test(String.fromCodePoint(code)) ? String.fromCodePoint(code) : `\\u{${code.toString(16)}}`;
}

function ranges(set: Ranges): string {
  return set.map(([first, last]) => char(first) + (first === last ? "" : "-" + char(last))).join("");
}

function charSet(set: Ranges): string {
  if (set.length === 1 && set[0]![0] === set[0]![1]) return char(set[0]![0]);
  const others = complement(set);
  if (set.length === 0 || others.length === 0) return `[${set.length === 0 ? "^" : ""}\\u{0}-${char(MAX_CODE)}]`;
  return others.length < set.length ? `[^${ranges(others)}]` : `[${ranges(set)}]`;
}

function quantifier(node: Repeat): string {
  const low = node.min;
  const high = node.max;
  let text: string;
  if (high === null) text = low === 0 ? "*" : low === 1 ? "+" : `{${low},}`;
  else text = low === 0 && high === 1 ? "?" : low === high ? `{${low}}` : `{${low},${high}}`;
  return node.greedy ? text : text + "?";
}

class Emitter {
  constructor(readonly refs: Plan) {}

  disjunction(node: Disjunction): string {
    return node.alternatives.map((alternative) => this.alternative(alternative)).join("|");
  }

  alternative(node: Alternative): string {
    return node.terms.map((term) => this.node(term)).join("");
  }

  node(node: Node): string {
    switch (node.type) {
      case "char":
        return char(node.code);
      case "set":
        return charSet(node.ranges);
      case "assertion":
        return node.kind === "b" || node.kind === "B" ? "\\" + node.kind : node.kind;
      case "backref": {
        // JavaScript matches an unset group as empty: one spelling serves plain, if and empty
        const [number, mode] = this.refs.refs.get(node.offset)!;
        return mode === "empty" ? "(?:)" : `(?:\\${number})`;
      }
      case "group":
        return (node.number !== null ? "(" : "(?:") + this.disjunction(node.body) + ")";
      case "look":
        return `(?${node.behind ? "<" : ""}${node.negate ? "!" : "="}${this.disjunction(node.body)})`;
      case "repeat":
        return this.node(node.body) + quantifier(node);
    }
  }
}

/** The JavaScript source (`u` flag) that matches as `source` does; PatternError if refused or invalid. */
export function javascriptSource(source: string): string {
  const pattern = parse(source);
  return new Emitter(plan(pattern, source)).disjunction(pattern.body);
}

const CACHE_SIZE = 1024;
const CACHE = new Map<string, (text: string) => boolean>();

/** A function telling whether `source` matches anywhere in a text; throws PatternError otherwise. */
export function compilePattern(source: string): (text: string) => boolean {
  // a schema's pattern may be anything
  if (typeof source !== "string") throw new PatternError("a pattern must be a string", "", 0);
  let found = CACHE.get(source);
  if (found === undefined) {
    const translated = javascriptSource(source);
    let regexp: RegExp;
    try {
      regexp = new RegExp(translated, "u");
    } catch (error) {
      // a gap in the translation
      const reason = error instanceof Error ? error.message : String(error);
      throw new PatternError(`toolgen could not translate this pattern for JavaScript (${reason}); please report it`, source, 0);
    }
    found = (text: string): boolean => regexp.test(text);
    if (CACHE.size >= CACHE_SIZE) CACHE.delete(CACHE.keys().next().value!);
    CACHE.set(source, found);
  }
  return found;
}
