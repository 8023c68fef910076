import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain ESM script shared with the benchmark and the example, without types.
import { startLocalPostgres } from "../../../../scripts/local-postgres.mjs";
import { openPostgresStore, openSqliteStore, type RunStore } from "../../src/store/index.js";
import { allCompleted, approverReport, type Child, checkLedger, checkRuns, Fleet, queueRefunds } from "./processes.js";

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
 * Where workers die, each by SIGKILL at an exact point of a refund: in the middle of its
 * body (after its effect, on the worker's 10th refund), right after its end was recorded,
 * and after its body returned but before its end was recorded (the worker freezes there,
 * told by fixtures/durable-process.mjs, until it is killed).
 */
const KILL_POINTS = ["mid-body", "after-finished", "before-finished"] as const;
type KillPoint = (typeof KILL_POINTS)[number];

/**
 * Queues the runs, starts the workers and the approver, kills a worker at each kill point
 * (starting another worker in its place), and waits until every run is completed.
 */
async function serve(s: Scenario) {
  await queueRefunds(s.store, RUNS);
  const fleet = new Fleet();
  const approver = fleet.start("approver", ["approver", s.kind, s.target, s.ledger]);
  const points = [...KILL_POINTS];
  const victims = new Map<KillPoint, { child: Child; runId?: string }>();
  let started = 0;
  const startWorker = () => {
    const point = points.shift();
    const name = `worker-${started++}`;
    const child = fleet.start(name, [
      "worker",
      s.kind,
      s.target,
      s.ledger,
      name,
      point === "mid-body" ? "" : (point ?? ""),
    ]);
    if (!point) return;
    const kill = (runId?: string) => {
      if (victims.has(point)) return;
      victims.set(point, { child, ...(runId ? { runId } : {}) });
      fleet.kill(child);
      startWorker();
    };
    if (point === "mid-body") {
      let refunds = 0;
      // The body sleeps 200 ms after it wrote the ledger: the kill lands while a refund is running.
      child.onLine(/^refund-started /, () => ++refunds === 10 && kill());
    } else child.onLine(/^refund-(recorded|returned) (\S+)/, (m) => kill(m[2]));
  };
  for (let i = 0; i < s.workers; i++) startWorker();
  try {
    await fleet.watch(allCompleted(s.store, RUNS));
  } finally {
    await fleet.stop();
  }
  for (const point of KILL_POINTS) expect(victims.get(point)?.child.process.signalCode, point).toBe("SIGKILL");
  const killed = new Set([...victims.values()].map((v) => v.child));
  for (const c of fleet.children) if (!killed.has(c)) expect(c.process.exitCode, c.output()).toBe(0);
  return {
    ...approverReport(approver),
    recorded: victims.get("after-finished")?.runId as string,
    returned: victims.get("before-finished")?.runId as string,
  };
}

/** What each kill point must give, on top of no run lost and no refund run twice. */
async function check(s: Scenario, served: Awaited<ReturnType<typeof serve>>): Promise<void> {
  checkLedger(s.ledger, RUNS);
  const outputs = await checkRuns(s.store, RUNS);
  // Killed mid-body: its refunds' outcomes were unknown, and a person decided them.
  expect(served.unknown).toBeGreaterThan(0);
  // Killed right after the refund's end was recorded: its result is used, never asked about.
  expect(served.unknownRuns).not.toContain(served.recorded);
  expect(outputs.get(served.recorded)).toBe("Done: lookup=ok, refund=ok");
  // Killed after the refund took effect, before its end was recorded: asked about, never run again.
  expect(served.unknownRuns).toContain(served.returned);
  expect(outputs.get(served.returned)).toBe("Done: lookup=ok, refund=rejected");
}

describe("many processes, one store", () => {
  it(`PostgreSQL: 4 workers and an approver serve ${RUNS} runs; workers killed at three points of a refund lose none and run no refund twice`, async () => {
    const pg: { config: object; stop(): void } = await startLocalPostgres({ durable: false });
    server = pg;
    const target = JSON.stringify(pg.config);
    const store = await openPostgresStore(pg.config);
    const s = { kind: "postgres", target, store, workers: 4, ledger: join(dir, "postgres-ledger.txt") } as const;
    try {
      await check(s, await serve(s));
    } finally {
      await store.close();
    }
  }, 180_000);

  it(`SQLite: 2 worker processes and an approver serve ${RUNS} runs the same way`, async () => {
    const target = join(dir, "runs.db");
    const store = await openSqliteStore({ path: target });
    const s = { kind: "sqlite", target, store, workers: 2, ledger: join(dir, "sqlite-ledger.txt") } as const;
    try {
      await check(s, await serve(s));
    } finally {
      await store.close();
    }
  }, 180_000);
});
