/**
 * Building blocks of the XML call parser (mirrors xml_grammar.py): tags per tool and text helpers.
 *
 * Offsets are UTF-16 code-unit offsets; every tag and every whitespace code point is in the Basic
 * Multilingual Plane or a whole surrogate pair, so the parser reads the same calls as Python's.
 */

import { JS_WHITESPACE } from "./predicates.js";
import { pyLen } from "./pyspell.js";

const WS = new Set(JS_WHITESPACE);
/** First character that String.prototype.trim would keep (sticky search via lastIndex). */
const NON_WS = new RegExp("[^" + Array.from(JS_WHITESPACE, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0")).join("") + "]", "g");

function isWs(ch: string | undefined): boolean {
  return ch !== undefined && WS.has(ch);
}

/** Offset of the first non-whitespace character in text[start:end], or -1. */
export function nonWs(text: string, start: number, end: number = text.length): number {
  NON_WS.lastIndex = start;
  const m = NON_WS.exec(text);
  return m === null || m.index >= end ? -1 : m.index;
}

export function isBlank(text: string): boolean {
  return text.trim() === "";
}

/** trim(text.slice(start, end)), scanning only the ends. */
export function span(text: string, start: number, end: number): string {
  const first = nonWs(text, start, end);
  if (first < 0) return "";
  let stop = end;
  while (stop > first && WS.has(text[stop - 1] as string)) stop--;
  return text.slice(first, stop);
}

/** Drop a trailing proper prefix of any of `tags`. */
export function dropPartialTag(text: string, tags: readonly string[]): string {
  const lt = text.lastIndexOf("<");
  if (lt >= 0) {
    const tail = text.slice(lt);
    if (tags.some((tag) => tail.length < tag.length && tag.startsWith(tail))) return text.slice(0, lt);
  }
  return text;
}

/** Tags built from such names never overlap (needed to keep state between feeds). */
function sane(name: string): boolean {
  return !name.includes("<") && !name.includes(">");
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}

function byLengthDesc(items: Iterable<string>): string[] {
  // Python's sorted(key=len, reverse=True) is stable: equal lengths keep their order
  return [...items].map((x, i) => [x, i] as const).sort((p, q) => pyLen(q[0]) - pyLen(p[0]) || p[1] - q[1]).map((p) => p[0]);
}

export class ToolGrammar {
  readonly name: string;
  readonly close: string;
  /** Parameter names in the order a `<param>` alternation tries them. */
  readonly order: readonly string[];
  readonly openTag: ReadonlyMap<string, string>;
  readonly closeTag: ReadonlyMap<string, string>;
  readonly openOf: ReadonlyMap<string, string>;
  readonly closeOf: ReadonlyMap<string, string>;
  /** Tags that make the text between parameters not plain text. */
  readonly strayTags: readonly string[];
  readonly tags: readonly string[];
  /** Finds "<" where a tag of this tool starts; group 1 is the tag without its "<". */
  readonly tagRe: RegExp;
  readonly maxTag: number;
  readonly content: ReadonlySet<string>;
  readonly sane: boolean;

  constructor(name: string, params: readonly string[], contentParams: ReadonlySet<string>) {
    this.name = name;
    this.close = `</${name}>`;
    const names = [...new Set(params)].filter((p) => p);
    this.order = byLengthDesc(names);
    this.openTag = new Map(names.map((p) => [p, `<${p}>`]));
    this.closeTag = new Map(names.map((p) => [p, `</${p}>`]));
    this.openOf = new Map(names.map((p) => [`<${p}>`, p]));
    this.closeOf = new Map(names.map((p) => [`</${p}>`, p]));
    this.strayTags = [...names.map((p) => `<${p}>`), this.close];
    this.tags = [...new Set([...names.map((p) => `<${p}>`), this.close, ...names.map((p) => `</${p}>`)])];
    const alts = byLengthDesc(this.tags).map((tag) => escapeRegExp(tag.slice(1))).join("|");
    this.tagRe = new RegExp(`<(?=(${alts}))`, "g");
    this.maxTag = Math.max(...this.tags.map((tag) => tag.length));
    this.content = new Set(names.filter((p) => contentParams.has(p)));
    this.sane = sane(name) && names.every(sane);
  }
}

export class Grammar {
  readonly content: ReadonlySet<string>;
  readonly params: ReadonlyMap<string, readonly string[]>;
  readonly maxOpen: number;
  /** Whether the open call's reading may be kept between feeds. */
  readonly sane: boolean;
  readonly openRe: RegExp | null;
  private readonly grammars = new Map<string, ToolGrammar>();

  constructor(tools: { readonly [name: string]: readonly string[] }, contentParams: Iterable<string>) {
    this.content = new Set(contentParams);
    this.params = new Map(Object.entries(tools).filter(([name]) => name));
    const names = [...this.params.keys()];
    this.maxOpen = Math.max(0, ...names.map((n) => n.length + 2));
    this.sane = [...this.params].every(([name, params]) => sane(name) && params.every(sane));
    this.openRe = names.length > 0 ? new RegExp(`<(${byLengthDesc(names).map(escapeRegExp).join("|")})>`, "g") : null;
  }

  tool(name: string): ToolGrammar {
    let grammar = this.grammars.get(name);
    if (grammar === undefined) {
      grammar = new ToolGrammar(name, this.params.get(name) ?? [], this.content);
      this.grammars.set(name, grammar);
    }
    return grammar;
  }
}

/** The last index <= `j` not known dead (-1 if none); dead `j` has parent `j - 1`. */
export function find(parent: number[], j: number): number {
  let root = j;
  while (root >= 0 && parent[root] !== root) root = parent[root] as number;
  while (j > root) {
    const next = parent[j] as number;
    parent[j] = root;
    j = next;
  }
  return root;
}

/** Where `x` goes in the sorted `list`: before equal items, or after them with `right`. */
function bisect(list: readonly number[], x: number, right: boolean): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const item = list[mid] as number;
    if (item < x || (right && item === x)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Python's `bisect.bisect_left`. */
export function bisectLeft(list: readonly number[], x: number): number {
  return bisect(list, x, false);
}

/** Python's `bisect.bisect_right`. */
export function bisectRight(list: readonly number[], x: number): number {
  return bisect(list, x, true);
}

/**
 * The text being read, as a few flat strings (oldest and longest first): appending a chunk never
 * copies the whole text, unlike `text += chunk` followed by a read (a JavaScript string cannot grow
 * in place, so V8 would flatten the whole text on every feed). Parts merge like a binary counter,
 * so there are O(log n) of them and each character is copied O(log n) times. Scans run part by part
 * (whitespace and tags' "<" are single code units); slices cost their own length, or nothing when
 * they fall inside one part.
 */
export class Rope {
  private readonly parts: string[] = [];
  private readonly starts: number[] = [];
  length = 0;

  constructor(text = "") {
    if (text) this.append(text);
  }

  append(chunk: string): void {
    const { parts, starts } = this;
    parts.push(chunk);
    starts.push(this.length);
    this.length += chunk.length;
    while (parts.length >= 2 && (parts[parts.length - 1] as string).length >= (parts[parts.length - 2] as string).length) {
      const last = parts.pop() as string;
      starts.pop();
      parts[parts.length - 1] += last;
    }
  }

  /** Index of the part holding offset `at` (the last part for the end). */
  private part(at: number): number {
    return Math.max(bisectRight(this.starts, at) - 1, 0);
  }

  slice(start: number, end: number = this.length): string {
    if (end <= start) return "";
    let index = this.part(start);
    const first = this.starts[index] as number;
    const text = this.parts[index] as string;
    if (end <= first + text.length) return text.slice(start - first, end - first);
    let out = text.slice(start - first);
    for (index++; index < this.parts.length; index++) {
      const at = this.starts[index] as number;
      const piece = this.parts[index] as string;
      out += piece.slice(0, end - at);
      if (end <= at + piece.length) break;
    }
    return out;
  }

  /** Offset of the first non-whitespace character in [start, end), or -1. */
  nonWs(start: number, end: number = this.length): number {
    for (let index = this.part(start); index < this.parts.length && start < end; index++) {
      const at = this.starts[index] as number;
      const piece = this.parts[index] as string;
      const found = nonWs(piece, Math.max(start - at, 0), Math.min(end - at, piece.length));
      if (found >= 0) return at + found;
    }
    return -1;
  }

  /** The end of [start, end) without its trailing whitespace (`start` when it is all whitespace). */
  trimEnd(start: number, end: number): number {
    let index = this.part(Math.max(end - 1, 0));
    while (end > start && index >= 0) {
      const at = this.starts[index] as number;
      const piece = this.parts[index] as string;
      while (end > start && end > at && isWs(piece[end - 1 - at])) end--;
      if (end > at || end <= start) break;
      index--;
    }
    return Math.max(end, start);
  }

  /** trim(text[start:end]) */
  span(start: number, end: number): string {
    const first = this.nonWs(start, end);
    return first < 0 ? "" : this.slice(first, this.trimEnd(first, end));
  }
}
