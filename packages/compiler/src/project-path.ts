import { relative, sep } from "node:path";

let last = { root: "", fileName: "", path: "" };

/**
 * `fileName` relative to `root` with `/` separators: how specs, diagnostics and the CLI name
 * a project's files. Every site of a file asks in a row, so the last answer is kept.
 */
export function projectPath(root: string, fileName: string): string {
  if (last.root !== root || last.fileName !== fileName) {
    last = { root, fileName, path: relative(root, fileName).split(sep).join("/") };
  }
  return last.path;
}
