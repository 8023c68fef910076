import path from "node:path";
import { TempProject } from "../compiler/project.js";

/** test/: its node_modules holds `toolwright` and `@toolwright/compiler`, as a user's project would. */
export const TEST_DIR = path.resolve(import.meta.dirname, "..");

/**
 * A throwaway project under test/.tmp (git-ignored) whose tsconfig has the transformer's
 * entry (with `options`, as the build reads them) and the language-service plugin's entry.
 */
export class EditorProject extends TempProject {
  constructor(name: string, options: Record<string, unknown> = {}, editorOptions: Record<string, unknown> = {}) {
    super(name, options, {
      noEmit: true,
      plugins: [
        { transform: "@toolwright/compiler/transform", ...options },
        { name: "@toolwright/compiler/language-service", ...editorOptions },
      ],
    });
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
