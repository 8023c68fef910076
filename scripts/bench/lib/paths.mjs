/** Where the benchmark tools live and where generated projects go (git-ignored). */
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);

/** scripts/bench */
export const BENCH_DIR = path.resolve(import.meta.dirname, "..");
/** Generated projects, one folder per size: `.tmp/projects/n200`. */
export const PROJECTS_DIR = path.join(BENCH_DIR, ".tmp", "projects");
/** The `tsc` CLI script (run with node). */
export const TSC = require.resolve("typescript/bin/tsc");
/** ts-patch's `tspc`: tsc that applies `compilerOptions.plugins`, patching TypeScript in memory. */
export const TSPC = require.resolve("ts-patch/bin/tspc.js");

/** The folder of the generated project of `n` tools. */
export function projectDir(n) {
  return path.join(PROJECTS_DIR, `n${n}`);
}
