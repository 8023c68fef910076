import { dirname } from "node:path";
import { loadTs7 } from "../backend/ts7/ts7-api.js";
import { Ts7Session } from "../backend/ts7/ts7-session.js";
import { toolwrightOptionsOf } from "../tsconfig-plugins.js";
import type { Progress } from "./progress.js";
import type { LoadedProject } from "./project.js";
import { projectTools } from "./project-tools.js";

/**
 * {@link LoadedProject} through TypeScript 7's API: the project's own TypeScript (in the
 * package folder `typescript`), one API process for the whole derivation, toolwright's
 * options read from the tsconfig file and the configs it extends.
 */
export function loadTs7Project(cwd: string, tsconfig: string, typescript: string, progress?: Progress): LoadedProject {
  const root = dirname(tsconfig);
  const options = toolwrightOptionsOf(tsconfig);
  const session = new Ts7Session(loadTs7(typescript), { cwd, tsconfig });
  try {
    progress?.update("reading the project");
    const snapshot = session.open();
    const { tools, findings } = projectTools(snapshot.derivation, snapshot.files, options, root, progress);
    return { root, tools, diagnostics: [...snapshot.configDiagnostics, ...findings] };
  } finally {
    session.close();
  }
}
