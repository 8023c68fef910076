/** A process's CPU times from Linux's /proc/<pid>/stat (proc(5)), in ms; clock ticks are 10 ms. */
import { readFileSync } from "node:fs";

/** Fields from the 3rd on of a /proc/<pid>/stat line, or undefined (no such process, no /proc). */
export function statFields(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

/** User + system time of the process: utime + stime. */
export function ownCpuMs(fields) {
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** User + system time of the process's children that were waited for: cutime + cstime. */
export function waitedCpuMs(pid = "self") {
  const fields = statFields(pid);
  return fields ? (Number(fields[13]) + Number(fields[14])) * 10 : 0;
}
