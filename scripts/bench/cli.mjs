/**
 * CLI benchmark: `toolwright print`, `gen` and `build` against `tspc` with the transformer,
 * on the same generated project (7 and 200 tools), whole processes in interleaved rounds;
 * medians of wall and CPU time. Each command compiles the project once: none should cost
 * more than tspc, which type-checks and emits it. Run alone: `node scripts/bench/cli.mjs
 * [--tools 7,200] [--runs 5]`. Prints a table.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { parseArgs } from "node:util";
import { writeProject } from "./generate/project.mjs";
import { projectDir, TSPC } from "./lib/paths.mjs";
import { timeNodeRounds } from "./lib/process-timer.mjs";
import { fmt, markdownTable, times } from "./lib/table.mjs";

const require = createRequire(import.meta.url);
const CLI = path.join(path.dirname(require.resolve("@toolwright/compiler/package.json")), "dist/cli/bin.js");

const { values } = parseArgs({ options: { tools: { type: "string" }, runs: { type: "string" } } });
const sizes = (values.tools ?? "7,200").split(",").map(Number);
const runs = Number(values.runs ?? 5);

const rows = [];
for (const n of sizes) {
  const project = writeProject(projectDir(n), n);
  const config = ["-p", "tsconfig.toolwright.json"];
  console.error(`[bench] cli: ${n} tools, 1 warm-up and ${runs} timed rounds`);
  const results = timeNodeRounds(
    {
      tspc: [TSPC, ...config],
      print: [CLI, "print", ...config],
      gen: [CLI, "gen", ...config, "--out", "toolwright.gen.ts"],
      build: [CLI, "build", ...config],
    },
    { runs, warmup: 1, cwd: project.dir },
  );
  const section = `toolwright CLI, ${n} tools`;
  for (const [name, r] of Object.entries(results)) {
    rows.push({
      section,
      name: name === "tspc" ? "tspc + transformer" : `toolwright ${name}`,
      value: r.wallMs,
      unit: "ms",
      note: `CPU ${fmt(r.cpuMs)} ms`,
      ...(name === "tspc"
        ? {}
        : {
            ratio: `${times(r.wallMs, results.tspc.wallMs)} tspc (CPU ${times(r.cpuMs, results.tspc.cpuMs)})`,
            target: "<= 1.00x tspc",
            met: r.cpuMs <= results.tspc.cpuMs,
          }),
    });
  }
}
console.log(markdownTable(rows));
