import { dirname, relative, resolve } from "node:path";
import type { ToolSpec } from "toolwright";
import type ts from "typescript";
import { deriveSpecs } from "../derive-specs.js";
import { type ProjectConfig, readProjectConfig } from "../esbuild/project-config.js";
import { TS } from "../typescript-host.js";
import { countOf, type Progress } from "./progress.js";
import { type RuntimeKey, runtimeKey } from "./runtime-key.js";

/** One tool site of a project, with everything the CLI commands need. */
export interface ProjectTool {
  readonly spec: ToolSpec;
  /** How `tool(fn, options)` finds a generated spec at run time, or why it cannot. */
  readonly key: RuntimeKey;
  /** The defining file relative to the project root, with `/` separators. */
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** The site's node, for diagnostics. */
  readonly node: ts.Node;
}

/** A project compiled once for the CLI: its program and every tool in it. */
export interface LoadedProject {
  /** The tsconfig's folder (or the working directory without one). */
  readonly root: string;
  readonly config: ProjectConfig;
  readonly program: ts.Program;
  readonly tools: readonly ProjectTool[];
  /** Derivation problems (and tsconfig problems); type errors are not included. */
  readonly diagnostics: readonly ts.Diagnostic[];
}

/**
 * A compiler host that parses JSDoc as tsc does (only what type errors need): toolwright
 * reads TSDoc from the source text, so parsing every comment of every file, lib files
 * included, would only cost time.
 */
export function createHost(options: ts.CompilerOptions, cwd: string): ts.CompilerHost {
  const host = TS.createCompilerHost(options);
  host.jsDocParsingMode = TS.JSDocParsingMode.ParseForTypeErrors;
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
  const checker = program.getTypeChecker();
  const tools: ProjectTool[] = [];
  const diagnostics: ts.Diagnostic[] = [...config.diagnostics];
  const roots = new Set(config.fileNames.map((f) => resolve(f)));
  const own = program.getSourceFiles().filter((f) => !f.isDeclarationFile && roots.has(resolve(f.fileName)));
  for (const [index, sourceFile] of own.entries()) {
    progress?.update(`deriving specs, ${countOf(index + 1, own.length, "files")}`);
    const derived = deriveSpecs(program, sourceFile, config.toolwright);
    diagnostics.push(...derived.diagnostics);
    for (const site of derived.sites) {
      const { line, character } = sourceFile.getLineAndCharacterOfPosition(site.site.node.getStart(sourceFile));
      tools.push({
        spec: site.spec,
        key: runtimeKey(site.site, checker),
        file: relative(root, sourceFile.fileName).split("\\").join("/"),
        line: line + 1,
        column: character + 1,
        node: site.site.node,
      });
    }
  }
  return { root, config, program, tools, diagnostics };
}

/** Prints diagnostics the way tsc does (with colour and code frames on a terminal). */
export function formatDiagnostics(diagnostics: readonly ts.Diagnostic[], root: string, pretty: boolean): string {
  const host: ts.FormatDiagnosticsHost = {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => root,
    getNewLine: () => "\n",
  };
  return pretty ? TS.formatDiagnosticsWithColorAndContext(diagnostics, host) : TS.formatDiagnostics(diagnostics, host);
}

/** True when any diagnostic is an error. */
export function hasErrors(diagnostics: readonly ts.Diagnostic[]): boolean {
  return diagnostics.some((d) => d.category === TS.DiagnosticCategory.Error);
}
