/**
 * Runtime size: esbuild bundles (platform node, ESM, minified; only Node's built-ins stay
 * external) of what a program imports from each library, gzipped at level 9.
 * Run alone: `node scripts/bench/size.mjs`.
 */
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
    withoutProviders: true,
    core: true,
  },
  {
    name: "the same core without providers and without ajv",
    code: CORE,
    withoutProviders: true,
    external: ["ajv", "ajv/*", "ajv-formats"],
  },
  { name: "the same core with providers and undici bundled", code: CORE },
  { name: "the same core with providers, undici left out", code: CORE, external: ["undici"] },
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

/**
 * Leaves toolwright's provider modules (HTTP model adapters over undici) out of a bundle:
 * an agent given a `Model` object never calls them.
 */
const withoutProviders = {
  name: "without-providers",
  setup(builder) {
    builder.onResolve({ filter: /providers[\\/]/ }, (args) =>
      /runtime[\\/](dist|src)/.test(args.importer) ? { path: args.path, external: true } : undefined,
    );
  },
};

/** Bundles one entry and returns its minified and gzipped sizes in bytes. */
async function measure(entry) {
  const result = await build({
    stdin: { contents: entry.code, resolveDir: BENCH_DIR, loader: "js" },
    bundle: true,
    platform: "node",
    format: "esm",
    minify: true,
    write: false,
    external: entry.external ?? [],
    plugins: entry.withoutProviders ? [withoutProviders] : [],
    logLevel: "silent",
  });
  const bytes = result.outputFiles[0].contents;
  return { min: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
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
  return measured.map(({ entry, min, gzip }) => ({
    section: "Runtime size (min+gzip)",
    name: entry.name,
    value: gzip / 1024,
    unit: "KB",
    note: `${fmt(min / 1024)} KB minified`,
    ...(entry.peer ? { ratio: versus(core.gzip, gzip, "smaller", "larger") } : {}),
    ...(entry.core ? { target: "<= 25 KB", met: gzip <= 25 * 1024 } : {}),
  }));
}

if (process.argv[1] === import.meta.filename) {
  console.log(markdownTable(await benchSize({ log: (line) => console.error(line) })));
}
