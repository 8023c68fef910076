/**
 * Times whole Node processes: each run is a fresh `node` started with spawnSync, timed
 * with hrtime from spawn to exit; warm-up runs fill the OS file cache and are dropped.
 * Each child also reports its own CPU time and any `@@bench {...}` figures it prints; one
 * that prints no report is given the CPU time its wait collected (Linux's /proc).
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { waitedCpuMs } from "./proc-stat.mjs";
import { median } from "./stats.mjs";

const REPORTER = path.join(import.meta.dirname, "cpu-reporter.mjs");

function reports(stderr, stdout) {
  const found = {};
  for (const line of `${stdout}\n${stderr}`.split("\n")) {
    if (line.startsWith("@@bench ")) Object.assign(found, JSON.parse(line.slice("@@bench ".length)));
  }
  return found;
}

function runOnce(args, cwd, env) {
  const waitedBefore = waitedCpuMs();
  const start = process.hrtime.bigint();
  const child = spawnSync(process.execPath, ["--import", REPORTER, ...args], {
    cwd,
    ...(env ? { env: { ...process.env, ...env } } : {}),
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  if (child.status !== 0) {
    throw new Error(
      `benchmark process failed (exit ${child.status}): node ${args.join(" ")} in ${cwd}\n${child.stdout}\n${child.stderr}`,
    );
  }
  // A process that replaced itself prints no report (TypeScript 7's `tsc` launcher, on Node
  // 22.15 and later, execs the compiler in its place): its CPU time is what waiting for it
  // collected.
  return { wallMs, cpuMs: waitedCpuMs() - waitedBefore, childCpuMs: 0, ...reports(child.stderr, child.stdout) };
}

function medians(samples) {
  const keys = Object.keys(samples[0]);
  return Object.fromEntries(keys.map((k) => [k, median(samples.map((s) => s[k]))]));
}

/**
 * Runs each job (`node <args>`) `warmup + runs` times, interleaved round by round (A, B,
 * C, A, B, C, ...) so that a change in the machine's load touches every job alike, and
 * returns per job the medians of the timed runs (a job is the arguments, or `{ args, before, env }`
 * with `before` run ahead of each of its runs, untimed, to change the project, and `env`
 * variables added to the process's): `wallMs` (spawn to exit), `cpuMs` (the
 * child's user + system time) and every other figure it printed as `@@bench {"name": n}`.
 *
 * @example
 * const { plain, ours } = timeNodeRounds({ plain: [TSC, "-p", "a.json"], ours: [TSPC, "-p", "b.json"] }, { runs: 5, warmup: 1, cwd });
 * plain.wallMs; ours.cpuMs;
 */
export function timeNodeRounds(jobs, { runs, warmup, cwd }) {
  const samples = Object.fromEntries(Object.keys(jobs).map((name) => [name, []]));
  for (let round = 0; round < warmup + runs; round++) {
    for (const [name, job] of Object.entries(jobs)) {
      const { args, before, env } = Array.isArray(job) ? { args: job } : job;
      before?.();
      const sample = runOnce(args, cwd, env);
      if (round >= warmup) samples[name].push(sample);
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([name, list]) => [name, medians(list)]));
}

/** {@link timeNodeRounds} for one job. */
export function timeNode(args, options) {
  return timeNodeRounds({ only: args }, options).only;
}
