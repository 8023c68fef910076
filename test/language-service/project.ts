import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

/** test/: its node_modules holds `toolwright` and `@toolwright/compiler`, as a user's project would. */
export const TEST_DIR = path.resolve(import.meta.dirname, "..");
const TMP = path.join(TEST_DIR, ".tmp");

/**
 * A throwaway project under test/.tmp (git-ignored) whose tsconfig has the transformer's
 * entry (with `options`, as the build reads them) and the language-service plugin's entry.
 */
export class EditorProject {
  readonly dir: string;

  constructor(name: string, options: Record<string, unknown> = {}, editorOptions: Record<string, unknown> = {}) {
    mkdirSync(TMP, { recursive: true });
    this.dir = mkdtempSync(path.join(TMP, `${name}-`));
    this.write(
      "tsconfig.json",
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          skipLibCheck: true,
          types: [],
          noEmit: true,
          plugins: [
            { transform: "@toolwright/compiler/transform", ...options },
            { name: "@toolwright/compiler/language-service", ...editorOptions },
          ],
        },
        include: ["src"],
      }),
    );
    this.write("package.json", JSON.stringify({ type: "module", private: true }));
  }

  /** Writes a file of the project and returns its absolute path. */
  write(file: string, text: string): string {
    const full = path.join(this.dir, file);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, text);
    return full;
  }

  /** Deletes the project folder. */
  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The 1-based line and offset of the first occurrence of `needle` (plus `delta` characters) in `text`. */
export function locate(text: string, needle: string, delta = 0): { line: number; offset: number } {
  const index = text.indexOf(needle);
  if (index < 0) throw new Error(`"${needle}" is not in the text`);
  const before = text.slice(0, index + delta).split("\n");
  return { line: before.length, offset: (before.at(-1)?.length ?? 0) + 1 };
}

/** Applies tsserver text changes (1-based line/offset ranges) to `text`. */
export function applyChanges(
  text: string,
  changes: readonly {
    start: { line: number; offset: number };
    end: { line: number; offset: number };
    newText: string;
  }[],
): string {
  const lines = text.split("\n");
  const position = (p: { line: number; offset: number }) =>
    lines.slice(0, p.line - 1).reduce((sum, l) => sum + l.length + 1, 0) + p.offset - 1;
  const sorted = [...changes].sort((a, b) => position(b.start) - position(a.start));
  let result = text;
  for (const change of sorted) {
    result = result.slice(0, position(change.start)) + change.newText + result.slice(position(change.end));
  }
  return result;
}
