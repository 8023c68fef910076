/** What the benchmarks ran on, for the report. */
import { readFileSync } from "node:fs";
import os from "node:os";

/** The line of `/proc/loadavg` (1, 5 and 15-minute load, running/total tasks, last pid), or `undefined` off Linux. */
export function procLoadavg() {
  try {
    return readFileSync("/proc/loadavg", "utf8").trim();
  } catch {
    return undefined;
  }
}

/** Cores, CPU model, memory, Node version and the load average (1 minute) right now. */
export function machine() {
  return {
    cores: os.availableParallelism(),
    cpu: os.cpus()[0]?.model ?? "unknown",
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    load: os.loadavg()[0],
    loadavg: procLoadavg(),
  };
}

/**
 * One line describing `m`, with the load averages seen at the start and the end of the run
 * (`endLoadavg`: the `/proc/loadavg` line at the end, where there is one).
 */
export function describeMachine(m, endLoad, endLoadavg = procLoadavg()) {
  const proc = m.loadavg && endLoadavg ? `; /proc/loadavg "${m.loadavg}" at the start, "${endLoadavg}" at the end` : "";
  return (
    `${m.cores} cores (${m.cpu}), ${m.memoryGiB} GiB, Node ${m.node}, ${m.platform}; ` +
    `1-minute load average ${m.load.toFixed(1)} at the start, ${endLoad.toFixed(1)} at the end${proc}`
  );
}
