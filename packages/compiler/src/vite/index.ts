import type { Plugin } from "vite";
import { type LocatedDiagnostic, locateDiagnostic } from "../esbuild/diagnostic-location.js";
import { SpecService, type SpecServiceOptions } from "../esbuild/spec-service.js";

export type { SpecServiceOptions } from "../esbuild/spec-service.js";

/** Options of the Vite plugin. */
export interface ToolwrightViteOptions extends SpecServiceOptions {
  /** A service to share with other plugins in this process; by default the plugin makes its own. */
  readonly service?: SpecService;
}

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
export function toolwright(options: ToolwrightViteOptions = {}): Plugin {
  let service: SpecService | undefined;
  let root: string | undefined;
  return {
    name: "toolwright",
    enforce: "pre",
    configResolved(config) {
      root = config.root;
    },
    // Each build, and each file change in dev and watch mode, starts a round in which a
    // file on disk is checked once.
    buildStart() {
      service?.startBuild();
    },
    watchChange() {
      service?.startBuild();
    },
    transform(code, id) {
      const fileName = id.split("?", 1)[0] ?? id;
      if (!TS_FILE.test(fileName) || SKIPPED.test(fileName) || fileName.startsWith("\0")) return undefined;
      service ??= options.service ?? new SpecService({ cwd: root, ...options });
      const result = service.transform(fileName, code);
      if (!result) return undefined;
      for (const file of result.watchFiles) this.addWatchFile(file);
      const located = result.derived.diagnostics.map(locateDiagnostic);
      const at = (d: LocatedDiagnostic) =>
        d.line === undefined ? "" : `${d.file ?? fileName}:${d.line}:${d.column ?? 0}: `;
      for (const d of located.filter((d) => !d.error)) this.warn({ message: `${at(d)}${d.text}`, id: fileName });
      const errors = located.filter((d) => d.error);
      const [first] = errors;
      if (first) {
        // Vite stops at the first error a plugin raises: report them all in one.
        this.error({
          message: errors.map((d) => `${at(d)}${d.text}`).join("\n"),
          id: first.file ?? fileName,
          ...(first.line === undefined
            ? {}
            : { loc: { file: first.file, line: first.line, column: first.column ?? 0 } }),
        });
      }
      if (!result.written) return undefined;
      return { code: result.code, map: result.map };
    },
  };
}
