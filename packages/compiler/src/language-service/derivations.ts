import type ts from "typescript";
import { derivationOf, deriveSpecs, type FileResult } from "../derive-specs.js";
import { type CompilerOptions, transformEntryOptions } from "../options.js";
import { ProjectGraph } from "./project-graph.js";
import { type UndocumentedParameter, undocumentedHint, undocumentedParameters } from "./undocumented-parameters.js";

/** A suggestion and the parameter it is about (what its quick fix edits). */
export interface Hint {
  readonly diagnostic: ts.Diagnostic;
  readonly parameter: UndocumentedParameter;
}

/** What the plugin derived from one file. */
export interface FileDerivation {
  /** Exactly what the build derives: sites with their specs, and the TW99000x errors. */
  readonly result: FileResult;
  /** Parameters of its tools that the model sees with no description. */
  readonly hints: readonly Hint[];
}

interface Entry {
  /** The versions of the file and of every project file it imports, when it was derived. */
  readonly stamp: string;
  readonly compilerOptions: ts.CompilerOptions;
  readonly derivation: FileDerivation;
}

function sameDiagnostic(a: ts.Diagnostic, b: ts.Diagnostic): boolean {
  return a.start === b.start && a.length === b.length && a.code === b.code && a.messageText === b.messageText;
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
  of(program: ts.Program, fileName: string): FileDerivation | undefined {
    const file = program.getSourceFile(fileName);
    if (!file) return undefined;
    const compilerOptions = program.getCompilerOptions();
    const files = [fileName, ...ProjectGraph.of(program).dependencies(fileName)].sort();
    const stamp = files.map((f) => `${f}\u0000${this.versionOf(f)}`).join("\n");
    const cached = this.entries.get(fileName);
    if (cached?.stamp === stamp && cached.compilerOptions === compilerOptions) return cached.derivation;
    const result = deriveSpecs(program, file, this.optionsFor(program));
    const { backend } = derivationOf(program);
    const hints = result.sites.flatMap((derived) =>
      undocumentedParameters(derived, backend).map((parameter) => ({
        diagnostic: undocumentedHint(derived.spec.name, parameter),
        parameter,
      })),
    );
    const derivation = { result, hints };
    this.entries.set(fileName, { stamp, compilerOptions, derivation });
    return derivation;
  }

  /**
   * The items `pick` selects (diagnostics, or hints with their `diagnostic`) that are
   * located in `fileName`: a tool made in one file from a function declared in another
   * reports that function's parameters in the function's file (as the build does), so
   * the files importing `fileName` are derived too.
   */
  locatedIn<T>(
    program: ts.Program,
    fileName: string,
    pick: (derivation: FileDerivation) => readonly T[],
    diagnosticOf: (item: T) => ts.Diagnostic,
  ): T[] {
    const found: T[] = [];
    for (const source of [fileName, ...ProjectGraph.of(program).importers(fileName)]) {
      const derivation = this.of(program, source);
      if (!derivation) continue;
      for (const item of pick(derivation)) {
        const diagnostic = diagnosticOf(item);
        // Two tools made from one function report its parameter twice; one squiggle is enough.
        if (
          diagnostic.file?.fileName === fileName &&
          !found.some((other) => sameDiagnostic(diagnosticOf(other), diagnostic))
        ) {
          found.push(item);
        }
      }
    }
    return found;
  }
}
