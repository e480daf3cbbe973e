/**
 * Streaming parser for XML tool calls (the text path); mirrors xml_calls.py, whose docstring
 * states the rules (they model Cline's parseAssistantMessageV2). In short: only the given tool
 * names open a call and only that tool's parameter names open a parameter; values are trimmed as
 * String.prototype.trim does; a content parameter (file content, diffs, patches) may hold its own
 * closing tag (the last well-formed one wins); a call whose closing tag has not fully arrived is
 * returned with `partial: true`; the text may be cut anywhere and parsing never throws.
 * `parseReply` reads a finished reply, and also the tags that look like a call of a tool that
 * does not exist (the precise rule is in xml_calls.py's docstring).
 */

import { Block } from "./xml_block.js";
import { toolUse, type ToolUse } from "./tool_types.js";
import { put } from "./pyspell.js";
import { bisectLeft, Grammar, nonWs, Rope, span } from "./xml_grammar.js";

/** Parameters whose values are content: `content` (write_to_file, new_rule), `diff`
 * (replace_in_file), `input` (apply_patch). */
export const DEFAULT_CONTENT_PARAMS: ReadonlySet<string> = new Set(["content", "diff", "input"]);

/** Known tool names and their parameter names. */
export type KnownTools = { readonly [name: string]: readonly string[] };

/** Blocks of a growing text; complete blocks are final, the open one is kept. */
class Reader {
  private readonly grammar: Grammar;
  readonly done: ToolUse[] = [];
  /** Where each block's opening tag starts, and where each complete block ends. */
  readonly starts: number[] = [];
  readonly ends: number[] = [];
  private openScan = 0;
  private block: Block | null = null;
  current: ToolUse | null = null;

  constructor(grammar: Grammar) {
    this.grammar = grammar;
  }

  /** `rope` has grown since the previous call (`lazy`: see Block.partial). */
  read(rope: Rope, lazy = false): void {
    const grammar = this.grammar;
    if (!grammar.sane) this.block = null; // tags may overlap: read the open call afresh
    for (;;) {
      let block = this.block;
      if (block === null) {
        let m: RegExpExecArray | null = null;
        const base = this.openScan;
        if (grammar.openRe !== null) {
          grammar.openRe.lastIndex = 0;
          m = grammar.openRe.exec(rope.slice(base));
        }
        if (m === null) {
          this.openScan = Math.max(this.openScan, rope.length - grammar.maxOpen + 1);
          this.current = null;
          return;
        }
        block = this.block = new Block(grammar.tool(m[1] as string), base + m.index + m[0].length);
        this.starts.push(base + m.index);
      }
      block.advance(rope);
      if (block.end === null) {
        this.current = block.partial(rope, lazy);
        return;
      }
      this.done.push(block.complete(rope));
      this.ends.push(block.end);
      this.openScan = block.end;
      this.block = null;
    }
  }

  blocks(): ToolUse[] {
    return this.current === null ? [...this.done] : [...this.done, this.current];
  }
}

/** Grammars of recent tool sets: compiling their regular expressions costs more than a short parse. */
const GRAMMARS = new Map<string, Grammar>();
const GRAMMAR_CACHE_LIMIT = 64;

function grammarFor(tools: KnownTools, contentParams: Iterable<string>): Grammar {
  const content = [...contentParams];
  const key = JSON.stringify([Object.entries(tools), content]);
  let grammar = GRAMMARS.get(key);
  if (grammar === undefined) {
    grammar = new Grammar(tools, content);
    if (GRAMMARS.size >= GRAMMAR_CACHE_LIMIT) GRAMMARS.delete(GRAMMARS.keys().next().value as string);
    GRAMMARS.set(key, grammar);
  }
  return grammar;
}

/** Tool-use blocks in `text`, in order; the last one is partial when its closing tag has not arrived. */
export function parseToolCalls(
  text: string,
  tools: KnownTools,
  contentParams: Iterable<string> = DEFAULT_CONTENT_PARAMS,
): ToolUse[] {
  const reader = new Reader(grammarFor(tools, contentParams));
  reader.read(new Rope(text));
  return reader.blocks();
}

const UNKNOWN_OPEN = /<([a-z][a-z0-9]*(?:_[a-z0-9]+)+)>/g;
const PARAM_OPEN = /<([a-z][a-z0-9_]*)>/y;
const ANY_CLOSE = /<\/([a-z][a-z0-9_]*)>/g;
const INLINE_CODE = /`[^`\n]+`/g;

/** Whether `offset` lies in one of `spans` (sorted, not overlapping). */
function inside(spans: readonly (readonly [number, number])[], offset: number): boolean {
  let lo = 0;
  let hi = spans.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((spans[mid] as readonly [number, number])[0] <= offset) lo = mid + 1;
    else hi = mid;
  }
  const k = lo - 1;
  return k >= 0 && (spans[k] as readonly [number, number])[0] <= offset && offset < (spans[k] as readonly [number, number])[1];
}

/** Markdown code in `text`, sorted: fenced blocks (an open fence runs to the end) and inline code
 * on one line outside them. */
function codeSpans(text: string): [number, number][] {
  const fences: [number, number][] = [];
  let opened = -1;
  let line = 0;
  while (line <= text.length) {
    let end = text.indexOf("\n", line);
    if (end < 0) end = text.length;
    let first = line;
    while (first < end && first - line < 4 && text[first] === " ") first++;
    if (first - line <= 3 && (text.startsWith("```", first) || text.startsWith("~~~", first))) {
      if (opened < 0) opened = line;
      else {
        fences.push([opened, end]);
        opened = -1;
      }
    }
    line = end + 1;
  }
  if (opened >= 0) fences.push([opened, text.length]);
  const spans = [...fences];
  INLINE_CODE.lastIndex = 0;
  for (let m = INLINE_CODE.exec(text); m !== null; m = INLINE_CODE.exec(text)) {
    if (!inside(fences, m.index)) spans.push([m.index, m.index + m[0].length]);
  }
  return spans.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

/** Offsets of every closing tag `</name>` of the text, by name (found in one pass). */
class Closes {
  private readonly at = new Map<string, number[]>();

  constructor(text: string) {
    ANY_CLOSE.lastIndex = 0;
    for (let m = ANY_CLOSE.exec(text); m !== null; m = ANY_CLOSE.exec(text)) {
      const name = m[1] as string;
      let list = this.at.get(name);
      if (list === undefined) this.at.set(name, (list = []));
      list.push(m.index);
    }
  }

  /** The first `</name>` at or after `offset`, or -1. */
  next(name: string, offset: number): number {
    const found = this.at.get(name) ?? [];
    const k = bisectLeft(found, offset);
    return k < found.length ? (found[k] as number) : -1;
  }
}

/** The unknown call whose opening tag ends at `start` and the offset after its closing tag, or
 * null; the call must end by `limit`. */
function unknownCall(text: string, start: number, name: string, limit: number, closes: Closes): [ToolUse, number] | null {
  const values: [string, number, number][] = []; // sliced only once the call is whole
  let pos = start;
  for (;;) {
    const tag = nonWs(text, pos, limit);
    if (tag < 0 || text[tag] !== "<") return null;
    if (text.startsWith(`</${name}>`, tag)) {
      if (values.length === 0) return null;
      const params: Record<string, string> = {};
      for (const [p, a, b] of values) put(params, p, span(text, a, b));
      return [toolUse(name, params), tag + name.length + 3];
    }
    PARAM_OPEN.lastIndex = tag;
    const param = PARAM_OPEN.exec(text);
    if (param === null) return null;
    const paramName = param[1] as string;
    const paramEnd = tag + param[0].length;
    const close = closes.next(paramName, paramEnd);
    if (close < 0 || close >= limit) return null;
    values.push([paramName, paramEnd, close]);
    pos = close + paramName.length + 3;
  }
}

/** Calls of unknown tools with their offsets, outside the `taken` spans (the known calls, in
 * order) and outside markdown code. */
function unknownCalls(
  text: string,
  known: KnownTools,
  taken: readonly (readonly [number, number])[],
): [number, ToolUse][] {
  const code = codeSpans(text);
  const closes = new Closes(text);
  const found: [number, ToolUse][] = [];
  const starts = [0, ...taken.map(([, b]) => b)];
  const ends = [...taken.map(([a]) => a), text.length];
  starts.forEach((lo, index) => {
    const hi = ends[index] as number;
    let scan = lo;
    for (;;) {
      UNKNOWN_OPEN.lastIndex = scan;
      const m = UNKNOWN_OPEN.exec(text);
      if (m === null || m.index + m[0].length > hi) break;
      scan = m.index + m[0].length;
      const name = m[1] as string;
      if (Object.hasOwn(known, name) || inside(code, m.index)) continue;
      const call = unknownCall(text, scan, name, hi, closes);
      if (call !== null) {
        found.push([m.index, call[0]]);
        scan = call[1];
      }
    }
  });
  return found;
}

/**
 * Every call of a finished reply, in text order: the known tools' calls (the last one partial when
 * its closing tag never came: the reply was cut off inside it) and the calls of unknown tools,
 * which the caller must refuse.
 */
export function parseReply(
  text: string,
  tools: KnownTools,
  contentParams: Iterable<string> = DEFAULT_CONTENT_PARAMS,
): ToolUse[] {
  const reader = new Reader(grammarFor(tools, contentParams));
  reader.read(new Rope(text));
  const blocks = reader.blocks();
  const ends = [...reader.ends, text.length].slice(0, reader.starts.length); // an open call: to the end
  const taken = reader.starts.map((start, k) => [start, ends[k] as number] as const);
  const found: [number, ToolUse][] = reader.starts.map((start, k) => [start, blocks[k] as ToolUse]);
  found.push(...unknownCalls(text, tools, taken));
  found.sort((a, b) => a[0] - b[0]);
  return found.map(([, use]) => use);
}

/** Accumulates streamed text; `feed` returns the current blocks. Complete blocks never change once
 * reported; the open block's tokens and reading are kept between feeds. */
export class StreamingParser {
  private readonly grammar: Grammar;
  private buffer = new Rope();
  private reader: Reader;
  private current: ToolUse[] = [];

  constructor(tools: KnownTools, contentParams: Iterable<string> = DEFAULT_CONTENT_PARAMS) {
    this.grammar = grammarFor(tools, contentParams);
    this.reader = new Reader(this.grammar);
  }

  /** Everything fed so far. */
  get text(): string {
    return this.buffer.slice(0);
  }

  /** The blocks as of the last feed. */
  get blocks(): ToolUse[] {
    return [...this.current];
  }

  feed(chunk: string): ToolUse[] {
    if (chunk) {
      this.buffer.append(chunk);
      this.reader.read(this.buffer, true);
      this.current = this.reader.blocks();
    }
    return [...this.current];
  }

  reset(): void {
    this.buffer = new Rope(); // blocks handed out before keep reading the text they came from
    this.reader = new Reader(this.grammar);
    this.current = [];
  }
}

const JSON_WS = new Set([" ", "\t", "\n", "\r"]);
const ESCAPES: { readonly [ch: string]: string } = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

/** The complete string elements of a (possibly cut) JSON array of strings.
 *
 * `'["a", "b'` -> ["a"]; `'["a", "b"]'` -> ["a", "b"]; "" or garbage -> []. Reading stops at the
 * first element that is not a complete, valid string; the strings before it are returned. Raw
 * control characters inside strings are accepted (as Python's json.loads(strict=False)). Never throws. */
export function parsePartialJsonArray(text: unknown): string[] {
  const out: string[] = [];
  if (typeof text !== "string") return out;
  const n = text.length;
  let i = 0;
  while (i < n && JSON_WS.has(text[i] as string)) i++;
  if (i >= n || text[i] !== "[") return out;
  i++;
  for (;;) {
    while (i < n && JSON_WS.has(text[i] as string)) i++;
    if (i >= n || text[i] !== '"') return out;
    let j = i + 1;
    while (j < n && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
    if (j >= n) return out;
    const value = jsonString(text, i + 1, j);
    if (value === null) return out;
    out.push(value);
    i = j + 1;
    while (i < n && JSON_WS.has(text[i] as string)) i++;
    if (i >= n || text[i] !== ",") return out;
    i++;
  }
}

/** The JSON string body text[start:end] decoded, or null when an escape is invalid. */
function jsonString(text: string, start: number, end: number): string | null {
  let out = "";
  let i = start;
  while (i < end) {
    const ch = text[i] as string;
    if (ch !== "\\") {
      out += ch;
      i++;
      continue;
    }
    const esc = text[i + 1] as string;
    if (esc === "u") {
      const hex = text.slice(i + 2, i + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex) || i + 6 > end) return null;
      out += String.fromCharCode(parseInt(hex, 16));
      i += 6;
    } else if (Object.hasOwn(ESCAPES, esc)) {
      out += ESCAPES[esc];
      i += 2;
    } else {
      return null;
    }
  }
  return out;
}
