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
 * Packages a bundle cannot hold: native addons (loaded from a `.node` file found at run
 * time) and drivers a dependency requires only when installed (pg's optional `pg-native`).
 * Left external, they are imported from node_modules when the store that needs them opens.
 */
export const NATIVE_EXTERNALS: readonly string[] = ["better-sqlite3", "pg-native"];

/**
 * Gives an ES module bundle the `require` its CommonJS dependencies call (undici requires
 * `node:assert`, pg requires `events`): esbuild's shim throws `Dynamic require of "…" is not
 * supported` when the module has none. esbuild's maintainers recommend this banner.
 */
export const REQUIRE_BANNER =
  'import { createRequire as __toolwrightCreateRequire } from "node:module"; const require = __toolwrightCreateRequire(import.meta.url);';

/**
 * Fills in the output options esbuild's defaults get wrong for a toolwright app, leaving
 * every option the build sets alone (esbuild reads `initialOptions` after plugin setup):
 * - `format: "esm"` in a `"type": "module"` package: esbuild's default for platform node
 *   is CommonJS, which cannot hold top-level await and which Node, reading a `.js` file of
 *   such a package, would load as an ES module;
 * - a `target` (the running Node's major for platform node, else `es2022`), so that esbuild
 *   lowers `@tool` decorators: its default target, `esnext`, keeps them, and no runtime
 *   parses them yet;
 * - for a bundle for Node: {@link NATIVE_EXTERNALS} added to `external` (bundled, they fail
 *   to load), and, in an ES module bundle without a `banner.js`, the {@link REQUIRE_BANNER}.
 */
export function applyOutputDefaults(options: BuildOptions): void {
  if (options.format === undefined && packageType(options.absWorkingDir ?? process.cwd()) === "module") {
    options.format = "esm";
  }
  if (options.target === undefined) {
    options.target = options.platform === "node" ? `node${process.versions.node.split(".")[0]}` : "es2022";
  }
  if (options.bundle !== true || options.platform !== "node") return;
  const external = options.external ?? [];
  options.external = [...external, ...NATIVE_EXTERNALS.filter((name) => !external.includes(name))];
  if (options.format === "esm" && options.banner?.js === undefined) {
    options.banner = { ...options.banner, js: REQUIRE_BANNER };
  }
}
