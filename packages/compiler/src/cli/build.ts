import { dirname, resolve } from "node:path";
import { parseOptions, projectOption, typescriptOption } from "./args.js";
import type { Command, CommandIO } from "./command.js";
import { compilerFor } from "./open-project.js";
import type { RunPlace } from "./ts7-child-run.js";
import { tsconfigPath } from "./tsconfig-path.js";

const usage = `usage: toolwright build [-p tsconfig.json] [--watch] [--typescript <dir>] [--out <file>]

Compiles the project like tsc with the project's own TypeScript: diagnostics and exit codes
are tsc's (0 clean, 1 errors and nothing emitted, 2 errors with output emitted). Always a
full build; with noEmit it still reports every tool problem.
On TypeScript 5.x the toolwright transformer writes each spec into the emitted JavaScript,
without patching TypeScript. On TypeScript 7, which runs no transformer, its API checks the
project and derives the specs, which are written as the module 'toolwright gen' writes
(import it first in your entry point), and the project's tsc emits everything.
  -p, --project  the tsconfig.json to compile (default: the nearest one)
  -w, --watch    recompile on every change (also when a type in another file changes)
  --typescript   the folder of a TypeScript 7 package to use instead of the project's
  --out          on TypeScript 7, where to write the generated module (as 'toolwright gen --out')`;

/** `toolwright build` with its arguments, run where `place` says (on TypeScript 7, a child Node may build). */
export async function runBuild(args: readonly string[], io: CommandIO, place: RunPlace): Promise<number> {
  const values = parseOptions(args, {
    ...projectOption,
    ...typescriptOption,
    watch: { type: "boolean", short: "w" },
    out: { type: "string" },
  });
  const config = tsconfigPath(io.cwd, values.project);
  if (!config) throw new Error(`no tsconfig.json found in ${io.cwd} or above; pass one with -p <path>.`);
  const choice = compilerFor(dirname(config), values.typescript && resolve(io.cwd, values.typescript));
  if (choice.kind === "ts7") {
    if (values.watch) {
      throw new Error(
        "--watch on TypeScript 7 is not there yet. Fix: run 'toolwright gen --watch' beside 'tsc --watch'.",
      );
    }
    const out = values.out === undefined ? undefined : resolve(io.cwd, values.out);
    // Every TypeScript 7 build derives the whole project: it keeps no cache.
    if (place === "auto") {
      const [{ derivesInChild, buildInChild }, { defaultGenPath }] = await Promise.all([
        import("./ts7-child-run.js"),
        import("./gen.js"),
      ]);
      if (derivesInChild(dirname(config), out ?? defaultGenPath(dirname(config)))) return buildInChild(args, io);
    }
    return (await import("./build-ts7.js")).buildTs7(
      { tsconfig: config, typescript: choice.dir, ...(out ? { out } : {}) },
      io,
    );
  }
  const ts5 = await import("./build-ts5.js");
  return values.watch ? ts5.watch(config, io, io.cwd) : ts5.buildOnce(config, io, io.cwd);
}

/** `toolwright build`: tsc with the toolwright transformer (TypeScript 5), or checked, derived and emitted on TypeScript 7. */
export const build: Command = {
  summary: "compile the project like tsc, with every tool's spec (TypeScript 5 and 7, no ts-patch needed)",
  usage,
  run: (args, io) => runBuild(args, io, "auto"),
};
