/**
 * Latency of the language-service plugin in a real tsserver, on the generated project of
 * 200 tools (scripts/bench/generate: four files of 50 `tool(fn)` calls, each importing a
 * file of 50 documented functions). Every figure is the wall time from sending a request
 * to its response, as an editor sees it, after warm-up; each is measured twice, with the
 * plugin and on an identical project without it, so the plugin's own share shows.
 *
 *   - semantic diagnostics of a tools file, unchanged (the editor asks again);
 *   - semantic diagnostics of a tools file right after an edit to it (re-derives its 50 tools);
 *   - semantic diagnostics of a functions file right after an edit to it (re-derives the
 *     tools file importing it, where its tools are made);
 *   - hover (quickinfo) on a `tool(...)` call, unchanged and right after an edit.
 *
 * Goal: at most 50 ms per request. Run alone: `node scripts/bench/language-service.mjs
 * [--tools 200] [--runs 30]` (after `pnpm run task:build`). Prints medians and 95th percentiles.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { writeProject } from "./generate/project.mjs";
import { describeMachine, machine } from "./lib/machine.mjs";
import { BENCH_DIR, PROJECTS_DIR } from "./lib/paths.mjs";
import { median } from "./lib/stats.mjs";
import { TsServer } from "./lib/tsserver-client.mjs";

const { values } = parseArgs({ options: { tools: { type: "string" }, runs: { type: "string" } } });
const N = Number(values.tools ?? 200);
const RUNS = Number(values.runs ?? 30);
const WARMUP = 5;
const started = machine();

/** The generated project, with a tsconfig.json (what an editor opens) with or without the plugin. */
function project(withPlugin) {
  const dir = path.join(PROJECTS_DIR, `language-service-${withPlugin ? "plugin" : "plain"}-n${N}`);
  writeProject(dir, N);
  const plugins = [
    { transform: "@toolwright/compiler/transform" },
    ...(withPlugin ? [{ name: "@toolwright/compiler/language-service" }] : []),
  ];
  const tsconfig = JSON.parse(readFileSync(path.join(dir, "tsconfig.toolwright.json"), "utf8"));
  tsconfig.compilerOptions.plugins = plugins;
  writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify(tsconfig, null, 2));
  return dir;
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
}

/** CPU time (user + system, ms) the process has used so far, from /proc (Linux), or NaN elsewhere. */
function cpuOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    // utime and stime, in clock ticks of 10 ms (fields 14 and 15 of proc(5), counted from the state field).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/**
 * Wall time of `request()` after WARMUP unmeasured rounds (`before()`, an edit, is not
 * timed), and tsserver's CPU time per request over the measured rounds, which a busy
 * machine inflates far less than the wall clock.
 */
async function time(server, request, before = () => {}) {
  const samples = [];
  let cpu = 0;
  for (let i = 0; i < WARMUP + RUNS; i++) {
    before(i);
    const cpu0 = cpuOf(server.pid);
    const t0 = performance.now();
    await request(i);
    if (i >= WARMUP) {
      samples.push(performance.now() - t0);
      cpu += cpuOf(server.pid) - cpu0;
    }
  }
  return { median: median(samples), p95: percentile(samples, 95), cpu: cpu / RUNS };
}

async function measure(withPlugin) {
  const dir = project(withPlugin);
  const tools = path.join(dir, "src", "toolwright-0.ts");
  const shapes = path.join(dir, "src", "shapes-0.ts");
  const toolsText = readFileSync(tools, "utf8");
  const lines = toolsText.split("\n");
  // Hover on the `tool` of a different call each time: line k holds `  tool(fnK),`.
  const toolLines = lines.flatMap((line, k) => (line.startsWith("  tool(") ? [k + 1] : []));
  const server = new TsServer(BENCH_DIR);
  try {
    server.open(tools);
    server.open(shapes);
    const first = await server.diagnostics(tools);
    if (first.some((d) => d.category === "error" && d.code < 990000)) {
      throw new Error(`the generated project does not type-check: ${first[0]?.text}`);
    }
    const hovered = await server.request("quickinfo", { file: tools, line: toolLines[0], offset: 3 });
    if (withPlugin && !hovered.body?.documentation.includes("toolwright tool")) {
      throw new Error("the plugin did not load: no tool in the hover");
    }
    // An edit an editor sends: type a space at the start of line 1, then delete it.
    const edit = (file) => (i) =>
      server.notify("change", {
        file,
        line: 1,
        offset: 1,
        endLine: 1,
        endOffset: i % 2 === 0 ? 1 : 2,
        insertString: i % 2 === 0 ? " " : "",
      });
    const hover = (i) => server.request("quickinfo", { file: tools, line: toolLines[i % toolLines.length], offset: 3 });
    return {
      "diagnostics, unchanged tools file": await time(server, () => server.diagnostics(tools)),
      "diagnostics, after an edit to the tools file": await time(server, () => server.diagnostics(tools), edit(tools)),
      "diagnostics, after an edit to the functions file": await time(
        server,
        () => server.diagnostics(shapes),
        edit(shapes),
      ),
      "hover on a tool(...) call, unchanged": await time(server, hover),
      "hover on a tool(...) call, after an edit": await time(server, hover, edit(tools)),
    };
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const withPlugin = await measure(true);
const without = await measure(false);
const ms = (v) => `${v.toFixed(1)} ms`.padStart(9);
console.log(
  `language-service plugin latency, ${N} tools, ${RUNS} requests each after ${WARMUP} warm-up: wall median / p95, and tsserver CPU per request`,
);
for (const [name, timing] of Object.entries(withPlugin)) {
  const plain = without[name];
  console.log(
    `  ${name.padEnd(50)} with plugin ${ms(timing.median)} / ${ms(timing.p95)}, CPU ${ms(timing.cpu)}` +
      `   without ${ms(plain.median)} / ${ms(plain.p95)}, CPU ${ms(plain.cpu)}`,
  );
}
console.log(`  goal: at most 50 ms per request. ${describeMachine(started, machine().load)}`);
