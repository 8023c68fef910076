import { dirname, resolve } from "node:path";
import type { SchemaSpec, ToolSpec } from "toolwright";
import type ts from "typescript";
import type { SourceFile } from "../backend/syntax.js";
import { printedDiagnostic } from "../backend/ts5/ts5-diagnostics.js";
import { derivationOf } from "../derive-specs.js";
import { readProjectConfig } from "../esbuild/project-config.js";
import { TS } from "../typescript-host.js";
import type { Progress } from "./progress.js";
import { projectTools } from "./project-tools.js";
import type { PrintedDiagnostic } from "./report.js";
import type { RuntimeKey } from "./runtime-key.js";

export { formatDiagnostics, hasErrors } from "./report.js";

/** One tool site of a project, with everything the CLI commands need. */
export interface ProjectTool {
  readonly spec: ToolSpec;
  /** How `tool(fn, options)` finds a generated spec at run time, or why it cannot. */
  readonly key: RuntimeKey;
  /** The defining file relative to the project root, with `/` separators. */
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** Where the site is, for diagnostics. */
  readonly at: SiteLocation;
}

/** A span of a file, as diagnostics point at it. */
export interface SiteLocation {
  readonly file: NonNullable<PrintedDiagnostic["file"]>;
  readonly start: number;
  readonly length: number;
}

/** One `schema<T>()` call of a project. */
export interface ProjectSchema {
  readonly spec: SchemaSpec;
  /**
   * How the call finds a generated spec at run time (its literal `name` option), or why it
   * cannot: without the transformer, only the options are left of the call.
   */
  readonly key: { readonly name: string; readonly problem?: undefined } | { readonly problem: string };
  /** The calling file relative to the project root, with `/` separators. */
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** Where the call is, for diagnostics. */
  readonly at: SiteLocation;
}

/** A project compiled once for the CLI: every tool and `schema<T>()` call in it. */
export interface LoadedProject {
  /** The tsconfig's folder (or the working directory without one). */
  readonly root: string;
  readonly tools: readonly ProjectTool[];
  readonly schemas: readonly ProjectSchema[];
  /** Derivation problems (and tsconfig problems); type errors are not included. */
  readonly diagnostics: readonly PrintedDiagnostic[];
  /** Where this run's caches live, when it keeps any (TypeScript 7's per-file cache). */
  readonly cacheFolder?: string;
}

/**
 * A compiler host that parses JSDoc as tsc does (only what type errors need): toolwright
 * reads TSDoc from the source text, so parsing every comment of every file, lib files
 * included, would only cost time.
 */
export function createHost(options: ts.CompilerOptions, cwd: string): ts.CompilerHost {
  const host = TS.createCompilerHost(options);
  // TypeScript 5.0 to 5.2 have no such mode: JSDoc is parsed, as they always do.
  host.jsDocParsingMode = TS.JSDocParsingMode?.ParseForTypeErrors;
  // Spec sources are relative to the current directory, as under tsc: the same start
  // directory gives the same specs on every build path.
  host.getCurrentDirectory = () => cwd;
  return host;
}

/** Compiles a project (without emitting) and derives the spec of every tool site in its own files. */
export function loadProject(cwd: string, tsconfig?: string, progress?: Progress): LoadedProject {
  const config = readProjectConfig(cwd, tsconfig);
  if (!config.path) {
    throw new Error(`no tsconfig.json found in ${cwd} or above; pass one with -p <path>.`);
  }
  const root = dirname(config.path);
  const options = { ...config.options, noEmit: true };
  progress?.update("reading the project");
  const program = TS.createProgram({
    rootNames: config.fileNames,
    options,
    host: createHost(options, cwd),
    ...(config.projectReferences ? { projectReferences: config.projectReferences } : {}),
  });
  const derivation = derivationOf(program);
  const roots = new Set(config.fileNames.map((f) => resolve(f)));
  const own = program
    .getSourceFiles()
    .filter((f): f is ts.SourceFile & SourceFile => !f.isDeclarationFile && roots.has(resolve(f.fileName)));
  const { tools, schemas, findings } = projectTools(derivation, own, config.toolwright, root, progress);
  return { root, tools, schemas, diagnostics: [...config.diagnostics.map(printedDiagnostic), ...findings] };
}
