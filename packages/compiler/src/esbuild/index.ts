import type { Loader, PartialMessage, Plugin } from "esbuild";
import { locateDiagnostic } from "./diagnostic-location.js";
import { applyOutputDefaults } from "./output-defaults.js";
import { type ServiceResult, SpecService, type SpecServiceOptions } from "./spec-service.js";

export type { ServiceResult, SpecServiceOptions } from "./spec-service.js";
export { SpecService } from "./spec-service.js";

/** Options of the esbuild plugin. */
export interface ToolwrightEsbuildOptions extends SpecServiceOptions {
  /** Which files the plugin looks at (default: `.ts`, `.tsx`, `.mts`, `.cts` outside node_modules). */
  readonly filter?: RegExp;
  /** A service to share with other builds (or the Vite plugin) in this process; by default each build makes its own. */
  readonly service?: SpecService;
}

const TS_FILE = /\.[cm]?tsx?$/;
// A file's contents with its inline sourcemap, built and UTF-8 encoded once per result:
// esbuild calls onLoad for every file on every rebuild, and most results are cached.
const contentsOf = new WeakMap<ServiceResult, Uint8Array>();
const SKIPPED = /[\\/]node_modules[\\/]|\.d\.[cm]?tsx?$/;

function toMessage(diagnostic: ReturnType<typeof locateDiagnostic>): PartialMessage {
  return {
    text: diagnostic.text,
    location: diagnostic.file
      ? {
          file: diagnostic.file,
          line: diagnostic.line ?? 1,
          column: diagnostic.column ?? 0,
          length: diagnostic.length ?? 0,
          lineText: diagnostic.lineText ?? "",
        }
      : null,
  };
}

/**
 * The toolwright esbuild plugin: derives each tool's spec with the same code as the
 * tsc transformer and splices it into the source before esbuild strips the types.
 * One TypeScript language service lives as long as the plugin (so `context.rebuild()`
 * and `context.watch()` re-derive only what changed, including files whose imported
 * types changed); files that cannot contain tool sites are left to esbuild untouched.
 * Derivation problems are build errors with their file, line and column. Unless the build
 * sets them, the plugin picks `format: "esm"` in a `"type": "module"` package and a
 * `target` that lowers decorators; a Node bundle gets the native drivers as externals and,
 * as an ES module, a `require` for its CommonJS dependencies (see `output-defaults.ts`).
 *
 * @example
 * ```ts
 * import { build } from "esbuild";
 * import { toolwright } from "@toolwright/compiler/esbuild";
 *
 * await build({ entryPoints: ["src/main.ts"], bundle: true, platform: "node", outdir: "dist", plugins: [toolwright()] });
 * ```
 */
export function toolwright(options: ToolwrightEsbuildOptions = {}): Plugin {
  return {
    name: "toolwright",
    setup(build) {
      applyOutputDefaults(build.initialOptions);
      let service: SpecService | undefined;
      const serviceFor = () => {
        service ??= options.service ?? new SpecService({ cwd: build.initialOptions.absWorkingDir, ...options });
        return service;
      };
      build.onStart(() => {
        serviceFor().startBuild();
      });
      build.onLoad({ filter: options.filter ?? TS_FILE }, async (args) => {
        if (SKIPPED.test(args.path) || args.namespace !== "file") return undefined;
        const text = serviceFor().readSource(args.path);
        if (text === undefined) return undefined;
        const result = serviceFor().transform(args.path, text);
        if (!result) return undefined;
        const located = result.derived.diagnostics.map(locateDiagnostic);
        const loader: Loader = args.path.endsWith("x") ? "tsx" : "ts";
        let contents = contentsOf.get(result);
        if (contents === undefined) {
          contents = Buffer.from(
            !result.written ? text : `${result.code}\n//# sourceMappingURL=${result.map.toUrl()}\n`,
          );
          contentsOf.set(result, contents);
        }
        return {
          contents,
          loader,
          errors: located.filter((d) => d.error).map(toMessage),
          warnings: located.filter((d) => !d.error).map(toMessage),
          watchFiles: [...result.watchFiles],
        };
      });
    },
  };
}
