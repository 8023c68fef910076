import { fork } from "node:child_process";
import { type Dirent, existsSync, readdirSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CommandIO } from "./command.js";
import type { DerivedForParent } from "./gen.js";
import { type FileResult, revivedResult, type StoredResult } from "./gen-cache.js";
import type { RunCost } from "./project-ts7.js";

/**
 * Where `build` runs: `"auto"` here, or in the child Node when that is faster (see
 * {@link childWorthIt}); `"child"` here, being that child.
 */
export type RunPlace = "auto" | "child";

/**
 * What a child does: the two commands that derive a whole project cold. `gen` derives only
 * (its parent renders and writes the module); `build` runs the whole command.
 */
export type ChildCommand = "gen" | "build";

/** What the parent asks the child: the command and its arguments, and where and how to write. */
export interface ChildRequest {
  readonly command: ChildCommand;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly tty?: CommandIO["tty"];
}

/**
 * What the child sends back, in order: its output; for `gen`, each file's result as it is
 * derived, then the end of the derivation (the parent writes the module); for `build`, its
 * exit code; or the error that stopped it.
 */
export type ChildReply =
  | { readonly out: string }
  | { readonly err: string }
  | { readonly result: { readonly file: string; readonly result: StoredResult } }
  | {
      readonly derived: {
        readonly files: readonly string[];
        readonly config: StoredResult["diagnostics"];
        readonly cost?: RunCost;
      };
    }
  | { readonly code: number }
  | { readonly error: string };

/** A cold `gen` derived in the child, as this process has it: with the files' results, in their order. */
export interface ChildDerivation extends DerivedForParent {
  readonly results: readonly FileResult[];
}

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
 * Runs `request` in the child process: its output (progress lines too) goes to `io`, and
 * `end` reads every other reply, resolving to the first it makes something of; an error
 * that stopped the child (or `end` threw) is thrown here, as if this process had run it.
 * The child inherits this process's Node flags (hooks such as `--import`), except a
 * debugger's, which would claim the same port.
 */
function runInChild<End>(
  request: ChildRequest,
  io: CommandIO,
  end: (reply: ChildReply) => End | undefined,
): Promise<End> {
  const execArgv = [...process.execArgv.filter((flag) => !flag.startsWith("--inspect")), "--v8-pool-size=1"];
  // This process's folder, where relative flags (`--import ./hook.mjs`) resolve; the command
  // itself runs in `io.cwd`, sent with the request.
  const child = fork(CHILD, [], { execArgv, stdio: ["ignore", "inherit", "inherit", "ipc"] });
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (done: () => void) => {
      if (settled) return;
      settled = true;
      // The child ends itself once it has answered: this process need not wait for its exit
      // (its teardown and the exit event, 20-25 ms of a cold run at 1,000 tools).
      child.unref();
      child.channel?.unref();
      done();
    };
    child.on("message", (reply: ChildReply) => {
      if (settled) return;
      if ("out" in reply) return io.out(reply.out);
      if ("err" in reply) return io.err(reply.err);
      if ("error" in reply) return settle(() => reject(new Error(reply.error)));
      try {
        const value = end(reply);
        if (value !== undefined) settle(() => resolve(value));
      } catch (error) {
        child.kill();
        settle(() => reject(error));
      }
    });
    child.on("error", (error) => settle(() => reject(error)));
    child.on("exit", (code, signal) => {
      settle(() =>
        reject(new Error(`its child process stopped (${signal ?? `exit code ${code}`}) before it finished.`)),
      );
    });
    child.send(request);
  });
}

/** The request for `command` with `args`, run where and as `io` says. */
function requestOf(command: ChildCommand, args: readonly string[], io: CommandIO): ChildRequest {
  return { command, args, cwd: io.cwd, ...(io.tty ? { tty: io.tty } : {}) };
}

/** Runs `toolwright build` with `args` in the child process and resolves to its exit code. */
export function buildInChild(args: readonly string[], io: CommandIO): Promise<number> {
  return runInChild(requestOf("build", args, io), io, (reply) => ("code" in reply ? reply.code : undefined));
}

/**
 * Derives the project of `gen` with `args` in the child process, which writes nothing:
 * `onResult` hears each file's result as it comes (this process can render it meanwhile),
 * and the derivation resolves once the child has derived every file.
 */
export function deriveInChild(
  args: readonly string[],
  io: CommandIO,
  onResult: (file: string, result: FileResult) => void,
): Promise<ChildDerivation> {
  const results = new Map<string, FileResult>();
  return runInChild(requestOf("gen", args, io), io, (reply): ChildDerivation | undefined => {
    if ("result" in reply) {
      const result = revivedResult(reply.result.result);
      results.set(reply.result.file, result);
      onResult(reply.result.file, result);
      return undefined;
    }
    if (!("derived" in reply)) return undefined;
    const { files, config, cost } = reply.derived;
    return {
      files,
      results: files.map((file) => {
        const result = results.get(file);
        if (!result) throw new Error(`its child process sent no result for ${file}.`);
        return result;
      }),
      configDiagnostics: revivedResult({ tools: [], schemas: [], diagnostics: config }).diagnostics,
      ...(cost ? { cost } : {}),
    };
  });
}
