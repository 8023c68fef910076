import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain ESM script shared with the benchmark and the example, without types.
import { startLocalPostgres } from "../../../../scripts/local-postgres.mjs";
import { Agent } from "../../src/index.js";
import { openPostgresStore, openSqliteStore, type RunStore, submitRun } from "../../src/store/index.js";
import { FakeModel } from "../../src/testing/index.js";

const script = fileURLToPath(new URL("./fixtures/durable-process.mjs", import.meta.url));
const RUNS = 200;
let dir: string;
let server: { config: object; stop(): void } | undefined;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "toolwright-multi-"));
});
afterAll(() => {
  server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

interface Scenario {
  readonly kind: "sqlite" | "postgres";
  readonly target: string;
  readonly store: RunStore;
  readonly workers: number;
  readonly ledger: string;
}

/**
 * Queues the runs, starts the workers and the approver, kills one worker with SIGKILL in
 * the middle of a refund, and waits until every run is completed.
 */
async function serve(s: Scenario): Promise<{ unknown: number }> {
  const queuer = new Agent({ name: "refunds", model: FakeModel.script([]) });
  for (let i = 0; i < RUNS; i++) await submitRun(queuer, `refund order ${i}`, { store: s.store, runId: `run-${i}` });
  const start = (args: string[]) => spawn(process.execPath, [script, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  const processes: ChildProcess[] = [];
  const output = new Map<ChildProcess, string>();
  const watch = (child: ChildProcess) => {
    processes.push(child);
    output.set(child, "");
    child.stdout?.on("data", (d) => output.set(child, (output.get(child) ?? "") + d));
    child.stderr?.on("data", (d) => output.set(child, (output.get(child) ?? "") + d));
    return child;
  };
  const approver = watch(start(["approver", s.kind, s.target, s.ledger]));
  const workers = Array.from({ length: s.workers }, (_, i) =>
    watch(start(["worker", s.kind, s.target, s.ledger, `worker-${i}`])),
  );
  const victim = workers[0] as ChildProcess;
  let started = 0;
  victim.stdout?.on("data", (d: Buffer) => {
    started += d.toString().split("refund-started").length - 1;
    // The body sleeps 200 ms after it wrote the ledger: the kill lands while a refund is running.
    if (started >= 10 && victim.exitCode === null) victim.kill("SIGKILL");
  });
  const exited = (child: ChildProcess) =>
    new Promise<void>((resolve) =>
      child.exitCode !== null || child.signalCode ? resolve() : child.once("exit", () => resolve()),
    );
  try {
    for (;;) {
      const completed = await s.store.list({ status: "completed", limit: RUNS + 1 });
      if (completed.length === RUNS) break;
      const failed = await s.store.list({ status: "failed", limit: 1 });
      if (failed.length) throw new Error(`run ${failed[0]?.runId} failed: ${failed[0]?.error}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    for (const child of processes) if (child.exitCode === null) child.kill("SIGTERM");
    await Promise.all(processes.map(exited));
  }
  expect(victim.signalCode).toBe("SIGKILL");
  for (const w of workers.slice(1)) expect(w.exitCode, output.get(w)).toBe(0);
  return JSON.parse((output.get(approver) ?? "").trim().split("\n").at(-1) ?? "{}") as { unknown: number };
}

/** Every refund body that ran, by idempotency key: none twice, one per run. */
function checkLedger(ledger: string): void {
  const lines = readFileSync(ledger, "utf8").split("\n").filter(Boolean);
  expect(lines.length - new Set(lines).size).toBe(0);
  expect(new Set(lines.map((key) => key.split(":")[0])).size).toBe(RUNS);
}

async function checkRuns(store: RunStore): Promise<void> {
  const runs = await store.list({ limit: RUNS + 1 });
  expect(runs).toHaveLength(RUNS);
  for (const run of runs) {
    expect(run.status).toBe("completed");
    expect(run.output).toMatch(/^Done: lookup=ok, refund=(ok|rejected)$/);
  }
}

describe("many processes, one store", () => {
  it(`PostgreSQL: 4 workers and an approver serve ${RUNS} runs; a worker killed mid-refund loses none and runs no refund twice`, async () => {
    const pg: { config: object; stop(): void } = await startLocalPostgres({ durable: false });
    server = pg;
    const target = JSON.stringify(pg.config);
    const store = await openPostgresStore(pg.config);
    const ledger = join(dir, "postgres-ledger.txt");
    try {
      const { unknown } = await serve({ kind: "postgres", target, store, workers: 4, ledger });
      expect(unknown).toBeGreaterThan(0);
      checkLedger(ledger);
      await checkRuns(store);
    } finally {
      await store.close();
    }
  }, 180_000);

  it(`SQLite: 2 worker processes and an approver serve ${RUNS} runs the same way`, async () => {
    const target = join(dir, "runs.db");
    const store = await openSqliteStore({ path: target });
    const ledger = join(dir, "sqlite-ledger.txt");
    try {
      const { unknown } = await serve({ kind: "sqlite", target, store, workers: 2, ledger });
      expect(unknown).toBeGreaterThan(0);
      checkLedger(ledger);
      await checkRuns(store);
    } finally {
      await store.close();
    }
  }, 180_000);
});
