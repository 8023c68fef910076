/**
 * Latency of `toolwright lsp` (the editor on TypeScript 7) on the generated project of 200
 * tools (scripts/bench/generate: four files of 50 `tool(fn)` calls, each importing a file
 * of 50 documented functions), through TypeScript 7.0 (the workspace's pinned alias). The
 * real server process is driven over stdio as an editor drives it; every figure is the wall
 * time an editor waits, after warm-up:
 *
 *   - diagnostics of a tools file after an edit to it: from the didChange notification to
 *     the server's publishDiagnostics for that version (its 50 tools derived again on the
 *     new snapshot; includes the server's 50 ms settle delay);
 *   - diagnostics of a functions file after an edit to it: the same, where the tools file
 *     importing it is derived again (its tools report there);
 *   - hover on a `tool(...)` call, unchanged, and right after an edit (the snapshot update
 *     and the derivation are then part of the hover).
 *
 * The tsserver plugin's figures on TypeScript 5 come from language-service.mjs. Run alone:
 * `node scripts/bench/lsp.mjs [--tools 200] [--runs 30]` (after `pnpm run task:build`).
 * Prints medians and 95th percentiles, and the load at the start and the end.
 */
import { spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import {
  createProtocolConnection,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  HoverRequest,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  RegistrationRequest,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-languageserver-protocol/node";
import { writeProject } from "./generate/project.mjs";
import { describeMachine, machine } from "./lib/machine.mjs";
import { PROJECTS_DIR } from "./lib/paths.mjs";
import { median } from "./lib/stats.mjs";

const require = createRequire(import.meta.url);
const CLI = path.join(path.dirname(require.resolve("@toolwright/compiler/package.json")), "dist/cli/bin.js");
const TS7 = path.dirname(require.resolve("typescript-7/package.json"));

const { values } = parseArgs({ options: { tools: { type: "string" }, runs: { type: "string" } } });
const N = Number(values.tools ?? 200);
const RUNS = Number(values.runs ?? 30);
const WARMUP = 5;
const started = machine();

function percentile(samples, p) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
}

const project = writeProject(path.join(PROJECTS_DIR, `lsp-n${N}`), N);
const tools = path.join(project.dir, "src", "toolwright-0.ts");
const shapes = path.join(project.dir, "src", "shapes-0.ts");
const uri = (file) => pathToFileURL(file).href;

const child = spawn(process.execPath, [CLI, "lsp", "--stdio", "-p", "tsconfig.toolwright.json", "--typescript", TS7], {
  cwd: project.dir,
  stdio: ["pipe", "pipe", "inherit"],
});
const connection = createProtocolConnection(
  new StreamMessageReader(child.stdout),
  new StreamMessageWriter(child.stdin),
);
const waiting = new Map();
connection.onNotification(PublishDiagnosticsNotification.type, ({ uri: at, version }) => {
  const wake = waiting.get(`${at}@${version}`);
  if (wake) wake();
});
connection.onRequest(RegistrationRequest.type, () => undefined);
connection.listen();

/** Resolves when the server publishes diagnostics for `file` at `version`. */
const published = (file, version) => new Promise((resolve) => waiting.set(`${uri(file)}@${version}`, resolve));

const versions = new Map();
async function open(file) {
  versions.set(file, 1);
  const done = published(file, 1);
  await connection.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri: uri(file), languageId: "typescript", version: 1, text: readFileSync(file, "utf8") },
  });
  await done;
}

/** An edit an editor sends: a space typed at the start of line 1, or deleted again. */
async function edit(file) {
  const version = versions.get(file) + 1;
  versions.set(file, version);
  const range = { start: { line: 0, character: 0 }, end: { line: 0, character: version % 2 === 0 ? 0 : 1 } };
  await connection.sendNotification(DidChangeTextDocumentNotification.type, {
    textDocument: { uri: uri(file), version },
    contentChanges: [{ range, text: version % 2 === 0 ? " " : "" }],
  });
  return version;
}

async function time(run) {
  const samples = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const t0 = performance.now();
    await run(i);
    if (i >= WARMUP) samples.push(performance.now() - t0);
  }
  return { median: median(samples), p95: percentile(samples, 95) };
}

const toolLines = readFileSync(tools, "utf8")
  .split("\n")
  .flatMap((line, k) => (line.startsWith("  tool(") ? [k] : []));
const hover = (i) =>
  connection.sendRequest(HoverRequest.type, {
    textDocument: { uri: uri(tools) },
    position: { line: toolLines[i % toolLines.length], character: 3 },
  });

let results;
try {
  const opening = performance.now();
  await connection.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    rootUri: uri(project.dir),
    capabilities: { textDocument: { publishDiagnostics: { versionSupport: true } } },
  });
  await connection.sendNotification(InitializedNotification.type, {});
  await open(tools);
  await open(shapes);
  const firstDiagnostics = performance.now() - opening;
  const first = await hover(0);
  if (!first?.contents?.value?.includes("toolwright tool"))
    throw new Error("no tool in the hover: the server did not derive");
  results = {
    "initialize and open to first diagnostics (once)": { median: firstDiagnostics, p95: firstDiagnostics },
    "diagnostics, after an edit to the tools file": await time(async () => {
      const version = await edit(tools);
      await published(tools, version);
    }),
    "diagnostics, after an edit to the functions file": await time(async () => {
      const version = await edit(shapes);
      await published(shapes, version);
    }),
    "hover on a tool(...) call, unchanged": await time(hover),
    "hover on a tool(...) call, after an edit": await time(async (i) => {
      await edit(tools);
      await hover(i);
    }),
  };
} finally {
  await connection.sendRequest(ShutdownRequest.type).catch(() => undefined);
  await connection.sendNotification(ExitNotification.type).catch(() => undefined);
  await new Promise((resolve) => (child.exitCode === null ? child.once("exit", resolve) : resolve()));
  connection.dispose();
  rmSync(project.dir, { recursive: true, force: true });
}

const ms = (v) => `${v.toFixed(1)} ms`.padStart(10);
console.log(
  `toolwright lsp latency on TypeScript 7, ${N} tools, ${RUNS} requests each after ${WARMUP} warm-up: wall median / p95`,
);
for (const [name, timing] of Object.entries(results)) {
  console.log(`  ${name.padEnd(50)} ${ms(timing.median)} / ${ms(timing.p95)}`);
}
console.log(`  ${describeMachine(started, machine().load)}`);
