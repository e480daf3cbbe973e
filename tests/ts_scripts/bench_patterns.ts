/** Timings of the TS pattern runtime for benchmarks/patterns.py (not a test): compiling a pattern
 * (translation and RegExp, the cache bypassed) and searching with it, against node's own RegExp. */

import { javascriptSource } from "../pkg/_runtime/ecma_regex.js";

type Input = { readonly patterns: readonly string[]; readonly texts: readonly string[]; readonly repeat: number };

function seconds(run: () => void): number {
  const start = performance.now();
  run();
  return (performance.now() - start) / 1000;
}

export function handle(input: Input): unknown {
  const compile: number[] = [];
  const ours: RegExp[] = [];
  for (const pattern of input.patterns) {
    javascriptSource(pattern); // warm up the JIT and the Unicode table
    compile.push(seconds(() => ours.push(new RegExp(javascriptSource(pattern), "u"))));
  }
  const native = input.patterns.map((pattern) => new RegExp(pattern, "u"));
  const search = (regexps: RegExp[]): number =>
    seconds(() => {
      for (let i = 0; i < input.repeat; i++) for (const r of regexps) for (const t of input.texts) r.test(t);
    }) / (input.repeat * regexps.length * input.texts.length);
  search(ours);
  return { compile, oursSearch: search(ours), nativeSearch: search(native) };
}
