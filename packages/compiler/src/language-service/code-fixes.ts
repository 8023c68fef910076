import type ts from "typescript";
import { DiagnosticCode } from "../diagnostics.js";
import { TS } from "../typescript-host.js";
import { annotateEdit } from "./annotate-fix.js";
import type { Derivations } from "./derivations.js";
import { paramDocEdit } from "./param-doc-fix.js";

/** The diagnostic codes the plugin has quick fixes for (tsserver's clients ask only for these). */
export const FIXABLE_CODES: readonly number[] = [
  DiagnosticCode.missingAnnotation,
  DiagnosticCode.undocumentedParameter,
];

function overlaps(d: ts.Diagnostic, start: number, end: number): boolean {
  const from = d.start ?? -1;
  return from <= end && from + (d.length ?? 0) >= start;
}

/** The parameter declaration spanning exactly `start`..`end`, as the build's diagnostic marks it. */
function parameterAt(file: ts.SourceFile, start: number, end: number): ts.ParameterDeclaration | undefined {
  let found: ts.ParameterDeclaration | undefined;
  const visit = (node: ts.Node): void => {
    if (found || node.getStart(file) > start || node.getEnd() < end) return;
    if (TS.isParameter(node) && node.getStart(file) === start && node.getEnd() === end) found = node;
    else TS.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/**
 * toolwright's quick fixes for the span `start`..`end` of `fileName`: add a `@param` stub
 * for a parameter the model sees undescribed; annotate a parameter with the type
 * TypeScript inferred for it.
 */
export function toolwrightCodeFixes(
  program: ts.Program,
  derivations: Derivations,
  fileName: string,
  start: number,
  end: number,
  errorCodes: readonly number[],
): ts.CodeFixAction[] {
  const fixes: ts.CodeFixAction[] = [];
  if (errorCodes.includes(DiagnosticCode.undocumentedParameter)) {
    const hints = derivations.locatedIn(
      program,
      fileName,
      (d) => d.hints,
      (h) => h.diagnostic,
    );
    for (const { diagnostic, parameter } of hints) {
      const change = overlaps(diagnostic, start, end) ? paramDocEdit(parameter) : undefined;
      if (change) {
        fixes.push({
          fixName: "toolwrightParamDoc",
          description: `Add a @param description for '${parameter.name}'`,
          changes: [change],
        });
      }
    }
  }
  if (errorCodes.includes(DiagnosticCode.missingAnnotation)) {
    const file = program.getSourceFile(fileName);
    const checker = program.getTypeChecker();
    const errors = derivations.locatedIn(
      program,
      fileName,
      (d) => d.result.diagnostics,
      (d) => d,
    );
    for (const error of errors) {
      if (!file || error.code !== DiagnosticCode.missingAnnotation || !overlaps(error, start, end)) continue;
      const from = error.start ?? 0;
      const parameter = parameterAt(file, from, from + (error.length ?? 0));
      const edit = parameter && annotateEdit(parameter, checker);
      if (edit) {
        fixes.push({
          fixName: "toolwrightAnnotate",
          description: `Annotate '${parameter.name.getText(file)}' with its inferred type '${edit.text}'`,
          changes: [edit.change],
        });
      }
    }
  }
  return fixes;
}
