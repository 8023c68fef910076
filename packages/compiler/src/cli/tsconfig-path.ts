import { existsSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { solutionReferences } from "../tsconfig-file.js";

/**
 * The tsconfig a command reads: `given` relative to `cwd` (a file, or a folder holding
 * tsconfig.json), or the nearest tsconfig.json in `cwd` or above, as tsc looks for it.
 * Undefined when there is none; a `given` path that does not exist throws, naming it, and
 * so does a solution tsconfig (files only in its references), naming the projects to pass.
 */
export function tsconfigPath(cwd: string, given?: string): string | undefined {
  const path = given === undefined ? nearestTsconfig(cwd) : givenTsconfig(cwd, given);
  if (path === undefined) return undefined;
  const references = solutionReferences(path);
  if (references.length > 0) {
    const shown = (file: string) => relative(cwd, file) || file;
    throw new Error(
      `${shown(path)} holds no files of its own, only references to other projects (${references.map(shown).join(", ")}), and toolwright reads one project. Fix: pass the one that holds your tools, e.g. -p ${shown(references[0] as string)}.`,
    );
  }
  return path;
}

function givenTsconfig(cwd: string, given: string): string {
  const path = resolve(cwd, given);
  if (!existsSync(path)) throw new Error(`${path} does not exist; pass the path of your tsconfig.json.`);
  return statSync(path).isDirectory() ? join(path, "tsconfig.json") : path;
}

function nearestTsconfig(cwd: string): string | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const path = join(dir, "tsconfig.json");
    if (existsSync(path)) return path;
    if (dirname(dir) === dir) return undefined;
  }
}
