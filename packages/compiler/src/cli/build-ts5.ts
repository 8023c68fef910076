import type ts from "typescript";
import { deriveSpecs } from "../derive-specs.js";
import { readProjectConfig } from "../esbuild/project-config.js";
import type { CompilerOptions } from "../options.js";
import toolwrightTransform from "../transform.js";
import { TS } from "../typescript-host.js";
import type { CommandIO } from "./command.js";
import { countOf, type Progress, progressFor } from "./progress.js";
import { createHost } from "./project.js";

/** The toolwright transformer as tsc's customTransformers, the same factory ts-patch would load. */
function transformersFor(
  program: ts.Program,
  options: CompilerOptions,
  report: (diagnostic: ts.Diagnostic) => void,
): ts.CustomTransformers {
  const addDiagnostic = (diagnostic: ts.Diagnostic) => {
    report(diagnostic);
    return 0;
  };
  return { before: [toolwrightTransform(program, options, { ts: TS, addDiagnostic })] };
}

/** The transformers, counting the files they see on the progress line. */
function countingFiles(transformers: ts.CustomTransformers, program: ts.Program, progress: Progress) {
  const total = program.getSourceFiles().filter((f) => !f.isDeclarationFile).length;
  let done = 0;
  const counting: ts.TransformerFactory<ts.SourceFile> = () => (file) => {
    progress.update(`emitting, ${countOf(++done, total, "files")}`);
    return file;
  };
  return { ...transformers, before: [counting, ...(transformers.before ?? [])] };
}

/** Prints diagnostics the way tsc does (with colour and code frames on a terminal). */
function formatDiagnostics(diagnostics: readonly ts.Diagnostic[], root: string, pretty: boolean): string {
  const host: ts.FormatDiagnosticsHost = {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => root,
    getNewLine: () => "\n",
  };
  return pretty ? TS.formatDiagnosticsWithColorAndContext(diagnostics, host) : TS.formatDiagnostics(diagnostics, host);
}

function report(io: CommandIO, diagnostics: readonly ts.Diagnostic[], root: string): number {
  const errors = diagnostics.filter((d) => d.category === TS.DiagnosticCategory.Error).length;
  if (diagnostics.length > 0) io.err(formatDiagnostics(diagnostics, root, TS.sys.writeOutputIsTTY?.() ?? false));
  if (errors > 0) io.err(`\nFound ${errors} error${errors === 1 ? "" : "s"}.\n`);
  return errors;
}

/** One build on TypeScript 5.9: tsc's program, emitted with the toolwright transformer. */
export function buildOnce(configPath: string, io: CommandIO, root: string): number {
  const progress = progressFor(io, "toolwright build");
  progress.update("reading the project");
  const config = readProjectConfig(root, configPath);
  const host = createHost(config.options, root);
  const program = TS.createProgram({
    rootNames: config.fileNames,
    options: config.options,
    host,
    configFileParsingDiagnostics: config.diagnostics,
    ...(config.projectReferences ? { projectReferences: config.projectReferences } : {}),
  });
  const added: ts.Diagnostic[] = [];
  const transformers = transformersFor(program, config.toolwright, (d) => added.push(d));
  const emitted = program.emit(
    undefined,
    undefined,
    undefined,
    undefined,
    countingFiles(transformers, program, progress),
  );
  if (config.options.noEmit) {
    // Nothing is emitted, so the transformer never ran: derive anyway, so that a
    // type-check-only build still reports every tool problem (tspc cannot).
    progress.update("deriving specs");
    for (const file of program.getSourceFiles()) {
      if (!program.isSourceFileFromExternalLibrary(file))
        added.push(...deriveSpecs(program, file, config.toolwright).diagnostics);
    }
  }
  progress.update("type-checking");
  const diagnostics = TS.sortAndDeduplicateDiagnostics([
    ...config.diagnostics,
    ...TS.getPreEmitDiagnostics(program),
    ...emitted.diagnostics,
    ...added,
  ]);
  progress.done();
  const errors = report(io, diagnostics, root);
  if (errors === 0) return TS.ExitStatus.Success;
  return emitted.emitSkipped
    ? TS.ExitStatus.DiagnosticsPresent_OutputsSkipped
    : TS.ExitStatus.DiagnosticsPresent_OutputsGenerated;
}

/** `--watch` on TypeScript 5.9: tsc's watch program, every emit with the transformer. */
export function watch(configPath: string, io: CommandIO, root: string): Promise<number> {
  const config = readProjectConfig(root, configPath);
  const host = TS.createWatchCompilerHost(
    configPath,
    undefined,
    TS.sys,
    TS.createEmitAndSemanticDiagnosticsBuilderProgram,
    (d) => io.err(formatDiagnostics([d], root, false)),
    (d) => io.out(`${TS.flattenDiagnosticMessageText(d.messageText, "\n")}\n`),
  );
  // As tsc: toolwright reads TSDoc from the source text, not from parsed JSDoc.
  host.jsDocParsingMode = TS.JSDocParsingMode?.ParseForTypeErrors; // undefined on 5.0 to 5.2, as in createHost
  host.getCurrentDirectory = () => root;
  const afterProgramCreate = host.afterProgramCreate;
  host.afterProgramCreate = (builder) => {
    // The builder emits one changed file at a time; every emit gets the transformer.
    const emit = builder.emit.bind(builder);
    const added: ts.Diagnostic[] = [];
    const transformers = transformersFor(builder.getProgram(), config.toolwright, (d) => added.push(d));
    builder.emit = (file, write, cancel, dtsOnly, custom) =>
      emit(file, write, cancel, dtsOnly, {
        before: [...(transformers.before ?? []), ...(custom?.before ?? [])],
        after: [...(transformers.after ?? []), ...(custom?.after ?? [])],
        afterDeclarations: [...(transformers.afterDeclarations ?? []), ...(custom?.afterDeclarations ?? [])],
      });
    afterProgramCreate?.(builder);
    if (added.length > 0) io.err(formatDiagnostics(added, root, false));
  };
  TS.createWatchProgram(host);
  // Runs until the process is stopped, like tsc --watch.
  return new Promise<number>(() => {});
}
