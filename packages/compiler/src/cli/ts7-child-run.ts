import { fork } from "node:child_process";
import { type Dirent, existsSync, readdirSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Progress } from "./progress.js";
import type { LoadedProject } from "./project.js";
import type { RunCost, Ts7ProjectOptions } from "./project-ts7.js";

/** What the parent asks the child: the project, and the options a cold run needs. */
export interface ChildRequest {
  readonly cwd: string;
  readonly tsconfig: string;
  readonly typescript: string;
  readonly options: Pick<Ts7ProjectOptions, "cache" | "generated">;
  readonly timing: boolean;
}

/** What the child sends back: progress lines, then the derived project or the error that stopped it. */
export type ChildReply =
  | { readonly progress: string }
  | { readonly loaded: LoadedProject; readonly known: readonly string[]; readonly cost?: RunCost }
  | { readonly error: string };

/** The child's entry point, beside the CLI's: dist/cli/ts7-child.js (this module may be bundled into a chunk). */
const CHILD = fileURLToPath(new URL("../cli/ts7-child.js", import.meta.url));

/**
 * Source below which the child's start (a second Node, about 100 ms on the bench machine)
 * costs more than it saves: the bench projects break even near 450 tools, about 450 KB.
 */
const CHILD_MIN_BYTES = 512 * 1024;

/**
 * True when the TypeScript sources under `root` reach `bytes` (stopping there): not
 * node_modules, dot folders, `.d.ts` files or the generated module, which no run derives.
 */
function holdsSource(root: string, bytes: number, generated: string | undefined): boolean {
  let total = 0;
  const folders = [root];
  for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules" && !entry.name.startsWith(".")) folders.push(path);
      } else if (/\.[cm]?tsx?$/.test(entry.name) && !/\.d\.[cm]?ts$/.test(entry.name) && path !== generated) {
        total += statSync(path, { throwIfNoEntry: false })?.size ?? 0;
        if (total >= bytes) return true;
      }
    }
  }
  return false;
}

/** What decides where a cold run derives: the machine, this process's Node flags, the user's choice. */
export interface ChildChoice {
  readonly cores: number;
  readonly execArgv: readonly string[];
  readonly env: NodeJS.ProcessEnv;
}

/**
 * Whether a cold run of the project in `root` derives in a child Node process with one V8
 * background thread. On two cores, V8's four background threads (its optimizing compiler,
 * busy with the derivation's hot code) compete with the derivation and with TypeScript's
 * API server: a cold run at 1,000 tools took about a fifth less wall time with
 * `--v8-pool-size=1`, and a tenth less counting the child's start (docs/benchmarks.md).
 * Small projects, more cores or a pool size the user chose keep the run in this process.
 * `TOOLWRIGHT_COLD_CHILD=1` or `=0` decides instead.
 */
export function childWorthIt(root: string, generated: string | undefined, choice: ChildChoice): boolean {
  const chosen = choice.env.TOOLWRIGHT_COLD_CHILD;
  if (chosen === "1" || chosen === "0") return chosen === "1";
  const flags = [...choice.execArgv, choice.env.NODE_OPTIONS ?? ""];
  if (flags.some((flag) => flag.includes("--v8-pool-size"))) return false;
  return choice.cores <= 2 && holdsSource(root, CHILD_MIN_BYTES, generated);
}

/** {@link childWorthIt} for this process, when the child's entry point is there (a built package). */
export function derivesInChild(root: string, generated: string | undefined): boolean {
  const choice = { cores: availableParallelism(), execArgv: process.execArgv, env: process.env };
  return existsSync(CHILD) && childWorthIt(root, generated, choice);
}

/**
 * Derives a project in the child process: its progress lines go to `progress`, its result
 * (and the cache it saved) come back. The child inherits this process's Node flags (hooks
 * such as `--import`), except a debugger's, which would claim the same port.
 */
export function runInChild(
  request: ChildRequest,
  progress: Progress | undefined,
): Promise<{ loaded: LoadedProject; known: readonly string[]; cost?: RunCost }> {
  const execArgv = [...process.execArgv.filter((flag) => !flag.startsWith("--inspect")), "--v8-pool-size=1"];
  const child = fork(CHILD, [], {
    execArgv,
    serialization: "advanced",
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return new Promise((resolve, reject) => {
    let settled = false;
    child.on("message", (message: ChildReply) => {
      if ("progress" in message) progress?.update(message.progress);
      else if ("error" in message) {
        settled = true;
        reject(new Error(message.error));
      } else {
        settled = true;
        resolve(message);
      }
    });
    child.on("error", (error) => {
      settled = true;
      reject(error);
    });
    child.on("exit", (code, signal) => {
      if (!settled)
        reject(
          new Error(`the derivation's child process stopped (${signal ?? `exit code ${code}`}) before it answered.`),
        );
    });
    child.send(request);
  });
}
