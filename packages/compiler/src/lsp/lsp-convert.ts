import { type Diagnostic, DiagnosticSeverity, type Position, type Range } from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import type { SourceFile } from "../backend/syntax.js";
import type { Finding, Severity } from "../diagnostics.js";

// Offsets in a file's text (UTF-16 code units, as TypeScript counts) to LSP's line and
// character (UTF-16 too), through the line table TextDocument keeps; one per parsed file.
const documents = new WeakMap<SourceFile, TextDocument>();

function documentOf(file: SourceFile): TextDocument {
  let document = documents.get(file);
  if (!document) {
    document = TextDocument.create(file.fileName, "typescript", 0, file.text);
    documents.set(file, document);
  }
  return document;
}

export function positionAt(file: SourceFile, offset: number): Position {
  return documentOf(file).positionAt(offset);
}

export function offsetAt(file: SourceFile, position: Position): number {
  return documentOf(file).offsetAt(position);
}

export function rangeOf(file: SourceFile, start: number, end: number): Range {
  return { start: positionAt(file, start), end: positionAt(file, end) };
}

const SEVERITY: Readonly<Record<Severity, DiagnosticSeverity>> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  // tsserver's suggestions: shown as a hint (VS Code's dotted underline), not in the problem list.
  suggestion: DiagnosticSeverity.Hint,
};

/** A toolwright {@link Finding} as an LSP diagnostic: where, how bad, the TW code and the build's message. */
export function lspDiagnostic(found: Finding): Diagnostic {
  return {
    range: rangeOf(found.file, found.start, found.start + found.length),
    severity: SEVERITY[found.category],
    code: found.code,
    source: "toolwright",
    message: found.messageText,
  };
}
