/**
 * Runtime size: esbuild bundles (platform node, ESM, minified, split at dynamic imports; only
 * Node's built-ins stay external, and undici for the core without providers) of what a program
 * imports from each library, gzipped at level 9. The figure is the entry chunk, what `import`
 * loads; code behind a dynamic `import()` (undici for `ctx.fetch`, the HTTP providers) is
 * reported beside it, and Ajv, which the runtime requires only on the slow path
 * (docs/adr/0008-generated-validators.md), has its own row.
 * Run alone: `node scripts/bench/size.mjs`.
 */
import path from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { BENCH_DIR } from "./lib/paths.mjs";
import { fmt, markdownTable, versus } from "./lib/table.mjs";

/** What each bundle's entry imports; `external` keeps packages out of the bundle. */
const CORE = 'export { Agent, tool, invoke, validateArguments } from "toolwright";';
const ENTRIES = [
  {
    name: "toolwright core (Agent, tool, invoke, validateArguments) without providers",
    code: CORE,
    // The providers' modules are behind a dynamic import (an agent given a `Model` object
    // never loads them) and count as lazy; undici, their HTTP client, stays out of the bundle.
    external: ["undici"],
    core: true,
  },
  {
    name: "ajv 8 (2020-12) + ajv-formats, required by the runtime only for a rejected call or a hand-written schema",
    code: 'export { Ajv2020 } from "ajv/dist/2020.js"; export { default as formats } from "ajv-formats";',
    // The runtime's own dependencies, resolved as the runtime resolves them.
    resolveDir: path.resolve(BENCH_DIR, "..", "..", "packages", "runtime"),
  },
  { name: "the same core with providers and undici bundled", code: CORE },
  {
    name: "ai: generateText, tool (Vercel AI SDK 6)",
    code: 'export { generateText, tool } from "ai";',
    peer: true,
  },
  {
    name: "@openai/agents-core: Agent, run, tool",
    code: 'export { Agent, run, tool } from "@openai/agents-core";',
    peer: true,
  },
  { name: "zod 4: z", code: 'export { z } from "zod";', peer: true },
  {
    name: "typia: the run-time helpers its generated validators import",
    code: [
      'export * from "typia/lib/internal/_validateReport";',
      'export * from "typia/lib/internal/_createStandardSchema";',
    ].join("\n"),
    peer: true,
  },
];

const sizeOf = (bytes) => ({ min: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length });

/**
 * Bundles one entry, split at dynamic imports, and returns the sizes in bytes of the entry
 * chunk (`min`, `gzip`) and of the chunks only a dynamic import loads (`lazy`).
 */
async function measure(entry) {
  const result = await build({
    stdin: { contents: entry.code, resolveDir: entry.resolveDir ?? BENCH_DIR, loader: "js" },
    bundle: true,
    splitting: true,
    outdir: path.join(BENCH_DIR, ".tmp", "size"),
    platform: "node",
    format: "esm",
    minify: true,
    write: false,
    external: entry.external ?? [],
    logLevel: "silent",
    metafile: true,
  });
  const outputs = result.metafile.outputs;
  const byPath = new Map(result.outputFiles.map((file) => [path.relative(process.cwd(), file.path), file.contents]));
  const [entryPath] = Object.keys(outputs).filter((file) => outputs[file].entryPoint !== undefined);
  // What `import` loads: the entry chunk and the chunks it imports statically, transitively.
  const eager = new Set();
  const visit = (file) => {
    if (eager.has(file)) return;
    eager.add(file);
    for (const imported of outputs[file].imports)
      if (imported.kind === "import-statement" && outputs[imported.path]) visit(imported.path);
  };
  visit(entryPath);
  const join = (files) => Buffer.concat(files.map((file) => byPath.get(file)));
  const lazyFiles = Object.keys(outputs).filter((file) => !eager.has(file));
  return { ...sizeOf(join([...eager])), lazy: lazyFiles.length > 0 ? sizeOf(join(lazyFiles)) : undefined };
}

/**
 * Measures every bundle and returns table rows (KB = 1,024 bytes, min+gzip).
 *
 * @returns {Promise<import("./lib/table.mjs").Row[]>}
 */
export async function benchSize({ log = () => {} } = {}) {
  const measured = [];
  for (const entry of ENTRIES) {
    log(`size: ${entry.name}`);
    measured.push({ entry, ...(await measure(entry)) });
  }
  const core = measured.find((m) => m.entry.core);
  return measured.map(({ entry, min, gzip, lazy }) => ({
    section: "Runtime size (min+gzip)",
    name: entry.name,
    value: gzip / 1024,
    unit: "KB",
    note: `${fmt(min / 1024)} KB minified${lazy ? `; ${fmt(lazy.gzip / 1024)} KB more behind dynamic imports` : ""}`,
    ...(entry.peer ? { ratio: versus(core.gzip, gzip, "smaller", "larger") } : {}),
    ...(entry.core ? { target: "<= 25 KB", met: gzip <= 25 * 1024 } : {}),
  }));
}

if (process.argv[1] === import.meta.filename) {
  console.log(markdownTable(await benchSize({ log: (line) => console.error(line) })));
}
