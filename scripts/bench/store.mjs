/**
 * Durable runs (toolwright/store): what a checkpoint costs per tool call on SQLite and on
 * PostgreSQL against the in-memory loop, and tool calls per second with 4 worker processes
 * on one PostgreSQL server. Each run has CALLS model turns with one tool call each against a
 * zero-latency model, then a final answer. PostgreSQL runs with its default durability
 * (fsync on, synchronous_commit on); SQLite in WAL mode with synchronous=NORMAL.
 * On a shared machine the neighbours' load moves these figures more than anything
 * measured, so each row carries the 1-minute load average taken as it was measured.
 *
 *   node scripts/bench/store.mjs [--runs 200] [--queued 400] [--quick] [--throughput] [--dist <folder>]
 *   (worker processes: node scripts/bench/store.mjs --worker '<pg config JSON>' [--dist <folder>])
 *
 * --throughput: the 4-worker figure only. --dist: load toolwright from another build's
 * dist folder (another commit's packages/runtime/dist), to compare two versions on one
 * machine in turns, as the load allows.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startLocalPostgres } from "../local-postgres.mjs";
import { fmt } from "./lib/table.mjs";

const CALLS = 10;
const argv = process.argv.slice(2);
const text = (name) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const option = (name, fallback) => Number(text(name) ?? fallback);
const quick = argv.includes("--quick");
const dist = text("--dist");
const from = (entry) =>
  dist ? pathToFileURL(join(dist, entry, "index.js")).href : `toolwright${entry ? `/${entry}` : ""}`;
const { Agent, tool } = await import(from(""));
const { openPostgresStore, openSqliteStore, startRun, submitRun, work } = await import(from("store"));

/** An agent whose model asks for `calls` tool calls, one per turn, then answers; stateless, so any worker can play any turn. */
function benchAgent(calls = CALLS) {
  const forecast = tool({
    name: "forecast",
    description: "Forecast for a city.",
    parameters: {
      type: "object",
      properties: { city: { type: "string" }, days: { type: "integer" } },
      required: ["city", "days"],
      additionalProperties: false,
    },
    execute: ({ city, days }) => `${city}: sunny for ${days} days`,
  });
  const usage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 };
  const model = {
    id: "bench:zero-latency",
    async generate(request) {
      const done = request.messages.filter((m) => m.role === "tool").length;
      if (done >= calls)
        return { message: { role: "assistant", content: "Done.", toolCalls: [] }, usage, finishReason: "stop" };
      const call = {
        id: `call_${done}`,
        name: "forecast",
        arguments: JSON.stringify({ city: `City ${done}`, days: done + 1 }),
      };
      return { message: { role: "assistant", content: "", toolCalls: [call] }, usage, finishReason: "tool_calls" };
    },
  };
  return new Agent({ name: "bench", model, tools: [forecast], maxTurns: calls + 1 });
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * Median wall milliseconds of one run over `runs` runs (after a warm-up tenth), and the mean
 * CPU milliseconds of this process per run: on a shared machine, CPU time is what the
 * neighbours move least (the database server's own CPU is not in it).
 */
async function timeRuns(runs, once) {
  const warmup = Math.ceil(runs / 10);
  for (let i = 0; i < warmup; i++) await once();
  const times = [];
  const cpu = process.cpuUsage();
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await once();
    times.push(performance.now() - start);
  }
  const used = process.cpuUsage(cpu);
  return { wall: median(times), cpu: (used.user + used.system) / 1000 / runs, load: loadavg()[0] };
}

async function checkpointCost(runs, pg) {
  const agent = benchAgent();
  const memory = await timeRuns(runs, () => agent.run("Forecast, please."));
  const dir = mkdtempSync(join(tmpdir(), "toolwright-bench-store-"));
  const sqlite = await openSqliteStore({ path: join(dir, "runs.db") });
  const onSqlite = await timeRuns(runs, () => startRun(agent, "Forecast, please.", { store: sqlite }));
  await sqlite.close();
  rmSync(dir, { recursive: true, force: true });
  const postgres = await openPostgresStore(pg.config);
  const onPostgres = await timeRuns(runs, () => startRun(agent, "Forecast, please.", { store: postgres }));
  await postgres.close();
  const perCall = (ms) => fmt((ms * 1000) / CALLS);
  const extra = (t) => `+${perCall(t.wall - memory.wall)} µs/call (CPU +${perCall(t.cpu - memory.cpu)} µs)`;
  return [
    {
      name: "in-memory loop (agent.run)",
      value: `${perCall(memory.wall)} µs/call (CPU ${perCall(memory.cpu)} µs)`,
      load: memory.load,
      note: "baseline",
    },
    {
      name: "SQLite checkpoints",
      value: extra(onSqlite),
      load: onSqlite.load,
      note: "target ≤ 500 µs; WAL, synchronous=NORMAL",
    },
    {
      name: "PostgreSQL checkpoints",
      value: extra(onPostgres),
      load: onPostgres.load,
      note: "a call's start waits for fsync; server on this machine",
    },
  ];
}

async function throughput(queued, pg) {
  const store = await openPostgresStore(pg.config);
  const agent = benchAgent();
  const self = fileURLToPath(import.meta.url);
  const workers = Array.from({ length: 4 }, () =>
    spawn(process.execPath, [self, "--worker", JSON.stringify(pg.config), ...(dist ? ["--dist", dist] : [])], {
      stdio: ["ignore", "pipe", "inherit"],
    }),
  );
  // Timed from when every worker is up (connected, migrated, looking for work), so start-up is not counted.
  await Promise.all(workers.map((w) => new Promise((resolve) => w.stdout.once("data", resolve))));
  const start = performance.now();
  await Promise.all(Array.from({ length: queued }, () => submitRun(agent, "Forecast, please.", { store })));
  while ((await store.list({ status: "completed", limit: queued + 1 })).length < queued)
    await new Promise((resolve) => setTimeout(resolve, 20));
  const seconds = (performance.now() - start) / 1000;
  const load = loadavg()[0];
  for (const w of workers) w.kill("SIGTERM");
  await Promise.all(workers.map((w) => new Promise((resolve) => w.once("exit", resolve))));
  await store.close();
  return [
    {
      name: `4 workers on PostgreSQL, ${queued} runs queued at once`,
      value: `${fmt((queued * CALLS) / seconds)} tool calls/s`,
      load,
      note: `target ≥ 500 at load < 3; ${fmt(queued / seconds)} runs/s, queueing included`,
    },
  ];
}

async function worker(config) {
  const store = await openPostgresStore({ ...JSON.parse(config), max: 16 });
  const stop = new AbortController();
  process.on("SIGTERM", () => stop.abort());
  process.stdout.write("ready\n");
  await work([benchAgent()], { store, concurrency: 16, pollMs: 5, signal: stop.signal });
  await store.close();
}

if (argv[0] === "--worker") await worker(argv[1]);
else {
  const pg = await startLocalPostgres();
  try {
    const rows = [
      ...(argv.includes("--throughput") ? [] : await checkpointCost(option("--runs", quick ? 20 : 200), pg)),
      ...(await throughput(option("--queued", quick ? 40 : 400), pg)),
    ];
    if (dist) console.log(`toolwright from ${dist}\n`);
    console.log(`| ${CALLS} tool calls per run | median | load (1 min) | note |\n| --- | --- | --- | --- |`);
    for (const row of rows) console.log(`| ${row.name} | ${row.value} | ${row.load.toFixed(1)} | ${row.note} |`);
    console.log(`\nLoad averages are over ${availableParallelism()} cores; ${new Date().toISOString()}.`);
  } finally {
    pg.stop();
  }
}
