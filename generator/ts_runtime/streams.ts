/**
 * The stream accumulators: a provider's streamed reply, event by event, into tool calls (mirrors
 * streams.py: the same calls, problems and error texts).
 *
 * `feed` takes one event or chunk (a parsed JSON body or an SDK object) and returns the calls it
 * changed: partial previews while a call's arguments arrive, then the complete call, built by the
 * same code as `readCalls` (so the finished calls equal `readCalls` of the whole reply). One
 * malformed event or call costs that event or call only; nothing throws, and what could not be
 * read is a line in `problems`.
 */

import { type CallFields } from "./formats.js";
import { pyJsonLoads } from "./pyjson.js";
import {
  MAX_ARGUMENT_CHARS,
  MISSING,
  callsRecord,
  field,
  kindOf,
  makeUse,
  markDuplicate,
  readCall,
  refusal,
  walk,
} from "./replies.js";
import { MAX_NESTING } from "./schema_common.js";
import { toolUse, type ToolUse } from "./tool_types.js";
import { errorText, isDict, pyLen, pyTruthy } from "./pyspell.js";

/**
 * Arguments up to this length are re-read for the preview on every delta; longer ones when they
 * have grown by a quarter since the last preview, so a long stream costs linear time.
 */
const PREVIEW_ALWAYS = 16_384;
const STRING_RUN = /[^"\\]*/y;
const HEX = /^[0-9a-fA-F]$/;
// A string's text ending in the first half of a surrogate pair: the preview waits for the rest.
const HIGH_SURROGATE_END = /(?<!\\)(?:\\\\)*\\u[dD][89abAB][0-9a-fA-F]{2}$/g;

/** Incrementally scanned JSON text, and the object it holds so far (for previews). */
class PartialJson {
  chunks: string[] = [];
  /** Code points so far (the limit and the preview pacing count these, as Python does). */
  length = 0;
  /** UTF-16 units so far (offsets into the text). */
  units = 0;
  overflow = false;
  private stack: string[] = [];
  private keyNext: boolean[] = [];
  private inString = false;
  private stringIsKey = false;
  private escape = 0; // characters of a pending escape sequence
  private inScalar = false;
  private good: [number, string] = [0, ""];
  private validPrefix = false;
  private preview: Record<string, unknown> = {};
  private previewedAt = -1;

  constructor(readonly maxChars: number) {}

  add(text: string): void {
    if (this.overflow || !text) return;
    const length = pyLen(text);
    if (this.length + length > this.maxChars) {
      this.overflow = true;
      this.chunks = [];
      return;
    }
    this.chunks.push(text);
    const start = this.units;
    this.length += length;
    this.units += text.length;
    if (this.stack.length <= MAX_NESTING) this.scan(text, start);
  }

  private closers(): string {
    return [...this.stack].reverse().map((c) => (c === "{" ? "}" : "]")).join("");
  }

  private valueDone(end: number): void {
    this.good = [end, this.closers()];
  }

  private scan(text: string, offset: number): void {
    let i = 0;
    const n = text.length;
    while (i < n) {
      if (this.inString) {
        if (this.escape) {
          const char = text[i] as string;
          if (this.escape === 1 && char === "u") this.escape = 5;
          else if (this.escape > 1 && HEX.test(char)) this.escape -= 1;
          else this.escape = 0;
          if (this.escape === 1) this.escape = 0;
          i += 1;
          continue;
        }
        STRING_RUN.lastIndex = i;
        STRING_RUN.exec(text);
        i = STRING_RUN.lastIndex;
        if (i >= n) break;
        if (text[i] === "\\") {
          this.escape = 1;
        } else {
          this.inString = false;
          if (!this.stringIsKey) this.valueDone(offset + i + 1);
        }
        i += 1;
        continue;
      }
      const char = text[i] as string;
      if (this.inScalar && ",}] \t\r\n:".includes(char)) {
        this.inScalar = false;
        this.valueDone(offset + i);
      }
      if (char === '"') {
        this.inString = true;
        this.stringIsKey = this.stack.length > 0 && this.stack[this.stack.length - 1] === "{" && this.keyNext[this.keyNext.length - 1] === true;
      } else if (char === "{" || char === "[") {
        this.stack.push(char);
        this.keyNext.push(char === "{");
        this.validPrefix = true;
        this.valueDone(offset + i + 1);
        if (this.stack.length > MAX_NESTING) return;
      } else if (char === "}" || char === "]") {
        if (this.stack.length > 0) {
          this.stack.pop();
          this.keyNext.pop();
        }
        this.valueDone(offset + i + 1);
      } else if (char === ":") {
        if (this.keyNext.length > 0) this.keyNext[this.keyNext.length - 1] = false;
      } else if (char === ",") {
        if (this.keyNext.length > 0 && this.stack[this.stack.length - 1] === "{") {
          this.keyNext[this.keyNext.length - 1] = true;
        }
      } else if (!" \t\r\n".includes(char)) {
        this.inScalar = true;
      }
      i += 1;
    }
  }

  text(): string {
    if (this.chunks.length > 1) this.chunks = [this.chunks.join("")];
    return this.chunks[0] ?? "";
  }

  /** The object so far; the last preview while re-reading would cost too much. */
  partialParams(): Record<string, unknown> {
    if (this.overflow || !this.validPrefix || this.stack.length > MAX_NESTING) return this.preview;
    if (this.length > PREVIEW_ALWAYS && this.length < this.previewedAt * 1.25) return this.preview;
    const text = this.text();
    const candidates: string[] = [];
    if (this.inString && !this.stringIsKey) {
      // drop an unfinished escape sequence before closing the string
      const pending = this.escape === 1 ? 1 : this.escape ? 7 - this.escape : 0;
      let cut = this.units - pending;
      HIGH_SURROGATE_END.lastIndex = Math.max(cut - 16, 0);
      if (HIGH_SURROGATE_END.test(text.slice(0, cut))) cut -= 6;
      candidates.push(text.slice(0, cut) + '"' + this.closers());
    } else if (this.inScalar) {
      candidates.push(text + this.closers());
    }
    const [cut, closers] = this.good;
    candidates.push(text.slice(0, cut) + closers);
    for (const candidate of candidates) {
      let value: unknown;
      try {
        value = pyJsonLoads(candidate);
      } catch {
        continue;
      }
      if (isDict(value)) {
        this.preview = value;
        break;
      }
    }
    this.previewedAt = this.length;
    return this.preview;
  }
}

/** One call while its arguments stream in. */
class OpenCall {
  arguments: PartialJson;
  /** Arguments given whole at the start (Anthropic sends `{}` there, then deltas). */
  initial: Record<string, unknown> = {};

  constructor(
    public id: string,
    public name: string,
    readonly maxChars: number,
  ) {
    this.arguments = new PartialJson(maxChars);
  }

  partial(): ToolUse {
    const params = this.arguments.length ? this.arguments.partialParams() : {};
    const shown = Object.keys(params).length > 0 ? params : { ...this.initial };
    return toolUse(this.name, shown, true, this.id);
  }

  close(fields: CallFields, position: number): ToolUse {
    if (this.arguments.overflow) {
      const reason = `its arguments are longer than ${this.maxChars} characters`;
      return toolUse(this.name, {}, false, this.id, refusal(this.name, reason));
    }
    const text = this.arguments.text();
    const initialGiven = Object.keys(this.initial).length > 0;
    return makeUse(this.name, this.id, text || !initialGiven ? text : this.initial, fields.idsOptional, position, this.maxChars);
  }
}

/** Shared bookkeeping of the stream accumulators: calls by stream index, in order. */
abstract class Stream {
  protected abstract readonly format: string;
  protected readonly open = new Map<number, OpenCall>();
  protected readonly done = new Map<number, ToolUse>();
  private readonly seen = new Set<string>();
  /** A line per event that could not be read. */
  readonly problems: string[] = [];
  readonly maxArgumentChars: number;

  constructor(options: { maxArgumentChars?: number | undefined } = {}) {
    this.maxArgumentChars = options.maxArgumentChars ?? MAX_ARGUMENT_CHARS;
  }

  /** The calls `event` changed, in order; never throws. */
  feed(event: unknown): ToolUse[] {
    try {
      return this.read(event);
    } catch (error) {
      this.problems.push(`event not read: ${errorText(error)}`);
      return [];
    }
  }

  protected abstract read(event: unknown): ToolUse[];

  protected start(index: number, callId: string, name: string): OpenCall {
    const call = new OpenCall(callId, name, this.maxArgumentChars);
    this.open.set(index, call);
    return call;
  }

  protected close(index: number): ToolUse | null {
    const call = this.open.get(index);
    if (call === undefined) return null;
    this.open.delete(index);
    const [, fields] = callsRecord(this.format);
    const position = [...this.done.keys(), ...this.open.keys()].filter((i) => i < index).length;
    return this.record(index, call.close(fields, position));
  }

  /** Keep `use` as the finished call at `index` (an error if its id was seen). */
  protected record(index: number, use: ToolUse): ToolUse {
    const kept = markDuplicate(use, this.seen);
    this.done.set(index, kept);
    return kept;
  }

  /** Close every open call, in order, and return them. */
  protected closeAll(): ToolUse[] {
    const closed = [...this.open.keys()].sort((a, b) => a - b).map((index) => this.close(index));
    return closed.filter((use): use is ToolUse => use !== null);
  }

  /** Every call so far in stream order; open ones are `partial`. */
  get calls(): ToolUse[] {
    const out = new Map(this.done);
    for (const [index, call] of this.open) out.set(index, call.partial());
    return [...out.keys()].sort((a, b) => a - b).map((i) => out.get(i) as ToolUse);
  }

  /** Close every open call (the stream ended) and return all calls, in order. */
  finish(): ToolUse[] {
    this.closeAll();
    return this.calls;
  }
}

function isIndex(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value);
}

/** `node[key]` when it is text, else "" (a call's id and name as they start). */
function textOf(node: unknown, key: string): string {
  const value = field(node, key);
  return typeof value === "string" ? value : "";
}

/**
 * Accumulates Anthropic Messages stream events into tool calls: `feed` returns a partial
 * ToolUse at `content_block_start` and every `input_json_delta`, and the complete call at
 * `content_block_stop`.
 */
export class AnthropicStream extends Stream {
  protected readonly format = "anthropic";

  protected read(event: unknown): ToolUse[] {
    const kind = field(event, "type");
    const index = field(event, "index");
    if (!isIndex(index)) return [];
    if (kind === "content_block_start") {
      const block = field(event, "content_block");
      if (field(block, "type") !== "tool_use") return [];
      const started = this.start(index, textOf(block, "id"), textOf(block, "name"));
      const initial = walk(block, ["input"]);
      if (isDict(initial)) started.initial = { ...initial };
      return [started.partial()];
    }
    const call = this.open.get(index);
    if (call === undefined) return [];
    if (kind === "content_block_delta") {
      const delta = field(event, "delta");
      const fragment = walk(delta, ["partial_json"]);
      if (field(delta, "type") !== "input_json_delta" || typeof fragment !== "string") return [];
      call.arguments.add(fragment);
      return [call.partial()];
    }
    if (kind === "content_block_stop") {
      const use = this.close(index);
      return use !== null ? [use] : [];
    }
    return [];
  }
}

/** `iter(value or ())` in Python: a list's items, a dict's keys, a string's characters. */
function items(value: unknown): readonly unknown[] {
  if (!pyTruthy(value)) return [];
  if (Array.isArray(value)) return value;
  if (isDict(value)) return Object.keys(value);
  if (typeof value === "string") return [...value];
  throw new TypeError(`'${kindOf(value)}' object is not iterable`);
}

/**
 * Accumulates OpenAI Chat Completions stream chunks into tool calls (choice 0): `feed` returns the
 * calls a chunk changed, partial while open; they are complete when a chunk gives choice 0 a
 * `finish_reason` (or at `finish`, for a stream that ended without one).
 */
export class OpenAIChatStream extends Stream {
  protected readonly format = "openai-chat";

  protected read(chunk: unknown): ToolUse[] {
    const choices = field(chunk, "choices");
    if (!Array.isArray(choices)) return [];
    const changed = new Map<number, ToolUse>();
    for (const choice of choices) {
      const choiceIndex = field(choice, "index");
      if (!(choiceIndex === MISSING || choiceIndex === 0 || choiceIndex === false)) continue;
      for (const delta of items(walk(choice, ["delta", "tool_calls"]))) {
        const index = field(delta, "index");
        if (!isIndex(index) || this.done.has(index)) continue;
        const call = this.open.get(index) ?? this.start(index, "", "");
        call.id = call.id || textOf(delta, "id");
        const name = walk(delta, ["function", "name"]);
        if (typeof name === "string" && name && name !== call.name) call.name += name;
        const fragment = walk(delta, ["function", "arguments"]);
        if (typeof fragment === "string") call.arguments.add(fragment);
        changed.set(index, call.partial());
      }
      if (walk(choice, ["finish_reason"]) !== null) {
        for (const index of [...this.open.keys()].sort((a, b) => a - b)) {
          const use = this.close(index);
          if (use !== null) changed.set(index, use);
        }
      }
    }
    return [...changed.keys()].sort((a, b) => a - b).map((i) => changed.get(i) as ToolUse);
  }
}

const RESPONSE_ENDS = new Set(["response.completed", "response.incomplete", "response.failed"]);

/**
 * Accumulates OpenAI Responses stream events into tool calls, keyed by `output_index`: `feed`
 * returns a partial ToolUse at `response.output_item.added` of a `function_call` item and at every
 * `response.function_call_arguments.delta`, and the complete call at
 * `response.function_call_arguments.done` (or `response.output_item.done` when that comes first).
 * The whole argument text those events carry wins over the deltas. A `response.completed`,
 * `.incomplete` or `.failed` event closes what is still open.
 */
export class OpenAIResponsesStream extends Stream {
  protected readonly format = "openai-responses";

  protected read(event: unknown): ToolUse[] {
    const kind = field(event, "type");
    if (typeof kind === "string" && RESPONSE_ENDS.has(kind)) return this.closeAll();
    const index = field(event, "output_index");
    if (!isIndex(index) || this.done.has(index)) return [];
    if (kind === "response.output_item.added" || kind === "response.output_item.done") {
      const item = field(event, "item");
      if (field(item, "type") !== "function_call") return [];
      const call = this.open.get(index) ?? this.start(index, "", "");
      call.id = call.id || textOf(item, "call_id");
      call.name = call.name || textOf(item, "name");
      const whole = field(item, "arguments");
      if (kind === "response.output_item.added") {
        if (typeof whole === "string") call.arguments.add(whole);
        return [call.partial()];
      }
      return this.finishCall(index, call, whole);
    }
    const streaming = this.open.get(index);
    if (streaming === undefined) return [];
    if (kind === "response.function_call_arguments.delta") {
      const fragment = field(event, "delta");
      if (typeof fragment !== "string") return [];
      streaming.arguments.add(fragment);
      return [streaming.partial()];
    }
    if (kind === "response.function_call_arguments.done") {
      return this.finishCall(index, streaming, field(event, "arguments"));
    }
    return [];
  }

  /** Close `call`, its arguments replaced by `whole` when that is the full text. */
  private finishCall(index: number, call: OpenCall, whole: unknown): ToolUse[] {
    if (typeof whole === "string" && whole !== call.arguments.text()) {
      call.arguments = new PartialJson(this.maxArgumentChars);
      call.arguments.add(whole);
    }
    const use = this.close(index);
    return use !== null ? [use] : [];
  }
}

/**
 * Accumulates streamed Gemini `generateContent` chunks into tool calls (candidate 0). Gemini sends
 * every `functionCall` part whole, in one chunk, so `feed` returns each call complete, never
 * partial; calls are numbered across chunks, so a call without an id gets the same made-up id as
 * `readCalls` gives it in the whole reply. Vertex AI's argument streaming (`partialArgs`,
 * `willContinue`) is not read.
 */
export class GeminiStream extends Stream {
  protected readonly format = "gemini";

  protected read(chunk: unknown): ToolUse[] {
    const [rec, fields] = callsRecord(this.format);
    const parts = walk(chunk, rec.callPath);
    if (!Array.isArray(parts)) return [];
    const changed: ToolUse[] = [];
    parts.forEach((part, number) => {
      let use: ToolUse | null;
      const index = this.done.size;
      try {
        use = readCall(part, fields, index, this.maxArgumentChars);
      } catch (error) {
        this.problems.push(`part ${number} not read: ${errorText(error)}`); // one hostile part only
        return;
      }
      if (use !== null) changed.push(this.record(index, use));
    });
    return changed;
  }
}
