import type { SourceFile } from "../backend/syntax.js";
import type { Derivation, DerivedFile } from "../derivation.js";
import type { Finding } from "../diagnostics.js";
import type { CompilerOptions } from "../options.js";
import { type UndocumentedParameter, undocumentedFinding, undocumentedParameters } from "./undocumented-parameters.js";

/** A suggestion and the parameter it is about (what its quick fix edits). */
export interface Hint {
  readonly finding: Finding;
  readonly parameter: UndocumentedParameter;
}

/** What an editor shows for one file, on either compiler: the build's derivation and the editor's hints. */
export interface EditorFile {
  /** Exactly what the build derives: sites with their specs, and the TW99000x findings. */
  readonly derived: DerivedFile;
  /** Parameters of its tools that the model sees with no description. */
  readonly hints: readonly Hint[];
}

/** Derives `file` as the build does and adds the editor's hints. */
export function editorFile(derivation: Derivation, file: SourceFile, options: CompilerOptions): EditorFile {
  const derived = derivation.deriveFile(file, options);
  const { backend } = derivation;
  const hints = derived.sites.flatMap((site) =>
    undocumentedParameters(site, backend).map((parameter) => ({
      finding: undocumentedFinding(site.spec.name, parameter, backend),
      parameter,
    })),
  );
  return { derived, hints };
}

function sameFinding(a: Finding, b: Finding): boolean {
  return a.start === b.start && a.length === b.length && a.code === b.code && a.messageText === b.messageText;
}

/**
 * The items `pick` selects (findings, or hints with their `finding`) that are located in
 * `fileName`, from the derivations of that file and of the files importing it: a tool
 * made in one file from a function declared in another reports that function's
 * parameters in the function's file (as the build does).
 */
export function locatedIn<T>(
  files: readonly (EditorFile | undefined)[],
  fileName: string,
  pick: (file: EditorFile) => readonly T[],
  findingOf: (item: T) => Finding,
): T[] {
  const found: T[] = [];
  for (const file of files) {
    if (!file) continue;
    for (const item of pick(file)) {
      const at = findingOf(item);
      // Two tools made from one function report its parameter twice; one squiggle is enough.
      if (at.file.fileName === fileName && !found.some((other) => sameFinding(findingOf(other), at))) found.push(item);
    }
  }
  return found;
}
