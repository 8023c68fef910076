import type ts from "typescript";
import { TS } from "../typescript-host.js";

/** A diagnostic as bundlers report it: text plus a 1-based line and 0-based column. */
export interface LocatedDiagnostic {
  readonly error: boolean;
  readonly text: string;
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
  readonly length?: number;
  readonly lineText?: string;
}

/** Turns a TypeScript diagnostic into the located message esbuild and Vite print. */
export function locateDiagnostic(diagnostic: ts.Diagnostic): LocatedDiagnostic {
  const text = TS.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
  const error = diagnostic.category === TS.DiagnosticCategory.Error;
  const { file, start } = diagnostic;
  if (!file || start === undefined) return { error, text };
  const { line, character } = file.getLineAndCharacterOfPosition(start);
  const lineStart = file.getLineStarts()[line] ?? 0;
  const lineEnd = file.text.indexOf("\n", lineStart);
  return {
    error,
    text,
    file: file.fileName,
    line: line + 1,
    column: character,
    length: diagnostic.length ?? 0,
    lineText: file.text.slice(lineStart, lineEnd === -1 ? undefined : lineEnd).replace(/\r$/, ""),
  };
}
