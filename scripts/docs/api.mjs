#!/usr/bin/env node
// Generates the API reference (Markdown) from the TSDoc of every public entry point, as
// listed in the published packages' "exports". Usage: node scripts/docs/api.mjs [outDir]
// (default docs/api, which git ignores: the reference is built, never hand-edited).
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Application, LogLevel } from "typedoc";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const PACKAGES = ["packages/runtime", "packages/compiler"];

/** The source file behind each `exports` entry's types: `./dist/x/index.d.ts` → `src/x/index.ts`. */
export function entryPoints() {
  const out = [];
  for (const dir of PACKAGES) {
    const manifest = JSON.parse(readFileSync(path.join(root, dir, "package.json"), "utf8"));
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      const types = typeof target === "object" ? target.types : undefined;
      if (!types || subpath === "./package.json") continue;
      const source = types.replace(/^\.\/dist\//, "src/").replace(/\.d\.c?ts$/, ".ts");
      // The tsserver plugin's CommonJS shim documents nothing of its own.
      if (source.endsWith("tsserver-entry.ts")) continue;
      out.push(path.join(root, dir, source));
    }
  }
  return out;
}

/** `runtime/src/dialects` → `toolwright/dialects`; `compiler/src/vite` → `@toolwright/compiler/vite`. */
function specifierOf(name) {
  const match = /^(runtime|compiler)\/src(?:\/(.+))?$/.exec(name);
  if (!match) return name;
  const base = match[1] === "runtime" ? "toolwright" : "@toolwright/compiler";
  return match[2] ? `${base}/${match[2]}` : base;
}

/** Runs TypeDoc; resolves to the number of errors and warnings it logged. */
export async function generateApi(outDir) {
  const app = await Application.bootstrapWithPlugins({
    entryPoints: entryPoints(),
    tsconfig: path.join(root, "scripts", "docs", "tsconfig.api.json"),
    plugin: ["typedoc-plugin-markdown"],
    out: outDir,
    readme: "none",
    name: "toolwright API reference",
    disableSources: true,
    excludePrivate: true,
    excludeInternal: true,
    // Tags toolwright reads itself (constraints, flags) appear in examples of the TSDoc.
    blockTags: [
      ...(await import("typedoc")).OptionDefaults.blockTags,
      "@param",
      "@example",
      "@minimum",
      "@maximum",
      "@pattern",
      "@format",
    ],
    logLevel: LogLevel.Warn,
    validation: { notExported: false, invalidLink: true, notDocumented: false },
  });
  const project = await app.convert();
  if (!project) return { errors: 1, warnings: 0 };
  // Name each module by the specifier users import, not by its folder.
  for (const module of project.children ?? []) module.name = specifierOf(module.name);
  await app.generateOutputs(project);
  return { errors: app.logger.errorCount, warnings: app.logger.warningCount };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = path.resolve(process.argv[2] ?? path.join(root, "docs", "api"));
  const { errors, warnings } = await generateApi(out);
  console.log(`API reference: ${out} (${errors} errors, ${warnings} warnings)`);
  process.exit(errors > 0 ? 1 : 0);
}
