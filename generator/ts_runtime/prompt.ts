/**
 * The text path: the tools section of the system prompt, and reading tool calls back.
 *
 * Mirrors generator/runtime/prompt.py. Both halves read the same resolved specs (a Catalog's
 * variants), so the prompt a model sees and the parser that reads its reply agree on tool and
 * parameter names. The generated prompt.ts binds one TextPath to the package's catalog.
 */

import type { Catalog } from "./catalog.js";
import type { Text } from "./data.js";
import { schemaNote, toolBlock, toolsSection, type PromptParam } from "./prompt_blocks.js";
import type { ToolUse } from "./tool_types.js";
import { skipRecord } from "./variants.js";
import type { SkipRecord, Variant } from "./variants.js";
import { parseReply, parseToolCalls } from "./xml_calls.js";
import type { KnownTools } from "./xml_calls.js";
import { put, pyRepr } from "./pyspell.js";

/** Sections kept per (family, context): contexts repeat across requests. */
const SECTION_CACHE_LIMIT = 256;

export class TextPath<C extends object> {
  readonly catalog: Catalog<C>;

  constructor(catalog: Catalog<C>) {
    this.catalog = catalog;
  }

  /** One tool's block in a context: parameters filtered, conditional text and placeholders resolved.
   * Parameter descriptions come from the parameters whose requirements hold, even when a
   * dependency hides the parameter itself (as in the modelled system). */
  variantBlock(variant: Variant, context: unknown, enabledIds: readonly string[] | null = null): string {
    const catalog = this.catalog;
    // Run-time tools (no spec family) carry server or user text: never fill placeholders in it.
    const fill = variant.spec !== null && variant.spec !== undefined;
    const text = (pieces: Text): string => catalog.resolveText(pieces, context, fill);
    const described = catalog.visibleParameters(variant, context).map((p) => text(p.description));
    const params: PromptParam[] = catalog.visibleParameters(variant, context, enabledIds).map((p) => ({
      name: p.name,
      required: p.required,
      instruction: text(p.instruction),
      description: text(p.description),
      usage: text([p.usage ?? ""]),
      note: schemaNote(p.schema),
    }));
    return toolBlock(variant.name, text(variant.description), params, described);
  }

  /** The "# Tools" section for a family: enabled tools in prompt order, then `extraVariants`
   * (run-time subagent and MCP tools). One of those that cannot be rendered is left out and, when
   * `skipped` is an array, reported there. */
  promptSection(
    family: string,
    context: unknown = null,
    extraVariants: readonly Variant[] = [],
    skipped: SkipRecord[] | null = null,
  ): string {
    const catalog = this.catalog;
    const checked = catalog.asContext(context);
    const key = extraVariants.length === 0 ? `${family}\u0000${JSON.stringify(checked)}` : null;
    const cached = key === null ? undefined : catalog.sections.get(key);
    if (cached !== undefined) return cached;
    const variants = catalog.assemble(family, checked, extraVariants);
    const enabledIds = variants.map((v) => v.id);
    const blocks: string[] = [];
    for (const variant of variants) {
      try {
        blocks.push(this.variantBlock(variant, checked, enabledIds));
      } catch (error) {
        if (variant.spec !== null && variant.spec !== undefined) throw error; // checked at generation: a bug
        if (skipped !== null) skipped.push(skipRecord(variant, "prompt", error));
      }
    }
    const section = toolsSection(blocks);
    if (key !== null) {
      if (catalog.sections.size >= SECTION_CACHE_LIMIT) {
        const oldest = catalog.sections.keys().next().value;
        if (oldest !== undefined) catalog.sections.delete(oldest);
      }
      catalog.sections.set(key, section);
    }
    return section;
  }

  /** Tool names a family's model may call, with their parameter names (what the parser accepts). */
  knownTools(family: string, extraVariants: readonly Variant[] = []): KnownTools {
    const tools: { [name: string]: readonly string[] } = {};
    for (const variant of [...(this.catalog.variants.get(family) ?? missing(family)), ...extraVariants]) {
      put(tools, variant.name, variant.parameters.map((p) => p.name)); // "__proto__" too, as an own key
    }
    return tools;
  }

  /** Tool calls in a (possibly still streaming) reply, for a family's tools. */
  parseCalls(text: string, family: string, extraVariants: readonly Variant[] = []): ToolUse[] {
    return parseToolCalls(text, this.knownTools(family, extraVariants));
  }

  /** Every call of a finished reply, unknown tools' calls included (xml_calls.ts parseReply). */
  parseReply(text: string, family: string, extraVariants: readonly Variant[] = []): ToolUse[] {
    return parseReply(text, this.knownTools(family, extraVariants));
  }
}

function missing(family: string): never {
  const error = new Error(pyRepr(String(family)));
  error.name = "KeyError";
  throw error;
}
