import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

// The compiler's negative fixtures (err-*, and warn-* whose tools still get specs) and
// their goldens, as both editor integrations are checked against them: the tsserver
// plugin (fixtures.test.ts here) and `toolwright lsp` (test/lsp/fixtures.test.ts).

export const FIXTURES = path.resolve(import.meta.dirname, "..", "fixtures");
/** Files of a fixture folder that are the goldens, not the project's sources. */
export const GOLDEN_ONLY = new Set(["expected.json", "options.json", "valid.json", "invalid.json"]);

/** One diagnostic as the build reports it: file, 1-based line, code, message. */
export interface Golden {
  readonly file: string;
  readonly line: number;
  readonly code: number;
  readonly message: string;
}

/** The negative fixtures' names, sorted. */
export const negativeCases = readdirSync(FIXTURES, { withFileTypes: true })
  .filter((d) => d.isDirectory() && (d.name.startsWith("err-") || d.name.startsWith("warn-")))
  .map((d) => d.name)
  .sort();

/** A fixture's options.json (what the build compiles it with), normalized, so equal options group together. */
export function optionsKeyOf(name: string): string {
  const file = path.join(FIXTURES, name, "options.json");
  return JSON.stringify(existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : {});
}

/** The diagnostics the build reports on a fixture, or undefined when it has no reviewed golden. */
export function goldenDiagnostics(name: string): Golden[] | undefined {
  const file = path.join(FIXTURES, name, "expected.json");
  return existsSync(file)
    ? (JSON.parse(readFileSync(file, "utf8")) as { diagnostics: Golden[] }).diagnostics
    : undefined;
}

export const byPlace = (a: Golden, b: Golden) => a.file.localeCompare(b.file) || a.line - b.line || a.code - b.code;
