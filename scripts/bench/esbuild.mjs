/**
 * esbuild plugin benchmark on a generated project of 200 tools (one tool per file, a
 * shared types file, one entry importing them all), bundled in memory:
 *
 *   - cold build with the plugin (language service, program and every spec from scratch);
 *   - rebuild after editing one tool file (context.rebuild; target under 100 ms);
 *   - rebuild after editing the shared types file (every tool depends on it);
 *   - the same builds without the plugin.
 *
 * Run alone: `node scripts/bench/esbuild.mjs [--tools 200] [--runs 7]`. Prints medians.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { toolwright } from "@toolwright/compiler/esbuild";
import { context } from "esbuild";

const { values } = parseArgs({ options: { tools: { type: "string" }, runs: { type: "string" } } });
const N = Number(values.tools ?? 200);
const RUNS = Number(values.runs ?? 7);
const dir = path.join(import.meta.dirname, ".tmp", `esbuild-n${N}`);
const src = (file) => path.join(dir, "src", file);

function toolSource(i, revision) {
  return `import { tool } from "toolwright";
import type { Units, Window } from "./types.js";

/**
 * Forecast number ${i} for a city, revision ${revision}.
 * @param city City name, e.g. "Paris".
 * @param days How many days ahead.
 * @param units Temperature units.
 * @param window Hours of the day to cover.
 */
function forecast${i}(/** @minLength 2 */ city: string, /** @minimum 1 @maximum 14 */ days: number, units: Units = "celsius", window?: Window): string {
  return [city, days, units, window?.from].join(" ");
}

export const tool${i} = tool(forecast${i}, { readOnly: true });
`;
}

function typesSource(revision) {
  return `/** Temperature units (revision ${revision}). */
export type Units = "celsius" | "fahrenheit"${revision > 0 ? ` | "kelvin${revision}"` : ""};

/** A range of hours. */
export interface Window {
  /** First hour, 0-23. */
  from: number;
  /** Last hour, 0-23. */
  to: number;
}
`;
}

function writeProject() {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, "src"), { recursive: true });
  writeFileSync(
    path.join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, types: [] },
      include: ["src"],
    }),
  );
  writeFileSync(src("types.ts"), typesSource(0));
  const ids = Array.from({ length: N }, (_, i) => i);
  for (const i of ids) writeFileSync(src(`tool-${i}.ts`), toolSource(i, 0));
  writeFileSync(
    src("main.ts"),
    `${ids.map((i) => `import { tool${i} } from "./tool-${i}.js";`).join("\n")}\nexport const tools = [${ids.map((i) => `tool${i}`).join(", ")}];\n`,
  );
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Wall time, and this process's CPU time (the plugin's share: esbuild itself runs in its own process). */
async function time(fn) {
  const cpu = process.cpuUsage();
  const start = performance.now();
  await fn();
  const used = process.cpuUsage(cpu);
  return { wall: performance.now() - start, cpu: (used.user + used.system) / 1000 };
}

/** Cold build, then median rebuilds after editing one tool file and after editing the types file. */
async function measure(plugins) {
  const ctx = await context({
    absWorkingDir: dir,
    entryPoints: [src("main.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    external: ["toolwright"],
    write: false,
    outfile: path.join(dir, "out", "main.js"),
    logLevel: "error",
    plugins,
  });
  let specs = 0;
  const cold = await time(async () => {
    const result = await ctx.rebuild();
    specs = (result.outputFiles?.[0]?.text.match(/"\$toolwright": 1/g) ?? []).length;
  });
  const oneFile = [];
  const typesFile = [];
  for (let run = 1; run <= RUNS; run++) {
    writeFileSync(src(`tool-${run % N}.ts`), toolSource(run % N, run));
    oneFile.push(await time(() => ctx.rebuild()));
  }
  for (let run = 1; run <= Math.min(RUNS, 3); run++) {
    writeFileSync(src("types.ts"), typesSource(run));
    typesFile.push(await time(() => ctx.rebuild()));
  }
  await ctx.dispose();
  const medianOf = (xs) => ({ wall: median(xs.map((x) => x.wall)), cpu: median(xs.map((x) => x.cpu)) });
  return { cold, oneFile: medianOf(oneFile), typesFile: medianOf(typesFile), specs };
}

writeProject();
const withPlugin = await measure([toolwright()]);
writeProject();
const without = await measure([]);
const ms = (x) => `${x.wall.toFixed(0).padStart(6)} ms (node CPU ${x.cpu.toFixed(0).padStart(5)} ms)`;
const load = loadavg()[0].toFixed(1);
console.log(
  `esbuild bundle of ${N} tools (${N + 2} files), medians of ${RUNS} rebuilds, Node ${process.version}, load ${load}`,
);
console.log("                                      with plugin                     without plugin");
console.log(`cold build                            ${ms(withPlugin.cold)}    ${ms(without.cold)}`);
console.log(`rebuild after editing one tool file   ${ms(withPlugin.oneFile)}    ${ms(without.oneFile)}`);
console.log(`rebuild after editing the types file  ${ms(withPlugin.typesFile)}    ${ms(without.typesFile)}`);
console.log(`specs in the bundle                   ${withPlugin.specs}, without: ${without.specs}`);
if (withPlugin.specs !== N) {
  console.error(`expected ${N} specs in the bundle with the plugin, found ${withPlugin.specs}`);
  process.exitCode = 1;
}
