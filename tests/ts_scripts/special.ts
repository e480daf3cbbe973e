/** Conformance adapter of the "js_names" module (tests/conformance/cases_special.py): the package of
 * tests/data/js_names, whose names are Object.prototype's members and reserved words, answering
 * in the shape of the Python side. */

import {
  Context,
  Coordinator,
  HANDLERS,
  Offer,
  ToolId,
  enabledTools,
  nativeTools,
  parseCalls,
  promptSection,
  readCalls,
  selectFamily,
  ToolResult,
  toolUse,
} from "../js_names/index.js";
import type { PromptFamily, ToolHandler, ToolUse } from "../js_names/index.js";
import { pyJsonDumps } from "../js_names/_runtime/pyspell.js";

type Input = { readonly op: string; readonly [key: string]: any };

/** A handler class per class name of HANDLERS: it answers with its class, the tool and the arguments. */
function namespace(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const binding of Object.values(HANDLERS)) {
    if (binding === null) continue;
    const className = binding.class_name;
    out[className] = class implements ToolHandler {
      execute(_config: unknown, block: ToolUse): ToolResult {
        return ToolResult.ok(`${className}|${block.name}|${pyJsonDumps(block.params, ",", ":")}`);
      }
    };
  }
  return out;
}

function useJson(use: ToolUse): unknown {
  return { name: use.name, params: use.params, partial: use.partial, id: use.id, error: use.error };
}

export function handle(input: Input): unknown {
  const family = input["family"] as PromptFamily;
  const context = input["context"] as object | null;
  switch (input.op) {
    case "selectFamily":
      return selectFamily(context);
    case "context":
      return Context.fromObject(input["data"] ?? {});
    case "enabledTools":
      return enabledTools(family, context);
    case "promptSection":
      return promptSection(family, context);
    case "nativeTools":
      return nativeTools(family, context, { format: input["format"] });
    case "parseCalls":
      return parseCalls(input["text"], family).map(useJson);
    case "readCalls":
      return readCalls(input["response"], input["format"]).map(useJson);
    case "check": {
      const offer = new Offer(family, context, { format: input["format"] });
      const call = input["call"];
      const [typed, problems] = offer.check(toolUse(call.name, call.params, false, "c", null));
      return { names: offer.names(), typed, problems };
    }
    case "handlers":
      return Object.fromEntries(Object.entries(HANDLERS).map(([k, v]) => [k, v === null ? null : v.class_name]));
    case "toolIds":
      return Object.values(ToolId);
    case "answer": {
      const offer = new Offer(family, { enable_native_tool_calls: true }, { format: input["format"] });
      return offer.answer(Coordinator.fromNamespace(namespace()), null, input["response"]);
    }
    default:
      throw new Error(`unknown op ${input.op}`);
  }
}
