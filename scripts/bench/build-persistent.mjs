#!/usr/bin/env node
// Build-time cost of the toolwright transformer with a PERSISTENT patch: generates projects
// of 200 and 1,000 tools and times plain `tsc` against `tsc` after `ts-patch install` into
// a private COPY of TypeScript (the workspace's own copy is never touched), in the same
// run, interleaved, after a warm-up. Prints medians of wall time and of CPU time (user+sys
// of the child, steadier on a busy machine), the ratio and the added milliseconds per tool.
// (build.mjs measures tspc, the in-memory patch, against typia.)
//
//   node scripts/bench/build-persistent.mjs [--runs 5] [--sizes 200,1000] [--keep]
import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";

const here = path.dirname(new URL(import.meta.url).pathname);
const require = createRequire(import.meta.url);
const tsDir = realpathSync(path.dirname(require.resolve("typescript/package.json")));
const tspBin = path.join(path.dirname(require.resolve("ts-patch/package.json")), "bin", "ts-patch.js");
const PLAIN_TSC = path.join(tsDir, "lib", "tsc.js");

/**
 * A private copy of TypeScript under `root` (a fresh folder) with the persistent patch
 * (`ts-patch install`), so that plain `tsc` applies `compilerOptions.plugins` and both sides of
 * a comparison run the same version; the workspace's own copy is never touched. Returns the
 * copy's `tsc` CLI script. build.mjs uses it for its "after ts-patch install" row.
 */
export function patchedTypeScript(root) {
  const dir = path.join(root, "patched", "node_modules", "typescript");
  rmSync(path.join(root, "patched"), { recursive: true, force: true });
  cpSync(tsDir, dir, { recursive: true, dereference: true });
  const result = spawnSync(process.execPath, [tspBin, "install", "-s", "--dir", dir], { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`ts-patch install failed: ${result.stderr}`);
  // TypeScript 5.9's lib/tsc.js is a shim; the compiler (and the patch) live in lib/_tsc.js.
  const patched = (typescript) => readFileSync(path.join(typescript, "lib", "_tsc.js"), "utf8").includes("tsp.");
  if (patched(tsDir)) throw new Error("the workspace's own TypeScript got patched; run 'ts-patch uninstall'");
  if (!patched(dir)) throw new Error(`ts-patch install did not patch the copy in ${dir}`);
  return path.join(dir, "lib", "tsc.js");
}

function toolSource(i) {
  return `
/** Filters for search ${i}. */
export interface Query${i} {
  /** Free text to look for. */
  text: string;
  /** Result units. */
  units?: "metric" | "imperial" | "kelvin";
  /** Tags that must all match. */
  tags: readonly string[];
}

/**
 * Search data set number ${i} for matching records and return their ids.
 * @param query What to look for.
 * @param limit Maximum number of ids.
 * @param region Region code, or null for all regions.
 * @readOnly
 */
export function search${i}(query: Query${i}, limit = 10, region: string | null = null): Promise<string[]> {
  return Promise.resolve([query.text, String(limit), String(region)]);
}
export const tool${i} = tool(search${i});
`;
}

const PER_FILE = 20;

function generate(tmp, size) {
  const dir = path.join(tmp, `tools-${size}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, "src"), { recursive: true });
  for (let f = 0; f * PER_FILE < size; f++) {
    const body = Array.from({ length: Math.min(PER_FILE, size - f * PER_FILE) }, (_, k) =>
      toolSource(f * PER_FILE + k),
    );
    writeFileSync(path.join(dir, "src", `tools-${f}.ts`), `import { tool } from "toolwright";\n${body.join("")}`);
  }
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ type: "module", private: true }));
  writeFileSync(
    path.join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        strict: true,
        skipLibCheck: true,
        types: [],
        outDir: "dist",
        plugins: [{ transform: "@toolwright/compiler/transform" }],
      },
      include: ["src"],
    }),
  );
  return dir;
}

/** One whole build: wall milliseconds and the child's CPU milliseconds. */
function timeBuild(tsc, project) {
  const script = `const s=process.cpuUsage();process.on("exit",()=>{const u=process.cpuUsage(s);process.stderr.write("\\ncpu:"+(u.user+u.system)/1000)});require(${JSON.stringify(tsc)})`;
  const start = performance.now();
  const result = spawnSync(process.execPath, ["-e", script, "tsc", "-p", project], { encoding: "utf8" });
  const wall = performance.now() - start;
  if (result.status !== 0) throw new Error(`${tsc} failed:\n${result.stdout}${result.stderr}`);
  return { wall, cpu: Number(/cpu:([\d.]+)/.exec(result.stderr)?.[1]) };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function emittedSpecs(project) {
  let count = 0;
  for (let f = 0; existsSync(path.join(project, "dist", `tools-${f}.js`)); f++) {
    count += readFileSync(path.join(project, "dist", `tools-${f}.js`), "utf8").split('"$toolwright":1').length - 1;
  }
  return count;
}

function main() {
  const { values } = parseArgs({
    options: {
      runs: { type: "string", default: "5" },
      sizes: { type: "string", default: "200,1000" },
      keep: { type: "boolean" },
    },
  });
  const RUNS = Number(values.runs);
  const SIZES = values.sizes.split(",").map(Number);
  // Outside the repository (other benchmarks clean scripts/bench/.tmp); the generated projects
  // resolve toolwright and the compiler through a link to this package's node_modules.
  const TMP = mkdtempSync(path.join(tmpdir(), "toolwright-build-bench-"));
  symlinkSync(path.join(here, "node_modules"), path.join(TMP, "node_modules"), "dir");
  const patchedTsc = patchedTypeScript(TMP);
  const version = JSON.parse(readFileSync(path.join(tsDir, "package.json"), "utf8")).version;
  console.log(
    `TypeScript ${version} (persistent ts-patch install), node ${process.version}, ${RUNS} runs + 1 warm-up each`,
  );
  console.log(
    "tools | plain tsc wall / cpu (ms) | tsc + transformer wall / cpu (ms) | ratio wall / cpu | added ms per tool (cpu)",
  );
  for (const size of SIZES) {
    const project = generate(TMP, size);
    timeBuild(PLAIN_TSC, project);
    timeBuild(patchedTsc, project);
    const count = emittedSpecs(project);
    if (count !== size) throw new Error(`expected ${size} emitted specs, found ${count}`);
    const plain = [];
    const patched = [];
    for (let r = 0; r < RUNS; r++) {
      plain.push(timeBuild(PLAIN_TSC, project));
      patched.push(timeBuild(patchedTsc, project));
    }
    const pw = median(plain.map((t) => t.wall));
    const pc = median(plain.map((t) => t.cpu));
    const tw = median(patched.map((t) => t.wall));
    const tc = median(patched.map((t) => t.cpu));
    console.log(
      `${size} | ${pw.toFixed(0)} / ${pc.toFixed(0)} | ${tw.toFixed(0)} / ${tc.toFixed(0)} | ${(tw / pw).toFixed(3)}x / ${(tc / pc).toFixed(3)}x | ${((tc - pc) / size).toFixed(3)}`,
    );
  }
  if (!values.keep) rmSync(TMP, { recursive: true, force: true });
  else console.log(TMP);
}

if (import.meta.main ?? process.argv[1] === import.meta.filename) main();
