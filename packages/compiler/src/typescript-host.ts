import { createRequire } from "node:module";
import type ts from "typescript";

function loadOnFirstUse(): typeof ts {
  return new Proxy({} as typeof ts, {
    get(_target, key) {
      TS = createRequire(import.meta.url)("typescript") as typeof ts;
      return TS[key as keyof typeof ts];
    },
  });
}

/**
 * The TypeScript API the compiler works with: the instance given to {@link useTypeScript},
 * or else the `typescript` package, loaded on first use. A live binding: after
 * `useTypeScript` every module reads the instance directly.
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
