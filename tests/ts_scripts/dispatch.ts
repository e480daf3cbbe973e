/**
 * Equivalence driver for ts-dispatch (tests/test_ts_equivalence_dispatch.py): one operation per
 * input, each answered as JSON in the same shape as the Python side of the test.
 */

import {
  Coordinator,
  HANDLERS,
  McpServers,
  Offer,
  SharedToolHandler,
  dispatchTable,
  isSubagentToolName,
  label,
  type ToolHandler,
} from "../pkg/index.js";
import {
  decodeArguments,
  readCalls,
  resultMessage,
  resultMessages,
  textResult,
} from "../pkg/_runtime/replies.js";
import {
  AnthropicStream,
  GeminiStream,
  OpenAIChatStream,
  OpenAIResponsesStream,
} from "../pkg/_runtime/streams.js";
import { ToolResult, toolUse, type ToolUse } from "../pkg/_runtime/tool_types.js";
import { argumentsChecker } from "../pkg/_runtime/validation.js";
import { parseReply } from "../pkg/_runtime/xml_calls.js";
import { pyJsonDumps } from "../pkg/_runtime/pyspell.js";

type Input = { readonly op: string; readonly [key: string]: any };

/** A ToolUse as the Python side writes one. */
function useJson(use: ToolUse): unknown {
  return { name: use.name, params: use.params, partial: use.partial, id: use.id, error: use.error };
}

function resultJson(result: ToolResult | null): unknown {
  return result === null ? null : { content: result.content, is_error: result.isError, denied: result.denied };
}

function useFrom(data: any): ToolUse {
  return toolUse(data.name, data.params ?? {}, data.partial, data.id, data.error);
}

function resultFrom(data: any): ToolResult {
  return new ToolResult(data.content, data.is_error, data.denied);
}

/** A handler class per class name of HANDLERS: it answers with its class and the call's name. */
function namespace(missing: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const binding of Object.values(HANDLERS)) {
    if (binding === null || missing.includes(binding.class_name)) continue;
    const className = binding.class_name;
    out[className] = class implements ToolHandler {
      readonly className = className;
      execute(_config: unknown, block: ToolUse): ToolResult {
        if (block.params["raise"]) throw new Error(String(block.params["raise"]));
        return ToolResult.ok(`${className}|${block.name}|${pyJsonDumps(block.params, ",", ":")}`);
      }
    };
  }
  return out;
}

/** The namespace with every handler's `execute` async. */
function asyncNamespace(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const binding of Object.values(HANDLERS)) {
    if (binding === null) continue;
    const className = binding.class_name;
    // in an object literal the class takes the key as its name, as a Python class has its own
    out[className] = {
      [className]: class implements ToolHandler {
        async execute(_config: unknown, block: ToolUse): Promise<ToolResult> {
          return ToolResult.ok(`${className}|${block.name}`);
        }
      },
    }[className];
  }
  return out;
}

function describe(handler: unknown): unknown {
  if (handler === null) return null;
  if (handler instanceof SharedToolHandler) {
    return { shared: handler.name, inner: (handler.inner as unknown as { className: string }).className };
  }
  return { class: (handler as { className: string }).className };
}

/** Per call: `has`, the handler found, `execute`'s and `executeAsync`'s results, and the label. */
async function route(input: Input): Promise<unknown> {
  let coordinator: Coordinator;
  try {
    coordinator = Coordinator.fromNamespace(namespace(input["missing"] ?? []), { lenient: input["lenient"] ?? false });
  } catch (error) {
    return { refused: described(error) };
  }
  const out = [];
  for (const call of input["calls"] as any[]) {
    const use = useFrom(call);
    const has = coordinator.has(use.name);
    const handler = use.error === null ? describe(coordinator.getHandler(use.name)) : null;
    const result = resultJson(coordinator.execute(null, use));
    const awaited = resultJson(await coordinator.executeAsync(null, use, { timeout: 5 }));
    out.push({ has, handler, result, awaited, label: coordinator.label(use) });
  }
  return out;
}

function described(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** An Offer's names, skip report, and its answer (and refusal) for each call. */
function offer(input: Input): unknown {
  let made: Offer;
  try {
    made = new Offer(input["family"], input["context"], {
      format: input["format"],
      mcpServers: input["prepared"] ? new McpServers(input["servers"]) : input["servers"],
      subagents: input["subagents"],
    });
  } catch (error) {
    return { error: described(error) };
  }
  const coordinator = Coordinator.fromNamespace(namespace([]));
  const answers = (input["calls"] as any[]).map((call) => {
    const use = useFrom(call);
    return { refusal: made.refusal(use.name), result: resultJson(made.execute(coordinator, null, use)) };
  });
  return { names: made.names(), skipped: made.skipped, degraded: made.degraded, answers };
}

/** Per reply: the calls read from it (text path), `answer`'s and `answerAsync`'s results. */
async function answer(input: Input): Promise<unknown> {
  let made: Offer;
  try {
    made = new Offer(input["family"], input["context"], { format: input["format"] });
  } catch (error) {
    return { error: described(error) };
  }
  const coordinator = Coordinator.fromNamespace(namespace([]));
  const out = [];
  for (const response of input["replies"] as any[]) {
    try {
      if (input["format"] === null) {
        const uses = made.readReply(response).map(useJson);
        const sync = made.answerText(coordinator, null, response);
        const awaited = await made.answerTextAsync(coordinator, null, response, { timeout: 5 });
        out.push({ uses, answer: sync, awaited });
      } else {
        const sync = made.answer(coordinator, null, response);
        const awaited = await made.answerAsync(coordinator, null, response, { timeout: 5 });
        out.push({ uses: [], answer: sync, awaited });
      }
    } catch (error) {
      out.push({ error: described(error) });
    }
  }
  return out;
}

function stream(input: Input): unknown {
  const kinds = {
    anthropic: AnthropicStream,
    "openai-chat": OpenAIChatStream,
    "openai-responses": OpenAIResponsesStream,
    gemini: GeminiStream,
  } as const;
  const kind = kinds[input["format"] as keyof typeof kinds];
  const accumulator = new kind({ maxArgumentChars: input["max"] ?? undefined });
  const fed = (input["events"] as unknown[]).map((event) => accumulator.feed(event).map(useJson));
  const calls = accumulator.calls.map(useJson);
  const finished = accumulator.finish().map(useJson);
  return { fed, calls, finished, problems: accumulator.problems };
}

export function handle(input: Input): unknown {
  switch (input.op) {
    case "route":
      return route(input);
    case "offer":
      return offer(input);
    case "answer":
      return answer(input);
    case "parseReply":
      return parseReply(input["text"], input["tools"]).map(useJson);
    case "readCalls": {
      const problems: string[] = [];
      const uses = readCalls(input["response"], input["format"], {
        problems,
        maxArgumentChars: input["max"] ?? undefined,
      });
      return { uses: uses.map(useJson), problems };
    }
    case "decode":
      return decodeArguments(input["value"], input["max"] ?? undefined);
    case "stream":
      return stream(input);
    case "validate": {
      const check = argumentsChecker(input["schema"], input["dialect"] === undefined ? {} : { dialect: input["dialect"] });
      return (input["cases"] as [unknown, boolean][]).map(([params, coerce]) => check(params as any, coerce));
    }
    case "asyncOnSync": {
      // an async handler called on a sync path: refused with AsyncHandlerError's text, not run
      const coordinator = Coordinator.fromNamespace(asyncNamespace());
      const use = useFrom(input["call"]);
      return { result: resultJson(coordinator.execute(null, use)), has: coordinator.has(use.name) };
    }
    case "label":
      return label(useFrom(input["call"]));
    case "isSubagentToolName":
      return isSubagentToolName(input["name"]);
    case "dispatchTable":
      return dispatchTable();
    case "results": {
      const answers = (input["answers"] as [any, any][]).map(([u, r]) => [useFrom(u), resultFrom(r)] as const);
      return {
        each: answers.map(([use, result]) => resultMessage(use, result, input["format"])),
        all: resultMessages(answers, input["format"]),
        text: answers.map(([use, result]) => textResult(use, result, input["label"] ?? null)),
      };
    }
    default:
      throw new Error(`unknown op ${input.op}`);
  }
}
