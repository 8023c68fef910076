import { describe, expect, it } from "vitest";
import { MaxTurnsExceededError, RunAbortedError, ToolError } from "../../src/index.js";
import {
  OUTCOME_UNKNOWN,
  RunHeldError,
  type RunStore,
  resumeRun,
  startRun,
  submitRun,
  work,
} from "../../src/store/index.js";
import type { Suite } from "./conformance.js";
import { afterWrite, forever, refundAgent, resumeWhenFree } from "./helpers.js";

/** Runs that pause, die, resume and finish: what a store must keep so no call runs twice. */
export function durableRunTests(suite: Suite): void {
  describe("durable runs", () => {
    it("pauses for approval, takes the approval from another handle, resumes by id there, and never reruns a finished call", async () => {
      const [a, b] = await suite.twoHandles();
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
      expect(second.effects.refunds).toEqual([{ id: "A-1", key: "r-approve:1:refund_1", attempt: 1 }]);
      expect(await a.get("r-approve")).toMatchObject({ status: "completed", output: "Done: lookup=ok, refund=ok" });
    });

    it("gives a call that finished before its worker died its recorded result, without running it again", async () => {
      const [a, b] = await suite.twoHandles();
      const first = await workerDiesInRefund(a, "r-finished", { refundFinishes: true });
      expect(first.effects.refunds).toHaveLength(1);
      const second = refundAgent({ approval: false });
      const done = await resumeWhenFree(second.agent, "r-finished", { store: b });
      expect(second.effects.refunds).toEqual([]);
      expect(done.output).toBe("Done: lookup=ok, refund=ok");
      expect(done.messages.filter((m) => m.role === "tool").map((m) => m.content)).toContain("refunded A-1");
    });

    it("asks a person about a call that started on a dead worker (outcome unknown), then runs it once more only if approved", async () => {
      const [a, b] = await suite.twoHandles();
      await workerDiesInRefund(a, "r-unknown");
      const second = refundAgent({ approval: false });
      const paused = await resumeWhenFree(second.agent, "r-unknown", { store: b });
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
      expect(third.effects.refunds).toEqual([{ id: "A-1", key: "r-unknown:1:refund_1", attempt: 1 }]);
    });

    it("treats a call that threw because its run was stopped as started, not finished", async () => {
      const [a, b] = await suite.twoHandles();
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
      const paused = await resumeWhenFree(refundAgent({ approval: false }).agent, "r-stopped", { store: b });
      expect(paused.interruptions.map((i) => i.reason)).toEqual([OUTCOME_UNKNOWN]);
    });

    it("never runs a call of unknown outcome again once a person rejected it", async () => {
      const [a, b] = await suite.twoHandles();
      await workerDiesInRefund(a, "r-refused");
      await resumeWhenFree(refundAgent({ approval: false }).agent, "r-refused", { store: b });
      await b.reject("r-refused", "refund_1", "It went through: the bank shows the refund.");
      const second = refundAgent({ approval: false });
      const done = await resumeRun(second.agent, "r-refused", { store: a });
      expect(done.output).toBe("Done: lookup=ok, refund=rejected");
      expect(second.effects.refunds).toEqual([]);
    });

    it("runs a started call of an idempotent tool again after its worker died, with the same idempotency key", async () => {
      const [a, b] = await suite.twoHandles();
      const first = await workerDiesInRefund(a, "r-idem", { idempotent: true });
      const second = refundAgent({ approval: false, idempotent: true });
      const done = await resumeWhenFree(second.agent, "r-idem", { store: b });
      expect(done.status).toBe("completed");
      expect(second.effects.refunds.map((r) => r.key)).toEqual(first.effects.refunds.map((r) => r.key));
    });

    it("hands an idempotent tool the same idempotency key on every attempt of a call", async () => {
      const store = await suite.open();
      const { agent, effects } = refundAgent({
        approval: false,
        idempotent: true,
        // The first attempt fails as a flaky API would; the engine tries the call again.
        during: (ctx) => {
          if (ctx.attempt === 1) throw new ToolError("bank timed out", { retryable: true });
        },
        agent: { toolRetry: { initialBackoffMs: 1 } },
      });
      const done = await startRun(agent, "refund A-1", { store, runId: "r-attempts" });
      expect(done.output).toBe("Done: lookup=ok, refund=ok");
      expect(effects.refunds).toEqual([
        { id: "A-1", key: "r-attempts:1:refund_1", attempt: 1 },
        { id: "A-1", key: "r-attempts:1:refund_1", attempt: 2 },
      ]);
    });

    it("refuses to resume a run another worker holds, naming the worker", async () => {
      const [a, b] = await suite.twoHandles();
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
      expect(error).toMatchObject({ runId: "r-held", owner: expect.stringMatching(/^w-1#/) });
      expect((error as Error).message).toMatch(/held by worker "w-1#\w+" until/);
    });

    it("continues a session across runs and hands ctx.sessionId to tools", async () => {
      const store = await suite.open();
      const { agent, effects } = refundAgent({ approval: false });
      await startRun(agent, "refund A-1", { store, sessionId: "customer-7" });
      const history = await store.session("customer-7");
      expect(history.map((m) => m.role)).toEqual(["user", "assistant", "tool", "tool", "assistant"]);
      const second = await startRun(agent, "and again?", { store, sessionId: "customer-7" });
      expect(second.messages.slice(0, 5)).toEqual(history);
      expect(effects.sessions).toEqual(["customer-7"]);
    });

    it("stores a run that hit a limit as failed, with the error's text", async () => {
      const store = await suite.open();
      const { agent } = refundAgent({ approval: false });
      await expect(startRun(agent, "refund A-1", { store, runId: "r-limit", maxTurns: 1 })).rejects.toBeInstanceOf(
        MaxTurnsExceededError,
      );
      expect(await store.get("r-limit")).toMatchObject({
        status: "failed",
        error: expect.stringMatching(/^MaxTurnsExceededError: /),
      });
      await expect(resumeRun(agent, "r-limit", { store })).rejects.toThrow(/is failed: there is nothing to resume/);
    });

    it("serves queued runs from a worker loop", async () => {
      const store = await suite.open();
      const { agent, effects } = refundAgent({ approval: false });
      const ids = await Promise.all(
        Array.from({ length: 6 }, (_, i) => submitRun(agent, `refund ${i}`, { store, runId: `q-${i}` })),
      );
      await serveUntil(store, [agent], ids);
      expect(effects.refunds).toHaveLength(6);
    });
  });
}

/**
 * Runs a worker loop until every run of `ids` is final or paused; returns what its
 * `onError` was told.
 */
export async function serveUntil(
  store: RunStore,
  agents: Parameters<typeof work>[0],
  ids: readonly string[],
): Promise<Array<{ error: unknown; runId: string | undefined }>> {
  const errors: Array<{ error: unknown; runId: string | undefined }> = [];
  const stop = new AbortController();
  const onError = (error: unknown, runId: string | undefined) => errors.push({ error, runId });
  const worker = work(agents, { store, concurrency: 3, pollMs: 5, signal: stop.signal, onError });
  const settled = async () =>
    (await Promise.all(ids.map((id) => store.get(id)))).every(
      (r) => r?.status === "completed" || r?.status === "failed" || r?.status === "paused",
    );
  try {
    while (!(await settled())) await new Promise((r) => setTimeout(r, 5));
  } finally {
    stop.abort();
    await worker;
  }
  return errors;
}

/**
 * Starts "refund A-1" as `runId` on `store` with a 50 ms lease and kills its worker (aborts
 * the run) inside the refund's body, which then never ends; with `refundFinishes`, right
 * after the refund's end was recorded instead.
 */
export async function workerDiesInRefund(
  store: RunStore,
  runId: string,
  options: { readonly idempotent?: boolean; readonly refundFinishes?: boolean; readonly name?: string } = {},
): Promise<ReturnType<typeof refundAgent>> {
  const stop = new AbortController();
  const kill = () => stop.abort(new Error("worker killed"));
  const first = refundAgent({
    approval: false,
    idempotent: options.idempotent ?? false,
    ...(options.name === undefined ? {} : { name: options.name }),
    during: options.refundFinishes
      ? undefined
      : () => {
          kill();
          return forever();
        },
  });
  const watched = options.refundFinishes
    ? afterWrite(store, "callFinished", (_runId, _owner, call) => {
        if ((call as { callKey: string }).callKey.includes("refund")) kill();
      })
    : store;
  await expect(
    startRun(first.agent, "refund A-1", { store: watched, runId, signal: stop.signal, leaseMs: 50 }),
  ).rejects.toBeInstanceOf(RunAbortedError);
  return first;
}
