/**
 * Validation throughput on the 200 generated tools: every iteration validates one call
 * of each tool (valid arguments, invalid arguments, and invalid arguments with the error
 * turned into the text a model would read; and valid arguments as JSON text, as most
 * providers send them), for toolwright's `validateArguments`, ajv,
 * typia's `validate` and zod's `safeParse`. tinybench; medians.
 * Run alone: `node scripts/bench/validate.mjs [--quick]`.
 */
import { pathToFileURL } from "node:url";
import { Ajv } from "ajv";
import { Bench } from "tinybench";
import { validateArguments } from "toolwright";
import { z } from "zod";
import { shapeOf } from "./generate/shapes.mjs";
import { prepareProject } from "./lib/prepare.mjs";
import { fmt, markdownTable, times, versus } from "./lib/table.mjs";

const load = async (file) => import(pathToFileURL(file).href);

/** Calls of each tool timed before any warm-up (after the two that check the inputs). */
const FIRST_CALLS = 50;

/** How many objects and arrays `value` holds, itself included: what a frozen private copy of it freezes. */
function containers(value) {
  if (typeof value !== "object" || value === null) return 0;
  return 1 + Object.values(value).reduce((sum, v) => sum + containers(v), 0);
}

/** The floor's row label: the cost of the frozen copy alone, which toolwright's valid path pays and typia's does not. */
const FLOOR = "floor: one Object.freeze per object or array the arguments hold, nothing checked";

/** Freezes `value` and every object and array in it. */
function deepFreeze(value) {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * The same job on both sides, as toolwright does it: a valid call gives a deep-frozen
 * private copy of the arguments (typia.validate, then structuredClone, then a deep freeze),
 * and argument text gives frozen, validated arguments (typia.json.validateParse, then a
 * deep freeze of what it parsed, which is already private).
 */
async function sameJob(project, tools) {
  const { validators } = await load(project.typiaOut);
  const { parsers } = await load(project.typiaJsonOut);
  return [
    {
      label: "valid arguments, same job: a deep-frozen private copy",
      sample: (i) => shapeOf(i).valid,
      toolwright: (i, args) => validateArguments(tools[i], args).ok,
      typia: {
        name: "typia.validate + structuredClone + deep freeze",
        run: (i, args) => {
          const result = validators[i](args);
          if (result.success) deepFreeze(structuredClone(args));
          return result.success;
        },
      },
    },
    {
      label: "valid arguments as JSON text, same job: frozen, validated arguments",
      sample: (i) => JSON.stringify(shapeOf(i).valid),
      toolwright: (i, text) => validateArguments(tools[i], text).ok,
      typia: {
        name: "typia.json.validateParse + deep freeze",
        run: (i, text) => {
          const result = parsers[i](text);
          if (result.success) deepFreeze(result.data);
          return result.success;
        },
      },
    },
  ];
}

/** Each system as three functions of (tool index, arguments) → something to keep. */
async function systems(project) {
  const { tools } = await load(project.toolwrightOut);
  const { validators } = await load(project.typiaOut);
  const { schemas: zodSchemas } = await load(project.zod);
  const { schemas: jsonSchemas } = await load(project.jsonSchemas);
  const ajv = new Ajv({ allErrors: true });
  const ajvValidators = jsonSchemas.map((s) => ajv.compile(s));
  const typiaText = (errors) => errors.map((e) => `${e.path}: expected ${e.expected}, got ${JSON.stringify(e.value)}`);
  return {
    toolwright: {
      ok: (i, args) => validateArguments(tools[i], args).ok,
      // The feedback message is built with the verdict; there is no cheaper "invalid" path.
      report: (i, args) => validateArguments(tools[i], args).error.message,
      // Parses (and would repair) the text itself, and skips the copy of what it parsed.
      text: (i, text) => validateArguments(tools[i], text).ok,
    },
    ajv: {
      ok: (i, args) => ajvValidators[i](args),
      report: (i, args) => (ajvValidators[i](args) ? "" : ajv.errorsText(ajvValidators[i].errors)),
      text: (i, text) => ajvValidators[i](JSON.parse(text)),
    },
    "typia.validate": {
      ok: (i, args) => validators[i](args).success,
      report: (i, args) => typiaText(validators[i](args).errors).join("\n"),
      text: (i, text) => validators[i](JSON.parse(text)).success,
    },
    "zod safeParse": {
      ok: (i, args) => zodSchemas[i].safeParse(args).success,
      report: (i, args) => z.prettifyError(zodSchemas[i].safeParse(args).error),
      text: (i, text) => zodSchemas[i].safeParse(JSON.parse(text)).success,
    },
  };
}

/**
 * Measures validation throughput and returns table rows.
 *
 * @returns {Promise<import("./lib/table.mjs").Row[]>}
 */
export async function benchValidate({ n = 200, time = 1000, log = () => {} } = {}) {
  const project = prepareProject(n);
  const all = await systems(project);
  const ids = Array.from({ length: n }, (_, i) => i);
  // Honest inputs: every system must accept each valid call and reject each invalid one.
  for (const [name, s] of Object.entries(all)) {
    for (const i of ids) {
      if (s.ok(i, shapeOf(i).valid) !== true) throw new Error(`${name} rejected the valid arguments of tool ${i}`);
      if (s.ok(i, shapeOf(i).invalid) !== false) throw new Error(`${name} accepted the invalid arguments of tool ${i}`);
    }
  }
  const rows = [];
  // Before any warm-up: the first calls of each tool, while V8 still interprets the per-tool
  // functions (the steady state below comes after some thousand calls of each).
  const first = {};
  let firstSink = 0;
  for (const [name, s] of Object.entries(all)) {
    const start = performance.now();
    for (let pass = 0; pass < FIRST_CALLS; pass++) for (const i of ids) firstSink += s.ok(i, shapeOf(i).valid) ? 1 : 0;
    first[name] = (FIRST_CALLS * n * 1000) / (performance.now() - start);
  }
  if (firstSink !== FIRST_CALLS * n * Object.keys(all).length) throw new Error("a valid call was rejected");
  for (const [name, ops] of Object.entries(first)) {
    rows.push({
      section: `Validation, valid arguments, first ${FIRST_CALLS} calls of each tool`,
      name,
      value: ops,
      unit: "calls/s",
      note: `${fmt(1e6 / ops)} µs/call`,
      ...(name === "toolwright" ? {} : { ratio: versus(1 / first.toolwright, 1 / ops) }),
    });
  }
  const kinds = [
    ["valid arguments", "ok", "valid"],
    ["invalid arguments", "ok", "invalid"],
    ["invalid arguments + error text", "report", "invalid"],
    // What most providers deliver: the arguments as JSON text, parsed by each system's user.
    ["valid arguments as JSON text", "text", "valid"],
  ];
  const texts = ids.map((i) => JSON.stringify(shapeOf(i).valid));
  const objects = ids.map((i) => containers(shapeOf(i).valid));
  for (const [label, fn, sample] of kinds) {
    // Steady state: each system's 200 per-tool functions (toolwright's readers and checks,
    // typia's validators, zod's and ajv's compiled ones) are optimised by V8 only after some
    // thousand calls each, about a second of this loop; with a shorter warm-up the median
    // fell anywhere between the cold and the warm figure from run to run.
    const bench = new Bench({ time, warmupTime: Math.round(1.5 * time) });
    let sink = 0;
    for (const [name, s] of Object.entries(all)) {
      const run = s[fn];
      bench.add(name, () => {
        for (const i of ids) {
          const out = run(i, fn === "text" ? texts[i] : shapeOf(i)[sample]);
          sink += out === true ? 1 : out === false ? 2 : out.length;
        }
      });
    }
    if (fn === "ok" && sample === "valid") {
      // Valid arguments come back as a deep-frozen private copy ("approved = executed"), so
      // every object and array they hold is frozen once. This is that freezing alone, on
      // fresh one-key objects (V8 freezes those faster than an empty one or an array): a
      // lower bound of any valid call that keeps the guarantee.
      bench.add(FLOOR, () => {
        for (const i of ids) for (let k = 0; k < objects[i]; k++) sink += Object.freeze({ k }) === null ? 0 : 1;
      });
    }
    log(`validate: ${label}`);
    await bench.run();
    if (sink === 0) throw new Error("validation results were never used");
    const opsPerSec = Object.fromEntries(bench.tasks.map((t) => [t.name, (n * 1000) / t.result.latency.p50]));
    for (const [name, ops] of Object.entries(opsPerSec)) {
      if (name === FLOOR) {
        const perCall = objects.reduce((sum, k) => sum + k, 0) / n;
        rows.push({
          section: `Validation, ${label}`,
          name,
          value: ops,
          unit: "calls/s",
          note: `${fmt(1e6 / ops)} µs/call; ${fmt(perCall)} objects per call`,
          ratio: `${times(opsPerSec["typia.validate"], ops)} typia.validate's time; ${times(opsPerSec["zod safeParse"], ops)} zod's`,
        });
        continue;
      }
      const ours = name === "toolwright";
      const row = {
        section: `Validation, ${label}`,
        name,
        value: ops,
        unit: "calls/s",
        note: `${fmt(1e6 / ops)} µs/call`,
      };
      if (!ours) row.ratio = versus(1 / opsPerSec.toolwright, 1 / ops);
      if (!ours && fn === "ok" && sample === "valid" && name === "typia.validate") {
        row.target = "toolwright >= typia";
        row.met = opsPerSec.toolwright >= ops;
      }
      if (!ours && fn === "ok" && sample === "valid" && name === "zod safeParse") {
        row.target = "toolwright >= 5x zod";
        row.met = opsPerSec.toolwright >= 5 * ops;
      }
      if (!ours && fn === "report" && name === "typia.validate") {
        row.target = "toolwright <= 2x typia's time";
        row.met = 2 * opsPerSec.toolwright >= ops;
      }
      rows.push(row);
    }
  }
  const { tools } = await load(project.toolwrightOut);
  for (const job of await sameJob(project, tools)) {
    const inputs = ids.map(job.sample);
    for (const i of ids) {
      if (job.typia.run(i, inputs[i]) !== true) throw new Error(`${job.typia.name} rejected tool ${i}'s valid call`);
    }
    const bench = new Bench({ time, warmupTime: Math.round(1.5 * time) });
    let sink = 0;
    bench.add("toolwright", () => {
      for (const i of ids) sink += job.toolwright(i, inputs[i]) ? 1 : 2;
    });
    bench.add(job.typia.name, () => {
      for (const i of ids) sink += job.typia.run(i, inputs[i]) ? 1 : 2;
    });
    log(`validate: ${job.label}`);
    await bench.run();
    if (sink === 0) throw new Error("validation results were never used");
    const [ours, theirs] = bench.tasks.map((t) => (n * 1000) / t.result.latency.p50);
    const section = `Validation, ${job.label}`;
    rows.push(
      { section, name: "toolwright", value: ours, unit: "calls/s", note: `${fmt(1e6 / ours)} µs/call` },
      {
        section,
        name: job.typia.name,
        value: theirs,
        unit: "calls/s",
        note: `${fmt(1e6 / theirs)} µs/call`,
        ratio: versus(1 / ours, 1 / theirs),
      },
    );
  }
  return rows;
}

if (process.argv[1] === import.meta.filename) {
  const quick = process.argv.includes("--quick");
  const rows = await benchValidate({ n: quick ? 20 : 200, time: quick ? 100 : 1000, log: (l) => console.error(l) });
  console.log(markdownTable(rows));
}
