import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { loadTs7 } from "../backend/ts7/ts7-api.js";
import { Ts7Session } from "../backend/ts7/ts7-session.js";
import { toolwrightOptionsOf } from "../tsconfig-file.js";
import type { CommandIO } from "./command.js";
import { defaultGenPath, generatedEntries } from "./gen.js";
import { cacheFolder } from "./gen-cache.js";
import { renderGenModule } from "./gen-module.js";
import { type Progress, progressFor } from "./progress.js";
import { projectTools } from "./project-tools.js";
import { isTypeScriptModule, RenderedModule, writeModule } from "./rendered-module.js";
import { formatDiagnostics, type PrintedDiagnostic } from "./report.js";

/** What one TypeScript 7 build needs: the project, its TypeScript 7 package, where the generated module goes. */
export interface Ts7Build {
  readonly tsconfig: string;
  readonly typescript: string;
  /** The generated module (default: as `toolwright gen` writes it). */
  readonly out?: string;
}

/** Runs the project's TypeScript 7 `tsc` to emit (`--noCheck`: the API already checked), streaming its output. */
function emitWithTsc(build: Ts7Build, io: CommandIO, pretty: boolean): Promise<number> {
  const tsc = join(build.typescript, "bin", "tsc");
  const child = spawn(process.execPath, [tsc, "-p", build.tsconfig, "--noCheck", "--pretty", String(pretty)], {
    cwd: dirname(build.tsconfig),
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout.on("data", (chunk: Buffer) => io.err(chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => io.err(chunk.toString()));
  return new Promise((done, fail) => {
    child.on("error", fail);
    child.on("close", (code) => done(code ?? 1));
  });
}

/** True when some project file names the generated module in an import (`./toolwright.gen.js`). */
function isImported(module: string, files: readonly string[]): boolean {
  const stem = basename(module).replace(/\.[cm]?[jt]sx?$/, "");
  return files.some((file) => file !== module && existsSync(file) && readFileSync(file, "utf8").includes(stem));
}

/**
 * `toolwright build` on TypeScript 7, which has no transformer: one API process checks the
 * project and derives every spec (toolwright's and TypeScript's diagnostics printed as tsc
 * prints them), the specs are written as the `toolwright gen` module, and the project's own
 * `tsc` emits it with everything else, without checking again. Exit codes are tsc's: 0
 * clean, 1 errors and nothing emitted, 2 errors with output emitted.
 */
export async function buildTs7(build: Ts7Build, io: CommandIO): Promise<number> {
  const progress = progressFor(io, "toolwright build");
  const session = new Ts7Session(loadTs7(build.typescript), { cwd: io.cwd, tsconfig: build.tsconfig, oneRun: true });
  const module = build.out ?? defaultGenPath(dirname(build.tsconfig));
  let checked: Checked;
  try {
    checked = checkAndDerive(session, build, module, progress);
  } finally {
    session.close();
    progress.done();
  }
  const { diagnostics, compilerOptions, sources } = checked;
  const pretty = io.tty?.err === true;
  if (diagnostics.length > 0) io.err(formatDiagnostics(diagnostics, io.cwd, pretty));
  const errors = diagnostics.filter((d) => d.category === "error").length;
  if (!isImported(module, sources)) {
    const shown = relative(io.cwd, module) || module;
    io.err(
      `toolwright build: no file of the project imports ${shown}, so no tool finds its spec at run time. Fix: import it first in your entry point: import "./${basename(module).replace(/\.ts$/, ".js")}";\n`,
    );
  }
  const skipped = compilerOptions.noEmit === true || (errors > 0 && compilerOptions.noEmitOnError === true);
  const emitted = skipped ? 0 : await emitWithTsc(build, io, pretty);
  if (errors > 0) io.err(`\nFound ${errors} error${errors === 1 ? "" : "s"}.\n`);
  if (errors === 0 && emitted === 0) return 0;
  return skipped ? 1 : 2;
}

interface Checked {
  readonly diagnostics: readonly PrintedDiagnostic[];
  readonly compilerOptions: Readonly<Record<string, unknown>>;
  readonly sources: readonly string[];
}

/**
 * Derives every spec and writes the generated module (as tsc emits despite errors, it holds
 * every tool that has a spec), then type-checks the program with the module as written.
 */
function checkAndDerive(session: Ts7Session, build: Ts7Build, module: string, progress: Progress): Checked {
  progress.update("reading the project");
  let snapshot = session.open();
  const root = dirname(build.tsconfig);
  const files = snapshot.fileNames.flatMap((name) => snapshot.backend.sourceFile(name) ?? []);
  const derived = projectTools(snapshot.derivation, files, toolwrightOptionsOf(build.tsconfig), root, progress);
  const { entries, schemas, diagnostics: keys } = generatedEntries(derived);
  const typescript = isTypeScriptModule(module);
  const text = renderGenModule(entries, { typescript, schemas });
  const written = writeModule(module, text);
  // Recorded as toolwright's rendering, as `gen` records it: a `gen` after this build reads
  // the module as the run's output, not as a file edited by hand that its importers reach.
  const folder = cacheFolder(root);
  if (folder) new RenderedModule(folder, module).keep(RenderedModule.keyOf([entries, schemas], typescript), text);
  // The project imports the module: the type-check must see it as it now is.
  if (written) snapshot = session.update({ [written]: [module] });
  progress.update("type-checking");
  return {
    diagnostics: [...snapshot.configDiagnostics, ...snapshot.typeDiagnostics(), ...derived.findings, ...keys],
    compilerOptions: snapshot.compilerOptions,
    sources: snapshot.fileNames,
  };
}
