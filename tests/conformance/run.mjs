#!/usr/bin/env node
// Replays the conformance corpus against the TypeScript package with no Python in the loop:
//
//   node tests/conformance/run.mjs [--package js_names=<folder>] [node --test options...]
//
// It lays out generated-ts/ (as pkg/), the adapters (tests/ts_scripts/) and the runner in a
// temporary folder, compiles them with the pinned tsc (tests/ts/node_modules, `npm ci --prefix
// tests/ts`), and runs runner.test.js under `node --test`. The js_names module's package is
// rendered from tests/data/js_names by the generator; give its TypeScript folder with --package
// (e.g. after `toolgen generate --specs tests/data/js_names/specs --ts-out <folder>`), else those
// cases are skipped and the runner says so. Exit status: node --test's.

import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "..", "..");
const tsc = join(root, "tests", "ts", "node_modules", "typescript", "bin", "tsc");
if (!existsSync(tsc)) {
  console.error("the pinned TypeScript toolchain is not installed: run `npm ci --prefix tests/ts`");
  process.exit(2);
}

const packages = { pkg: join(root, "generated-ts") };
const rest = [];
for (let i = 2; i < process.argv.length; i++) {
  if (process.argv[i] === "--package") {
    const [name, folder] = process.argv[++i].split("=");
    packages[name] = resolve(folder);
  } else {
    rest.push(process.argv[i]);
  }
}

const build = mkdtempSync(join(tmpdir(), "toolgen-conformance-"));
try {
  for (const [name, folder] of Object.entries(packages)) cpSync(folder, join(build, name), { recursive: true });
  const tsFiles = (folder) => readdirSync(folder).filter((n) => n.endsWith(".ts"));
  for (const [from, to] of [
    [join(root, "tests", "ts_scripts"), "scripts"],
    [here, "conformance"],
  ]) {
    for (const name of tsFiles(from)) cpSync(join(from, name), join(build, to, name));
  }
  // an adapter whose package is absent is left out: its module's cases are skipped, not compiled
  const adapters = { js_names: "special.ts", orders: "orders.ts" };
  for (const [name, file] of Object.entries(adapters)) {
    if (!(name in packages)) rmSync(join(build, "scripts", file));
  }
  writeFileSync(join(build, "package.json"), '{"type": "module", "private": true}\n');
  writeFileSync(
    join(build, "tsconfig.json"),
    JSON.stringify({
      extends: join(root, "tests", "ts", "tsconfig.emit.json"),
      compilerOptions: { rootDir: ".", outDir: "out", typeRoots: [join(root, "tests", "ts", "node_modules", "@types")] },
      include: ["**/*.ts"],
      exclude: ["out", "*/_runtime/test/**"],
    }),
  );
  const compiled = spawnSync(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: build, stdio: "inherit" });
  if (compiled.status !== 0) process.exit(compiled.status ?? 1);
  const run = spawnSync(process.execPath, ["--test", ...rest, join(build, "out", "conformance", "runner.test.js")], {
    cwd: build,
    stdio: "inherit",
    env: { ...process.env, TOOLGEN_CONFORMANCE_CORPUS: join(here, "corpus") },
  });
  process.exitCode = run.status ?? 1;
} finally {
  rmSync(build, { recursive: true, force: true });
}
