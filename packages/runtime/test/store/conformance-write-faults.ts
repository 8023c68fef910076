import { describe, expect, it } from "vitest";
import { OUTCOME_UNKNOWN, type StoreError, StoreUnavailableError, startRun, submitRun } from "../../src/store/index.js";
import type { Suite } from "./conformance.js";
import { serveUntil } from "./conformance-runs.js";
import { faultyStore, refundAgent, resumeWhenFree } from "./helpers.js";

/**
 * A run's writes failing as a database outage fails them (the connection terminated, the
 * file locked), simulated here so each lands at one exact write; the fault-injection
 * suites do the same to real databases. A store failure is never a tool failure.
 */
export function writeFaultTests(suite: Suite): void {
  describe("writes that fail", () => {
    const told = () => {
      const errors: Array<{ error: StoreError; runId: string }> = [];
      return { errors, onStoreError: (error: StoreError, runId: string) => errors.push({ error, runId }) };
    };

    for (const landed of [false, true]) {
      it(`tries a call's end again and tells the model the call's true outcome (first answer ${landed ? "lost after the write landed" : "an error"})`, async () => {
        const store = faultyStore(await suite.open(), { callFinished: { times: 1, callKey: "refund", landed } });
        const { agent, effects } = refundAgent({ approval: false });
        const report = told();
        const done = await startRun(agent, "refund A-1", { store, runId: `f-end-${landed}`, ...report });
        expect(done.output).toBe("Done: lookup=ok, refund=ok");
        expect(effects.refunds).toHaveLength(1);
        expect(store.failed.callFinished).toBe(1);
        expect(report.errors).toEqual([{ error: expect.any(StoreUnavailableError), runId: `f-end-${landed}` }]);
        expect(await store.get(`f-end-${landed}`)).toMatchObject({ status: "completed" });
      });
    }

    for (const idempotent of [false, true]) {
      it(`lets a run go when a call's end cannot be written while its lease lasts; a resume then ${idempotent ? "runs the idempotent call again with the same key" : "asks a person (outcome unknown)"}`, async () => {
        const [a, b] = await suite.twoHandles();
        const runId = `f-lost-end-${idempotent}`;
        const store = faultyStore(a, { callFinished: { times: Number.POSITIVE_INFINITY, callKey: "refund" } });
        const first = refundAgent({ approval: false, idempotent });
        const error = await startRun(first.agent, "refund A-1", { store, runId, leaseMs: 300 }).catch((e) => e);
        expect(error).toBeInstanceOf(StoreUnavailableError);
        expect(store.failed.callFinished).toBeGreaterThanOrEqual(3);
        // Not failed: let go, as a dead worker's run is.
        expect(await b.get(runId)).toMatchObject({ status: "running", error: undefined });

        const second = refundAgent({ approval: false, idempotent });
        const resumed = await resumeWhenFree(second.agent, runId, { store: b });
        if (idempotent) {
          expect(resumed.output).toBe("Done: lookup=ok, refund=ok");
          expect(second.effects.refunds.map((r) => r.key)).toEqual(first.effects.refunds.map((r) => r.key));
        } else {
          expect(resumed.interruptions).toEqual([
            { callId: "refund_1", toolName: "refund", args: { id: "A-1" }, reason: OUTCOME_UNKNOWN },
          ]);
          expect(second.effects.refunds).toEqual([]);
        }
      });
    }

    it("lets the run go rather than report a timeout when a call's end is still being written at its time limit", async () => {
      const store = faultyStore(await suite.open(), {
        callFinished: { times: Number.POSITIVE_INFINITY, callKey: "refund" },
      });
      // Whether the limit struck before the body returned (a start written slower than the
      // limit on a loaded machine) is noted, and each case asserted: the model is told the truth.
      let late = false;
      const during = (ctx: { signal: AbortSignal }) => {
        late = ctx.signal.aborted;
      };
      const { agent, effects } = refundAgent({ approval: false, timeoutMs: 1_000, during });
      const outcome = await startRun(agent, "refund A-1", { store, runId: "f-late-end" }).catch((e) => e);
      if (late || effects.refunds.length === 0) {
        expect(outcome.output).toBe("Done: lookup=ok, refund=timeout");
        return;
      }
      expect(outcome).toBeInstanceOf(StoreUnavailableError);
      expect(outcome.message).toMatch(/not written within the tool's time limit/);
      expect(effects.refunds).toHaveLength(1);
      expect(await store.get("f-late-end")).toMatchObject({ status: "running", output: undefined });
    });

    for (const landed of [false, true]) {
      it(`tries the final checkpoint again and stores the run completed (first answer ${landed ? "lost after the write landed" : "an error"})`, async () => {
        const store = faultyStore(await suite.open(), { checkpoint: { times: 2, status: "completed", landed } });
        const { agent } = refundAgent({ approval: false });
        const done = await startRun(agent, "refund A-1", { store, runId: `f-final-${landed}` });
        expect(done.output).toBe("Done: lookup=ok, refund=ok");
        expect(store.failed.checkpoint).toBe(2);
        expect(await store.get(`f-final-${landed}`)).toMatchObject({ status: "completed", output: done.output });
      });
    }

    it("never stores a finished run as failed because its final checkpoint could not be written; a resume completes it", async () => {
      const [a, b] = await suite.twoHandles();
      const store = faultyStore(a, { checkpoint: { times: Number.POSITIVE_INFINITY } });
      const first = refundAgent({ approval: false });
      const error = await startRun(first.agent, "refund A-1", { store, runId: "f-final-lost", leaseMs: 300 }).catch(
        (e) => e,
      );
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect(await b.get("f-final-lost")).toMatchObject({ status: "running", error: undefined });
      const second = refundAgent({ approval: false });
      const done = await resumeWhenFree(second.agent, "f-final-lost", { store: b });
      expect(done.output).toBe("Done: lookup=ok, refund=ok");
      expect([...first.effects.refunds, ...second.effects.refunds]).toHaveLength(1);
    });

    it("runs no body whose start could not be recorded, and tells the model nothing about it", async () => {
      const [a, b] = await suite.twoHandles();
      const store = faultyStore(a, { callStarted: { times: Number.POSITIVE_INFINITY } });
      const first = refundAgent({ approval: false });
      const error = await startRun(first.agent, "refund A-1", { store, runId: "f-start", leaseMs: 300 }).catch(
        (e) => e,
      );
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect(first.effects).toMatchObject({ lookups: [], refunds: [] });
      const second = refundAgent({ approval: false });
      const done = await resumeWhenFree(second.agent, "f-start", { store: b });
      expect(done.output).toBe("Done: lookup=ok, refund=ok");
      expect(second.effects.refunds).toHaveLength(1);
    });

    it("goes on with a run whose lease renewals fail, and says so through onStoreError", async () => {
      const store = faultyStore(await suite.open(), { renew: { times: Number.POSITIVE_INFINITY } });
      const report = told();
      // The refund lasts until two renewals have failed.
      const during = async () => {
        while ((store.failed.renew ?? 0) < 2) await new Promise((r) => setTimeout(r, 5));
      };
      const { agent } = refundAgent({ approval: false, during });
      const done = await startRun(agent, "refund A-1", { store, runId: "f-renew", leaseMs: 60, ...report });
      expect(done.output).toBe("Done: lookup=ok, refund=ok");
      expect(report.errors.length).toBeGreaterThanOrEqual(2);
      expect(report.errors[0]?.error.message).toMatch(/renew/);
    });

    it("keeps a worker loop looking for work while the store fails its claims, telling onError", async () => {
      const store = faultyStore(await suite.open(), { claimNext: { times: 2 } });
      const { agent } = refundAgent({ approval: false, name: "claims-fail" });
      await submitRun(agent, "refund A-1", { store, runId: "f-claims" });
      const errors = await serveUntil(store, [agent], ["f-claims"]);
      expect(errors).toEqual([
        { error: expect.any(StoreUnavailableError), runId: undefined },
        { error: expect.any(StoreUnavailableError), runId: undefined },
      ]);
      expect(await store.get("f-claims")).toMatchObject({ status: "completed" });
    });
  });
}
