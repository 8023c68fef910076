import type ts from "typescript";
import { deriveSpecs } from "./derive-specs.js";
import { specWriter } from "./emit-ast.js";
import type { CompilerOptions } from "./options.js";
import { TS, useTypeScript } from "./typescript-host.js";

/** What ts-patch passes as the third argument of a `program` transformer. */
export interface TransformerExtras {
  /** The TypeScript instance running the build (under tspc, a patched in-memory copy). */
  readonly ts: typeof ts;
  addDiagnostic(diagnostic: ts.Diagnostic): number;
}

const reported = new WeakMap<ts.Program, Set<string>>();

/** TW990000 unless the build runs TypeScript 5 (the transformer is tested with 5.0.4 and 5.9.3). */
function versionProblem(running: string): ts.Diagnostic | undefined {
  if (running.startsWith("5.")) return undefined;
  return {
    file: undefined,
    start: undefined,
    length: undefined,
    category: TS.DiagnosticCategory.Error,
    code: 990000,
    messageText: `TW990000: the build runs TypeScript ${running}, but the toolwright transformer supports TypeScript 5.0 to 5.9. Fix: build with TypeScript 5.9 (e.g. "typescript": "5.9.3" in devDependencies), or move to TypeScript 7 and build with 'toolwright build' or 'toolwright gen' (no patching).`,
  };
}

/**
 * The ts-patch entry (`@toolwright/compiler/transform`): writes each tool site's spec (and
 * each `schema<T>()` call's) into the emitted JavaScript and reports problems as TypeScript errors, which fail the build.
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
  // Work with the instance running the build, never a second copy of TypeScript.
  if (extras?.ts) useTypeScript(extras.ts);
  let done = reported.get(program);
  const problem = versionProblem(TS.version);
  if (!done) {
    done = new Set();
    reported.set(program, done);
    if (problem) extras?.addDiagnostic(problem);
  }
  // On a TypeScript the rules were not written for, derived specs would be wrong in ways
  // that hide the one real problem: report TW990000 alone and leave the files untouched.
  if (problem) return () => (file) => file;
  const seen = done;
  return (context) => {
    return (file) => {
      const { sites, schemas, rejected, diagnostics } = deriveSpecs(program, file, config);
      // ts-patch builds a new factory for every emit call; report each file's problems once.
      if (!seen.has(file.fileName)) {
        seen.add(file.fileName);
        for (const diagnostic of diagnostics) extras?.addDiagnostic(diagnostic);
      }
      return specWriter([...sites, ...schemas, ...rejected], context)(file);
    };
  };
}
