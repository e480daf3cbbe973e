/**
 * Layout of the text-path tools section (mirrors prompt_blocks.py). Formatting only: callers pass
 * text already resolved for a context.
 */

import { put, pyJsonDumps } from "./pyspell.js";
import type { Json } from "./schema_common.js";

/** The {{NAME}} placeholder syntax of spec text (global: use with String.prototype.replace). */
export const PLACEHOLDER_RE = /\{\{([A-Z][A-Z0-9_]*)\}\}/g;

export interface PromptParam {
  readonly name: string;
  readonly required: boolean;
  readonly instruction: string;
  readonly description: string;
  readonly usage: string;
  /** Shown after the instruction: what the schema says beyond its type (`schemaNote`); "" for none. */
  readonly note?: string;
}

// Keywords that say nothing a text-path model needs beyond the instruction (see prompt_blocks.py).
const PLAIN_KEYWORDS = new Set(["type", "description", "title", "nullable"]);

/**
 * The parameter's schema for the text prompt when it says more than a type: enums, bounds, patterns,
 * unions, nested members (`(JSON Schema: {...})`, descriptions left out); else "".
 */
export function schemaNote(schema: Readonly<Record<string, unknown>>): string {
  if (Object.keys(schema).every((key) => PLAIN_KEYWORDS.has(key))) return "";
  const shown: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) if (key !== "description" && key !== "title") put(shown, key, value as Json);
  return `(JSON Schema: ${pyJsonDumps(shown, ",", ":")})`;
}

/** One tool: heading, description, parameter list and a Usage example ("" when it has neither
 * a description nor parameters). `paramDescriptions` defaults to those of `params`. */
export function toolBlock(
  name: string,
  description: string,
  params: readonly PromptParam[],
  paramDescriptions: readonly string[] | null = null,
): string {
  if (params.length === 0 && !description) return "";
  const described = paramDescriptions ?? params.map((p) => p.description);
  const lines = [`## ${name}`, `Description: ${description}`];
  lines.push(...described.filter((text) => text));
  if (params.length > 0) {
    lines.push("Parameters:");
    for (const p of params) {
      let line = `- ${p.name}: (${p.required ? "required" : "optional"}) ${p.instruction}`;
      if (p.note) line += p.instruction ? ` ${p.note}` : p.note;
      lines.push(line);
    }
  } else {
    lines.push("Parameters: None");
  }
  lines.push("Usage:", usageExample(name, params));
  return lines.join("\n");
}

/** The example call of a tool block. */
function usageExample(name: string, params: readonly PromptParam[]): string {
  return [`<${name}>`, ...params.map((p) => `<${p.name}>${p.usage}</${p.name}>`), `</${name}>`].join("\n");
}

/** "# Tools" followed by the non-empty blocks, separated by blank lines. */
export function toolsSection(blocks: readonly string[]): string {
  return ["# Tools", ...blocks.filter((b) => b)].join("\n\n");
}
