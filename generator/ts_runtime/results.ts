/**
 * The results of tool calls, as each provider format takes them back (mirrors results.py; replies.ts
 * re-exports `resultMessage`, `resultMessages` and `textResult`, where callers import them from).
 * What differs per format lives in its record (formats.ts): `resultEnvelope` and `resultGroup`
 * say how results go back.
 */

import {
  CALL_ID,
  CALL_ID_IF_GIVEN,
  CALL_NAME,
  CONTENT,
  IS_ERROR,
  Items,
  OUTCOME,
  RESULTS,
  STATUS,
  Slot,
  record,
  type Envelope,
  type FormatRecord,
} from "./formats.js";
import type { ResultElement, ResultMessage } from "./format_types.js";
import type { ToolResult, ToolUse } from "./tool_types.js";
import { PyError, pyRepr } from "./pyspell.js";

/**
 * Start of the ids made up for calls that came without one (replies.ts): a result leaves such an
 * id out where the format lets it (Gemini).
 */
export const SYNTHETIC_ID_PREFIX = "toolgen-call-";

function slotValues(use: ToolUse, result: ToolResult): Record<string, unknown> {
  const failed = result.isError || result.denied;
  const content = String(result.content);
  const given = !use.id.startsWith(SYNTHETIC_ID_PREFIX);
  return {
    [CALL_ID.name]: use.id,
    [CALL_ID_IF_GIVEN.name]: given ? use.id : null,
    [CALL_NAME.name]: use.name,
    [CONTENT.name]: content,
    [IS_ERROR.name]: failed,
    [STATUS.name]: failed ? "error" : "success",
    [OUTCOME.name]: failed ? { error: content } : { output: content },
  };
}

/** `layout` with its slots filled from `values`; a slot valued null is left out. */
function fill(layout: Envelope, values: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, spec] of layout) {
    let value: unknown;
    if (spec instanceof Slot) {
      value = values[spec.name];
      if (value === null || value === undefined) continue;
    } else if (spec instanceof Items) {
      value = [fill(spec.layout, values)];
    } else if (Array.isArray(spec)) {
      value = fill(spec as Envelope, values);
    } else {
      value = spec;
    }
    out[key] = value;
  }
  return out;
}

function resultsRecord(format: string): [FormatRecord, Envelope] {
  const rec = record(format);
  if (rec.resultEnvelope === null) throw new PyError("ValueError", `format ${pyRepr(format)} has no tool-result message`);
  return [rec, rec.resultEnvelope];
}

function element(use: ToolUse, result: ToolResult, format: string): Record<string, unknown> {
  const [, layout] = resultsRecord(format);
  return fill(layout, slotValues(use, result));
}

/**
 * The element answering `use` with `result` in `format`: Anthropic a `tool_result` block, OpenAI
 * Chat a `role: tool` message, OpenAI Responses a `function_call_output` item, Gemini a
 * `functionResponse` part, Bedrock a `toolResult` block. A failed or denied result is flagged
 * where the format can say so.
 */
export function resultMessage<F extends string>(use: ToolUse, result: ToolResult, format: F): ResultElement<F>;
export function resultMessage(use: ToolUse, result: ToolResult, format: string): unknown {
  return element(use, result, format);
}

/**
 * What to append to the conversation after the assistant's reply: every answer, in order. Formats
 * that carry all results in one user message (Anthropic, Gemini, Bedrock) get that message; the
 * OpenAI formats get one message or item per result.
 */
export function resultMessages<F extends string>(
  answers: Iterable<readonly [ToolUse, ToolResult]>,
  format: F,
): ResultMessage<F>[];
export function resultMessages(answers: Iterable<readonly [ToolUse, ToolResult]>, format: string): unknown[] {
  const [rec] = resultsRecord(format);
  const elements = [...answers].map(([use, result]) => element(use, result, format));
  if (rec.resultGroup === null) return elements;
  if (elements.length === 0) return [];
  return [fill(rec.resultGroup, { [RESULTS.name]: elements })];
}

/**
 * A result on the text path, for the next user message: a bracketed label for the call (`label`,
 * e.g. `coordinator.label(use)`; else `[<tool name>]`), whether it returned, failed or was
 * refused, then the output.
 */
export function textResult(use: Pick<ToolUse, "name">, result: ToolResult, label?: string | null): string {
  const outcome = result.denied ? "was denied" : result.isError ? "failed" : "returned";
  return `${label || `[${use.name}]`} ${outcome}:\n${result.content}`;
}
