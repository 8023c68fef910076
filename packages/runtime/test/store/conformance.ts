import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { MaxTurnsExceededError, RunAbortedError } from "../../src/index.js";
import {
  CallNotWaitingError,
  OUTCOME_UNKNOWN,
  RunHeldError,
  RunNotFoundError,
  type RunStore,
  resumeRun,
  StoredRunError,
  startRun,
  submitRun,
  work,
} from "../../src/store/index.js";
import { forever, refundAgent } from "./helpers.js";

/** What a store's test file gives the shared suite. */
export interface StoreHarness {
  /** A new handle on the test's database, as another process would open it. */
  open(): Promise<RunStore>;
  /** A run's state column as stored. */
  getState(runId: string): Promise<string>;
  /**
   * Overwrites a run's state column with `text`, as a bad hand edit would: with the text's
   * own digest, or with `digest` (a disk fault that left the two apart).
   */
  setState(runId: string, text: string, digest?: string): Promise<void>;
}

/** The suite every store runs, hono-style: `runStoreConformance(harness)` in a few lines. */
export function runStoreConformance(harness: StoreHarness): void {
  const twoHandles = async () => [await harness.open(), await harness.open()] as const;

  describe("durable runs", () => {
    it("pauses for approval, takes the approval from another handle, resumes by id there, and never reruns a finished call", async () => {
      const [a, b] = await twoHandles();
      const first = refundAgent();
      const paused = await startRun(first.agent, "refund A-1", { store: a, runId: "r-approve" });
      expect(paused.status).toBe("interrupted");
      expect(paused.runId).toBe("r-approve");
      expect(first.effects.lookups).toEqual(["A-1"]);
      const stored = await b.get("r-approve");
      expect(stored?.status).toBe("paused");
      expect(stored?.interruptions.map((i) => i.toolName)).toEqual(["refund"]);

      await b.approve("r-approve", stored?.interruptions[0]?.callId as string);
      expect((await a.get("r-approve"))?.status).toBe("ready");
      const second = refundAgent();
      const done = await resumeRun(second.agent, "r-approve", { store: b });
      expect(done.output).toBe("Done: lookup=ok, refund=ok");
      expect(second.effects.lookups).toEqual([]); // finished on the first worker: not run again
      expect(second.effects.refunds).toEqual([{ id: "A-1", key: "r-approve:1:refund_1" }]);
      expect(await a.get("r-approve")).toMatchObject({ status: "completed", output: "Done: lookup=ok, refund=ok" });
      await Promise.all([a.close(), b.close()]);
    });

    it("gives a call that finished before its worker died its recorded result, without running it again", async () => {
      const [a, b] = await twoHandles();
      const first = await workerDiesInRefund(a, "r-finished", { refundFinishes: true });
      expect(first.effects.refunds).toHaveLength(1);
      const second = refundAgent({ approval: false });
      const done = await resumeRun(second.agent, "r-finished", { store: b });
      expect(second.effects.refunds).toEqual([]);
      expect(done.output).toBe("Done: lookup=ok, refund=ok");
      expect(done.messages.filter((m) => m.role === "tool").map((m) => m.content)).toContain("refunded A-1");
      await Promise.all([a.close(), b.close()]);
    });

    it("asks a person about a call that started on a dead worker (outcome unknown), then runs it once more only if approved", async () => {
      const [a, b] = await twoHandles();
      await workerDiesInRefund(a, "r-unknown");
      const second = refundAgent({ approval: false });
      const paused = await resumeRun(second.agent, "r-unknown", { store: b });
      expect(paused.status).toBe("interrupted");
      expect(paused.interruptions).toEqual([
        { callId: "refund_1", toolName: "refund", args: { id: "A-1" }, reason: OUTCOME_UNKNOWN },
      ]);
      expect(second.effects.refunds).toEqual([]);
      expect((await b.get("r-unknown"))?.interruptions[0]?.reason).toBe(OUTCOME_UNKNOWN);

      await a.approve("r-unknown", "refund_1");
      const third = refundAgent({ approval: false });
      const done = await resumeRun(third.agent, "r-unknown", { store: a });
      expect(done.output).toBe("Done: lookup=ok, refund=ok");
      expect(third.effects.refunds).toEqual([{ id: "A-1", key: "r-unknown:1:refund_1" }]);
      await Promise.all([a.close(), b.close()]);
    });

    it("treats a call that threw because its run was stopped as started, not finished", async () => {
      const [a, b] = await twoHandles();
      const stop = new AbortController();
      const first = refundAgent({
        approval: false,
        during: (ctx) =>
          new Promise<void>((_, reject) => {
            ctx.signal.addEventListener("abort", () => reject(new Error("request cancelled")), { once: true });
            stop.abort(new Error("worker stopping"));
          }),
      });
      await expect(
        startRun(first.agent, "refund A-1", { store: a, runId: "r-stopped", signal: stop.signal, leaseMs: 50 }),
      ).rejects.toBeInstanceOf(RunAbortedError);
      await expired();
      const paused = await resumeRun(refundAgent({ approval: false }).agent, "r-stopped", { store: b });
      expect(paused.interruptions.map((i) => i.reason)).toEqual([OUTCOME_UNKNOWN]);
      await Promise.all([a.close(), b.close()]);
    });

    it("never runs a call of unknown outcome again once a person rejected it", async () => {
      const [a, b] = await twoHandles();
      await workerDiesInRefund(a, "r-refused");
      await resumeRun(refundAgent({ approval: false }).agent, "r-refused", { store: b });
      await b.reject("r-refused", "refund_1", "It went through: the bank shows the refund.");
      const second = refundAgent({ approval: false });
      const done = await resumeRun(second.agent, "r-refused", { store: a });
      expect(done.output).toBe("Done: lookup=ok, refund=rejected");
      expect(second.effects.refunds).toEqual([]);
      await Promise.all([a.close(), b.close()]);
    });

    it("runs a started call of an idempotent tool again after its worker died, with the same idempotency key", async () => {
      const [a, b] = await twoHandles();
      const first = await workerDiesInRefund(a, "r-idem", { idempotent: true });
      const second = refundAgent({ approval: false, idempotent: true });
      const done = await resumeRun(second.agent, "r-idem", { store: b });
      expect(done.status).toBe("completed");
      expect(second.effects.refunds.map((r) => r.key)).toEqual(first.effects.refunds.map((r) => r.key));
      await Promise.all([a.close(), b.close()]);
    });

    it("refuses to resume a run another worker holds, naming the worker", async () => {
      const [a, b] = await twoHandles();
      const stop = new AbortController();
      const { agent } = refundAgent({
        approval: false,
        during: () => {
          stop.abort(new Error("worker killed"));
          return forever();
        },
      });
      await expect(
        startRun(agent, "refund A-1", { store: a, runId: "r-held", signal: stop.signal, workerId: "w-1" }),
      ).rejects.toBeInstanceOf(RunAbortedError);
      const error = await resumeRun(refundAgent().agent, "r-held", { store: b }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RunHeldError);
      expect(error).toMatchObject({ runId: "r-held", owner: "w-1" });
      await Promise.all([a.close(), b.close()]);
    });

    it("continues a session across runs and hands ctx.sessionId to tools", async () => {
      const store = await harness.open();
      const { agent, effects } = refundAgent({ approval: false });
      await startRun(agent, "refund A-1", { store, sessionId: "customer-7" });
      const history = await store.session("customer-7");
      expect(history.map((m) => m.role)).toEqual(["user", "assistant", "tool", "tool", "assistant"]);
      const second = await startRun(agent, "and again?", { store, sessionId: "customer-7" });
      expect(second.messages.slice(0, 5)).toEqual(history);
      expect(effects.sessions).toEqual(["customer-7"]);
      await store.close();
    });

    it("stores a run that hit a limit as failed, with the error's text", async () => {
      const store = await harness.open();
      const { agent } = refundAgent({ approval: false });
      await expect(startRun(agent, "refund A-1", { store, runId: "r-limit", maxTurns: 1 })).rejects.toBeInstanceOf(
        MaxTurnsExceededError,
      );
      expect(await store.get("r-limit")).toMatchObject({
        status: "failed",
        error: expect.stringMatching(/^MaxTurnsExceededError: /),
      });
      await expect(resumeRun(agent, "r-limit", { store })).rejects.toThrow(/is failed: there is nothing to resume/);
      await store.close();
    });

    it("serves queued runs from a worker loop", async () => {
      const store = await harness.open();
      const { agent, effects } = refundAgent({ approval: false });
      const ids = await Promise.all(
        Array.from({ length: 6 }, (_, i) => submitRun(agent, `refund ${i}`, { store, runId: `q-${i}` })),
      );
      const stop = new AbortController();
      const worker = work([agent], { store, concurrency: 3, pollMs: 5, signal: stop.signal });
      const finished = async () =>
        (await Promise.all(ids.map((id) => store.get(id)))).every((r) => r?.status === "completed");
      while (!(await finished())) await new Promise((r) => setTimeout(r, 10));
      stop.abort();
      await worker;
      expect(effects.refunds).toHaveLength(6);
      await store.close();
    });
  });

  describe("bad input", () => {
    it("names the unknown run and the call not waiting, and changes nothing", async () => {
      const store = await harness.open();
      await expect(store.approve("nope", "c1")).rejects.toThrow(RunNotFoundError);
      await expect(resumeRun(refundAgent().agent, "nope", { store })).rejects.toMatchObject({ runId: "nope" });
      await startRun(refundAgent().agent, "refund A-1", { store, runId: "r-bad" });
      const before = await store.get("r-bad");
      const error = await store.approve("r-bad", "ghost").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CallNotWaitingError);
      expect(error).toMatchObject({ runId: "r-bad", callId: "ghost", waiting: ["refund_1"] });
      expect(await store.get("r-bad")).toEqual(before);
      await store.close();
    });

    it("refuses a corrupt row and a state written by a newer format, naming the run", async () => {
      const store = await harness.open();
      await startRun(refundAgent().agent, "refund A-1", { store, runId: "r-corrupt" });
      const good = await harness.getState("r-corrupt");
      await harness.setState("r-corrupt", good.replace("refund", "refunc"), sha256(good));
      await expect(store.get("r-corrupt")).rejects.toThrow(/does not match its digest/);
      await harness.setState("r-corrupt", "{not json");
      await expect(resumeRun(refundAgent().agent, "r-corrupt", { store })).rejects.toThrow(StoredRunError);
      await expect(store.approve("r-corrupt", "refund_1")).rejects.toThrow(/run "r-corrupt" has a corrupt state/);

      await startRun(refundAgent().agent, "refund A-1", { store, runId: "r-newer" });
      const stored = JSON.parse(await harness.getState("r-newer")) as Record<string, unknown>;
      await harness.setState("r-newer", JSON.stringify({ ...stored, version: 99 }));
      await expect(store.approve("r-newer", "refund_1")).rejects.toThrow(/run "r-newer".*newer than this toolwright/);
      await store.close();
    });
  });
}

/** The digest a store keeps beside a state's text. */
export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/**
 * Starts "refund A-1" as `runId` on `store` with a 50 ms lease and kills its worker (aborts
 * the run) inside the refund's body, which then never ends unless `refundFinishes`; returns
 * once that lease has expired, as a dead worker's would.
 */
async function workerDiesInRefund(
  store: RunStore,
  runId: string,
  options: { readonly idempotent?: boolean; readonly refundFinishes?: boolean } = {},
): Promise<ReturnType<typeof refundAgent>> {
  const stop = new AbortController();
  const first = refundAgent({
    approval: false,
    idempotent: options.idempotent ?? false,
    during: () => {
      stop.abort(new Error("worker killed"));
      return options.refundFinishes ? undefined : forever();
    },
  });
  await expect(
    startRun(first.agent, "refund A-1", { store, runId, signal: stop.signal, leaseMs: 50 }),
  ).rejects.toBeInstanceOf(RunAbortedError);
  await expired();
  return first;
}

/** Waits past a 50 ms lease. */
function expired(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 80));
}
