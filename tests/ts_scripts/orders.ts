/**
 * Driver for tests/test_orders_catalog.py: Offers of the orders catalog (tests/data/orders/specs)
 * checking and dispatching calls, answered as JSON in the shape of the Python side.
 */

import { Coordinator, Offer, ToolResult, type ToolHandler } from "../orders/index.js";
import { toolUse } from "../orders/_runtime/tool_types.js";

type Input = { readonly [key: string]: any };

class Recorder implements ToolHandler<unknown> {
  readonly calls: unknown[] = [];
  constructor(readonly name: string) {}
  execute(_config: unknown, block: { params: unknown }): ToolResult {
    this.calls.push(block.params);
    return ToolResult.ok("ran");
  }
}

export function handle(input: Input): unknown {
  let offer: Offer;
  try {
    offer = new Offer(input["family"], input["context"], { format: input["format"], mcpServers: input["servers"] ?? [] });
  } catch (error) {
    return { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
  const recorders = new Map<string, Recorder>();
  const coordinator = new Coordinator();
  for (const id of ["update_order", "file_ticket", "close_order", "use_mcp_tool"]) {
    const recorder = new Recorder(id);
    recorders.set(id, recorder);
    coordinator.register(recorder);
  }
  const answers = (input["calls"] as any[]).map((call) => {
    const use = toolUse(call.name, call.params, false, call.id ?? "c", null);
    const [typed, problems] = offer.check(use);
    const result = offer.execute(coordinator, null, use);
    const ran = [...recorders.values()].flatMap((r) => r.calls.splice(0));
    return {
      typed,
      problems,
      result: result === null ? null : { content: result.content, is_error: result.isError },
      ran,
    };
  });
  return { prompt: offer.promptSection(), degraded: offer.degraded, answers };
}
