import { describe, expect, it } from "vitest";
import {
  CallNotWaitingError,
  OUTCOME_UNKNOWN,
  RunNotFoundError,
  resumeRun,
  StoredRunError,
  startRun,
  submitRun,
} from "../../src/store/index.js";
import { type Suite, sha256 } from "./conformance.js";
import { serveUntil, workerDiesInRefund } from "./conformance-runs.js";
import { refundAgent } from "./helpers.js";

/** Unknown ids, corrupt and foreign rows: a typed error naming the run, and nothing half-written. */
export function badInputTests(suite: Suite): void {
  describe("bad input", () => {
    it("names the unknown run and the call not waiting, and changes nothing", async () => {
      const store = await suite.open();
      await expect(store.approve("nope", "c1")).rejects.toThrow(RunNotFoundError);
      await expect(resumeRun(refundAgent().agent, "nope", { store })).rejects.toMatchObject({ runId: "nope" });
      await startRun(refundAgent().agent, "refund A-1", { store, runId: "r-bad" });
      const before = await store.get("r-bad");
      const error = await store.approve("r-bad", "ghost").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CallNotWaitingError);
      expect(error).toMatchObject({ runId: "r-bad", callId: "ghost", waiting: ["refund_1"] });
      expect(await store.get("r-bad")).toEqual(before);
    });

    it("refuses a corrupt row and a state written by a newer format, naming the run", async () => {
      const store = await suite.open();
      await startRun(refundAgent().agent, "refund A-1", { store, runId: "r-corrupt" });
      const good = await suite.getState("r-corrupt");
      await suite.setState("r-corrupt", good.replace("refund", "refunc"), sha256(good));
      await expect(store.get("r-corrupt")).rejects.toThrow(/does not match its digest/);
      // A list is not stopped by one row it cannot read: that row says what is wrong.
      const listed = (await store.list({ status: "paused", limit: 1_000 })).find((r) => r.runId === "r-corrupt");
      expect(listed).toMatchObject({ interruptions: [], error: expect.stringMatching(/^StoredRunError: .*digest/) });
      await suite.setState("r-corrupt", "{not json");
      await expect(resumeRun(refundAgent().agent, "r-corrupt", { store })).rejects.toThrow(StoredRunError);
      await expect(store.approve("r-corrupt", "refund_1")).rejects.toThrow(/run "r-corrupt" has a corrupt state/);

      await startRun(refundAgent().agent, "refund A-1", { store, runId: "r-newer" });
      const stored = JSON.parse(await suite.getState("r-newer")) as Record<string, unknown>;
      await suite.setState("r-newer", JSON.stringify({ ...stored, version: 99 }));
      await expect(store.approve("r-newer", "refund_1")).rejects.toThrow(/run "r-newer".*newer than this toolwright/);
    });

    it("takes a run it cannot read out of the queue (failed, with the reason), tells onError, and serves the others", async () => {
      const store = await suite.open();
      const { agent, effects } = refundAgent({ approval: false, name: "janitor" });
      // The oldest claimable runs: one whose worker died mid-call and whose state was then
      // damaged, and a queued one whose input is not JSON.
      await workerDiesInRefund(store, "c-broken", { name: "janitor" });
      const good = await suite.getState("c-broken");
      await suite.setState("c-broken", good.replace("refund", "refunc"), sha256(good));
      await submitRun(agent, "refund B-2", { store, runId: "c-input" });
      await suite.setInput("c-input", "{not json");
      for (const id of ["c-fine-1", "c-fine-2"]) await submitRun(agent, `refund ${id}`, { store, runId: id });

      const errors = await serveUntil(store, [agent], ["c-broken", "c-input", "c-fine-1", "c-fine-2"]);
      // In the order the loop met them, which hangs on when the dead worker's lease ran out.
      expect(errors.map((e) => [e.runId, (e.error as Error).name]).sort()).toEqual([
        ["c-broken", "StoredRunError"],
        ["c-input", "StoredRunError"],
      ]);
      expect(effects.refunds.map((r) => r.key?.split(":")[0]).sort()).toEqual(["c-fine-1", "c-fine-2"]);
      const failed = await store.list({ status: "failed", agent: "janitor" });
      expect(failed.map((r) => [r.runId, r.error]).sort()).toEqual([
        ["c-broken", expect.stringMatching(/^StoredRunError: run "c-broken" has a corrupt state/)],
        ["c-input", expect.stringMatching(/^StoredRunError: run "c-input" has a corrupt input column/)],
      ]);

      // Restored from a backup, then put back in the queue: it goes on where it stopped.
      await suite.setState("c-broken", good);
      await store.retry("c-broken");
      await serveUntil(store, [agent], ["c-broken"]);
      expect(await store.get("c-broken")).toMatchObject({
        status: "paused",
        interruptions: [expect.objectContaining({ callId: "refund_1", reason: OUTCOME_UNKNOWN })],
      });
    });
  });
}
