import { type ChildProcess, fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  OUTCOME_UNKNOWN,
  openSqliteStore,
  resumeRun,
  type StoreError,
  StoreUnavailableError,
  startRun,
  submitRun,
  work,
} from "../../src/store/index.js";
import { refundAgent, resumeWhenFree } from "./helpers.js";

// Fault injection on a real SQLite file: another process holds a write transaction past
// the store's busy timeout at each write a run makes. What a user cares about holds at
// every one: the run completes or waits for a person, no body runs twice, the model is
// never told a call failed when it did not, and nothing is stored as failed.

const BUSY_MS = 50;
let dir: string;
let file: string;
let locker: ChildProcess;
let n = 0;

/** Sends the locker a message and waits for its answer. */
function tell(message: "lock" | "unlock"): Promise<void> {
  return new Promise((resolve) => {
    locker.once("message", () => resolve());
    locker.send(message);
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "toolwright-sqlite-faults-"));
  file = join(dir, "runs.db");
  await (await openSqliteStore({ path: file })).close();
  locker = fork(fileURLToPath(new URL("./fixtures/sqlite-locker.mjs", import.meta.url)), [file]);
  await new Promise((resolve) => locker.once("message", resolve));
});
afterAll(() => {
  locker.disconnect();
  rmSync(dir, { recursive: true, force: true });
});

let locked = false;
afterEach(async () => {
  if (locked) await unlock();
});
async function lock(): Promise<void> {
  await tell("lock");
  locked = true;
}
async function unlock(): Promise<void> {
  locked = false;
  await tell("unlock");
}

const open = () => openSqliteStore({ path: file, busyTimeoutMs: BUSY_MS });

/** Records each store error a run was told about; `then` runs once, at the first. */
function watch(then?: () => void) {
  const errors: StoreError[] = [];
  return {
    errors,
    onStoreError(error: StoreError) {
      errors.push(error);
      if (errors.length === 1) then?.();
    },
  };
}

describe("SQLite locked by another process past busyTimeoutMs", () => {
  // Each point is reached by a hook of the run itself, which takes the lock right there.
  const points = {
    "a call's start (with the turn's checkpoint)": {
      beforeTurn: (final: boolean) => (final ? Promise.resolve() : lock()),
    },
    "a call's end": { during: () => lock() },
    "the final checkpoint": { beforeTurn: (final: boolean) => (final ? lock() : Promise.resolve()) },
  };
  for (const [point, hooks] of Object.entries(points)) {
    it(`at ${point}: tries again once the lock is gone, and the run completes with the model told the truth`, async () => {
      const store = await open();
      const { agent, effects } = refundAgent({ approval: false, ...hooks });
      const runId = `s-${++n}`;
      const seen = watch(() => void unlock());
      const done = await startRun(agent, "refund A-1", { store, runId, onStoreError: seen.onStoreError });
      expect(done.output).toBe("Done: lookup=ok, refund=ok");
      expect(effects.refunds).toHaveLength(1);
      expect(seen.errors[0]).toBeInstanceOf(StoreUnavailableError);
      expect(seen.errors[0]?.message).toMatch(/database is locked/);
      expect(await store.get(runId)).toMatchObject({ status: "completed", output: done.output });
      await store.close();
    });
  }

  it("at a lease renewal: the run goes on and completes", async () => {
    const store = await open();
    let renewFailed: () => void = () => {};
    const failed = new Promise<void>((resolve) => {
      renewFailed = resolve;
    });
    // The refund's body holds the lock until a renewal has met it, then lets it go.
    const during = async () => {
      await lock();
      await failed;
      await unlock();
    };
    const { agent, effects } = refundAgent({ approval: false, during });
    const seen = watch(renewFailed);
    const done = await startRun(agent, "refund A-1", {
      store,
      runId: `s-${++n}`,
      leaseMs: 150,
      onStoreError: seen.onStoreError,
    });
    expect(done.output).toBe("Done: lookup=ok, refund=ok");
    expect(effects.refunds).toHaveLength(1);
    expect(seen.errors[0]?.message).toMatch(/database is locked.*for renew/);
    await store.close();
  });

  for (const idempotent of [false, true]) {
    it(`at a call's end, past the lease: the run is let go, not failed; a resume ${idempotent ? "runs the idempotent call again with its key" : "asks a person"}`, async () => {
      const store = await open();
      const runId = `s-${++n}`;
      const first = refundAgent({ approval: false, idempotent, during: () => lock() });
      const error = await startRun(first.agent, "refund A-1", { store, runId, leaseMs: 300 }).catch((e) => e);
      expect(error).toBeInstanceOf(StoreUnavailableError);
      await unlock();
      expect(await store.get(runId)).toMatchObject({ status: "running", error: undefined });
      const second = refundAgent({ approval: false, idempotent });
      const resumed = await resumeWhenFree(second.agent, runId, { store });
      if (idempotent) {
        expect(resumed.output).toBe("Done: lookup=ok, refund=ok");
        expect(second.effects.refunds.map((r) => r.key)).toEqual(first.effects.refunds.map((r) => r.key));
      } else {
        expect(resumed.interruptions.map((i) => i.reason)).toEqual([OUTCOME_UNKNOWN]);
        expect(second.effects.refunds).toEqual([]);
      }
      await store.close();
    });
  }

  it("at the final checkpoint, past the lease: the finished run is not stored as failed, and a resume completes it", async () => {
    const store = await open();
    const runId = `s-${++n}`;
    const first = refundAgent({ approval: false, beforeTurn: (final) => (final ? lock() : Promise.resolve()) });
    const error = await startRun(first.agent, "refund A-1", { store, runId, leaseMs: 300 }).catch((e) => e);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    await unlock();
    expect(await store.get(runId)).toMatchObject({ status: "running", error: undefined });
    const second = refundAgent({ approval: false });
    expect((await resumeWhenFree(second.agent, runId, { store })).output).toBe("Done: lookup=ok, refund=ok");
    expect([...first.effects.refunds, ...second.effects.refunds]).toHaveLength(1);
    await store.close();
  });

  it("at a submit, a resume, an approval and a retry: each fails with StoreUnavailableError, writes nothing, and works once the lock is gone", async () => {
    const store = await open();
    const { agent } = refundAgent();
    const paused = await startRun(agent, "refund A-1", { store, runId: "s-user" });
    const callId = paused.interruptions[0]?.callId as string;
    const before = await store.get("s-user");
    await lock();
    await expect(submitRun(agent, "refund B-2", { store, runId: "s-queued" })).rejects.toThrow(StoreUnavailableError);
    await expect(resumeRun(agent, "s-user", { store })).rejects.toThrow(StoreUnavailableError);
    await expect(store.approve("s-user", callId)).rejects.toThrow(/database is locked.*for approve of run "s-user"/);
    await expect(store.retry("s-user")).rejects.toThrow(StoreUnavailableError);
    // Reads go on beside the lock (WAL): nothing was written.
    expect(await store.get("s-queued")).toBeUndefined();
    expect(await store.get("s-user")).toEqual(before);
    await unlock();
    await submitRun(agent, "refund B-2", { store, runId: "s-queued" });
    await store.approve("s-user", callId);
    expect((await resumeRun(agent, "s-user", { store })).output).toBe("Done: lookup=ok, refund=ok");
    await store.close();
  });

  it("at a worker loop's claim: the worker tells onError, goes on, and serves the run once the lock is gone", async () => {
    const store = await open();
    const { agent, effects } = refundAgent({ approval: false, name: "s-worker" });
    await submitRun(agent, "refund A-1", { store, runId: "s-claimed" });
    await lock();
    const stop = new AbortController();
    const errors: unknown[] = [];
    const worker = work([agent], {
      store,
      pollMs: 5,
      signal: stop.signal,
      onError(error) {
        errors.push(error);
        if (errors.length === 1) void unlock();
      },
    });
    while ((await store.get("s-claimed"))?.status !== "completed") await new Promise((r) => setTimeout(r, 5));
    stop.abort();
    await worker;
    expect(errors[0]).toBeInstanceOf(StoreUnavailableError);
    expect(effects.refunds).toHaveLength(1);
    await store.close();
  });
});
