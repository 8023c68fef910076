/** Generates a project of `n` tools and compiles it with both transformers, once per process. */
import { writeProject } from "../generate/project.mjs";
import { projectDir, TSPC } from "./paths.mjs";
import { timeNode } from "./process-timer.mjs";

const prepared = new Map();

/**
 * The project of `n` tools, written and built (toolwright's and typia's outputs), so that
 * run-time benchmarks import exactly what the build benchmark measured.
 *
 * @example
 * const project = prepareProject(200);
 * const { tools } = await import(pathToFileURL(project.toolwrightOut).href);
 */
export function prepareProject(n) {
  let project = prepared.get(n);
  if (!project) {
    project = writeProject(projectDir(n), n);
    for (const kind of ["toolwright", "typia", "json-typia"]) {
      timeNode([TSPC, "-p", `tsconfig.${kind}.json`], { runs: 1, warmup: 0, cwd: project.dir });
    }
    prepared.set(n, project);
  }
  return project;
}

/** Marks a project as written and built by someone else in this process (the build benchmark). */
export function projectBuilt(project) {
  prepared.set(project.n, project);
}
