/**
 * Code point sets for ecma_regex: classes, class escapes and `\p{..}`, as sorted ranges
 * (mirrors ecma_regex_sets.py).
 *
 * A set is an array of `[first, last]` code point ranges, sorted, disjoint and not adjacent, so
 * two equal sets have one spelling. The emitter writes every class as these explicit ranges, so
 * what `\s`, `.` or `\p{L}` means never depends on the engine or its Unicode version: the
 * General_Category data is the committed table in unicode_data.ts (Unicode 17.0.0).
 */

import {
  BINARY_PROPERTIES,
  CATEGORIES,
  CATEGORY_RUNS,
  DIGITS,
  GENERAL_CATEGORY_NAMES,
  GENERAL_CATEGORY_VALUES,
  SCRIPT_NAMES,
} from "./unicode_data.js";

export type Ranges = readonly (readonly [number, number])[];
export const MAX_CODE = 0x10ffff;

/** All the code points of `sets`, merged into one sorted spelling. */
export function union(sets: Iterable<Ranges>): Ranges {
  const all: (readonly [number, number])[] = [];
  for (const ranges of sets) all.push(...ranges);
  all.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: [number, number][] = [];
  for (const [first, last] of all) {
    const top = merged[merged.length - 1];
    if (top !== undefined && first <= top[1] + 1) top[1] = Math.max(top[1], last);
    else merged.push([first, last]);
  }
  return merged;
}

/** Every code point U+0000..U+10FFFF that `ranges` lacks. */
export function complement(ranges: Ranges): Ranges {
  const out: [number, number][] = [];
  let start = 0;
  for (const [first, last] of ranges) {
    if (first > start) out.push([start, first - 1]);
    start = last + 1;
  }
  if (start <= MAX_CODE) out.push([start, MAX_CODE]);
  return out;
}

const DIGIT: Ranges = [[0x30, 0x39]];
const WORD: Ranges = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
// ECMA-262 WhiteSpace and LineTerminator: \t \n \v \f \r, space, U+00A0, U+1680, U+2000..U+200A,
// U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF (the Zs list as of Unicode 17).
const SPACE: Ranges = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];
const LINE_TERMINATORS: Ranges = [
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
];

/** What `.` matches without the `s` flag: any code point but a line terminator. */
export const DOT: Ranges = /* @__PURE__ */ complement(LINE_TERMINATORS);

/** `\d \D \w \W \s \S` as ECMA-262 defines them with the `u` flag and without `i`. */
export const CLASS_ESCAPES: ReadonlyMap<string, Ranges> = new Map([
  ["d", DIGIT],
  ["D", /* @__PURE__ */ complement(DIGIT)],
  ["w", WORD],
  ["W", /* @__PURE__ */ complement(WORD)],
  ["s", SPACE],
  ["S", /* @__PURE__ */ complement(SPACE)],
]);

// ---- \p{..} ----------------------------------------------------------------------------------

let categoriesCache: Map<string, Ranges> | null = null;
let valuesCache: Map<string, Ranges> | null = null;

/** Each General_Category (`Lu`, `Nd`, ...) as ranges, decoded once from the table. */
function categories(): Map<string, Ranges> {
  if (categoriesCache !== null) return categoriesCache;
  const names = CATEGORIES.split(" ");
  const found = new Map<string, [number, number][]>(names.map((name) => [name, []]));
  let code = 0;
  let value = 0;
  for (const char of CATEGORY_RUNS) {
    const digit = DIGITS.indexOf(char);
    if (digit >= 32) {
      value = value * 32 + digit - 32;
      continue;
    }
    value = value * 32 + digit;
    const length = Math.floor(value / names.length);
    found.get(names[value % names.length]!)!.push([code, code + length]);
    code += length + 1;
    value = 0;
  }
  categoriesCache = found;
  return found;
}

/** Every name \p{..} answers: General_Category values and aliases, Any, ASCII, Assigned. */
function values(): Map<string, Ranges> {
  if (valuesCache !== null) return valuesCache;
  const byCategory = categories();
  const found = new Map<string, Ranges>();
  for (const [name, codes] of GENERAL_CATEGORY_VALUES) {
    found.set(name, union(codes.split(" ").map((code) => byCategory.get(code)!)));
  }
  found.set("Any", [[0, MAX_CODE]]);
  found.set("ASCII", [[0, 0x7f]]);
  found.set("Assigned", complement(byCategory.get("Cn")!));
  valuesCache = found;
  return found;
}

const LONE = /^[A-Za-z0-9_]+$/;
const PAIR = /^([A-Za-z_]+)=([A-Za-z0-9_]+)$/;
const SUPPORTED = "General_Category values (L, Lu, Nd, Letter, ...), Any, ASCII or Assigned";

/** The set `\p{body}` stands for, or the message saying why it is an error or refused. */
export function propertyRanges(body: string): Ranges | string {
  const pair = PAIR.exec(body);
  if (pair !== null) {
    const name = pair[1]!;
    const value = pair[2]!;
    if (GENERAL_CATEGORY_NAMES.split(" ").includes(name)) {
      const found = values().get(value);
      if (found === undefined || ["Any", "ASCII", "Assigned"].includes(value)) {
        return `unknown General_Category value ${value}: write one like L, Lu, Nd, Letter or Decimal_Number`;
      }
      return found;
    }
    if (SCRIPT_NAMES.split(" ").includes(name)) {
      return (
        `toolgen does not support the Unicode property ${name}=${value}: ` +
        `use ${SUPPORTED}, or list the characters in a class`
      );
    }
    return (
      `unknown Unicode property ${name}: ECMA-262 knows General_Category (gc), ` +
      "Script (sc) and Script_Extensions (scx)"
    );
  }
  if (!LONE.test(body)) {
    return "invalid Unicode property escape: write \\p{Value} or \\p{Name=Value} with ASCII letters, digits and _";
  }
  const found = values().get(body);
  if (found !== undefined) return found;
  if (BINARY_PROPERTIES.split(" ").includes(body)) {
    return `toolgen does not support the Unicode property ${body}: use ${SUPPORTED}, or list the characters in a class`;
  }
  return `unknown Unicode property ${body}: write a General_Category value (L, Nd, Letter, ...), Any, ASCII or Assigned`;
}
