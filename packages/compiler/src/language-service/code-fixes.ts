import type ts from "typescript";
import { derivationOf } from "../derive-specs.js";
import { quickFixes, sitesOf } from "../editor/quick-fixes.js";
import type { Derivations } from "./derivations.js";

/**
 * toolwright's quick fixes (`quickFixes`) for the span `start`..`end` of `fileName`, as
 * tsserver's code fix actions.
 */
export function toolwrightCodeFixes(
  program: ts.Program,
  derivations: Derivations,
  fileName: string,
  start: number,
  end: number,
  errorCodes: readonly number[],
): ts.CodeFixAction[] {
  const located = {
    findings: derivations.locatedIn(
      program,
      fileName,
      (d) => d.derived.findings,
      (f) => f,
    ),
    hints: derivations.locatedIn(
      program,
      fileName,
      (d) => d.hints,
      (h) => h.finding,
    ),
    sites: sitesOf(derivations.of(program, fileName)?.derived),
  };
  return quickFixes(derivationOf(program).backend, located, start, end, errorCodes).map((fix) => ({
    fixName: fix.fixName,
    description: fix.description,
    changes: fix.edits.map((edit) => ({
      fileName: edit.fileName,
      textChanges: [{ span: { start: edit.start, length: edit.length }, newText: edit.newText }],
    })),
  }));
}
