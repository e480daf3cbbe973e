/** Equivalence driver for ts-core (tests/test_ts_equivalence_core.py): one operation per input,
 * the result as JSON; tests/ts_bridge.py runs a whole batch in one node process. */

import {
  CATALOG_DATA,
  Context,
  StreamingParser,
  ToolId,
  enabledTools,
  enabledVariants,
  knownTools,
  parseCalls,
  parsePartialJsonArray,
  promptSection,
  resolveText,
  route,
  selectFamily,
} from "../pkg/index.js";
import type { PromptFamily, ToolUse } from "../pkg/index.js";
import { CATALOG } from "../pkg/catalog.js";
import type { SkipRecord, Variant } from "../pkg/_runtime/variants.js";
import { parseToolCalls } from "../pkg/_runtime/xml_calls.js";
import type { Text } from "../pkg/_runtime/data.js";
import { fillLabel, labelNames } from "../pkg/_runtime/labels.js";
import { jsonEqual } from "../pkg/_runtime/json_values.js";

type Input = { readonly op: string; readonly [key: string]: unknown };
type Tools = { readonly [name: string]: readonly string[] };

function uses(blocks: readonly ToolUse[]): unknown[] {
  return blocks.map((b) => ({ name: b.name, params: { ...b.params }, partial: b.partial, id: b.id, error: b.error }));
}

/** The run-time tools' module (dynamic_variants.ts), or null where this branch lacks it. */
async function toolLists(): Promise<{ dynamicVariants: (...args: unknown[]) => [unknown[], unknown[]] } | null> {
  const specifier = "../pkg/_runtime/" + "dynamic_variants.js"; // computed: compiles without the module
  try {
    return (await import(specifier)) as { dynamicVariants: (...args: unknown[]) => [unknown[], unknown[]] };
  } catch {
    return null;
  }
}

export async function handle(input: Input): Promise<unknown> {
  const family = input["family"] as PromptFamily;
  const context = input["context"] as object | null;
  switch (input.op) {
    case "data":
      return CATALOG_DATA;
    case "toolIds":
      return Object.values(ToolId);
    case "context":
      return Context.fromObject(input["data"]);
    case "selectFamily":
      return selectFamily(context);
    case "enabledTools":
      return enabledTools(family, context);
    case "enabledVariants":
      return enabledVariants(family, context);
    case "promptSection":
      return promptSection(family, context);
    case "promptSectionDynamic": {
      const module = await toolLists();
      if (module === null || typeof module.dynamicVariants !== "function") return { unavailable: true };
      const options = { mcpServers: input["mcpServers"], subagents: input["subagents"] };
      const [extra, skipped] = module.dynamicVariants(CATALOG, family, context, options);
      const left: SkipRecord[] = [];
      const section = promptSection(family, context, extra as Variant[], left);
      return { section, skipped, skippedPrompt: left };
    }
    case "route":
      return route(input["provider"] as string | null, input["model"] as string | null);
    case "resolveText":
      return resolveText(input["pieces"] as Text, context);
    case "parseCalls":
      return uses(parseCalls(input["text"] as string, family));
    case "parsePrefixes": {
      // every cut of the text, for a family's tools or an explicit tool set
      const text = input["text"] as string;
      const tools = input["tools"] as Tools | undefined;
      const cuts = Array.from(text);
      const out: unknown[] = [];
      for (let i = 0; i <= cuts.length; i++) {
        const prefix = cuts.slice(0, i).join("");
        out.push(uses(tools === undefined ? parseCalls(prefix, family) : parseToolCalls(prefix, tools)));
      }
      return out;
    }
    case "stream": {
      const parser = new StreamingParser(input["tools"] as Tools);
      return (input["chunks"] as string[]).map((chunk) => uses(parser.feed(chunk)));
    }
    case "partialJson":
      return parsePartialJsonArray(input["text"]);
    case "label":
      return fillLabel(input["template"] as string, input["params"]);
    case "jsonEqual":
      return jsonEqual(input["a"], input["b"]);
    case "labelNames":
      return labelNames(input["template"] as string);
    case "knownTools":
      return knownTools(family);
    default:
      throw new Error(`unknown op ${input.op}`);
  }
}
