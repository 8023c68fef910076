/**
 * Writes a package's JavaScript as one ES module per entry point, in place of the
 * file-per-module JavaScript tsc writes to dist/: Node then reads, resolves and links one
 * file for `import "toolwright"` (or the compiler's transformer) instead of some 70-160,
 * which was most of the runtime's cold start and a third of the time the transformer took
 * to load in every build (docs/benchmarks.md, issue 14). The entries are the package's
 * "exports" and "bin" files (`./dist/mcp/index.js` is built from `src/mcp/index.ts`), and
 * any `--also <src file>`: a module tsc's CommonJS output requires (the compiler's
 * language-service plugin). One esbuild run bundles every entry, so a module two entries
 * share lands once, in dist/chunks/, and `instanceof` holds across `toolwright` and
 * `toolwright/testing`. Dynamic `import()`s stay chunks of their own, loaded when called.
 * Types, and CommonJS files, stay tsc's.
 * Run from the package's folder by its "build" script, after `tsc -p tsconfig.build.json`:
 * `node ../../scripts/bundle-package.mjs [--also src/x.ts]`.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { builtinModules, createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

const PACKAGE_DIR = process.cwd();
const SRC = path.join(PACKAGE_DIR, "src");
const DIST = path.join(PACKAGE_DIR, "dist");
const manifest = JSON.parse(readFileSync(path.join(PACKAGE_DIR, "package.json"), "utf8"));
// The package's own esbuild (a devDependency of each bundled package), not one of the workspace root's.
const esbuild = createRequire(path.join(PACKAGE_DIR, "package.json")).resolve("esbuild");
const { build } = await import(pathToFileURL(esbuild).href);

/** The source file of an ES module tsc writes to dist: `./dist/mcp/index.js` is built from `src/mcp/index.ts`. */
const sourceOf = (target) => path.join(PACKAGE_DIR, target.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts"));
const also = process.argv.flatMap((arg, i) => (process.argv[i - 1] === "--also" ? [path.join(PACKAGE_DIR, arg)] : []));
const entryPoints = [
  ...Object.values(manifest.exports)
    .filter((target) => typeof target === "object" && target.default.endsWith(".js"))
    .map((target) => sourceOf(target.default)),
  ...Object.values(manifest.bin ?? {}).map(sourceOf),
  ...also,
];

/** Every .js and .js.map under dist/: tsc's per-module output, or an earlier bundle and its chunks. */
function javascriptIn(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.js(\.map)?$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

const result = await build({
  entryPoints,
  outbase: SRC,
  outdir: DIST,
  entryNames: "[dir]/[name]",
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  // Node 20.19+ require()s an ES module only when it has no top-level await (CommonJS users).
  supported: { "top-level-await": false },
  // Dependencies and peers are installed beside the package and resolved at run time.
  packages: "external",
  // Readable stack traces, mapped to src/, which the package publishes.
  minify: false,
  sourcemap: "linked",
  sourcesContent: false,
  tsconfig: path.join(PACKAGE_DIR, "tsconfig.build.json"),
  metafile: true,
  write: false,
  logLevel: "warning",
});

// `packages: "external"` leaves every bare import to Node: each must be one the package declares.
const declared = new Set([
  ...Object.keys(manifest.dependencies ?? {}),
  ...Object.keys(manifest.peerDependencies ?? {}),
]);
const packageName = (specifier) => specifier.split("/", specifier.startsWith("@") ? 2 : 1).join("/");
const undeclared = Object.entries(result.metafile.inputs).flatMap(([input, { imports }]) =>
  imports
    .filter((i) => i.external && !i.path.startsWith("node:") && !builtinModules.includes(i.path))
    .filter((i) => !declared.has(packageName(i.path)))
    .map((i) => `${path.relative(PACKAGE_DIR, input)} imports "${i.path}"`),
);
if (undeclared.length > 0) {
  throw new Error(
    `${manifest.name}: ${undeclared.join("; ")}, a package that is neither in "dependencies" nor in ` +
      `"peerDependencies" of package.json: declare it there (or remove the import), or users' installs miss it.`,
  );
}

// The new files first, chunks before the entries that import them, then the stale ones go,
// so that a process importing dist/ meanwhile (tests while a build runs) rarely finds a file missing.
const entryFiles = new Set(
  Object.entries(result.metafile.outputs)
    .filter(([, output]) => output.entryPoint !== undefined)
    .map(([file]) => path.resolve(file)),
);
// esbuild's split output imports some chunks bare (`import "./chunks/x.js";`) to keep their
// evaluation order. In a package declaring `"sideEffects": false` that import carries nothing
// (a chunk only declares; what it exports is imported by name where it is used), and a user's
// bundler drops it with an "ignored-bare-import" warning per line: 20 for an app bundling the
// runtime. So they go, each line left blank for the linked sourcemap's line numbers.
const BARE_LOCAL_IMPORT = /^import "\.\.?\/[^"]+\.js";$/gm;
const contentsOf = (file) =>
  manifest.sideEffects === false && file.path.endsWith(".js")
    ? file.text.replace(BARE_LOCAL_IMPORT, "")
    : file.contents;
const written = new Set();
for (const file of result.outputFiles.toSorted((a, b) => entryFiles.has(a.path) - entryFiles.has(b.path))) {
  mkdirSync(path.dirname(file.path), { recursive: true });
  writeFileSync(file.path, contentsOf(file));
  written.add(file.path);
}
for (const file of javascriptIn(DIST)) if (!written.has(file)) rmSync(file);
