/**
 * What toolgen refuses in a parsed pattern, because Python's `re` cannot match it as ECMA-262
 * does (mirrors ecma_regex_rules.py: the same decisions and messages).
 *
 * `plan` walks the tree once and either throws the first refusal (by offset) or says how each
 * backreference is written: `plain` (the group surely matched before, in the same round of every
 * repetition around both), `if` (it may not have matched, and no repetition can leave an older
 * value: Python writes `(?(N)\N)`), `empty` (the group is in another alternative and no
 * repetition holds both). JavaScript matches an unset group as empty, so `\N` serves all three.
 */

import { groupNumber, PatternError } from "./ecma_regex_tree.js";
import type { Alternative, Backref, Disjunction, Group, Node, Pattern } from "./ecma_regex_tree.js";

type Tree = Node | Alternative | Disjunction;

/** The most rounds a repetition must run when they can match nothing (V8 overflows at millions). */
export const MAX_EMPTY_ROUNDS = 100000;

export interface Plan {
  /** A backreference's offset: [group number, plain | if | empty]. */
  readonly refs: ReadonlyMap<number, readonly [number, string]>;
}

function children(node: Tree): readonly Tree[] {
  switch (node.type) {
    case "disjunction":
      return node.alternatives;
    case "alternative":
      return node.terms;
    case "group":
    case "look":
    case "repeat":
      return [node.body];
    default:
      return [];
  }
}

/** The fewest and the most code points `node` can match (null: no limit). */
export function width(node: Tree): readonly [number, number | null] {
  switch (node.type) {
    case "char":
    case "set":
      return [1, 1];
    case "assertion":
    case "look":
      return [0, 0];
    case "backref":
      return [0, null];
    case "group":
      return width(node.body);
    case "repeat": {
      const [low, high] = width(node.body);
      if (node.max === null) return [low * node.min, high !== 0 ? null : 0];
      return [low * node.min, high === null ? null : high * node.max];
    }
    default: {
      const spans = children(node).map(width);
      const highs = spans.map(([, high]) => high);
      const bounded = highs.includes(null) ? null : (highs as number[]);
      if (node.type === "alternative") {
        const sum = (values: number[]): number => values.reduce((a, b) => a + b, 0);
        return [sum(spans.map(([low]) => low)), bounded === null ? null : sum(bounded)];
      }
      return [Math.min(...spans.map(([low]) => low)), bounded === null ? null : Math.max(...bounded)];
    }
  }
}

function nullable(node: Tree): boolean {
  return width(node)[0] === 0;
}

/** A repetition that can run its body more than once. */
function repeats(node: Tree): boolean {
  return node.type === "repeat" && (node.max === null || node.max > 1);
}

/** A step down the tree that may be skipped: one alternative of several, or a min-0 repetition. */
function optional(node: Tree): boolean {
  if (node.type === "disjunction") return node.alternatives.length > 1;
  return node.type === "repeat" && node.min === 0;
}

/** A repetition on the way down to a group that may end on a round that did not set it
 * (the group is skipped in a round, or the round matched nothing and JavaScript drops it). */
function unsteady(inner: readonly Tree[]): boolean {
  return inner.some(
    (node, index) =>
      node.type === "repeat" && repeats(node) && (nullable(node.body) || inner.slice(index + 1).some(optional)),
  );
}

class Walk {
  readonly groups = new Map<number, [Group, readonly Tree[]]>();
  readonly refs: [Backref, readonly Tree[]][] = [];
  readonly problems: [number, string][] = [];

  constructor(readonly pattern: Pattern) {
    this.visit(pattern.body, []);
  }

  visit(node: Tree, path: readonly Tree[]): void {
    if (node.type === "group" && node.number !== null) {
      this.groups.set(node.number, [node, path]);
    } else if (node.type === "backref") {
      this.refs.push([node, path]);
    } else if (node.type === "look" && node.behind) {
      if (node.body.alternatives.some((alternative) => new Set(width(alternative)).size !== 1)) {
        const message =
          "toolgen does not support a lookbehind that can match texts of different " +
          "lengths in one alternative (Python's re needs fixed lengths): give each " +
          "alternative one length, e.g. (?<=ab|abc) instead of (?<=abc?)";
        this.problems.push([node.offset, message]);
      }
    } else if (node.type === "repeat" && node.min > MAX_EMPTY_ROUNDS && nullable(node.body)) {
      const message =
        `toolgen does not support a minimum count above ${MAX_EMPTY_ROUNDS} for a part ` +
        "that can match the empty string (JavaScript runs out of stack on it): make " +
        "the part match at least one character";
      this.problems.push([node.offset, message]);
    }
    for (const child of children(node)) this.visit(child, [...path, node]);
  }

  /** How `ref` is written (plain, if, empty), or the message refusing it. */
  mode(ref: Backref, path: readonly Tree[]): string {
    const number = groupNumber(this.pattern, ref);
    const [group, groupPath] = this.groups.get(number)!;
    const spelling = ref.name !== null ? `\\k<${ref.name}>` : `\\${number}`;
    const refused = `toolgen does not support the backreference ${spelling}`;
    if (group.end > ref.offset) {
      return (
        `${refused} before its group closes (JavaScript matches it as empty there, ` +
        "Python's re refuses it): put it after the group"
      );
    }
    if (groupPath.some((node) => node.type === "look")) {
      return (
        `${refused} to a group inside a lookaround (the engines keep different ` +
        "captures there): capture the text outside the lookaround"
      );
    }
    if (path.some((node) => node.type === "look" && node.behind)) {
      return (
        `${refused} inside a lookbehind (JavaScript matches lookbehinds right to ` +
        "left): match the repeated text outside the lookbehind"
      );
    }
    let common = 0;
    while (common < Math.min(path.length, groupPath.length) && path[common] === groupPath[common]) common += 1;
    const outer = groupPath.slice(0, common);
    const inner = [...groupPath.slice(common), group];
    const repeated =
      `${refused} to a group in a repetition that may leave it unset or holding an ` +
      "earlier round's text (JavaScript and Python's re keep different captures " +
      "then): capture the whole repetition, e.g. ((?:ab)+) instead of (?:(ab))+";
    if (unsteady(inner)) return repeated;
    const around = outer.some(repeats);
    if (outer[outer.length - 1]!.type === "disjunction") return around ? repeated : "empty";
    if (!inner.some(optional)) return "plain";
    return around ? repeated : "if";
  }
}

/** How to write each backreference; PatternError for the first refused construct. */
export function plan(pattern: Pattern, source: string): Plan {
  const walk = new Walk(pattern);
  const refs = new Map<number, readonly [number, string]>();
  for (const [ref, path] of walk.refs) {
    const mode = walk.mode(ref, path);
    if (["plain", "if", "empty"].includes(mode)) refs.set(ref.offset, [groupNumber(pattern, ref), mode]);
    else walk.problems.push([ref.offset, mode]);
  }
  if (walk.problems.length > 0) {
    const [offset, message] = walk.problems.reduce((a, b) => (b[0] < a[0] || (b[0] === a[0] && b[1] < a[1]) ? b : a));
    throw new PatternError(message, source, offset);
  }
  return { refs };
}
