/**
 * Generated code per tool: what each build writes into a user's bundle for the same 200
 * tools, each module minified with esbuild, then all gzipped at level 9 together (as in
 * a bundle), divided by the number of tools.
 * - toolwright's generated validators alone (the `validator` functions beside the specs);
 * - toolwright's whole output per tool: the `tool()` call, the spec (JSON Schema,
 *   description, slots) and the validator;
 * - typia's output per tool: the `typia.createValidate<Args>()` validator, which also
 *   builds the error list.
 * Run alone: `node scripts/bench/generated-size.mjs [--quick]`.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { transform } from "esbuild";
import { prepareProject } from "./lib/prepare.mjs";
import { fmt, markdownTable, versus } from "./lib/table.mjs";

/** Minified (module by module) and gzipped (all together) size in bytes of some modules' text. */
async function minGzip(modules) {
  const minified = await Promise.all(
    modules.map(async (code) => (await transform(code, { minify: true, format: "esm", loader: "js" })).code),
  );
  const min = minified.join("\n");
  return { min: Buffer.byteLength(min), gzip: gzipSync(min, { level: 9 }).length };
}

/** The emitted modules of one build (`toolwright-0.js`, ...); the shared shape files are left out. */
function emitted(outFile, prefix) {
  const dir = path.dirname(outFile);
  return readdirSync(dir)
    .filter((file) => file.startsWith(`${prefix}-`) && file.endsWith(".js"))
    .map((file) => readFileSync(path.join(dir, file), "utf8"));
}

/**
 * Measures generated code per tool and returns table rows (bytes, min+gzip). The 200 tools
 * repeat five shapes, so gzip across them is kind to every system alike; the minified size
 * per tool is the code without that help.
 *
 * @returns {Promise<import("./lib/table.mjs").Row[]>}
 */
export async function benchGeneratedSize({ n = 200, log = () => {} } = {}) {
  log(`generated: ${n} tools`);
  const project = prepareProject(n);
  const { tools } = await import(pathToFileURL(project.toolwrightOut).href);
  const validators = tools.map((t) => t.spec.validator).filter((v) => typeof v === "function");
  if (validators.length !== tools.length)
    throw new Error(`only ${validators.length} of ${tools.length} tools have a generated validator`);
  const validatorsOnly = await minGzip([`export const v = [${validators.map(String).join(",\n")}];`]);
  const toolwright = await minGzip(emitted(project.toolwrightOut, "toolwright"));
  const typia = await minGzip(emitted(project.typiaOut, "typia"));
  const row = (name, { min, gzip }, ratio) => ({
    section: "Generated code per tool (min+gzip)",
    name,
    value: gzip / tools.length,
    unit: "bytes",
    note: `${fmt(min / tools.length)} bytes minified`,
    ...(ratio ? { ratio } : {}),
  });
  return [
    row(
      "toolwright: generated validator",
      validatorsOnly,
      versus(validatorsOnly.gzip, typia.gzip, "smaller", "larger"),
    ),
    row(
      "toolwright: tool() call + spec + validator",
      toolwright,
      versus(toolwright.gzip, typia.gzip, "smaller", "larger"),
    ),
    row("typia: createValidate<Args>()", typia),
  ];
}

if (process.argv[1] === import.meta.filename) {
  const n = process.argv.includes("--quick") ? 20 : 200;
  console.log(markdownTable(await benchGeneratedSize({ n, log: (line) => console.error(line) })));
}
