import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** This workspace's runtime package, which the projects import as "toolwright". */
const RUNTIME = path.resolve(import.meta.dirname, "../../runtime");

/**
 * A throwaway project folder owned by one test file (mkdtemp under the OS temp folder, so
 * two runs at once never share it), with an empty `src/`, where `import ... from
 * "toolwright"` resolves to this workspace's runtime through a `node_modules` link, as it
 * does in a user's project. Remove it with {@link removeTempProject}.
 */
export function tempProject(name: string): string {
  const root = mkdtempSync(path.join(tmpdir(), `toolwright-${name}-`));
  mkdirSync(path.join(root, "node_modules"));
  symlinkSync(RUNTIME, path.join(root, "node_modules", "toolwright"), "dir");
  mkdirSync(path.join(root, "src"));
  return root;
}

/** Deletes a folder made by {@link tempProject} (the link only, never the runtime it points at). */
export function removeTempProject(root: string): void {
  rmSync(root, { recursive: true, force: true });
}
