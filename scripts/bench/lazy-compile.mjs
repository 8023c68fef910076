// Lazy compile vs. compiling every schema at start-up vs. precompiling at build time (Ajv
// standalone code), for an agent with 200 tools. Each cold start runs in a fresh process.
// Usage: node scripts/bench/lazy-compile.mjs   (after `pnpm run task:build`)
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const TOOLS = 200;
const RUNS = 5;
const self = fileURLToPath(import.meta.url);
// Ajv and ajv-formats as the runtime itself resolves them: the same versions on both sides.
const require = createRequire(fileURLToPath(import.meta.resolve("toolwright")));

/** 200 varied argument schemas: scalars, an enum, a nested object via $defs, an array of objects. */
function schemas() {
  return Array.from({ length: TOOLS }, (_, i) => ({
    type: "object",
    properties: {
      id: { type: "string", minLength: 1 },
      [`count${i}`]: { type: "integer", minimum: 0 },
      ratio: { type: "number" },
      mode: { enum: ["fast", "safe", `m${i}`] },
      when: { type: "string", format: "date-time" },
      address: { $ref: "#/$defs/Address" },
      lines: {
        type: "array",
        items: {
          type: "object",
          properties: { sku: { type: "string" }, qty: { type: "integer" } },
          required: ["sku", "qty"],
          additionalProperties: false,
        },
      },
      flag: { type: "boolean" },
    },
    required: ["id", `count${i}`],
    additionalProperties: false,
    $defs: {
      Address: {
        type: "object",
        properties: { street: { type: "string" }, zip: { type: "string", pattern: "^[0-9]{5}$" } },
        required: ["street"],
        additionalProperties: false,
      },
    },
  }));
}

const validArgs = (i) => ({
  id: "A-1",
  [`count${i}`]: 3,
  mode: "fast",
  when: "2026-11-29T10:00:00Z",
  address: { street: "Main", zip: "75001" },
  lines: [{ sku: "x", qty: 1 }],
  flag: true,
});

// ---- child modes: each prints the ms from process start to the first validated call ----
async function lazy() {
  const { asTool, validateArguments } = await import("toolwright");
  const tools = schemas().map((parameters, i) =>
    asTool({ name: `tool_${i}`, description: "d", parameters, flags: {}, execute: () => 1 }),
  );
  const check = validateArguments(tools[7], JSON.stringify(validArgs(7)));
  if (!check.ok) throw check.error;
}

async function eager(validateSchema) {
  const { Ajv2020 } = require("ajv/dist/2020.js");
  const addFormats = require("ajv-formats");
  const ajv = new Ajv2020({ allErrors: true, strict: false, addUsedSchema: false, validateSchema });
  addFormats(ajv);
  const validators = schemas().map((s) => ajv.compile(s));
  if (!validators[7](validArgs(7))) throw new Error("invalid");
}

async function standalone(file) {
  const validators = createRequire(import.meta.url)(file);
  if (!validators.v7(validArgs(7))) throw new Error("invalid");
}

const mode = process.argv[2];
if (mode) {
  if (mode === "lazy") await lazy();
  else if (mode === "eager") await eager(true);
  else if (mode === "eager-no-meta") await eager(false);
  else await standalone(process.argv[3]);
  const cpu = process.cpuUsage();
  process.stdout.write(JSON.stringify({ wall: performance.now(), cpu: (cpu.user + cpu.system) / 1000 }));
  process.exit(0);
}

// ---- parent: build the standalone module, then time cold starts and steady-state calls ----
// Next to the runtime package, so the generated code finds ajv's runtime and ajv-formats there.
const runtimeDir = path.dirname(path.dirname(fileURLToPath(import.meta.resolve("toolwright"))));
mkdirSync(path.join(runtimeDir, ".tmp"), { recursive: true });
const dir = mkdtempSync(path.join(runtimeDir, ".tmp", "lazy-compile-"));
const file = path.join(dir, "validators.cjs");
{
  const { Ajv2020 } = require("ajv/dist/2020.js");
  const standaloneCode = require("ajv/dist/standalone").default;
  const addFormats = require("ajv-formats");
  const ajv = new Ajv2020({ allErrors: true, strict: false, code: { source: true } });
  addFormats(ajv);
  const refs = {};
  schemas().forEach((s, i) => {
    ajv.addSchema(s, `v${i}`);
    refs[`v${i}`] = `v${i}`;
  });
  const started = performance.now();
  writeFileSync(file, standaloneCode(ajv, refs));
  console.log(
    `build-time precompile of ${TOOLS} schemas: ${(performance.now() - started).toFixed(0)} ms, ${(statSync(file).size / 1024).toFixed(0)} KiB of code`,
  );
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

// CPU time as well as wall time: on a shared machine the wall clock mostly measures the neighbours.
const cold = {};
for (const m of ["lazy", "eager", "eager-no-meta", "standalone"]) {
  const runs = [];
  for (let r = 0; r < RUNS; r++)
    runs.push(JSON.parse(execFileSync(process.execPath, [self, m, file], { cwd: path.dirname(self) }).toString()));
  cold[m] = median(runs.map((r) => r.cpu));
  console.log(
    `cold start to first validated call, ${m.padEnd(13)}: ${cold[m].toFixed(0)} ms CPU, ${median(runs.map((r) => r.wall)).toFixed(0)} ms wall (medians of ${RUNS})`,
  );
}
const bare = JSON.parse(
  execFileSync(process.execPath, [
    "-e",
    "const c = process.cpuUsage(); process.stdout.write(JSON.stringify({ wall: performance.now(), cpu: (c.user + c.system) / 1000 }))",
  ]).toString(),
);
console.log(`(a bare node process: ${bare.cpu.toFixed(0)} ms CPU, ${bare.wall.toFixed(0)} ms wall to its first line)`);
const ratio = (a, b) => `${(cold[a] / cold[b]).toFixed(1)}x`;
console.log(
  `eager / lazy: ${ratio("eager", "lazy")}   eager-no-meta / lazy: ${ratio("eager-no-meta", "lazy")}   standalone / lazy: ${ratio("standalone", "lazy")}`,
);

// Steady state: the lazy path's per-call cost (cache lookup, parse, clone, freeze) vs. a bare compiled validator.
{
  const { asTool, validateArguments } = await import("toolwright");
  const tool = asTool({ name: "t", description: "d", parameters: schemas()[7], flags: {}, execute: () => 1 });
  const raw = JSON.stringify(validArgs(7));
  const validators = createRequire(import.meta.url)(file);
  const N = 100_000;
  for (let i = 0; i < 5_000; i++) validateArguments(tool, raw);
  let started = performance.now();
  for (let i = 0; i < N; i++) validateArguments(tool, raw);
  const lazyRate = N / ((performance.now() - started) / 1000);
  started = performance.now();
  for (let i = 0; i < N; i++) validators.v7(JSON.parse(raw));
  const bareRate = N / ((performance.now() - started) / 1000);
  console.log(
    `valid calls/s: toolwright validateArguments (lazy, string in, frozen copy out) ${lazyRate.toFixed(0)}; precompiled ajv + JSON.parse ${bareRate.toFixed(0)}`,
  );
}
rmSync(dir, { recursive: true, force: true });
