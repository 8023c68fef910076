import type { Backend } from "../backend/backend.js";
import type { Node, ParameterDeclaration, SourceFile, Syntax } from "../backend/syntax.js";
import type { DerivedFile } from "../derivation.js";
import { DiagnosticCode, type Finding } from "../diagnostics.js";
import { isToolSite, type ToolSite } from "../sites.js";
import { annotateEdit } from "./annotate-fix.js";
import type { Hint } from "./editor-file.js";
import type { TextEdit } from "./edits.js";
import { paramDocEdit } from "./param-doc-fix.js";
import { summaryDocEdit } from "./summary-doc-fix.js";

/** The diagnostic codes toolwright has quick fixes for (editors ask only for these). */
export const FIXABLE_CODES: readonly number[] = [
  DiagnosticCode.missingAnnotation,
  DiagnosticCode.undocumentedParameter,
  DiagnosticCode.thinDescription,
];

/** One quick fix: what the editor lists, the diagnostic it fixes and the edits it makes. */
export interface QuickFix {
  /** `toolwrightParamDoc`, `toolwrightSummaryDoc` or `toolwrightAnnotate`. */
  readonly fixName: string;
  readonly description: string;
  readonly fixes: Finding;
  readonly edits: readonly TextEdit[];
}

/** Every tool site of a derived file, with a spec or rejected (a thin description rejects its site). */
export function sitesOf(file: DerivedFile | undefined): ToolSite[] {
  return file ? [...file.sites, ...file.rejected].map((emitted) => emitted.site).filter(isToolSite) : [];
}

function overlaps(d: Finding, start: number, end: number): boolean {
  return d.start <= end && d.start + d.length >= start;
}

/** The parameter declaration spanning exactly `start`..`end`, as the build's diagnostic marks it. */
function parameterAt(file: SourceFile, start: number, end: number, S: Syntax): ParameterDeclaration | undefined {
  let found: ParameterDeclaration | undefined;
  const visit = (node: Node): void => {
    if (found || node.getStart(file) > start || node.getEnd() < end) return;
    if (S.isParameter(node) && node.getStart(file) === start && node.getEnd() === end) found = node;
    else node.forEachChild(visit);
  };
  visit(file);
  return found;
}

/**
 * toolwright's quick fixes for the span `start`..`end` of a file, given the findings and
 * hints located in it and its own tool sites: add a `@param` stub for a parameter the
 * model sees undescribed; add a summary stub for a tool with no description; annotate a
 * parameter with the type TypeScript inferred for it.
 */
export function quickFixes(
  backend: Backend,
  located: {
    readonly findings: readonly Finding[];
    readonly hints: readonly Hint[];
    readonly sites: readonly ToolSite[];
  },
  start: number,
  end: number,
  errorCodes: readonly number[] = FIXABLE_CODES,
): QuickFix[] {
  const fixes: QuickFix[] = [];
  if (errorCodes.includes(DiagnosticCode.undocumentedParameter)) {
    for (const { finding, parameter } of located.hints) {
      const edit = overlaps(finding, start, end) ? paramDocEdit(parameter, backend.syntax) : undefined;
      if (edit) {
        fixes.push({
          fixName: "toolwrightParamDoc",
          description: `Add a @param description for '${parameter.name}'`,
          fixes: finding,
          edits: [edit],
        });
      }
    }
  }
  if (errorCodes.includes(DiagnosticCode.thinDescription)) {
    for (const error of located.findings) {
      if (error.code !== DiagnosticCode.thinDescription || !overlaps(error, start, end)) continue;
      // The build reports a thin description at the site's node.
      const site = located.sites.find(
        (s) => s.node.getStart() === error.start && s.node.getSourceFile().fileName === error.file.fileName,
      );
      const edit = site && summaryDocEdit(site, backend);
      if (edit) {
        const name = /^TW\d+: tool "([^"]*)"/.exec(error.messageText)?.[1];
        fixes.push({
          fixName: "toolwrightSummaryDoc",
          description: name === undefined ? "Add a TSDoc summary" : `Add a TSDoc summary for tool '${name}'`,
          fixes: error,
          edits: [edit],
        });
      }
    }
  }
  if (errorCodes.includes(DiagnosticCode.missingAnnotation)) {
    for (const error of located.findings) {
      if (error.code !== DiagnosticCode.missingAnnotation || !overlaps(error, start, end)) continue;
      const parameter = parameterAt(error.file, error.start, error.start + error.length, backend.syntax);
      const annotation = parameter && annotateEdit(parameter, backend);
      if (annotation) {
        fixes.push({
          fixName: "toolwrightAnnotate",
          description: `Annotate '${parameter.name.getText(error.file)}' with its inferred type '${annotation.text}'`,
          fixes: error,
          edits: [annotation.edit],
        });
      }
    }
  }
  return fixes;
}
