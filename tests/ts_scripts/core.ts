/** Equivalence driver for ts-core: one operation per input, results as JSON (see tests/ts_bridge.py). */

import { CATALOG_DATA, Context, ToolId } from "../pkg/index.js";

type Input = { readonly op: string; readonly [key: string]: unknown };

export function handle(input: Input): unknown {
  switch (input.op) {
    case "data":
      return CATALOG_DATA;
    case "toolIds":
      return Object.values(ToolId);
    case "context":
      return Context.fromObject(input["data"]);
    default:
      throw new Error(`unknown op ${input.op}`);
  }
}
