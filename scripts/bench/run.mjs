/**
 * The one benchmark command: builds, cold starts, validation throughput, loop overhead and
 * runtime size, against typia, ajv, zod, the Vercel AI SDK and the OpenAI Agents SDK, on
 * generated equivalent tools. Prints one table of medians and ratios.
 *
 *   node scripts/bench/run.mjs                  everything (about 8 minutes on 2 cores)
 *   node scripts/bench/run.mjs --quick          tiny sizes, one run each: checks the harness
 *   node scripts/bench/run.mjs --only build,size
 *     (build, cold, validate, answer, loop, size, generated; and the scripts kept beside them: esbuild,
 *     build-persistent, lazy-compile, language-service, lsp, cli, ts7, which print their own tables)
 *   node scripts/bench/run.mjs --update-docs    also writes the table into docs/benchmarks.md
 *
 * From the repository root, `npm run bench` builds the packages and runs this.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { benchAnswer } from "./answer.mjs";
import { benchBuild } from "./build.mjs";
import { benchColdStart } from "./cold-start.mjs";
import { benchGeneratedSize } from "./generated-size.mjs";
import { describeMachine, machine } from "./lib/machine.mjs";
import { BENCH_DIR } from "./lib/paths.mjs";
import { markdownTable } from "./lib/table.mjs";
import { benchLoop } from "./loop.mjs";
import { benchSize } from "./size.mjs";
import { benchValidate } from "./validate.mjs";

const DOCS = path.resolve(BENCH_DIR, "..", "..", "docs", "benchmarks.md");
const START = "<!-- bench:results:start -->";
const END = "<!-- bench:results:end -->";

const argv = process.argv.slice(2);
const quick = argv.includes("--quick");
const onlyIndex = argv.indexOf("--only");
const only = onlyIndex >= 0 ? new Set(argv[onlyIndex + 1].split(",")) : undefined;
const log = (line) => console.error(`[bench] ${line}`);

/** Each benchmark, with its full and its quick settings. */
const BENCHMARKS = {
  build: () =>
    quick
      ? benchBuild({ sizes: [20], runs: 1, warmup: 0, log })
      : [
          ...benchBuild({ sizes: [200], runs: 5, warmup: 1, log }),
          // A 1,000-tool build takes several seconds: fewer runs keep the whole suite under 10 minutes.
          ...benchBuild({ sizes: [1000], runs: 3, warmup: 1, log }),
        ],
  cold: () => benchColdStart(quick ? { n: 20, runs: 1, warmup: 0, log } : { n: 200, runs: 15, warmup: 3, log }),
  validate: () => benchValidate(quick ? { n: 20, time: 50, log } : { n: 200, time: 1000, log }),
  answer: () => benchAnswer(quick ? { time: 50, log } : { time: 1000, log }),
  loop: () => benchLoop(quick ? { time: 50, log } : { time: 2000, log }),
  size: () => benchSize({ log }),
  generated: () => benchGeneratedSize({ n: quick ? 20 : 200, log }),
};

// Scripts other parts of the project keep here print their own small tables; run them too.
const EXTRAS = [
  { name: "esbuild", file: "esbuild.mjs", args: [], quickArgs: ["--tools", "20", "--runs", "1"] },
  {
    name: "build-persistent",
    file: "build-persistent.mjs",
    args: ["--runs", "3"],
    quickArgs: ["--runs", "1", "--sizes", "20"],
  },
  { name: "lazy-compile", file: "lazy-compile.mjs", args: [], quickArgs: [] },
  { name: "cli", file: "cli.mjs", args: [], quickArgs: ["--tools", "7", "--runs", "1"] },
  // TypeScript 7: tsgo, today's gen, the TS 7 gen cold, with nothing changed, with one file changed.
  { name: "ts7", file: "ts7.mjs", args: ["--runs", "3"], quickArgs: ["--tools", "20", "--runs", "1"] },
  {
    name: "language-service",
    file: "language-service.mjs",
    args: [],
    quickArgs: ["--tools", "20", "--runs", "2"],
  },
  // The editor on TypeScript 7: toolwright lsp's diagnostics and hover latency.
  { name: "lsp", file: "lsp.mjs", args: [], quickArgs: ["--tools", "20", "--runs", "2"] },
];
const EXTRA_NAMES = EXTRAS.map((extra) => extra.name);
for (const name of only ?? []) {
  if (!(name in BENCHMARKS) && !EXTRA_NAMES.includes(name))
    throw new Error(
      `unknown benchmark "${name}"; choose from ${[...Object.keys(BENCHMARKS), ...EXTRA_NAMES].join(", ")}`,
    );
}

const host = machine();
const started = Date.now();
const rows = [];
for (const [name, run] of Object.entries(BENCHMARKS)) {
  if (only && !only.has(name)) continue;
  rows.push(...(await run()));
}
const table = rows.length > 0 ? markdownTable(rows) : "";
const extraReports = [];
for (const extra of EXTRAS) {
  const file = path.join(BENCH_DIR, extra.file);
  if ((only && !only.has(extra.name)) || !existsSync(file)) continue;
  log(`${extra.name}: scripts/bench/${extra.file}`);
  const child = spawnSync(process.execPath, [file, ...(quick ? extra.quickArgs : extra.args)], { encoding: "utf8" });
  if (child.status !== 0) throw new Error(`scripts/bench/${extra.file} failed:\n${child.stdout}\n${child.stderr}`);
  extraReports.push(`scripts/bench/${extra.file}:\n${child.stdout.trim()}`);
}
const minutes = ((Date.now() - started) / 60000).toFixed(1);
const where = describeMachine(host, os.loadavg()[0]);
const extrasBlock = extraReports.map((report) => `\n\n\`\`\`text\n${report}\n\`\`\``).join("");
console.log(`${table}${extrasBlock}\n\nMachine: ${where}. Took ${minutes} min.`);

if (argv.includes("--update-docs")) {
  const command = `node scripts/bench/run.mjs${only ? ` --only ${[...only].join(",")}` : ""}${quick ? " --quick" : ""}`;
  const block = [
    START,
    "",
    `Command: \`${command}\` (${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, ${minutes} min).`,
    "",
    `Machine: ${where}.`,
    "",
    table + extrasBlock,
    "",
    END,
  ].join("\n");
  const docs = readFileSync(DOCS, "utf8");
  const from = docs.indexOf(START);
  const to = docs.indexOf(END);
  if (from < 0 || to < 0) throw new Error(`${DOCS} has no ${START} ... ${END} block to fill`);
  writeFileSync(DOCS, docs.slice(0, from) + block + docs.slice(to + END.length));
  log(`wrote the table into ${path.relative(process.cwd(), DOCS)}`);
}
