/** The one-format entry modules (anthropic.ts, ...) against index.ts with the format given
 * (see tests/test_ts_format_entries.py). */

import { ToolResult, nativeTools, readCalls, resultMessages } from "../pkg/index.js";
import type { PromptFamily, ToolUse } from "../pkg/index.js";
import * as anthropic from "../pkg/anthropic.js";
import * as bedrock from "../pkg/bedrock.js";
import * as gemini from "../pkg/gemini.js";
import * as openaiChat from "../pkg/openai_chat.js";
import * as openaiResponses from "../pkg/openai_responses.js";

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const MODULES = { anthropic, bedrock, gemini, openai_chat: openaiChat, openai_responses: openaiResponses };

function answers(calls: readonly ToolUse[]): [ToolUse, ToolResult][] {
  return calls.map((use, i) => [use, i % 2 === 0 ? ToolResult.ok(`done ${i}`) : ToolResult.error("failed")]);
}

/** What `make` returns, or the error it throws, as data. */
function outcome(make: () => Json): Json {
  try {
    return { ok: make() };
  } catch (error) {
    return { error: `${(error as Error).name}: ${(error as Error).message}` };
  }
}

export function handle(input: Json): Json {
  const entry = MODULES[input.module as keyof typeof MODULES];
  const family = input.family as PromptFamily;
  const format = input.format as string;
  const options = { cacheControl: input.cacheControl, extraVariants: input.extraVariants };
  const calls = entry.readCalls(input.response);
  const viaEntry = {
    dialect: entry.DIALECT,
    tools: outcome(() => entry.tools(family, input.context, options)),
    calls,
    results: entry.resultMessages(answers(calls)),
  };
  const indexCalls = readCalls(input.response, format);
  const viaIndex = {
    dialect: format,
    tools: outcome(() => nativeTools(family, input.context, { ...options, format })),
    calls: indexCalls,
    results: resultMessages(answers(indexCalls), format),
  };
  return { text: JSON.stringify([viaEntry, viaIndex]) };
}
