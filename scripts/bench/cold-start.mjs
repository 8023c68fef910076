/**
 * Cold start: from the process starting to the first validated call, with 200 tools. Each
 * system runs in fresh Node processes (cold/*.mjs), which report `performance.now()`
 * (counted from process start) at the first validated call; medians over interleaved
 * rounds after warm-up. An empty Node process is the floor every system shares.
 * Run alone: `node scripts/bench/cold-start.mjs [--quick]`.
 */
import path from "node:path";
import { BENCH_DIR } from "./lib/paths.mjs";
import { prepareProject } from "./lib/prepare.mjs";
import { timeNodeRounds } from "./lib/process-timer.mjs";
import { fmt, markdownTable, versus } from "./lib/table.mjs";

/**
 * Measures the cold starts and returns table rows.
 *
 * @returns {import("./lib/table.mjs").Row[]}
 */
export function benchColdStart({ n = 200, runs = 15, warmup = 3, log = () => {} } = {}) {
  const project = prepareProject(n);
  const systems = [
    ["Node, empty process (floor)", "node.mjs", []],
    ["toolwright (generated validators, Ajv not loaded)", "toolwright.mjs", [project.toolwrightOut]],
    [`ajv compiling all ${n} at start-up`, "ajv.mjs", [project.jsonSchemas]],
    ["zod + AI SDK tool()", "ai-zod.mjs", [project.ai]],
    ["typia (validators generated at build)", "typia.mjs", [project.typiaOut]],
    ["diagnostic: importing undici (toolwright/providers) alone", "undici.mjs", []],
  ];
  log(`cold start: ${warmup} warm-up and ${runs} timed rounds of ${systems.length} processes`);
  const timed = timeNodeRounds(
    Object.fromEntries(systems.map(([name, script, args]) => [name, [path.join(BENCH_DIR, "cold", script), ...args]])),
    { runs, warmup, cwd: BENCH_DIR },
  );
  const measured = systems.map(([name]) => [name, timed[name]]);
  const floor = measured[0][1].firstCallMs;
  const ours = measured[1][1].firstCallMs;
  return measured.map(([name, r], index) => {
    const row = {
      section: `Cold start to first validated call, ${n} tools`,
      name,
      value: r.firstCallMs,
      unit: "ms",
      note: `${fmt(r.firstCallMs - floor)} ms above Node; process ${fmt(r.wallMs)} ms, CPU ${fmt(r.cpuMs)} ms`,
    };
    if (index >= 2 && script(index) !== "undici.mjs") {
      const above = versus(ours - floor, r.firstCallMs - floor).replace("toolwright ", "");
      row.ratio = `${versus(ours, r.firstCallMs)} (${above} above Node)`;
    }
    if (script(index) === "ajv.mjs") Object.assign(row, { target: ">= 10x faster", met: r.firstCallMs >= 10 * ours });
    if (script(index) === "ai-zod.mjs") Object.assign(row, { target: ">= 5x faster", met: r.firstCallMs >= 5 * ours });
    if (script(index) === "typia.mjs")
      Object.assign(row, { target: "toolwright <= typia", met: ours <= r.firstCallMs });
    return row;
  });

  function script(index) {
    return systems[index][1];
  }
}

if (process.argv[1] === import.meta.filename) {
  const quick = process.argv.includes("--quick");
  const rows = benchColdStart({
    n: quick ? 20 : 200,
    runs: quick ? 1 : 15,
    warmup: quick ? 0 : 3,
    log: (l) => console.error(l),
  });
  console.log(markdownTable(rows));
}
