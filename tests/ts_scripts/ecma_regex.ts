/** Differential driver for the pattern runtime (tests/test_ecma_regex_differential.py): per input
 * `{pattern, texts}`, the TS runtime's verdicts (or its PatternError) and those of node's own
 * `new RegExp(pattern, "u")`; tests/ts_bridge.py runs a whole batch in one node process. */

import { compilePattern, PatternError } from "../pkg/_runtime/ecma_regex.js";

type Input = { readonly pattern: string; readonly texts: readonly string[] };
type Outcome = { verdicts: boolean[] } | { error: { message: string; offset: number } };

function ours(input: Input): Outcome {
  try {
    const matches = compilePattern(input.pattern);
    return { verdicts: input.texts.map(matches) };
  } catch (error) {
    if (!(error instanceof PatternError)) throw error;
    return { error: { message: error.message, offset: error.offset } };
  }
}

function native(input: Input): Outcome {
  let regexp: RegExp;
  try {
    regexp = new RegExp(input.pattern, "u");
  } catch (error) {
    return { error: { message: String(error), offset: -1 } };
  }
  return { verdicts: input.texts.map((text) => regexp.test(text)) };
}

/** For the conformance corpus (op "compilePattern"): ours only; else both, for the differential test. */
export function handle(input: Input & { readonly op?: string }): unknown {
  if (input.op === "compilePattern") return ours(input);
  return { ours: ours(input), native: native(input) };
}
