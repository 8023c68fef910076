/**
 * Times whole Node processes: each run is a fresh `node` started with spawnSync, timed
 * with hrtime from spawn to exit; warm-up runs fill the OS file cache and are dropped.
 * Each child also reports its own CPU time and any `@@bench {...}` figures it prints.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { median } from "./stats.mjs";

const REPORTER = path.join(import.meta.dirname, "cpu-reporter.mjs");

function reports(stderr, stdout) {
  const found = {};
  for (const line of `${stdout}\n${stderr}`.split("\n")) {
    if (line.startsWith("@@bench ")) Object.assign(found, JSON.parse(line.slice("@@bench ".length)));
  }
  return found;
}

/**
 * Runs `node <args>` `warmup + runs` times and returns the medians of the timed runs:
 * `wallMs` (spawn to exit), `cpuMs` (the child's user + system time) and the median of
 * every other figure the child printed as `@@bench {"name": number}`.
 *
 * @example
 * const { wallMs, cpuMs } = timeNode([tscPath, "-p", "tsconfig.json"], { runs: 5, warmup: 1, cwd });
 */
export function timeNode(args, { runs, warmup, cwd }) {
  const samples = [];
  for (let i = 0; i < warmup + runs; i++) {
    const start = process.hrtime.bigint();
    const child = spawnSync(process.execPath, ["--import", REPORTER, ...args], {
      cwd,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
    const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
    if (child.status !== 0) {
      throw new Error(
        `benchmark process failed (exit ${child.status}): node ${args.join(" ")} in ${cwd}\n${child.stdout}\n${child.stderr}`,
      );
    }
    if (i >= warmup) samples.push({ wallMs, ...reports(child.stderr, child.stdout) });
  }
  const keys = Object.keys(samples[0]);
  return Object.fromEntries(keys.map((k) => [k, median(samples.map((s) => s[k]))]));
}
