import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { projectTypeScript } from "../backend/ts7/ts7-api.js";
import type { Progress } from "./progress.js";
import type { LoadedProject } from "./project.js";
import type { Ts7ProjectOptions } from "./project-ts7.js";
import { tsconfigPath } from "./tsconfig-path.js";

/** Which compiler derives a project: TypeScript 7 through its API, or the compiler's own TypeScript 5.9. */
export type CompilerChoice = { readonly kind: "ts7"; readonly dir: string } | { readonly kind: "ts5" };

/**
 * The project's own TypeScript decides: 7.x is used through its API; 5.x and 6.x through
 * their compiler API, as `tspc`'s transformer would (`typescript` is a peer dependency;
 * with none installed, the first use of the API says what to install). `typescript`, when given, is the folder of a TypeScript 7 package to
 * use instead (an alias such as node_modules/typescript-7).
 */
export function compilerFor(root: string, typescript?: string): CompilerChoice {
  if (typescript !== undefined) {
    const manifest = join(typescript, "package.json");
    if (!existsSync(manifest)) {
      throw new Error(`--typescript ${typescript}: no package.json there; pass the folder of a typescript package.`);
    }
    const { version } = JSON.parse(readFileSync(manifest, "utf8")) as { version?: unknown };
    if (typeof version !== "string" || !version.startsWith("7.")) {
      throw new Error(
        `--typescript ${typescript} holds typescript ${String(version)}; it chooses a TypeScript 7 only (5.x projects use their own through its compiler API). Fix: point it at a 7.x package, or leave it out.`,
      );
    }
    return { kind: "ts7", dir: typescript };
  }
  const found = projectTypeScript(root);
  return found?.version.startsWith("7.") ? { kind: "ts7", dir: found.dir } : { kind: "ts5" };
}

/**
 * Compiles a project (without emitting) with its own TypeScript and derives the spec of
 * every tool site in its own files. Only the chosen compiler is loaded: on a TypeScript 7
 * project no TypeScript 5 module is.
 *
 * @example
 * ```ts
 * const project = await openProject(process.cwd(), "tsconfig.json");
 * for (const tool of project.tools) console.log(tool.spec.name, tool.file, tool.line);
 * ```
 */
export async function openProject(
  cwd: string,
  tsconfig?: string,
  options: {
    readonly progress?: Progress;
    readonly typescript?: string;
    /** On TypeScript 7: the per-file cache, the generated module it leaves out, the API's timing. */
    readonly ts7?: Omit<Ts7ProjectOptions, "progress">;
  } = {},
): Promise<LoadedProject> {
  const config = tsconfigPath(cwd, tsconfig);
  if (!config) throw new Error(`no tsconfig.json found in ${cwd} or above; pass one with -p <path>.`);
  const choice = compilerFor(dirname(config), options.typescript && resolve(cwd, options.typescript));
  if (choice.kind === "ts7") {
    const { loadTs7Project } = await import("./project-ts7.js");
    return loadTs7Project(cwd, config, choice.dir, {
      ...options.ts7,
      ...(options.progress ? { progress: options.progress } : {}),
    });
  }
  const { loadProject } = await import("./project.js");
  return loadProject(cwd, config, options.progress);
}
