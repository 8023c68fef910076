/**
 * toolwright's loop overhead, A/B: the same scenario as `loop.mjs` (10 turns of one
 * getForecast0 call each, then a final answer, against a zero-latency model) run on two or
 * more builds of the runtime in one process, in alternating rounds, so the machine's load
 * falls on every build alike. Prints each build's median µs per call and its ratio to the
 * first.
 *
 * Keep a build to compare against: `cp -r packages/runtime/dist scripts/bench/.tmp/dist-before`,
 * change and rebuild, then:
 *   node scripts/bench/loop-ab.mjs scripts/bench/.tmp/dist-before packages/runtime/dist [--rounds 30] [--runs 200]
 * With one build and `--seconds N`, it only runs that build (for `node --cpu-prof`).
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { CALLS, toolwrightRun } from "./lib/loop-scenario.mjs";
import { prepareProject } from "./lib/prepare.mjs";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: "string", default: "30" },
    runs: { type: "string", default: "200" },
    seconds: { type: "string" },
  },
});
if (positionals.length === 0) throw new Error("usage: loop-ab.mjs <dist> [<dist> ...] [--rounds N] [--runs N]");

const project = prepareProject(200);
const { tools } = await import(pathToFileURL(project.toolwrightOut).href);
const generated = tools[0];

/** One run of the scenario on the runtime built in `dist`. */
async function scenario(dist) {
  const { Agent, tool } = await import(pathToFileURL(path.resolve(dist, "index.js")).href);
  return toolwrightRun(Agent, tool(generated.fn, undefined, generated.spec), dist);
}

const runs = Number(values.runs);
const builds = await Promise.all(positionals.map(async (dist) => ({ dist, run: await scenario(dist), perCall: [] })));

/** µs per tool call over `runs` runs. */
async function timed(run) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < runs; i++) await run();
  return Number(process.hrtime.bigint() - start) / 1000 / runs / CALLS;
}

if (values.seconds) {
  const [only] = builds;
  const end = Date.now() + Number(values.seconds) * 1000;
  let rounds = 0;
  while (Date.now() < end) {
    await timed(only.run);
    rounds++;
  }
  console.log(`${only.dist}: ${rounds * runs} runs`);
} else {
  for (const b of builds) for (let i = 0; i < 3; i++) await timed(b.run); // warm-up
  const rounds = Number(values.rounds);
  for (let r = 0; r < rounds; r++) {
    // Alternate the order too, so no build always runs right after another's garbage.
    const order = r % 2 === 0 ? builds : [...builds].reverse();
    for (const b of order) b.perCall.push(await timed(b.run));
  }
  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return s[Math.floor(s.length / 2)];
  };
  const base = median(builds[0].perCall);
  for (const b of builds) {
    const m = median(b.perCall);
    const pairRatios = b.perCall.map((x, i) => x / builds[0].perCall[i]);
    console.log(
      `${b.dist}: median ${m.toFixed(2)} µs/call, min ${Math.min(...b.perCall).toFixed(2)}, ` +
        `ratio to first ${(m / base).toFixed(3)} (median of paired rounds ${median(pairRatios).toFixed(3)})`,
    );
  }
}
