import type ts from "typescript";
import { type PrintedDiagnostic, printedCategory } from "../../cli/report.js";
import { type DiagnosticCodeValue, type Finding, finding, type Severity } from "../../diagnostics.js";
import { TS } from "../../typescript-host.js";

function categoryOf(severity: Severity): ts.DiagnosticCategory {
  if (severity === "warning") return TS.DiagnosticCategory.Warning;
  if (severity === "suggestion") return TS.DiagnosticCategory.Suggestion;
  return TS.DiagnosticCategory.Error;
}

/** A {@link Finding} as TypeScript 5's diagnostic, for tsc, tsserver and the plugins' hosts. */
export function toTsDiagnostic(found: Finding): ts.Diagnostic {
  return {
    file: found.file as unknown as ts.SourceFile,
    start: found.start,
    length: found.length,
    messageText: found.messageText,
    category: categoryOf(found.category),
    code: found.code,
  };
}

/** A TypeScript 5 diagnostic at `node`, prefixed with `TW<code>` (see {@link finding}). */
export function toolwrightDiagnostic(
  node: ts.Node,
  code: DiagnosticCodeValue,
  message: string,
  severity: Severity = "error",
): ts.Diagnostic {
  return toTsDiagnostic(finding(node, code, message, severity));
}

/** A TypeScript 5 diagnostic (a type error, a tsconfig problem) as the CLI prints it. */
export function printedDiagnostic(d: ts.Diagnostic): PrintedDiagnostic {
  const C = TS.DiagnosticCategory;
  return {
    ...(d.file ? { file: d.file } : {}),
    ...(d.start !== undefined ? { start: d.start } : {}),
    ...(d.length !== undefined ? { length: d.length } : {}),
    code: d.code,
    messageText: TS.flattenDiagnosticMessageText(d.messageText, "\n"),
    category: printedCategory(d.category, C),
  };
}
