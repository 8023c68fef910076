import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { BuildOptions } from "esbuild";

/** The `type` of the package a folder belongs to (its nearest package.json), `undefined` without one. */
function packageType(dir: string): string | undefined {
  for (let current = dir; ; current = dirname(current)) {
    const file = join(current, "package.json");
    if (existsSync(file)) {
      const manifest = JSON.parse(readFileSync(file, "utf8")) as { type?: unknown };
      return manifest.type === "module" ? "module" : "commonjs";
    }
    if (dirname(current) === current) return undefined;
  }
}

/**
 * Fills in the output options esbuild's defaults get wrong for a toolwright app, leaving
 * every option the build sets alone (esbuild reads `initialOptions` after plugin setup):
 * - `format: "esm"` in a `"type": "module"` package: esbuild's default for platform node
 *   is CommonJS, which cannot hold top-level await and which Node, reading a `.js` file of
 *   such a package, would load as an ES module;
 * - a `target` (the running Node's major for platform node, else `es2022`), so that esbuild
 *   lowers `@tool` decorators: its default target, `esnext`, keeps them, and no runtime
 *   parses them yet.
 */
export function applyOutputDefaults(options: BuildOptions): void {
  if (options.format === undefined && packageType(options.absWorkingDir ?? process.cwd()) === "module") {
    options.format = "esm";
  }
  if (options.target === undefined) {
    options.target = options.platform === "node" ? `node${process.versions.node.split(".")[0]}` : "es2022";
  }
}
