/**
 * Build benchmark: `tsc` alone, then `tspc` (ts-patch's tsc) with our transformer, and
 * `tsc` alone then `tspc` with typia's transformer, each compiler on its own program of
 * the same generated functions (200 and 1,000 tools). Our transformer also runs under
 * `tsc` after `ts-patch install` (into a private copy of TypeScript) and in `toolwright
 * build`, the two ways around tspc's own start-up cost. Whole processes, run in interleaved
 * rounds; medians of wall and CPU time. Run alone: `node scripts/bench/build.mjs [--quick] [--sizes 20,200]`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { patchedTypeScript } from "./build-persistent.mjs";
import { writeProject } from "./generate/project.mjs";
import { projectDir, TSC, TSPC } from "./lib/paths.mjs";
import { projectBuilt } from "./lib/prepare.mjs";
import { timeNodeRounds } from "./lib/process-timer.mjs";
import { fmt, markdownTable, times } from "./lib/table.mjs";

/**
 * Measures the builds and returns table rows.
 *
 * @param {{ sizes: number[], runs: number, warmup: number, log?: (line: string) => void }} options
 * @returns {import("./lib/table.mjs").Row[]}
 */
export function benchBuild({ sizes, runs, warmup, log = () => {} }) {
  const rows = [];
  const tmp = mkdtempSync(path.join(tmpdir(), "toolwright-build-"));
  try {
    const patchedTsc = patchedTypeScript(tmp);
    for (const n of sizes) rows.push(...benchSize(n, { patchedTsc, runs, warmup, log }));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return rows;
}

/** `toolwright build`, the compiler's CLI: the transformer through TypeScript's API, no patching. */
const TOOLWRIGHT_CLI = path.join(
  path.dirname(createRequire(import.meta.url).resolve("@toolwright/compiler/package.json")),
  "dist",
  "cli",
  "bin.js",
);

/** The rows of one project size. */
function benchSize(n, { patchedTsc, runs, warmup, log }) {
  const project = writeProject(projectDir(n), n);
  log(`build: ${n} tools, ${warmup} warm-up and ${runs} timed rounds of 7 builds`);
  const { base, patchOnly, ours, installed, cli, typiaBase, typia } = timeNodeRounds(
    {
      base: [TSC, "-p", "tsconfig.toolwright-plain.json"],
      // tspc with no plugin: what ts-patch's in-memory patch costs by itself.
      patchOnly: [TSPC, "-p", "tsconfig.toolwright-plain.json"],
      ours: [TSPC, "-p", "tsconfig.toolwright.json"],
      installed: [patchedTsc, "-p", "tsconfig.toolwright.json"],
      cli: [TOOLWRIGHT_CLI, "build", "-p", "tsconfig.toolwright.json"],
      typiaBase: [TSC, "-p", "tsconfig.typia-plain.json"],
      typia: [TSPC, "-p", "tsconfig.typia.json"],
    },
    { runs, warmup, cwd: project.dir },
  );
  projectBuilt(project);
  const section = `Build, ${n} tools`;
  const cpu = (r) => `CPU ${fmt(r.cpuMs)} ms`;
  // A difference with its sign: on a busy machine a faster build can come out slower.
  const signed = (ms) => `${ms < 0 ? "-" : "+"}${fmt(Math.abs(ms))}`;
  /** The row of a build timed against the plain `tsc` build `ref`. */
  const against = (name, run, ref) => ({
    section,
    name,
    value: run.wallMs,
    unit: "ms",
    note: `${cpu(run)}; ${signed(run.wallMs - ref.wallMs)} ms`,
    ratio: `${times(run.wallMs, ref.wallMs)} tsc (CPU ${times(run.cpuMs, ref.cpuMs)})`,
  });
  const oursOverhead = ours.wallMs - base.wallMs;
  const typiaOverhead = typia.wallMs - typiaBase.wallMs;
  return [
    { section, name: "tsc (toolwright sources)", value: base.wallMs, unit: "ms", note: cpu(base) },
    against("tspc, no plugin (ts-patch alone)", patchOnly, base),
    {
      ...against("tspc + toolwright transformer", ours, base),
      target: "<= 1.10x tsc",
      met: ours.wallMs <= 1.1 * base.wallMs,
    },
    {
      section,
      name: "transformer alone: tspc + toolwright / tspc",
      value: ours.wallMs - patchOnly.wallMs,
      unit: "ms",
      note: `CPU ${signed(ours.cpuMs - patchOnly.cpuMs)} ms`,
      ratio: `${times(ours.wallMs, patchOnly.wallMs)} tspc (CPU ${times(ours.cpuMs, patchOnly.cpuMs)})`,
    },
    {
      ...against("tsc after ts-patch install + toolwright", installed, base),
      target: "<= 1.10x tsc",
      met: installed.wallMs <= 1.1 * base.wallMs,
    },
    against("toolwright build (no patching)", cli, base),
    { section, name: "tsc (typia sources)", value: typiaBase.wallMs, unit: "ms", note: cpu(typiaBase) },
    {
      ...against("tspc + typia transformer", typia, typiaBase),
      target: "toolwright's overhead below typia's",
      met: oursOverhead < typiaOverhead,
    },
  ];
}

if (import.meta.main ?? process.argv[1] === import.meta.filename) {
  const quick = process.argv.includes("--quick");
  // `--sizes 20,200`: other project sizes than the table's (a small project shows the fixed costs).
  const sizesAt = process.argv.indexOf("--sizes");
  const sizes = sizesAt > 0 ? process.argv[sizesAt + 1].split(",").map(Number) : undefined;
  const rows = benchBuild({
    sizes: sizes ?? (quick ? [20] : [200, 1000]),
    runs: quick ? 1 : 5,
    warmup: quick ? 0 : 1,
    log: (line) => console.error(line),
  });
  console.log(markdownTable(rows));
}
