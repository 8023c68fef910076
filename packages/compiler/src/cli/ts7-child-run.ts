import { fork } from "node:child_process";
import { type Dirent, existsSync, readdirSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CommandIO } from "./command.js";

/**
 * Where `gen` or `build` runs: `"auto"` here, or in the child Node when that is faster (see
 * {@link childWorthIt}); `"child"` here, being that child.
 */
export type RunPlace = "auto" | "child";

/** The commands a child runs: the two that derive a whole project cold. */
export type ChildCommand = "gen" | "build";

/** What the parent asks the child: the command and its arguments, and where and how to write. */
export interface ChildRequest {
  readonly command: ChildCommand;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly tty?: CommandIO["tty"];
}

/** What the child sends back: its output, in order, then its exit code or the error that stopped it. */
export type ChildReply =
  | { readonly out: string }
  | { readonly err: string }
  | { readonly code: number }
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
 * Whether a cold run (a `gen` with nothing cached, any TypeScript 7 `build`) of the project
 * in `root` runs in a child Node process with one V8 background thread. On two cores, V8's
 * four background threads (its optimizing compiler, busy with the derivation's hot code)
 * compete with the derivation and with TypeScript's API server: a cold `gen` at 1,000 tools
 * took 0.74-0.83x the wall time in the child, its start counted (docs/benchmarks.md). Small
 * projects, more cores or a pool size the user chose keep the run in this process.
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
 * Runs `toolwright <command>` with `args` in the child process and resolves to its exit code: its
 * output (progress lines too) goes to `io`, and an error that stopped it is thrown here, as
 * if this process had run it. The child inherits this process's Node flags (hooks such as
 * `--import`), except a debugger's, which would claim the same port.
 */
export function inChild(command: ChildCommand, args: readonly string[], io: CommandIO): Promise<number> {
  const execArgv = [...process.execArgv.filter((flag) => !flag.startsWith("--inspect")), "--v8-pool-size=1"];
  // This process's folder, where relative flags (`--import ./hook.mjs`) resolve; the command
  // itself runs in `io.cwd`, sent with the request.
  const child = fork(CHILD, [], { execArgv, stdio: ["ignore", "inherit", "inherit", "ipc"] });
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (done: () => void) => {
      settled = true;
      done();
    };
    child.on("message", (message: ChildReply) => {
      if ("out" in message) io.out(message.out);
      else if ("err" in message) io.err(message.err);
      else {
        // The child ends itself once it has answered: this process need not wait for its exit
        // (its teardown and the exit event, 20-25 ms of a cold run at 1,000 tools).
        child.unref();
        child.channel?.unref();
        if ("code" in message) settle(() => resolve(message.code));
        else settle(() => reject(new Error(message.error)));
      }
    });
    child.on("error", (error) => settle(() => reject(error)));
    child.on("exit", (code, signal) => {
      if (!settled)
        reject(new Error(`its child process stopped (${signal ?? `exit code ${code}`}) before it finished.`));
    });
    const request: ChildRequest = { command, args, cwd: io.cwd, ...(io.tty ? { tty: io.tty } : {}) };
    child.send(request);
  });
}
