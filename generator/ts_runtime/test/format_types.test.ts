import assert from "node:assert/strict";
import { test } from "node:test";

import { FORMATS } from "../formats.js";
import type { FormatName } from "../format_types.js";

// Every key of the per-format type maps, exactly (tsc refuses a missing or an extra one here).
const NAMES: { readonly [K in FormatName]: K } = {
  anthropic: "anthropic",
  "openai-chat": "openai-chat",
  "openai-responses": "openai-responses",
  gemini: "gemini",
  "bedrock-converse": "bedrock-converse",
};

test("the per-format types cover exactly the format records", () => {
  assert.deepEqual(Object.keys(NAMES).sort(), [...FORMATS.keys()].sort());
});
