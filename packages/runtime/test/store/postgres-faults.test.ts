import { type ChildProcess, fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain ESM script shared with the benchmark and the example, without types.
import { startLocalPostgres } from "../../../../scripts/local-postgres.mjs";
import { openPostgresStore, StoreUnavailableError } from "../../src/store/index.js";
import { allCompleted, approverReport, checkLedger, checkRuns, exited, Fleet, queueRefunds } from "./processes.js";

/** Runs queued for each restart: enough that many are in flight when the server goes. */
const RUNS = 40;

// Fault injection on a real PostgreSQL 15: the worker's backend terminated at a call's end
// and at the final checkpoint, and the server restarted (fast, and immediate: a crash of
// the server) under running workers and under a process holding an idle store. Each
// asserts what a user cares about: every run completes or waits for a person, no refund
// runs twice, the model is never told a call failed when it did not, no process dies.
// Faults land at exact points: the process waits at a barrier, the test takes a row lock
// there, and terminates the backend it sees waiting on that lock.

interface LocalPostgres {
  readonly config: pg.ClientConfig;
  restart(mode: "fast" | "immediate"): void;
  stop(): void;
}

let server: LocalPostgres;
let dir: string;
beforeAll(async () => {
  // Commits wait for the WAL, so an immediate restart (a server crash) loses none it answered.
  server = await startLocalPostgres({ durable: false, synchronousCommit: true });
  dir = mkdtempSync(join(tmpdir(), "toolwright-pg-faults-"));
  await (await openPostgresStore(server.config)).close();
});
afterAll(() => {
  server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function admin(): Promise<pg.Client> {
  const client = new pg.Client(server.config);
  // The server restarts under some tests: a client it ends must not take the test process with it.
  client.on("error", () => {});
  await client.connect();
  return client;
}

/** Polls (every 10 ms) until `probe` gives a value: waiting for a state, never for a guessed time. */
async function until<T>(probe: () => Promise<T | undefined>): Promise<T> {
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Holds `lock` (a statement taking a lock) in a transaction of its own while `meanwhile`
 * runs, then terminates the backend of `app` that waits for it, and lets the lock go.
 * Another connection watches: inside a transaction, pg_stat_activity does not change.
 */
async function terminateWaiter(app: string, lock: string, values: unknown[], meanwhile: () => void): Promise<void> {
  const [holder, watcher] = [await admin(), await admin()];
  try {
    await holder.query("BEGIN");
    await holder.query(lock, values);
    meanwhile();
    const pid = await until(async () => {
      const waiting = await watcher.query<{ pid: number }>(
        "SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'",
        [app],
      );
      return waiting.rows[0]?.pid;
    });
    await watcher.query("SELECT pg_terminate_backend($1)", [pid]);
    await until(async () => {
      const left = await watcher.query("SELECT 1 FROM pg_stat_activity WHERE pid = $1", [pid]);
      return left.rowCount === 0 ? true : undefined;
    });
    await holder.query("COMMIT");
  } finally {
    await Promise.all([holder.end(), watcher.end()]);
  }
}

type Message = Record<string, unknown> | string;

/** A child process of fixtures/fault-process.mjs, its messages queued for `next`. */
class FaultProcess {
  readonly child: ChildProcess;
  readonly messages: Message[] = [];
  #waiters: Array<() => void> = [];

  constructor(role: "run" | "idle", applicationName: string) {
    const script = fileURLToPath(new URL("./fixtures/fault-process.mjs", import.meta.url));
    const config = JSON.stringify({ ...server.config, application_name: applicationName });
    this.child = fork(script, [role, config], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    this.child.on("message", (m: Message) => {
      this.messages.push(m);
      for (const wake of this.#waiters.splice(0)) wake();
    });
    this.child.on("exit", () => {
      for (const wake of this.#waiters.splice(0)) wake();
    });
  }

  /** The first message `match` accepts (already received, or the next ones); fails if the process dies first. */
  async next(match: (m: Message) => boolean): Promise<Message> {
    for (;;) {
      const found = this.messages.find(match);
      if (found) return found;
      if (this.child.exitCode !== null || this.child.signalCode !== null)
        throw new Error(`the fault process died (${this.child.signalCode ?? `exit ${this.child.exitCode}`})`);
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }

  send(message: Message): void {
    this.child.send(message);
  }

  /** Asks it to close its store and exit; resolves with its exit code. */
  async quit(): Promise<number | null> {
    this.child.send("quit");
    await exited(this.child);
    return this.child.exitCode;
  }
}

const key = (name: string) => (m: Message) => typeof m === "object" && name in m;

/**
 * Runs "refund A-1" in a fault process; when it reaches `point`, takes a row lock with
 * `lock`, lets the process go on into the write that waits for it, terminates that
 * backend, and lets the lock go. Returns what the process reported.
 */
async function terminateAt(point: "refund" | "final", lock: string, runId: string) {
  const app = `tw-fault-${runId}`;
  const worker = new FaultProcess("run", app);
  await worker.next((m) => m === "ready");
  // The run's other barrier lets it through at once.
  worker.child.on("message", (m: Message) => {
    if (typeof m === "object" && typeof m.at === "string" && m.at !== point) worker.send({ go: m.at });
  });
  const db = await admin();
  try {
    worker.send({ start: runId });
    await worker.next((m) => typeof m === "object" && m.at === point);
    await terminateWaiter(app, lock, [runId], () => worker.send({ go: point }));
    const result = await worker.next((m) => key("done")(m) || key("failed")(m));
    const stored = await db.query<{ status: string; output: string | null }>(
      "SELECT status, output FROM toolwright_runs WHERE run_id = $1",
      [runId],
    );
    const storeErrors = worker.messages.filter(key("storeError")).map((m) => (m as { storeError: object }).storeError);
    const alive = worker.child.exitCode === null;
    return { result, stored: stored.rows[0], storeErrors, alive, exitCode: await worker.quit() };
  } finally {
    await db.end();
    if (worker.child.exitCode === null) worker.child.kill("SIGKILL");
  }
}

describe("PostgreSQL faults", () => {
  it("terminates the worker's backend while a call's end is written: tried again, the call told ok, the run completed", async () => {
    const got = await terminateAt(
      "refund",
      "SELECT 1 FROM toolwright_calls WHERE run_id = $1 AND call_key LIKE '%refund%' FOR UPDATE",
      "t-end",
    );
    expect(got.storeErrors).toContainEqual({
      name: "StoreUnavailableError",
      message: expect.stringMatching(/terminating connection due to administrator command.*callFinished/),
    });
    expect(got.result).toEqual({ done: { status: "completed", output: "Done: lookup=ok, refund=ok", refunds: 1 } });
    expect(got.stored).toEqual({ status: "completed", output: "Done: lookup=ok, refund=ok" });
    expect(got.alive).toBe(true);
    expect(got.exitCode).toBe(0);
  });

  it("terminates the worker's backend at the final checkpoint: tried again, and the run is stored completed, not failed", async () => {
    const got = await terminateAt("final", "SELECT 1 FROM toolwright_runs WHERE run_id = $1 FOR UPDATE", "t-final");
    expect(got.storeErrors).toContainEqual({
      name: "StoreUnavailableError",
      message: expect.stringMatching(/terminating connection due to administrator command.*checkpoint/),
    });
    expect(got.result).toEqual({ done: { status: "completed", output: "Done: lookup=ok, refund=ok", refunds: 1 } });
    expect(got.stored).toEqual({ status: "completed", output: "Done: lookup=ok, refund=ok" });
    expect(got.alive).toBe(true);
    expect(got.exitCode).toBe(0);
  });

  it("keeps a store whose idle connections the server ended: the next operation fails with StoreUnavailableError or works, and the one after works", async () => {
    const app = "tw-idle-in-test";
    const store = await openPostgresStore({ ...server.config, application_name: app });
    const db = await admin();
    try {
      await store.list({ limit: 1 });
      await db.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1", [app]);
      // Without a listener on the pools, the ended connections' `error` events would end this process.
      const first = await store.list({ limit: 1 }).then(
        () => "ok",
        (error: unknown) => error,
      );
      if (first !== "ok") expect(first).toBeInstanceOf(StoreUnavailableError);
      expect(await store.list({ limit: 1 })).toBeInstanceOf(Array);
      // And one that loses its connection while it runs fails with the typed error.
      let blocked: Promise<unknown> = Promise.resolve();
      await terminateWaiter(app, "LOCK TABLE toolwright_runs IN ACCESS EXCLUSIVE MODE", [], () => {
        blocked = store.get("nope").catch((error: unknown) => error);
      });
      const error = await blocked;
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect((error as Error).message).toMatch(/terminating connection due to administrator command.*for get/);
      expect(await store.get("nope")).toBeUndefined();
    } finally {
      await db.end();
      await store.close();
    }
  });

  for (const mode of ["fast", "immediate"] as const) {
    it(`restarts the server (pg_ctl restart -m ${mode}) under 2 running workers, an approver and an idle process holding a store: every run completes, no refund runs twice, no process dies`, async () => {
      const store = await openPostgresStore(server.config);
      const ledger = join(dir, `ledger-${mode}.txt`);
      const fleet = new Fleet();
      const idle = new FaultProcess("idle", `tw-idle-${mode}`);
      try {
        const db = await admin();
        await db.query("TRUNCATE toolwright_runs CASCADE");
        await db.end();
        await queueRefunds(store, RUNS);
        await idle.next((m) => m === "ready");
        const target = JSON.stringify(server.config);
        const approver = fleet.start("approver", ["approver", "postgres", target, ledger]);
        const workers = [0, 1].map((i) =>
          fleet.start(`worker-${i}`, ["worker", "postgres", target, ledger, `w-${mode}-${i}`], { REFUND_MS: "20" }),
        );
        // The server goes down while refunds are in flight: after the fifth one started.
        await fleet.watch(
          new Promise<void>((resolve) => {
            let started = 0;
            for (const w of workers) w.onLine(/^refund-started /, () => ++started === 5 && resolve());
          }),
        );
        server.restart(mode);
        idle.send("probe");
        const probed = (await fleet.watch(idle.next(key("probed")))) as {
          probed: { ok: boolean; errors: Array<{ name: string }> };
        };
        await fleet.watch(allCompleted(store, RUNS));
        await fleet.stop();

        for (const c of fleet.children) expect(c.process.exitCode, `${c.name}: ${c.output()}`).toBe(0);
        // The fault reached the workers, and they went on.
        expect(workers.map((w) => w.output()).join("")).toMatch(/StoreUnavailableError/);
        expect(probed.probed.ok).toBe(true);
        for (const e of probed.probed.errors) expect(e.name).toBe("StoreUnavailableError");
        expect(await idle.quit()).toBe(0);
        checkLedger(ledger, RUNS);
        const outputs = await checkRuns(store, RUNS);
        // A refund whose end was lost (the relaxed commit, on an immediate restart) was put to the approver.
        const { unknownRuns } = approverReport(approver);
        for (const [runId, output] of outputs)
          if (output.endsWith("refund=rejected")) expect(unknownRuns, runId).toContain(runId);
      } finally {
        await fleet.stop();
        if (idle.child.exitCode === null) idle.child.kill("SIGKILL");
        await store.close();
      }
    }, 120_000);
  }
});
