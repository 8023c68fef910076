import { createRequire } from "node:module";
import type ts from "typescript";

const require = createRequire(import.meta.url);
/** TypeScript patched in memory by ts-patch: programs apply `compilerOptions.plugins`, as `tspc` does. */
const tsp = require("ts-patch/compiler") as typeof ts;

/**
 * Builds a TypeScript project with the real compiler and the toolwright transformer named
 * in its tsconfig, into `outDir`: one folder per test process, so runs never race on a
 * build. Throws with every diagnostic when the build fails.
 */
export function compileProject(tsconfigPath: string, outDir: string): void {
  const parsed = tsp.getParsedCommandLineOfConfigFile(
    tsconfigPath,
    {},
    {
      ...tsp.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(tsp.flattenDiagnosticMessageText(d.messageText, "\n"));
      },
    },
  );
  if (!parsed) throw new Error(`cannot read ${tsconfigPath}`);
  const program = tsp.createProgram({ rootNames: parsed.fileNames, options: { ...parsed.options, outDir } });
  const emitted = program.emit();
  const problems = [...tsp.getPreEmitDiagnostics(program), ...emitted.diagnostics].filter(
    (d) => d.category === tsp.DiagnosticCategory.Error,
  );
  if (problems.length > 0) {
    const host = {
      getCanonicalFileName: (f: string) => f,
      getCurrentDirectory: tsp.sys.getCurrentDirectory,
      getNewLine: () => "\n",
    };
    throw new Error(`build of ${tsconfigPath} failed:\n${tsp.formatDiagnostics(problems, host)}`);
  }
}
