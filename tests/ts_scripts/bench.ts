/** Timings of the TS parser for benchmarks/ts.py (not a test): parseToolCalls on the whole text,
 * StreamingParser fed fixed-size chunks, and parseCalls per call on a short reply. */

import { StreamingParser, parseCalls } from "../pkg/index.js";
import { parseToolCalls } from "../pkg/_runtime/xml_calls.js";

type Tools = { readonly [name: string]: readonly string[] };

function timed<T>(run: () => T): [number, T] {
  const start = performance.now();
  const result = run();
  return [(performance.now() - start) / 1000, result];
}

export function handle(input: { readonly [key: string]: unknown }): unknown {
  if (input["op"] === "perCall") {
    const text = input["text"] as string;
    const repeat = input["repeat"] as number;
    for (let i = 0; i < 200; i++) parseCalls(text, "generic"); // warm up the JIT
    const [seconds] = timed(() => {
      for (let i = 0; i < repeat; i++) parseCalls(text, "generic");
    });
    return { perCallUs: (seconds / repeat) * 1e6 };
  }
  const text = input["text"] as string;
  const tools = input["tools"] as Tools;
  const chunk = input["chunk"] as number;
  const [parseS, blocks] = timed(() => parseToolCalls(text, tools));
  const [streamS, streamed] = timed(() => {
    const parser = new StreamingParser(tools);
    for (let i = 0; i < text.length; i += chunk) parser.feed(text.slice(i, i + chunk));
    return parser.blocks;
  });
  const summary = (list: readonly { name: string; params: object; partial: boolean }[]) =>
    list.map((b) => [b.name, b.params, b.partial]);
  return { parseS, streamS, blocks: summary(blocks), streamed: summary(streamed) };
}
