/**
 * Preloaded (`node --import`) into every timed child process: at exit it prints the
 * process's own CPU time, so a figure survives a machine busy with other work
 * (wall time does not), and on Linux the CPU time of the processes it started
 * (`childCpuMs`: TypeScript 7's compiler and its API server are such processes). Printed
 * on stderr as one `@@bench {...}` line.
 */
import { readdirSync, readFileSync } from "node:fs";

/** Fields from the 3rd on of a /proc/<pid>/stat line (proc(5)), or undefined. */
function statFields(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

// Children that are not waited for (the API server, ended when its client closes) never
// reach cutime: their own utime + stime, last seen every 20 ms, count instead.
const seen = new Map();
function sample() {
  let tasks;
  try {
    tasks = readdirSync("/proc/self/task");
  } catch {
    return;
  }
  for (const task of tasks) {
    let children;
    try {
      children = readFileSync(`/proc/self/task/${task}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
    } catch {
      continue;
    }
    for (const pid of children) {
      const fields = statFields(pid);
      // utime, stime: fields 14 and 15, in clock ticks of 10 ms.
      if (fields) seen.set(pid, (Number(fields[11]) + Number(fields[12])) * 10);
    }
  }
}
setInterval(sample, 20).unref();

/** User + system time of the children: those waited for (cutime, cstime) and those only seen. */
function childrenCpuMs() {
  const own = statFields("self");
  const waited = own ? (Number(own[13]) + Number(own[14])) * 10 : 0;
  return Math.max(
    waited,
    [...seen.values()].reduce((a, b) => a + b, 0),
  );
}

process.on("exit", () => {
  const { user, system } = process.cpuUsage();
  process.stderr.write(`\n@@bench ${JSON.stringify({ cpuMs: (user + system) / 1000, childCpuMs: childrenCpuMs() })}\n`);
});
