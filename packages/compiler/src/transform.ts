import ts from "typescript";
import { deriveSpecs } from "./derive-specs.js";
import { specWriter } from "./emit-ast.js";
import type { CompilerOptions } from "./options.js";

/** What ts-patch passes as the third argument of a `program` transformer. */
export interface TransformerExtras {
  /** The TypeScript instance running the build (under tspc, a patched in-memory copy). */
  readonly ts: typeof ts;
  addDiagnostic(diagnostic: ts.Diagnostic): number;
}

const reported = new WeakMap<ts.Program, Set<string>>();

function versionProblem(running: string): ts.Diagnostic | undefined {
  const major = (v: string) => v.split(".").slice(0, 2).join(".");
  if (major(running) === major(ts.version)) return undefined;
  return {
    file: undefined,
    start: undefined,
    length: undefined,
    category: ts.DiagnosticCategory.Error,
    code: 990000,
    messageText: `TW990000: the build runs TypeScript ${running} but @toolwright/compiler loaded TypeScript ${ts.version}. Fix: install one TypeScript version (npm ls typescript) so both resolve the same copy.`,
  };
}

/**
 * The ts-patch entry (`@toolwright/compiler/transform`): writes each tool site's spec
 * into the emitted JavaScript and reports problems as TypeScript errors, which fail the build.
 *
 * @example
 * ```json
 * { "compilerOptions": { "plugins": [
 *   { "transform": "@toolwright/compiler/transform", "minDescriptionLength": 20, "requireAnnotations": true }
 * ] } }
 * ```
 */
export default function toolwrightTransform(
  program: ts.Program,
  config: CompilerOptions = {},
  extras?: TransformerExtras,
): ts.TransformerFactory<ts.SourceFile> {
  const host = extras?.ts ?? ts;
  let done = reported.get(program);
  if (!done) {
    done = new Set();
    reported.set(program, done);
    const problem = versionProblem(host.version);
    if (problem) extras?.addDiagnostic(problem);
  }
  const seen = done;
  return (context) => {
    return (file) => {
      const { sites, diagnostics } = deriveSpecs(program, file, config);
      // ts-patch builds a new factory for every emit call; report each file's problems once.
      if (!seen.has(file.fileName)) {
        seen.add(file.fileName);
        for (const diagnostic of diagnostics) extras?.addDiagnostic(diagnostic);
      }
      return specWriter(sites, context, host)(file);
    };
  };
}
