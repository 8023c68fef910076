/**
 * TypeScript 7 benchmark: `tsc --noEmit` on TypeScript 7 (tsgo) alone, against what a TS 7
 * project runs to get its tool specs: tsgo + today's `toolwright gen` (TypeScript 5.9 inside,
 * checking the program a second time), tsgo + `toolwright gen` through TypeScript 7's API
 * (cold: no cache; on two cores a large project runs it in a child Node with one V8
 * background thread, so the same run kept in one process is timed too), and that gen again
 * with nothing changed and with one file of 50 tools
 * changed (the per-file cache), and that last one again with the module in src/ as the README
 * lays a project out (one of the program's files). Same generated project (200 and 1,000 tools), whole processes
 * in interleaved rounds, medians of wall and CPU time; a "tsgo + gen" row is the sum of the
 * two processes' medians. Then one `gen --timing` run of each TypeScript 7 case says how many
 * requests it made per tool and where its time went (client, server, transport). Last, the
 * same two jobs (tsgo, the cold gen) on a project whose tools are declared beside their
 * `tool()` calls with a dozen library calls in each body, as in an app: every call in such a
 * file is a candidate site, which the ones above, with bare functions in files of their own,
 * do not show. Run alone: `node scripts/bench/ts7.mjs [--tools 200,1000] [--runs 5]`. Prints a table.
 */

import { spawnSync } from "node:child_process";
import { appendFileSync, cpSync, mkdirSync, realpathSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { parseArgs } from "node:util";
import { writeProject, writeWorkingProject } from "./generate/project.mjs";
import { procLoadavg } from "./lib/machine.mjs";
import { PROJECTS_DIR } from "./lib/paths.mjs";
import { timeNodeRounds } from "./lib/process-timer.mjs";
import { fmt, markdownTable, times } from "./lib/table.mjs";

const require = createRequire(import.meta.url);
const CLI = path.join(path.dirname(require.resolve("@toolwright/compiler/package.json")), "dist/cli/bin.js");
/** The pinned TypeScript 7 (an alias beside the 5.9.3 today's gen runs on). */
const TS7 = path.dirname(require.resolve("typescript-7/package.json"));
const TSGO = path.join(TS7, "bin", "tsc");

const { values } = parseArgs({ options: { tools: { type: "string" }, runs: { type: "string" } } });
const sizes = (values.tools ?? "200,1000").split(",").map(Number);
const runs = Number(values.runs ?? 5);

/**
 * Installs toolwright into a project as a package manager does for a user: the runtime's
 * package.json and dist/ copied under its node_modules, its dependencies linked beside. The
 * bench folder's own link points into the workspace (packages/runtime, outside any
 * node_modules), which makes the runtime's 74 declaration files look like files of the
 * project: every run would parse them and ask about each, as no user's project does.
 */
function installRuntime(dir) {
  const from = path.dirname(require.resolve("toolwright/package.json"));
  const to = path.join(dir, "node_modules", "toolwright");
  mkdirSync(path.join(to, "node_modules"), { recursive: true });
  cpSync(path.join(from, "package.json"), path.join(to, "package.json"));
  cpSync(path.join(from, "dist"), path.join(to, "dist"), { recursive: true });
  const manifest = createRequire(path.join(from, "package.json"))("./package.json");
  for (const name of Object.keys(manifest.dependencies ?? {})) {
    const link = path.join(to, "node_modules", name);
    mkdirSync(path.dirname(link), { recursive: true });
    symlinkSync(realpathSync(path.join(from, "node_modules", name)), link, "dir");
  }
}

/** One `gen --timing` run: its timing line (requests, files derived, client/server/transport). */
function timingOf(args, cwd) {
  const child = spawnSync(process.execPath, [CLI, ...args, "--timing"], { cwd, encoding: "utf8" });
  if (child.status !== 0) throw new Error(`gen failed:\n${child.stdout}\n${child.stderr}`);
  const line = child.stderr.split("\n").find((l) => l.startsWith("toolwright gen timing: "));
  return line?.replace("toolwright gen timing: ", "") ?? "(no timing line)";
}

const rows = [];
for (const n of sizes) {
  const project = writeProject(path.join(PROJECTS_DIR, `ts7-n${n}`), n);
  // The same project laid out as the README says: the module in src/, one of the program's files.
  const readme = writeProject(path.join(PROJECTS_DIR, `ts7-n${n}-readme`), n);
  // Tools declared beside their calls, with bodies that do some work (see the header).
  const working = writeWorkingProject(path.join(PROJECTS_DIR, `ts7-n${n}-working`), n);
  installRuntime(project.dir);
  installRuntime(readme.dir);
  installRuntime(working.dir);
  let edits = 0;
  // A comment appended: the file's hash changes, its tools do not.
  const touchIn = (dir) => () => appendFileSync(path.join(dir, "src", "toolwright-0.ts"), `// edit ${++edits}\n`);
  const touch = touchIn(project.dir);
  const gen = ["gen", "-p", "tsconfig.toolwright.json", "--out", "toolwright.gen.ts"];
  const gen7 = [...gen, "--typescript", TS7];
  const genReadme = [
    "gen",
    "-p",
    path.join(readme.dir, "tsconfig.toolwright.json"),
    "--out",
    path.join(readme.dir, "src", "toolwright.gen.ts"),
    "--typescript",
    TS7,
  ];
  const genWorking = [
    "gen",
    "-p",
    path.join(working.dir, "tsconfig.toolwright.json"),
    "--out",
    path.join(working.dir, "toolwright.gen.ts"),
    "--typescript",
    TS7,
    "--no-cache",
  ];
  console.error(`[bench] ts7: ${n} tools, 1 warm-up and ${runs} timed rounds (load ${procLoadavg()})`);
  const r = timeNodeRounds(
    {
      tsgo: [TSGO, "-p", "tsconfig.toolwright-plain.json", "--noEmit"],
      gen5: [CLI, ...gen],
      cold: [CLI, ...gen7, "--no-cache"],
      // The same run kept in one process: what the child Node (one V8 background thread) saves.
      coldHere: { args: [CLI, ...gen7, "--no-cache"], env: { TOOLWRIGHT_COLD_CHILD: "0" } },
      // The cold run neither reads nor writes the cache; the previous round's "changed" run
      // left it filled for the project as it is (the warm-up round fills it first).
      unchanged: [CLI, ...gen7],
      changed: { args: [CLI, ...gen7], before: touch },
      readme: { args: [CLI, ...genReadme], before: touchIn(readme.dir) },
      tsgoWorking: [TSGO, "-p", path.join(working.dir, "tsconfig.toolwright-plain.json"), "--noEmit"],
      coldWorking: [CLI, ...genWorking],
    },
    { runs, warmup: 1, cwd: project.dir },
  );
  const timing = { cold: timingOf([...gen7, "--no-cache"], project.dir), unchanged: timingOf(gen7, project.dir) };
  touch();
  timing.changed = timingOf(gen7, project.dir);
  touchIn(readme.dir)();
  timing.readme = timingOf(genReadme, project.dir);
  timing.working = timingOf(genWorking, project.dir);
  const load = procLoadavg();
  const section = `TypeScript 7, ${n} tools`;
  // CPU counts the processes each one started (the Go compiler, the API server).
  const cpu = (run) => ({ wallMs: run.wallMs, cpuMs: run.cpuMs + run.childCpuMs });
  const sum = (a, b) => ({ wallMs: a.wallMs + b.wallMs, cpuMs: cpu(a).cpuMs + cpu(b).cpuMs });
  const tsgo = cpu(r.tsgo);
  // Ratios are against tsgo on the same project (`base`).
  const row = (name, run, { target, met, note, base = tsgo } = {}) => ({
    section,
    name,
    value: run.wallMs,
    unit: "ms",
    note: [`CPU ${fmt(run.cpuMs)} ms`, note].filter(Boolean).join("; "),
    ...(run === base ? {} : { ratio: `${times(run.wallMs, base.wallMs)} tsgo (CPU ${times(run.cpuMs, base.cpuMs)})` }),
    ...(target ? { target, met } : {}),
  });
  const today = sum(r.tsgo, r.gen5);
  const ours = sum(r.tsgo, r.cold);
  const cold = cpu(r.cold);
  const coldHere = cpu(r.coldHere);
  const unchanged = cpu(r.unchanged);
  const changed = cpu(r.changed);
  const inSrc = cpu(r.readme);
  const tsgoWorking = cpu(r.tsgoWorking);
  rows.push(
    row("tsc --noEmit on TS 7 (tsgo)", tsgo, { note: `/proc/loadavg ${load}` }),
    row("tsgo + today's gen (TypeScript 5.9 inside)", today),
    row("tsgo + gen through TS 7's API, no cache", ours, {
      note: `${times(ours.wallMs, today.wallMs)} today's (CPU ${times(ours.cpuMs, today.cpuMs)})`,
    }),
    row("gen through TS 7's API alone, no cache", cold, {
      // Both readings of "at most 0.5x today's gen": the target checks the stricter one (with tsgo on both sides).
      note: `${times(cold.wallMs, r.gen5.wallMs)} today's gen alone (CPU ${times(cold.cpuMs, cpu(r.gen5).cpuMs)}); ${timing.cold}`,
      target: "<= 3x tsgo; tsgo + it <= 0.5x today's",
      met: cold.wallMs <= 3 * tsgo.wallMs && ours.wallMs <= 0.5 * today.wallMs,
    }),
    // Not one of issue 25's rows: where the cold run takes place decides a part of its time.
    row("the same, in one process (TOOLWRIGHT_COLD_CHILD=0)", coldHere, {
      note: `the row above: ${times(cold.wallMs, coldHere.wallMs)} this one's wall time`,
    }),
    row("TS 7 gen again, nothing changed", unchanged, {
      note: timing.unchanged,
      target: "<= 0.5x tsgo",
      met: unchanged.wallMs <= 0.5 * tsgo.wallMs,
    }),
    row("TS 7 gen again, one file of 50 tools changed", changed, {
      note: timing.changed,
      target: "<= 1.5x tsgo",
      met: changed.wallMs <= 1.5 * tsgo.wallMs,
    }),
    // Not one of issue 25's rows: where a project keeps the module (3.8 MB at 1,000 tools).
    row("the same, the module in src/ (the README's layout)", inSrc, { note: timing.readme }),
    // Not one of issue 25's rows: tools as an app writes them (see the header).
    row("tools beside their calls, working bodies: tsgo", tsgoWorking, { base: tsgoWorking }),
    row("the same project: gen through TS 7's API, no cache", cpu(r.coldWorking), {
      note: timing.working,
      base: tsgoWorking,
    }),
  );
}
console.log(markdownTable(rows));
console.log(`\n/proc/loadavg at the end: ${procLoadavg()}`);
