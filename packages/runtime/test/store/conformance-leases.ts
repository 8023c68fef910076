import { describe, expect, it } from "vitest";
import {
  CallNotWaitingError,
  LeaseLostError,
  RunHeldError,
  resumeRun,
  StoredRunError,
  startRun,
  submitRun,
} from "../../src/store/index.js";
import { type Suite, sha256 } from "./conformance.js";
import { faultyStore, refundAgent, resumeWhenFree } from "./helpers.js";

/** A promise the test settles: `wait` until `open()`. */
function gate(): { readonly wait: Promise<void>; open(): void } {
  let open: () => void = () => {};
  const wait = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { wait, open };
}

/** Who may write a run, and when: leases, decisions, and claims that must change nothing when refused. */
export function leaseTests(suite: Suite): void {
  describe("leases", () => {
    it("writes a call's end and a checkpoint only under the writer's lease: a worker whose run was taken over changes no row", async () => {
      const store = await suite.open();
      const { agent } = refundAgent({ approval: false });
      const input = [{ role: "user" as const, content: "refund A-1" }];
      await store.create({
        runId: "r-lease",
        agent: agent.name,
        tools: agent.toolNames,
        input,
        owner: "A",
        leaseMs: 60_000,
      });
      const call = { callKey: "1:refund_1", attempt: 1 };
      // A starts a call and then freezes: its lease (here given as already over) runs out, and B takes the run.
      await store.callStarted("r-lease", "A", call, undefined, -1);
      const taken = await store.claim("r-lease", "B", 60_000, agent);
      expect(taken.calls).toEqual([{ ...call, status: "started" }]);
      const before = await store.get("r-lease");

      // A wakes up: every write it tries is refused, and none changes anything.
      await expect(
        store.callFinished("r-lease", "A", { ...call, outcome: { value: '"refunded A-1"' } }),
      ).rejects.toThrow(LeaseLostError);
      const state = { text: "{}", digest: sha256("{}") };
      for (const status of ["completed", "paused", "failed", "running"] as const) {
        await expect(store.checkpoint("r-lease", "A", { state, status, output: "A's answer" }, 60_000)).rejects.toThrow(
          LeaseLostError,
        );
      }
      await expect(store.renew("r-lease", "A", 60_000)).rejects.toThrow(LeaseLostError);
      await expect(store.callStarted("r-lease", "A", { ...call, attempt: 2 }, state, 60_000)).rejects.toThrow(
        LeaseLostError,
      );
      expect(await store.get("r-lease")).toEqual(before);
      expect(await suite.getState("r-lease")).toBeNull();
      // B still holds it, with the call as B found it.
      await expect(store.claim("r-lease", "A", 60_000, agent)).rejects.toThrow(RunHeldError);
      expect((await store.claim("r-lease", "B", 60_000, agent)).calls).toEqual([{ ...call, status: "started" }]);
    });

    it("keeps two drives of one run in one worker apart: one whose lease lapsed writes nothing, and runs no body, once the worker claimed the run again", async () => {
      const [a, b] = await suite.twoHandles();
      const gates = [gate(), gate()] as const;
      // The first drive stalls in its first model turn and its renewals fail: its lease lapses.
      let stalledInTurn = false;
      const first = refundAgent({
        approval: false,
        beforeTurn: (final) => {
          if (final) return Promise.resolve();
          stalledInTurn = true;
          return gates[0].wait;
        },
      });
      const stalled = startRun(first.agent, "refund A-1", {
        store: faultyStore(a, { renew: { times: Number.POSITIVE_INFINITY } }),
        runId: "r-twice",
        workerId: "w-same",
        leaseMs: 50,
      }).catch((e: unknown) => e);
      // The run is stored before its first turn: resuming earlier would find no run at all.
      while (!stalledInTurn) await new Promise((r) => setTimeout(r, 5));
      // The same worker claims the run again and gets as far as the refund's body.
      const second = refundAgent({ approval: false, during: () => gates[1].wait });
      const resumed = resumeWhenFree(second.agent, "r-twice", { store: b, workerId: "w-same" });
      while (second.effects.refunds.length === 0) await new Promise((r) => setTimeout(r, 5));
      // The stalled drive wakes up while the other holds the run: its writes are refused.
      gates[0].open();
      expect(await stalled).toBeInstanceOf(LeaseLostError);
      gates[1].open();
      expect((await resumed).output).toBe("Done: lookup=ok, refund=ok");
      expect(first.effects.refunds).toEqual([]);
      expect(second.effects.refunds).toHaveLength(1);
    });

    it("decides calls of a paused run only: approve and reject of a running, a ready or a completed run change nothing", async () => {
      const [a, b] = await suite.twoHandles();
      const { agent } = refundAgent();
      const paused = await startRun(agent, "refund A-1", { store: a, runId: "r-decide" });
      const callId = paused.interruptions[0]?.callId as string;
      // A worker took the paused run (to resume it): its state still has the call waiting.
      await a.claim("r-decide", "w-A", 60_000, agent);
      for (const status of ["running", "ready", "completed"] as const) {
        if (status !== "running") await suite.setStatus("r-decide", status);
        const before = await b.get("r-decide");
        for (const decide of [() => b.approve("r-decide", callId), () => b.reject("r-decide", callId, "No.")]) {
          const error = await decide().catch((e: unknown) => e);
          expect(error).toBeInstanceOf(CallNotWaitingError);
          expect(error).toMatchObject({ runId: "r-decide", callId, waiting: [] });
        }
        expect(await b.get("r-decide")).toEqual(before);
        // A ready run is for any worker to take; a running or completed one for none.
        if (status !== "ready") expect(await b.claimNext([agent], "w-B", 60_000)).toBeUndefined();
      }
    });

    it("refuses to resume a paused run whose state is of a newer format, or on another agent, and writes nothing", async () => {
      const store = await suite.open();
      const { agent } = refundAgent();
      const paused = await startRun(agent, "refund A-1", { store, runId: "r-foreign" });
      const good = await suite.getState("r-foreign");
      await suite.setState("r-foreign", JSON.stringify({ ...JSON.parse(good), version: 99 }));
      const before = await store.get("r-foreign");
      await expect(resumeRun(agent, "r-foreign", { store })).rejects.toThrow(/r-foreign.*newer than this toolwright/);
      expect(await store.get("r-foreign")).toEqual(before);

      await suite.setState("r-foreign", good);
      const renamed = refundAgent({ name: "billing" }).agent;
      const retooled = refundAgent({ extraTool: true }).agent;
      await expect(resumeRun(renamed, "r-foreign", { store })).rejects.toThrow(
        /belongs to agent "refunds", not "billing"/,
      );
      await expect(resumeRun(retooled, "r-foreign", { store })).rejects.toThrow(/with the same tools/);
      // Still paused, listed, and waiting for its decision: nothing took it.
      expect(await store.get("r-foreign")).toMatchObject({ status: "paused", interruptions: paused.interruptions });
      expect((await store.list({ status: "paused", limit: 1_000 })).map((r) => r.runId)).toContain("r-foreign");
      await store.approve("r-foreign", paused.interruptions[0]?.callId as string);
      expect((await resumeRun(agent, "r-foreign", { store })).output).toBe("Done: lookup=ok, refund=ok");
    });

    it("gives a queued run (no checkpoint yet) only to an agent of the same name and tools", async () => {
      const store = await suite.open();
      const mine = refundAgent({ approval: false, name: "queue-owner" });
      await submitRun(mine.agent, "refund A-1", { store, runId: "q-owned" });
      const before = await store.get("q-owned");
      const renamed = refundAgent({ approval: false, name: "queue-other" });
      const retooled = refundAgent({ approval: false, name: "queue-owner", extraTool: true });
      for (const other of [renamed, retooled]) {
        await expect(resumeRun(other.agent, "q-owned", { store })).rejects.toThrow(StoredRunError);
        expect(await store.claimNext([other.agent], "w-other", 60_000)).toBeUndefined();
        expect(other.effects.lookups).toEqual([]);
      }
      expect(await store.get("q-owned")).toEqual(before);
      const claimed = await store.claimNext([renamed.agent, mine.agent], "w-mine", 60_000);
      expect(claimed?.runId).toBe("q-owned");
    });
  });
}
