import type { LineAndCharacter } from "../backend/syntax.js";
import type { Severity } from "../diagnostics.js";
import { projectPath } from "../project-path.js";

/**
 * A diagnostic as the CLI prints it, whichever compiler found it: toolwright's findings,
 * problems in the tsconfig, and (in `toolwright build`) the compiler's type errors.
 */
export interface PrintedDiagnostic {
  readonly file?: {
    readonly fileName: string;
    readonly text: string;
    getLineAndCharacterOfPosition(position: number): LineAndCharacter;
  };
  readonly start?: number;
  readonly length?: number;
  readonly code: number;
  readonly messageText: string;
  readonly category: Severity | "message";
}

/** What a compiler's `DiagnosticCategory` enum numbers the categories other than "message". */
export interface DiagnosticCategories {
  readonly Error: number;
  readonly Warning: number;
  readonly Suggestion: number;
}

/** A compiler's diagnostic category (read through its own enum, `categories`) as {@link PrintedDiagnostic} names it. */
export function printedCategory(category: number, categories: DiagnosticCategories): PrintedDiagnostic["category"] {
  if (category === categories.Error) return "error";
  if (category === categories.Warning) return "warning";
  return category === categories.Suggestion ? "suggestion" : "message";
}

const RESET = "\u001b[0m";
const COLOR: Readonly<Record<PrintedDiagnostic["category"], string>> = {
  error: "\u001b[91m",
  warning: "\u001b[93m",
  suggestion: "\u001b[90m",
  message: "\u001b[94m",
};
const CYAN = "\u001b[96m";
const YELLOW = "\u001b[93m";
const GREY = "\u001b[90m";
const GUTTER = "\u001b[7m";

function shownName(fileName: string, root: string): string {
  return projectPath(root, fileName) || fileName;
}

/** The source lines under a diagnostic with `~` beneath its span, as tsc's `--pretty` shows them. */
function codeFrame(d: PrintedDiagnostic & { file: NonNullable<PrintedDiagnostic["file"]>; start: number }): string {
  const lines = d.file.text.split(/\r?\n/);
  const first = d.file.getLineAndCharacterOfPosition(d.start);
  const last = d.file.getLineAndCharacterOfPosition(d.start + (d.length ?? 1));
  const width = String(last.line + 1).length;
  const out: string[] = [];
  for (let line = first.line; line <= last.line; line++) {
    if (last.line - first.line >= 4 && line === first.line + 1) {
      out.push(`${GUTTER}${"...".padStart(width)}${RESET}`);
      line = last.line - 1;
      continue;
    }
    const text = lines[line] ?? "";
    const from = line === first.line ? first.character : 0;
    const to = line === last.line ? last.character : text.length;
    out.push(`${GUTTER}${String(line + 1).padStart(width)}${RESET} ${text}`);
    out.push(
      `${GUTTER}${" ".repeat(width)}${RESET} ${" ".repeat(from)}${COLOR[d.category]}${"~".repeat(Math.max(to - from, 1))}${RESET}`,
    );
  }
  return `${out.join("\n")}\n`;
}

/** Undefined first, then ascending: strings by code unit, as tsc compares file names. */
function ascending<T extends string | number>(a: T | undefined, b: T | undefined): number {
  if (a === b) return 0;
  if (a === undefined) return -1;
  if (b === undefined) return 1;
  return a < b ? -1 : 1;
}

/** tsc's order of diagnostics: by file (those with none first), then start, length, code and text. */
function inTscOrder(a: PrintedDiagnostic, b: PrintedDiagnostic): number {
  return (
    ascending(a.file?.fileName, b.file?.fileName) ||
    ascending(a.start, b.start) ||
    ascending(a.length, b.length) ||
    a.code - b.code ||
    ascending(a.messageText, b.messageText)
  );
}

/**
 * Prints diagnostics as `tsc` does: in its order (by file, then position, whichever compiler
 * or step found each), one line each (`src/tools.ts(12,3): error TS990001: ...`), or with
 * `pretty` (a terminal) in colour with the source lines under each, paths relative to `root`
 * either way.
 */
export function formatDiagnostics(diagnostics: readonly PrintedDiagnostic[], root: string, pretty: boolean): string {
  return [...diagnostics]
    .sort(inTscOrder)
    .map((d) => {
      const at = d.file && d.start !== undefined ? { file: d.file, start: d.start } : undefined;
      const place = at?.file.getLineAndCharacterOfPosition(at.start);
      if (!pretty) {
        const where =
          at && place ? `${shownName(at.file.fileName, root)}(${place.line + 1},${place.character + 1}): ` : "";
        return `${where}${d.category} TS${d.code}: ${d.messageText}\n`;
      }
      const where =
        at && place
          ? `${CYAN}${shownName(at.file.fileName, root)}${RESET}:${YELLOW}${place.line + 1}${RESET}:${YELLOW}${place.character + 1}${RESET} - `
          : "";
      const head = `${where}${COLOR[d.category]}${d.category}${RESET}${GREY} TS${d.code}: ${RESET}${d.messageText}\n`;
      return `${head}${at ? `\n${codeFrame({ ...d, ...at })}` : ""}\n`;
    })
    .join("");
}

/** True when any diagnostic is an error. */
export function hasErrors(diagnostics: readonly PrintedDiagnostic[]): boolean {
  return diagnostics.some((d) => d.category === "error");
}
