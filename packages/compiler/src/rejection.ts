import type { RejectedSpec } from "toolwright";
import type { Finding } from "./diagnostics.js";
import { projectPath } from "./project-path.js";

/**
 * The marker written at a tool site whose derivation failed: the site's build errors with
 * their places, relative to `rootDir` as spec sources are. Creating the tool throws them
 * at run time, so output emitted despite the errors says why the tool has no spec.
 */
export function rejectedSpec(diagnostics: readonly Finding[], rootDir: string): RejectedSpec {
  return {
    $toolwrightRejected: 1,
    errors: diagnostics.map((d) => {
      const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
      const file = projectPath(rootDir, d.file.fileName);
      return `${file}:${line + 1}:${character + 1}: ${d.messageText}`;
    }),
  };
}
