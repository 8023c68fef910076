/**
 * `validateArguments`, A/B: the calls of `validate.mjs` (each of the 200 generated tools
 * once per round, with its valid arguments as an object, as JSON text, or its invalid
 * arguments with the feedback text read) on two or more builds of the runtime in one
 * process, in alternating rounds, so the machine's load falls on every build alike. Prints
 * each build's median µs per call and its ratio to the first.
 *
 * Keep a build to compare against: `cp -r packages/runtime/dist scripts/bench/.tmp/dist-before`,
 * change and rebuild, then:
 *   node scripts/bench/validate-ab.mjs scripts/bench/.tmp/dist-before packages/runtime/dist [--rounds 15]
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { shapeOf } from "./generate/shapes.mjs";
import { prepareProject } from "./lib/prepare.mjs";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { rounds: { type: "string", default: "15" } },
});
if (positionals.length === 0) throw new Error("usage: validate-ab.mjs <dist> [<dist> ...] [--rounds N]");

const project = prepareProject(200);
const { tools } = await import(pathToFileURL(project.toolwrightOut).href);
const ids = tools.map((_, i) => i);
const texts = ids.map((i) => JSON.stringify(shapeOf(i).valid));

/** Each kind of call: what one call does, and how many passes over the 200 tools a round makes. */
const KINDS = {
  "valid arguments": { passes: 500, call: (v, i) => v(tools[i], shapeOf(i).valid).ok },
  "valid arguments as JSON text": { passes: 250, call: (v, i) => v(tools[i], texts[i]).ok },
  "invalid arguments + error text": {
    passes: 25,
    call: (v, i) => v(tools[i], shapeOf(i).invalid).error.message.length > 0,
  },
};

const builds = [];
for (const dist of positionals) {
  const { validateArguments } = await import(pathToFileURL(path.resolve(dist, "index.js")).href);
  builds.push({ dist, validate: validateArguments });
}

let sink = 0;
/** µs per call of one round of `kind` on `validate`. */
function round(validate, { passes, call }) {
  const start = performance.now();
  for (let p = 0; p < passes; p++) for (const i of ids) sink += call(validate, i) ? 1 : 0;
  return ((performance.now() - start) * 1000) / (passes * ids.length);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rounds = Number(values.rounds);
for (const [label, kind] of Object.entries(KINDS)) {
  for (const b of builds) round(b.validate, kind); // warm-up (compiles Ajv on the slow path)
  const times = builds.map(() => []);
  for (let r = 0; r < rounds; r++) {
    // Alternating order: neither build always runs first in a round.
    const order = r % 2 === 0 ? builds.keys() : [...builds.keys()].reverse();
    for (const k of order) times[k].push(round(builds[k].validate, kind));
  }
  const first = median(times[0]);
  for (const [k, b] of builds.entries()) {
    const m = median(times[k]);
    console.log(`${label.padEnd(32)} ${b.dist.padEnd(44)} ${m.toFixed(3)} µs/call  ${(m / first).toFixed(2)}x`);
  }
}
if (sink === 0) throw new Error("results were never used");
