/**
 * The syntax tree of an ECMA-262 pattern, and the error every pattern problem is (mirrors
 * ecma_regex_tree.py). ecma_regex_syntax builds the tree (classes already resolved into code point
 * sets), ecma_regex_rules judges it and ecma_regex writes it for JavaScript.
 */

import type { Ranges } from "./ecma_regex_sets.js";

/** A pattern that is not valid ECMA-262 (`u` mode), or that toolgen refuses. */
export class PatternError extends Error {
  /** Where the problem is, in code points from the start of `source`. */
  readonly offset: number;
  readonly source: string;

  constructor(message: string, source: string, offset: number) {
    super(message);
    this.name = "PatternError";
    this.source = source;
    this.offset = offset;
  }
}

export interface Char {
  readonly type: "char";
  readonly code: number;
}
export interface CharSet {
  readonly type: "set";
  readonly ranges: Ranges;
}
export interface Assertion {
  readonly type: "assertion";
  readonly kind: string; // ^ $ b B
}
export interface Backref {
  readonly type: "backref";
  readonly number: number; // 0 for a named reference until the pattern's names resolve it
  readonly name: string | null;
  readonly offset: number;
}
export interface Alternative {
  readonly type: "alternative";
  readonly terms: readonly Node[];
}
export interface Disjunction {
  readonly type: "disjunction";
  readonly alternatives: readonly Alternative[];
}
export interface Group {
  readonly type: "group";
  readonly body: Disjunction;
  readonly number: number | null; // null: (?:...)
  readonly offset: number;
  readonly end: number; // the offset of its ")"
}
export interface Look {
  readonly type: "look";
  readonly body: Disjunction;
  readonly behind: boolean;
  readonly negate: boolean;
  readonly offset: number;
}
export interface Repeat {
  readonly type: "repeat";
  readonly body: Node;
  readonly min: number;
  readonly max: number | null; // null: no upper bound
  readonly greedy: boolean;
  readonly offset: number;
}
export type Node = Char | CharSet | Assertion | Backref | Group | Look | Repeat;

export interface Pattern {
  readonly body: Disjunction;
  readonly groups: number;
  readonly names: ReadonlyMap<string, number>;
}

/** The group a backreference means (named ones resolved). */
export function groupNumber(pattern: Pattern, ref: Backref): number {
  return ref.name === null ? ref.number : pattern.names.get(ref.name)!;
}
