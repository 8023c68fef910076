import { existsSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/**
 * The tsconfig a command reads: `given` relative to `cwd` (a file, or a folder holding
 * tsconfig.json), or the nearest tsconfig.json in `cwd` or above, as tsc looks for it.
 * Undefined when there is none; a `given` path that does not exist throws, naming it.
 */
export function tsconfigPath(cwd: string, given?: string): string | undefined {
  if (given !== undefined) {
    const path = resolve(cwd, given);
    if (!existsSync(path)) throw new Error(`${path} does not exist; pass the path of your tsconfig.json.`);
    return statSync(path).isDirectory() ? join(path, "tsconfig.json") : path;
  }
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const path = join(dir, "tsconfig.json");
    if (existsSync(path)) return path;
    if (dirname(dir) === dir) return undefined;
  }
}
