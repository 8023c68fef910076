import type { Plugin } from "vite";
import { locateDiagnostic } from "../esbuild/diagnostic-location.js";
import { SpecService, type SpecServiceOptions } from "../esbuild/spec-service.js";

export type { SpecServiceOptions } from "../esbuild/spec-service.js";

const TS_FILE = /\.[cm]?tsx?$/;
const SKIPPED = /[\\/]node_modules[\\/]|\.d\.[cm]?tsx?$/;

/**
 * The toolwright Vite plugin: the engine of the esbuild plugin (one long-lived
 * TypeScript language service, the same derivation as the tsc transformer) in Vite's
 * `transform` hook, before Vite strips the types. With it in `vitest.config.ts`,
 * Vitest runs test files that define tools with no separate build step.
 *
 * @example
 * ```ts
 * // vitest.config.ts
 * import { defineConfig } from "vitest/config";
 * import { toolwright } from "@toolwright/compiler/vite";
 *
 * export default defineConfig({ plugins: [toolwright()] });
 * ```
 */
export function toolwright(options: SpecServiceOptions = {}): Plugin {
  let service: SpecService | undefined;
  let root: string | undefined;
  return {
    name: "toolwright",
    enforce: "pre",
    configResolved(config) {
      root = config.root;
    },
    transform(code, id) {
      const fileName = id.split("?", 1)[0] ?? id;
      if (!TS_FILE.test(fileName) || SKIPPED.test(fileName) || fileName.startsWith("\0")) return undefined;
      service ??= new SpecService({ cwd: root, ...options });
      const result = service.transform(fileName, code);
      if (!result) return undefined;
      for (const file of result.watchFiles) this.addWatchFile(file);
      for (const diagnostic of result.derived.diagnostics.map(locateDiagnostic)) {
        const where =
          diagnostic.line === undefined ? undefined : { line: diagnostic.line, column: diagnostic.column ?? 0 };
        if (diagnostic.error) this.error({ message: diagnostic.text, id: diagnostic.file ?? fileName, loc: where });
        this.warn({ message: diagnostic.text, id: diagnostic.file ?? fileName, loc: where });
      }
      if (result.derived.sites.length === 0) return undefined;
      return { code: result.code, map: result.map };
    },
  };
}
