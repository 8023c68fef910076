/** What the benchmarks ran on, for the report. */
import os from "node:os";

/** Cores, CPU model, memory, Node version and the load average (1 minute) right now. */
export function machine() {
  return {
    cores: os.availableParallelism(),
    cpu: os.cpus()[0]?.model ?? "unknown",
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    load: os.loadavg()[0],
  };
}

/** One line describing `m`, with the load averages seen at the start and the end of the run. */
export function describeMachine(m, endLoad) {
  return (
    `${m.cores} cores (${m.cpu}), ${m.memoryGiB} GiB, Node ${m.node}, ${m.platform}; ` +
    `1-minute load average ${m.load.toFixed(1)} at the start, ${endLoad.toFixed(1)} at the end`
  );
}
