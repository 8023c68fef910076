import module from "node:module";

/**
 * Keeps V8's compiled code of the modules this process loads from now on (the command's own,
 * TypeScript's API client: 56 ES modules, 60-70 ms to load cold) in Node's compile cache,
 * where Node has one (`module.enableCompileCache`, Node 22.1 and later; on Node 20 this does
 * nothing). Node keys each entry by the file's content and Node's version, keeps them in its
 * default folder (`NODE_COMPILE_CACHE`, else `node-compile-cache` in the OS temp folder) and
 * honours `NODE_DISABLE_COMPILE_CACHE=1`. On Node 22 a `gen` rerun with one file changed at
 * 200 tools took 510 against 550 ms (docs/benchmarks.md).
 */
export function enableCompileCache(): void {
  (module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
}
