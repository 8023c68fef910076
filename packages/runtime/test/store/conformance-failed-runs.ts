import { describe, expect, it } from "vitest";
import { Agent, MaxTurnsExceededError, ModelConfigError } from "../../src/index.js";
import {
  CallNotWaitingError,
  LeaseLostError,
  resumeRun,
  StoredRunError,
  startRun,
  submitRun,
} from "../../src/store/index.js";
import type { Suite } from "./conformance.js";
import { serveUntil } from "./conformance-runs.js";
import { refundAgent } from "./helpers.js";

/** Runs that end in an error, and what an operator does with them: list, retry, cancel. */
export function failedRunTests(suite: Suite): void {
  describe("failed runs", () => {
    it("stores a run whose start throws (a model that cannot be resolved) as failed, and no worker claims it again", async () => {
      const store = await suite.open();
      const broken = () => new Agent({ name: "unresolvable", model: "nowhere:model" });
      await expect(startRun(broken(), "hi", { store, runId: "x-start" })).rejects.toBeInstanceOf(ModelConfigError);
      expect(await store.get("x-start")).toMatchObject({
        status: "failed",
        error: expect.stringMatching(/^ModelConfigError: /),
      });
      // Queued, then met by a worker: told once, stored failed, not claimed every lease.
      await submitRun(broken(), "hi", { store, runId: "x-queued" });
      const errors = await serveUntil(store, [broken()], ["x-queued"]);
      expect(errors).toEqual([{ error: expect.any(ModelConfigError), runId: "x-queued" }]);
      expect(await store.claimNext([broken()], "w-any", 60_000)).toBeUndefined();
      const failed = await store.list({ status: "failed", agent: "unresolvable" });
      expect(failed.map((r) => r.runId).sort()).toEqual(["x-queued", "x-start"]);
    });

    it("puts a failed run back in the queue with retry, and a worker finishes it from its last checkpoint", async () => {
      const store = await suite.open();
      const { agent, effects } = refundAgent({ approval: false });
      await expect(startRun(agent, "refund A-1", { store, runId: "r-retry", maxTurns: 1 })).rejects.toBeInstanceOf(
        MaxTurnsExceededError,
      );
      await expect(store.retry("r-retry-nope")).rejects.toThrow(/no run "r-retry-nope"/);
      await store.retry("r-retry");
      expect(await store.get("r-retry")).toMatchObject({ status: "ready", error: undefined });
      await expect(store.retry("r-retry")).rejects.toThrow(/is ready, not failed/);
      const done = await resumeRun(agent, "r-retry", { store });
      expect(done.output).toBe("Done: lookup=ok, refund=ok");
      expect(effects.refunds).toHaveLength(1); // the refund finished before the limit: not run again
    });

    it("cancels a paused run for good (failed, with the reason), and retry undoes it", async () => {
      const store = await suite.open();
      const { agent } = refundAgent();
      const paused = await startRun(agent, "refund A-1", { store, runId: "x-cancel" });
      await store.cancel("x-cancel", "The customer withdrew the request.");
      expect(await store.get("x-cancel")).toMatchObject({
        status: "failed",
        error: "Cancelled: The customer withdrew the request.",
      });
      const callId = paused.interruptions[0]?.callId as string;
      await expect(store.approve("x-cancel", callId)).rejects.toBeInstanceOf(CallNotWaitingError);
      await expect(resumeRun(agent, "x-cancel", { store })).rejects.toThrow(/is failed: there is nothing to resume/);
      await expect(store.cancel("x-cancel")).rejects.toThrow(/is failed: there is nothing to cancel/);
      await expect(store.cancel("x-nope")).rejects.toThrow(/no run "x-nope"/);
      await store.retry("x-cancel");
      expect((await resumeRun(agent, "x-cancel", { store })).interruptions).toEqual(paused.interruptions);
    });

    it("stops a running run at its worker's next write when it is cancelled, and keeps it cancelled", async () => {
      const [a, b] = await suite.twoHandles();
      let cancelled: () => void = () => {};
      const done = new Promise<void>((resolve) => {
        cancelled = resolve;
      });
      // The refund's body waits while an operator cancels the run.
      const { agent, effects } = refundAgent({ approval: false, during: () => done });
      const running = startRun(agent, "refund A-1", { store: a, runId: "x-running" }).catch((e: unknown) => e);
      while (effects.refunds.length === 0) await new Promise((r) => setTimeout(r, 5));
      await b.cancel("x-running", "Duplicate request.");
      cancelled();
      expect(await running).toBeInstanceOf(LeaseLostError);
      expect(await b.get("x-running")).toMatchObject({ status: "failed", error: "Cancelled: Duplicate request." });
      await expect(b.cancel("x-running")).rejects.toBeInstanceOf(StoredRunError);
    });
  });
}
