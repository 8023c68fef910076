/**
 * Preloaded (`node --import`) into every timed child process: at exit it prints the
 * process's own CPU time, so a figure survives a machine busy with other work
 * (wall time does not), and on Linux the CPU time of the processes it started
 * (`childCpuMs`: TypeScript 7's compiler and its API server are such processes). Printed
 * on stderr as one `@@bench {...}` line.
 */
import { readdirSync, readFileSync } from "node:fs";
import { ownCpuMs, statFields, waitedCpuMs } from "./proc-stat.mjs";

// Children that are not waited for (the API server, ended when its client closes) never
// reach cutime: their own utime + stime, last seen every 20 ms, count instead; and so do
// their children (a cold `toolwright gen` runs in a child Node that starts the API server).
const seen = new Map();
function childrenOf(pid) {
  let tasks;
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  return tasks.flatMap((task) => {
    try {
      return readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
    } catch {
      return [];
    }
  });
}
function sample() {
  const pending = childrenOf("self");
  for (let pid = pending.pop(); pid !== undefined; pid = pending.pop()) {
    const fields = statFields(pid);
    if (fields) seen.set(pid, ownCpuMs(fields));
    pending.push(...childrenOf(pid));
  }
}
setInterval(sample, 20).unref();

/** User + system time of the descendants: those waited for (cutime, cstime) and those only seen. */
function childrenCpuMs() {
  return Math.max(
    waitedCpuMs(),
    [...seen.values()].reduce((a, b) => a + b, 0),
  );
}

process.on("exit", () => {
  const { user, system } = process.cpuUsage();
  process.stderr.write(`\n@@bench ${JSON.stringify({ cpuMs: (user + system) / 1000, childCpuMs: childrenCpuMs() })}\n`);
});
