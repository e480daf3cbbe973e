/**
 * The ECMA-262 pattern grammar with the `u` flag and its early errors (mirrors
 * ecma_regex_syntax.py: the same tree, messages and offsets).
 *
 * `parse` reads a pattern, as an array of code points (surrogate pairs combined, as
 * `Array.from` splits a string), into a tree (ecma_regex_tree), or throws PatternError with the
 * offset of the problem in code points. Character classes and class escapes are resolved here
 * into code point sets (ecma_regex_sets), so the emitter only writes what the tree says.
 */

import { CLASS_ESCAPES, complement, DOT, propertyRanges, union } from "./ecma_regex_sets.js";
import type { Ranges } from "./ecma_regex_sets.js";
import { PatternError } from "./ecma_regex_tree.js";
import type { Alternative, Backref, CharSet, Disjunction, Group, Look, Node, Pattern } from "./ecma_regex_tree.js";

/** The largest repetition count: V8 reads larger ones as infinity, Python's re refuses them. */
export const MAX_COUNT = 2147483647;
/** The deepest nesting of groups and lookarounds (Python's re parses them recursively). */
export const MAX_DEPTH = 32;

const SYNTAX = "^$\\.*+?()[]{}|";
const CONTROL: ReadonlyMap<string, number> = new Map([
  ["f", 0x0c],
  ["n", 0x0a],
  ["r", 0x0d],
  ["t", 0x09],
  ["v", 0x0b],
]);
const HEX = "0123456789abcdefABCDEF";
const LOOKAROUNDS = ["(?=", "(?!", "(?<=", "(?<!"];
const SHORT_QUANTIFIERS: ReadonlyMap<string, readonly [number, number | null]> = new Map([
  ["*", [0, null]],
  ["+", [1, null]],
  ["?", [0, 1]],
]);

/** A code point as messages quote it: printable ASCII as itself, others as U+XXXX. */
export function show(code: number): string {
  return code >= 0x21 && code <= 0x7e ? String.fromCodePoint(code) : `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
}

function digit(char: string): boolean {
  return char.length === 1 && char >= "0" && char <= "9";
}

function isHex(char: string): boolean {
  return char.length === 1 && HEX.includes(char);
}

function isNameChar(code: number, first: boolean): boolean {
  const char = String.fromCodePoint(code);
  return /^[A-Za-z$_]$/.test(char) || (!first && digit(char));
}

function ord(char: string): number {
  return char.codePointAt(0)!;
}

/** Recursive descent over `text` (one code point per item); `i` is the offset of the next. */
class Parser {
  i = 0;
  groups = 0;
  depth = 0;
  readonly names = new Map<string, number>();
  readonly refs: [Backref, string][] = []; // each with its spelling, for messages

  constructor(
    readonly text: readonly string[],
    readonly source: string,
  ) {}

  error(message: string, offset: number): PatternError {
    return new PatternError(message, this.source, offset);
  }

  at(offset: number): string {
    return this.text[offset] ?? "";
  }

  startsWith(prefix: string, offset: number): boolean {
    return this.text.slice(offset, offset + prefix.length).join("") === prefix;
  }

  slice(start: number, end: number): string {
    return this.text.slice(start, end).join("");
  }

  parse(): Pattern {
    const body = this.disjunction();
    if (this.i < this.text.length) {
      throw this.error("unmatched ): write \\) to match the character itself", this.i);
    }
    for (const [ref, spelling] of this.refs) {
      if (ref.name !== null && !this.names.has(ref.name)) {
        throw this.error(`${spelling} refers to no group named ${ref.name}`, ref.offset);
      }
      if (ref.name === null && ref.number > this.groups) {
        const plural = this.groups === 1 ? "" : "s";
        const message =
          `${spelling} refers to group ${spelling.slice(1)}, but the pattern has ` +
          `${this.groups} capturing group${plural}`;
        throw this.error(message, ref.offset);
      }
    }
    return { body, groups: this.groups, names: this.names };
  }

  disjunction(): Disjunction {
    const alternatives = [this.alternative()];
    while (this.at(this.i) === "|") {
      this.i += 1;
      alternatives.push(this.alternative());
    }
    return { type: "disjunction", alternatives };
  }

  alternative(): Alternative {
    const terms: Node[] = [];
    while (this.i < this.text.length && !"|)".includes(this.text[this.i]!)) terms.push(this.term());
    return { type: "alternative", terms };
  }

  term(): Node {
    const char = this.text[this.i]!;
    let node: Node;
    if (char === "^" || char === "$") {
      this.i += 1;
      node = { type: "assertion", kind: char };
    } else if (char === "\\" && (this.at(this.i + 1) === "b" || this.at(this.i + 1) === "B")) {
      node = { type: "assertion", kind: this.text[this.i + 1]! };
      this.i += 2;
    } else if (LOOKAROUNDS.some((prefix) => this.startsWith(prefix, this.i))) {
      node = this.look();
    } else {
      return this.quantified(this.atom());
    }
    if (this.quantifierLength()) {
      const message = "an assertion (^, $, \\b, \\B or a lookaround) cannot be repeated: remove the quantifier";
      throw this.error(message, this.i);
    }
    return node;
  }

  /** How long the quantifier at `i` is (`*`, `{2,5}`, ...); 0 when there is none. */
  quantifierLength(): number {
    const char = this.at(this.i);
    if (char === "*" || char === "+" || char === "?") return 1;
    if (char !== "{" || !digit(this.at(this.i + 1))) return 0;
    let end = this.digitsEnd(this.i + 1);
    if (this.at(end) === ",") end = this.digitsEnd(end + 1);
    return this.at(end) === "}" ? end + 1 - this.i : 0;
  }

  digitsEnd(offset: number): number {
    while (digit(this.at(offset))) offset += 1;
    return offset;
  }

  quantified(atom: Node): Node {
    const length = this.quantifierLength();
    if (!length) return atom;
    const offset = this.i;
    const spelling = this.slice(offset, offset + length);
    this.i += length;
    let [low, high] = SHORT_QUANTIFIERS.get(spelling) ?? [0, null];
    if (spelling.startsWith("{")) {
      const parts = spelling.slice(1, -1).split(",");
      if (parts.some((part) => part.length > 10 || Number(part || "0") > MAX_COUNT)) {
        throw this.error(`toolgen does not support repetition counts above ${MAX_COUNT}`, offset);
      }
      low = Number(parts[0]);
      high = parts.length === 1 ? low : parts[1] ? Number(parts[1]) : null;
      if (high !== null && low > high) {
        throw this.error(`the quantifier ${spelling} has its numbers out of order: write {${high},${low}}`, offset);
      }
    }
    const greedy = this.at(this.i) !== "?";
    if (!greedy) this.i += 1;
    return { type: "repeat", body: atom, min: low, max: high, greedy, offset };
  }

  atom(): Node {
    const char = this.text[this.i]!;
    if (char === ".") {
      this.i += 1;
      return { type: "set", ranges: DOT };
    }
    if (char === "(") return this.group();
    if (char === "[") return this.charClass();
    if (char === "\\") return this.atomEscape();
    if ("*+?".includes(char) || (char === "{" && this.quantifierLength())) {
      throw this.error(`nothing to repeat before ${char}: write \\${char} to match the character itself`, this.i);
    }
    if (char === "{" && this.at(this.i + 1) === ",") {
      const message = "{,n} is not an ECMA-262 quantifier: write {0,n}, or \\{ to match the character itself";
      throw this.error(message, this.i);
    }
    if ("{}]".includes(char)) {
      throw this.error(`lone ${char}: write \\${char} to match the character itself`, this.i);
    }
    this.i += 1;
    return { type: "char", code: ord(char) };
  }

  enter(offset: number): void {
    this.depth += 1;
    if (this.depth > MAX_DEPTH) {
      throw this.error(`toolgen does not support groups nested deeper than ${MAX_DEPTH} levels`, offset);
    }
  }

  /** Consume the `)` of the group or lookaround opened at `offset`; its offset. */
  close(offset: number, what: string): number {
    if (this.at(this.i) !== ")") throw this.error(`missing ) to close the ${what} that opens here`, offset);
    this.depth -= 1;
    this.i += 1;
    return this.i - 1;
  }

  look(): Look {
    const offset = this.i;
    const behind = this.text[this.i + 2] === "<";
    const negate = this.text[this.i + 2 + (behind ? 1 : 0)] === "!";
    this.i += 3 + (behind ? 1 : 0);
    this.enter(offset);
    const body = this.disjunction();
    this.close(offset, behind ? "lookbehind" : "lookahead");
    return { type: "look", body, behind, negate, offset };
  }

  group(): Group {
    const offset = this.i;
    this.enter(offset);
    let number: number | null = null;
    if (this.startsWith("(?:", offset)) {
      this.i += 3;
    } else if (this.startsWith("(?<", offset)) {
      this.i += 3;
      const name = this.groupName();
      if (this.names.has(name)) {
        const message =
          `toolgen does not support the group name ${name} twice (ES2025 allows it ` +
          "in separate alternatives, older engines do not): give each group its own name";
        throw this.error(message, offset);
      }
      this.groups += 1;
      number = this.groups;
      this.names.set(name, number);
    } else if (this.at(offset + 1) === "?") {
      if (["i", "m", "s", "-"].includes(this.at(offset + 2))) {
        const message =
          "toolgen does not support modifier groups like (?i:...) (ES2025): spell the " +
          "cases out instead, e.g. [Aa] for a";
        throw this.error(message, offset);
      }
      throw this.error("invalid group: (? must be followed by :, =, !, <=, <! or <name>", offset);
    } else {
      this.i += 1;
      this.groups += 1;
      number = this.groups;
    }
    const body = this.disjunction();
    const end = this.close(offset, "group");
    return { type: "group", body, number, offset, end };
  }

  /** The name after `<` up to `>`: ASCII letters, digits, $ and _ (escapes allowed). */
  groupName(): string {
    const name: string[] = [];
    while (this.at(this.i) !== ">") {
      const offset = this.i;
      const char = this.at(offset);
      if (!char) throw this.error("missing > after the group name", offset);
      let code: number;
      if (char === "\\" && this.at(offset + 1) === "u") {
        this.i += 1;
        code = this.unicodeEscape(offset);
      } else {
        this.i += 1;
        code = ord(char);
      }
      if (code > 0x7f) {
        const message =
          "toolgen does not support non-ASCII group names (which ones JavaScript " +
          "allows depends on its Unicode version): use ASCII letters, digits, $ and _";
        throw this.error(message, offset);
      }
      if (!isNameChar(code, name.length === 0)) {
        const message =
          "invalid group name: start it with an ASCII letter, $ or _, " + "and go on with those or digits";
        throw this.error(message, offset);
      }
      name.push(String.fromCodePoint(code));
    }
    if (name.length === 0) throw this.error("empty group name: write (?<name>...)", this.i);
    this.i += 1;
    return name.join("");
  }

  /** Step over the backslash at `i`: its offset and the character after it. */
  backslash(): [number, string] {
    const offset = this.i;
    this.i += 1;
    const char = this.at(this.i);
    if (!char) throw this.error("\\ at the end of the pattern: write \\\\ to match a backslash", offset);
    return [offset, char];
  }

  atomEscape(): Node {
    const [offset, char] = this.backslash();
    if ("123456789".includes(char)) {
      this.i = this.digitsEnd(this.i);
      const digits = this.slice(offset + 1, this.i);
      const number = digits.length <= 9 ? Number(digits) : MAX_COUNT;
      const ref: Backref = { type: "backref", number, name: null, offset };
      this.refs.push([ref, "\\" + digits]);
      return ref;
    }
    if (char === "k") {
      this.i += 1;
      if (this.at(this.i) !== "<") {
        throw this.error("\\k must be followed by a group name in angle brackets: \\k<name>", offset);
      }
      this.i += 1;
      const name = this.groupName();
      const ref: Backref = { type: "backref", number: 0, name, offset };
      this.refs.push([ref, `\\k<${name}>`]);
      return ref;
    }
    const escape = CLASS_ESCAPES.get(char);
    if (escape !== undefined) {
      this.i += 1;
      return { type: "set", ranges: escape };
    }
    if (char === "p" || char === "P") return { type: "set", ranges: this.property(offset) };
    return { type: "char", code: this.characterEscape(offset, false) };
  }

  /** The code point of the escape whose backslash is at `offset` (`i` is after it). */
  characterEscape(offset: number, inClass: boolean): number {
    const char = this.text[this.i]!;
    const follows = this.at(this.i + 1);
    const control = CONTROL.get(char);
    if (control !== undefined) {
      this.i += 1;
      return control;
    }
    if (char === "c") {
      if (!/^[A-Za-z]$/.test(follows)) {
        throw this.error("\\c must be followed by a letter A-Z or a-z: write \\\\c to match \\ and c", offset);
      }
      this.i += 2;
      return ord(follows) % 32;
    }
    if (char === "0") {
      if (digit(follows)) {
        const message =
          "\\0 followed by a digit is an octal escape, which ECMA-262 does not allow " +
          "with the u flag: write the character as \\xHH";
        throw this.error(message, offset);
      }
      this.i += 1;
      return 0;
    }
    if (char === "x") {
      const digits = this.slice(this.i + 1, this.i + 3);
      if (!isHex(this.at(this.i + 1)) || !isHex(this.at(this.i + 2))) {
        throw this.error("\\x must be followed by two hex digits, as in \\x41", offset);
      }
      this.i += 3;
      return parseInt(digits, 16);
    }
    if (char === "u") return this.unicodeEscape(offset);
    if (SYNTAX.includes(char) || char === "/" || (inClass && char === "-")) {
      this.i += 1;
      return ord(char);
    }
    const where = inClass ? " in a character class" : "";
    const allowed = inClass ? "^ $ \\ . * + ? ( ) [ ] { } | / -" : "^ $ \\ . * + ? ( ) [ ] { } | /";
    const message =
      `invalid escape \\${show(ord(char))}${where}: with the u flag only ${allowed} ` +
      "can be escaped; write the character itself";
    throw this.error(message, offset);
  }

  /** `\uXXXX` (a surrogate pair of them is one code point) or `\u{X...}`; `i` is at u. */
  unicodeEscape(offset: number): number {
    this.i += 1;
    if (this.at(this.i) === "{") {
      let end = this.i + 1;
      while (isHex(this.at(end))) end += 1;
      if (end === this.i + 1 || this.at(end) !== "}") {
        throw this.error("\\u{ must be followed by hex digits and }, as in \\u{1F600}", offset);
      }
      const digits = this.slice(this.i + 1, end).replace(/^0+/, "");
      if (digits.length > 6 || parseInt(digits || "0", 16) > 0x10ffff) {
        throw this.error("\\u{...} is past the last code point \\u{10FFFF}", offset);
      }
      this.i = end + 1;
      return parseInt(digits || "0", 16);
    }
    const code = this.hex4(this.i);
    if (code === null) {
      const message = "\\u must be followed by four hex digits or a code point in braces: \\u0041, \\u{1F600}";
      throw this.error(message, offset);
    }
    this.i += 4;
    if (code >= 0xd800 && code <= 0xdbff && this.startsWith("\\u", this.i)) {
      const low = this.hex4(this.i + 2);
      if (low !== null && low >= 0xdc00 && low <= 0xdfff) {
        this.i += 6;
        return 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
      }
    }
    return code;
  }

  hex4(start: number): number | null {
    for (let k = start; k < start + 4; k++) if (!isHex(this.at(k))) return null;
    return parseInt(this.slice(start, start + 4), 16);
  }

  /** `\p{..}` or `\P{..}`; `i` is at the p. */
  property(offset: number): Ranges {
    const negate = this.text[this.i] === "P";
    this.i += 1;
    if (this.at(this.i) !== "{") {
      throw this.error("\\p must be followed by a property in braces, as in \\p{L} or \\p{gc=Lu}", offset);
    }
    const end = this.text.indexOf("}", this.i);
    if (end < 0) throw this.error("missing } to close \\p{", offset);
    const found = propertyRanges(this.slice(this.i + 1, end));
    if (typeof found === "string") throw this.error(found, offset);
    this.i = end + 1;
    return negate ? complement(found) : found;
  }

  charClass(): CharSet {
    const offset = this.i;
    this.i += 1;
    const negate = this.at(this.i) === "^";
    if (negate) this.i += 1;
    const parts: Ranges[] = [];
    while (this.at(this.i) !== "]") {
      if (!this.at(this.i)) throw this.error("missing ] to close the character class that opens here", offset);
      const start = this.i;
      const first = this.classAtom();
      if (this.at(this.i) === "-" && !["]", ""].includes(this.at(this.i + 1))) {
        this.i += 1;
        const last = this.classAtom();
        if (typeof first !== "number" || typeof last !== "number") {
          const message =
            "a class escape (\\d, \\w, \\s, \\p{..}, ...) cannot be the end of a range: " +
            "write the - as \\- to match it";
          throw this.error(message, start);
        }
        if (first > last) {
          const message = `the range ${show(first)}-${show(last)} is out of order: write the smaller character first`;
          throw this.error(message, start);
        }
        parts.push([[first, last]]);
      } else {
        parts.push(typeof first === "number" ? [[first, first]] : first);
      }
    }
    this.i += 1;
    const ranges = union(parts);
    return { type: "set", ranges: negate ? complement(ranges) : ranges };
  }

  /** One class member: a code point, or the set of a class escape. */
  classAtom(): number | Ranges {
    const first = this.text[this.i]!;
    if (first !== "\\") {
      this.i += 1;
      return ord(first);
    }
    const [offset, char] = this.backslash();
    if (char === "b") {
      this.i += 1;
      return 0x08;
    }
    const escape = CLASS_ESCAPES.get(char);
    if (escape !== undefined) {
      this.i += 1;
      return escape;
    }
    if (char === "p" || char === "P") return this.property(offset);
    return this.characterEscape(offset, true);
  }
}

/** The tree of `source` (read by code points); PatternError if invalid. */
export function parse(source: string): Pattern {
  return new Parser(Array.from(source), source).parse();
}
