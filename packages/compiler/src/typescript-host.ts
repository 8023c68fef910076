import { createRequire } from "node:module";
import type ts from "typescript";

/** The fix named when TypeScript 5's compiler API is needed and missing. */
const INSTALL_TS5 = "npm install -D typescript@5 ts-patch";

/**
 * The project's `typescript` (a peer dependency), checked to be one with the compiler API:
 * TypeScript 7 has none, and a project on it uses `toolwright gen` or `build` instead.
 */
function loadProjectTypeScript(): typeof ts {
  const require = createRequire(import.meta.url);
  let loaded: typeof ts;
  try {
    loaded = require("typescript") as typeof ts;
  } catch (error) {
    if ((error as { code?: unknown }).code !== "MODULE_NOT_FOUND") throw error;
    throw new Error(
      `toolwright needs TypeScript 5's compiler API here (the tsc transformer, the esbuild and Vite plugins, the tsserver plugin, gen/check/build on a TypeScript 5 project), and no 'typescript' package is installed. Fix: ${INSTALL_TS5}; or, on TypeScript 7, 'npm install -D typescript' and build with 'toolwright gen' or 'toolwright build'.`,
    );
  }
  if (typeof loaded.createProgram !== "function") {
    const version = (require("typescript/package.json") as { version?: string }).version;
    throw new Error(
      `toolwright needs TypeScript 5's compiler API here (the tsc transformer, the esbuild and Vite plugins, the tsserver plugin), and the 'typescript' installed is ${version ?? "unknown"}, which has none. Fix: on TypeScript 7, build with 'toolwright gen' or 'toolwright build' (docs/guides/build-paths.md); for this path, ${INSTALL_TS5}.`,
    );
  }
  return loaded;
}

function loadOnFirstUse(): typeof ts {
  return new Proxy({} as typeof ts, {
    get(_target, key) {
      TS = loadProjectTypeScript();
      return TS[key as keyof typeof ts];
    },
  });
}

/**
 * The TypeScript API the compiler works with: the instance given to {@link useTypeScript},
 * or else the project's `typescript` package (a peer dependency), loaded on first use, so
 * that a TypeScript 7 path never loads it. A live binding: after `useTypeScript` every
 * module reads the instance directly.
 */
export let TS: typeof ts = loadOnFirstUse();

/**
 * Makes the compiler use the TypeScript instance that runs the build (ts-patch passes it
 * as `extras.ts`; under tspc it is an in-memory copy of tsc.js). Loading a second copy of
 * `typescript` just for its helpers and enums would cost about two seconds per build.
 */
export function useTypeScript(instance: typeof ts): void {
  TS = instance;
}
