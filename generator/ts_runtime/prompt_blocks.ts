/**
 * Layout of the text-path tools section (mirrors prompt_blocks.py). Formatting only: callers pass
 * text already resolved for a context.
 */

/** The {{NAME}} placeholder syntax of spec text (global: use with String.prototype.replace). */
export const PLACEHOLDER_RE = /\{\{([A-Z][A-Z0-9_]*)\}\}/g;

export interface PromptParam {
  readonly name: string;
  readonly required: boolean;
  readonly instruction: string;
  readonly description: string;
  readonly usage: string;
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
    for (const p of params) lines.push(`- ${p.name}: (${p.required ? "required" : "optional"}) ${p.instruction}`);
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
