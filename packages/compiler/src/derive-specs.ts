import type ts from "typescript";
import { Ts5Backend } from "./backend/ts5/ts5-backend.js";
import { toTsDiagnostic } from "./backend/ts5/ts5-diagnostics.js";
import { Derivation, type DerivedSchema, type DerivedSite, type EmittedSite } from "./derivation.js";
import type { CompilerOptions } from "./options.js";

export type { DerivedSchema, DerivedSite, EmittedSite } from "./derivation.js";

/** Everything derived from one source file. */
export interface FileResult {
  readonly sites: readonly DerivedSite[];
  /** The `schema<T>()` calls, each with the spec derived from its `T`. */
  readonly schemas: readonly DerivedSchema[];
  /** Sites with build errors, each with the marker that makes creating the tool throw them. */
  readonly rejected: readonly EmittedSite[];
  readonly diagnostics: readonly ts.Diagnostic[];
}

// Emitters call us once per emitted file (ts-patch builds a new transformer factory for
// each emit); the backend, the brand lookup and the results are kept once per Program.
const derivations = new WeakMap<ts.Program, { derivation: Derivation; results: Map<string, FileResult> }>();

/** The derivation of a TypeScript 5 Program (one per Program). */
export function derivationOf(program: ts.Program): Derivation {
  return stateOf(program).derivation;
}

function stateOf(program: ts.Program) {
  let state = derivations.get(program);
  if (!state) {
    state = { derivation: new Derivation(new Ts5Backend(program)), results: new Map() };
    derivations.set(program, state);
  }
  return state;
}

/**
 * The core of the compiler on TypeScript 5, independent of ts-patch: finds every tool site
 * in `file`, derives its spec and runs the build-time checks. Results are cached per
 * Program and file, so repeated calls are free. Entry points (the transformer, bundler
 * plugins, a CLI) only decide how to write `sites` into their output.
 *
 * @example
 * ```ts
 * const program = ts.createProgram(["src/tools.ts"], options);
 * const file = program.getSourceFile("src/tools.ts")!;
 * const { sites, diagnostics } = deriveSpecs(program, file, { minDescriptionLength: 20 });
 * const output = spliceSpecs(file.text, sites);
 * ```
 */
export function deriveSpecs(program: ts.Program, file: ts.SourceFile, options: CompilerOptions = {}): FileResult {
  const state = stateOf(program);
  const cached = state.results.get(file.fileName);
  if (cached) return cached;
  const derived = state.derivation.deriveFile(file, options);
  const result: FileResult = {
    sites: derived.sites,
    schemas: derived.schemas,
    rejected: derived.rejected,
    diagnostics: derived.findings.map(toTsDiagnostic),
  };
  state.results.set(file.fileName, result);
  return result;
}
