/**
 * Streaming parser for XML tool calls (the text path); mirrors xml_calls.py, whose docstring
 * states the rules (they model Cline's parseAssistantMessageV2). In short: only the given tool
 * names open a call and only that tool's parameter names open a parameter; values are trimmed as
 * String.prototype.trim does; a content parameter (file content, diffs, patches) may hold its own
 * closing tag (the last well-formed one wins); a call whose closing tag has not fully arrived is
 * returned with `partial: true`; the text may be cut anywhere and parsing never throws.
 */

import { Block } from "./xml_block.js";
import type { ToolUse } from "./tool_types.js";
import { Grammar, Rope } from "./xml_grammar.js";

/** Parameters whose values are content: `content` (write_to_file, new_rule), `diff`
 * (replace_in_file), `input` (apply_patch). */
export const DEFAULT_CONTENT_PARAMS: ReadonlySet<string> = new Set(["content", "diff", "input"]);

/** Known tool names and their parameter names. */
export type KnownTools = { readonly [name: string]: readonly string[] };

/** Blocks of a growing text; complete blocks are final, the open one is kept. */
class Reader {
  private readonly grammar: Grammar;
  readonly done: ToolUse[] = [];
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
      }
      block.advance(rope);
      if (block.end === null) {
        this.current = block.partial(rope, lazy);
        return;
      }
      this.done.push(block.complete(rope));
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
