import type ts from "typescript";
import { derivationOf } from "../derive-specs.js";
import type { Finding } from "../diagnostics.js";
import { type EditorFile, editorFile, locatedIn } from "../editor/editor-file.js";
import { ProjectGraph } from "../editor/project-graph.js";
import { type CompilerOptions, transformEntryOptions } from "../options.js";

interface Entry {
  /** The versions of the file and of every project file it imports, when it was derived. */
  readonly stamp: string;
  readonly compilerOptions: ts.CompilerOptions;
  readonly file: EditorFile;
}

/**
 * Derives lazily, one file at a time and only when the editor asks about it, and keeps
 * each file's result while the file and every project file it imports keep their
 * versions: typing in one file re-derives only that file and the files importing it.
 * The options are the build's (the transformer's entry in `compilerOptions.plugins`)
 * with the plugin entry's own options on top.
 */
export class Derivations {
  private readonly entries = new Map<string, Entry>();

  /**
   * @param versionOf the language service host's script version of a file.
   * @param editorOptions options written on the plugin's own tsconfig entry.
   */
  constructor(
    private readonly versionOf: (fileName: string) => string,
    private readonly editorOptions: CompilerOptions,
  ) {}

  /** The options the build of `program` uses, with the editor's on top. */
  optionsFor(program: ts.Program): CompilerOptions {
    return { ...transformEntryOptions(program.getCompilerOptions()), ...this.editorOptions };
  }

  /** The derivation of one file of `program`, or undefined when the Program does not hold it. */
  of(program: ts.Program, fileName: string): EditorFile | undefined {
    const file = program.getSourceFile(fileName);
    if (!file) return undefined;
    const derivation = derivationOf(program);
    const compilerOptions = program.getCompilerOptions();
    const files = [fileName, ...ProjectGraph.of(derivation.backend).dependencies(fileName)].sort();
    const stamp = files.map((f) => `${f}\u0000${this.versionOf(f)}`).join("\n");
    const cached = this.entries.get(fileName);
    if (cached?.stamp === stamp && cached.compilerOptions === compilerOptions) return cached.file;
    const derived = editorFile(derivation, file, this.optionsFor(program));
    this.entries.set(fileName, { stamp, compilerOptions, file: derived });
    return derived;
  }

  /** {@link locatedIn} over `fileName` and the files importing it, each derived (or kept) here. */
  locatedIn<T>(
    program: ts.Program,
    fileName: string,
    pick: (file: EditorFile) => readonly T[],
    findingOf: (item: T) => Finding,
  ): T[] {
    const sources = [fileName, ...ProjectGraph.of(derivationOf(program).backend).importers(fileName)];
    return locatedIn(
      sources.map((source) => this.of(program, source)),
      fileName,
      pick,
      findingOf,
    );
  }
}
